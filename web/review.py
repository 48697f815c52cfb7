"""The review of a game on the phone: the chance to win after every move as a chart, the
three moves that cost each player most with what the search preferred, the turning point.

The search reviews each move from the state before it, with public information only
(`companion.search.review`), with 20 iterations a move (half the easy level's budget: a
review searches every move of the game); the result is cached per game and journal position,
since a review of a whole game takes seconds (about 4 s for 60 moves on an idle core here).
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Any

import pygal
from flask import Blueprint, Response, current_app, jsonify, render_template

from companion.engine.events import event_from_record, event_to_record
from companion.engine.rules import apply
from companion.search.player import Level
from companion.search.review import MoveReview, Review, review

from .access import catalog, language, loaded_or_404
from .present import Loaded, describe, player_names

# pygal appends an import hook for its optional map plugins to sys.meta_path when imported; it
# still uses the find_module protocol that Python 3.12 drops, warns on every later import and
# serves nothing here (no maps are drawn): take it out again.
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__ != "pygal"]

bp = Blueprint("review", __name__)

LEVEL = Level("review", 20)
CACHE_SIZE = 8
_lock = threading.Lock()


def _reviewed(game_id: int) -> tuple[Loaded, Review]:
    loaded = loaded_or_404(game_id)
    cache: OrderedDict[tuple[int, int], Review] = current_app.extensions["duel"].setdefault(
        "reviews", OrderedDict()
    )
    key = (game_id, loaded.seq)
    with _lock:
        found = cache.get(key)
    if found is None:
        events = [event_from_record(r) for r in loaded.records]
        found = review(loaded.states, events, LEVEL, seed=0)
        with _lock:
            cache[key] = found
            while len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
    return loaded, found


def review_view(loaded: Loaded, result: Review) -> dict[str, Any]:
    """The review page's content (and its JSON twin)."""
    names = player_names(loaded.summary, loaded.state)
    lang = language()

    def told(move: MoveReview, best: bool = False) -> str:
        before = loaded.states[move.index]
        event = move.best if best else move.event
        record = event_to_record(event) if best else loaded.records[move.index]
        return describe(catalog(), lang, names, record, before, apply(before, event))

    def entry(move: MoveReview) -> dict[str, Any]:
        return {
            "event": move.index,
            "age": loaded.states[move.index].age,
            "played": told(move),
            "preferred": told(move, best=True),
            "chance": round(move.chance, 3),
            "best_chance": round(move.best_chance, 3),
            "cost": round(move.cost, 3),
        }

    turn = result.turning_point
    turning = None
    if turn is not None:
        move = next((m for m in result.moves if m.index == turn), None)
        turning = {
            "event": turn,
            "age": loaded.states[turn].age,
            "text": told(move) if move is not None else "",
            "chance": round(result.chances[turn], 3),
        }
    return {
        "game": loaded.summary.id,
        "players": names,
        "chances": [round(c, 3) for c in result.chances],
        "costliest": {
            player: [entry(m) for m in moves]
            for player, moves in zip(("p1", "p2"), result.costliest, strict=True)
        },
        "turning_point": turning,
    }


@bp.get("/games/<game:game_id>/review")
def page(game_id: int) -> str:
    """The review page."""
    loaded, result = _reviewed(game_id)
    return render_template("review/review.html", view=review_view(loaded, result))


@bp.get("/games/<game:game_id>/review.json")
def page_json(game_id: int) -> Response:
    """The JSON twin of the review page."""
    loaded, result = _reviewed(game_id)
    return jsonify(review_view(loaded, result))


@bp.get("/games/<game:game_id>/review.svg")
def chart(game_id: int) -> Response:
    """p1's chance to win after every event (in %), drawn by pygal, as an SVG image."""
    loaded, result = _reviewed(game_id)
    names = player_names(loaded.summary, loaded.state)
    line = pygal.Line(
        js=[],  # no script from the net: the page shows the chart as an image
        disable_xml_declaration=False,
        show_legend=True,
        legend_at_bottom=True,
        show_dots=False,
        range=(0, 100),
        width=640,
        height=320,
        x_title="event",
        y_title="chance to win (%)",
        show_minor_x_labels=False,
        x_labels_major_every=10,
        truncate_label=-1,
    )
    line.x_labels = [str(i) for i in range(len(result.chances))]
    line.add(names["p1"], [round(100 * c) for c in result.chances])
    line.add(names["p2"], [round(100 * (1 - c)) for c in result.chances])
    svg = line.render(is_unicode=True)
    return Response(svg, mimetype="image/svg+xml")
