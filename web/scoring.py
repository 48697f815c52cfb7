"""The score pad of a game: a column per player, a row per category, each row's sources."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from .access import catalog, language, loaded_or_404
from .present import score_view
from .review import prepare

bp = Blueprint("scoring", __name__)


@bp.get("/games/<game:game_id>/score")
def final_score(game_id: int) -> str:
    """The score pad (final once the game is over; the score so far before). A finished
    game's review starts searching in the background, to be ready when asked for."""
    loaded = loaded_or_404(game_id)
    prepare(loaded)
    view = score_view(catalog(), language(), loaded)
    return render_template("scoring/final.html", view=view)


@bp.get("/games/<game:game_id>/score.json")
def final_score_json(game_id: int) -> Response:
    """The JSON twin of the score pad."""
    return jsonify(score_view(catalog(), language(), loaded_or_404(game_id)))
