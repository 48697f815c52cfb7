"""The live game (refreshed by polling a tiny seq endpoint), its log, and the phone's changes.

Polling rather than server-sent events: each open SSE stream would hold one of waitress's few
worker threads for as long as a phone keeps the page open, so a handful of phones could starve
every other request on a Pi. A poll is one short request every few seconds that answers a
few dozen bytes; the board itself is fetched only when the seq has moved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import BadRequest, Conflict, NotFound
from werkzeug.wrappers import Response

from companion.device.coach import SECONDS, advice
from companion.device.guided import asked
from companion.device.words import Voice
from companion.engine.events import IllegalEvent
from companion.engine.names import check_name
from companion.records.game import SCREEN_KEY
from companion.records.journal import JournalError, UnknownGame
from companion.records.players import recent_names
from companion.search.player import level_named

from .access import catalog, get_journal, language, loaded_or_404, summary_or_404
from .present import live_view, log_view
from .security import require_pairing, require_same_origin_form

bp = Blueprint("live", __name__)

COACH_SECONDS = SECONDS  # the coach's clock limit: a page thread waits at most about this long


@bp.get("/games/<game:game_id>")
def board(game_id: int) -> str:
    """The board now: refreshes itself when an event is added."""
    view = live_view(catalog(), language(), loaded_or_404(game_id), screen(game_id))
    journal = get_journal()
    known = recent_names(journal) if journal is not None else []  # most recent first
    return render_template("live/board.html", view=view, known=known)


@bp.get("/games/<game:game_id>/board")
def board_fragment(game_id: int) -> str:
    """The board's inner part, which the page swaps in when the seq has moved."""
    view = live_view(catalog(), language(), loaded_or_404(game_id), screen(game_id))
    return render_template("live/_board.html", view=view)


@bp.get("/games/<game:game_id>/overhead.png")
def overhead_picture(game_id: int) -> Response:
    """The last overhead reading as a picture: the view with each position of the structure
    outlined and named (404 when the box does not play from above or has read nothing)."""
    summary_or_404(game_id)
    picture = current_app.config.get("OVERHEAD")
    data = picture() if picture is not None else None
    if data is None:
        raise NotFound("no reading from above yet")
    response = Response(data, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game:game_id>.json")
def board_json(game_id: int) -> Response:
    """The JSON twin of the live board."""
    return jsonify(live_view(catalog(), language(), loaded_or_404(game_id), screen(game_id)))


def asked_text(game_id: int) -> str:
    """What the box asks about the structure now ("" when nothing): the live page's poll
    carries it, so that the page follows the guided entry card by card."""
    found = asked(loaded_or_404(game_id).state, screen(game_id))
    return "" if found is None else found[1]


def screen(game_id: int) -> dict[str, Any] | None:
    """The device's saved screen of the game (what its guided entry has asked so far)."""
    journal = get_journal()
    found = journal.meta(game_id, SCREEN_KEY) if journal is not None else None
    return found if isinstance(found, dict) else None


@bp.get("/games/<game:game_id>/coach.json")
def coach_json(game_id: int) -> Response:
    """The coach on demand: the search's top three moves for whoever acts, with the chance
    to win and a short reason, worded like the box's coach (companion/device/coach.py)."""
    loaded = loaded_or_404(game_id)
    state = loaded.state
    voice = Voice.page(state, language(), loaded.summary.players)
    level = level_named(current_app.config.get("COACH_LEVEL", "normal"))
    return jsonify(advice(state, voice, level, seconds=COACH_SECONDS).to_json())


@bp.get("/games/<game:game_id>/log")
def log(game_id: int) -> str:
    """Every event of the game in plain words, undone ones struck through."""
    loaded = loaded_or_404(game_id)
    names = dict(loaded.summary.players)
    return render_template("live/log.html", view=log_view(loaded), names=names)


@bp.get("/games/<game:game_id>/log.json")
def log_json(game_id: int) -> Response:
    """The JSON twin of the log."""
    return jsonify(log_view(loaded_or_404(game_id)))


@bp.post("/games/<game:game_id>/undo")
def undo_form(game_id: int) -> Response:
    """Undo from the page's form (pairing code and form token needed)."""
    require_same_origin_form()
    require_pairing()
    summary_or_404(game_id)
    try:
        current_app.config["CONTROL"].undo(game_id)
    except UnknownGame:
        raise NotFound(f"No game {game_id} in the journal") from None
    except (IllegalEvent, JournalError) as refused:
        raise Conflict(str(refused)) from None
    return redirect(url_for("live.board", game_id=game_id), code=303)


@bp.post("/games/<game:game_id>/players")
def players_form(game_id: int) -> Response:
    """Name the players from the page's form (pairing code and form token needed)."""
    require_same_origin_form()
    require_pairing()
    summary_or_404(game_id)
    names = checked_names(request.form)
    try:
        current_app.config["CONTROL"].name_players(game_id, names)
    except UnknownGame:
        raise NotFound(f"No game {game_id} in the journal") from None
    return redirect(url_for("live.board", game_id=game_id), code=303)


def checked_names(raw: Mapping[str, object]) -> dict[str, str]:
    """The names in a request: p1 and/or p2, short printable text.

    Raises:
        BadRequest: no name, an unknown key's value, or a name too long or unprintable.
    """
    names = {}
    for player in ("p1", "p2"):
        value = raw.get(player)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise BadRequest(f"{player}: a name is text")
        try:
            names[player] = check_name(value)
        except ValueError as bad:
            raise BadRequest(f"{player}: {bad}") from None
    if not names:
        raise BadRequest("Give a name for p1 or p2")
    return names
