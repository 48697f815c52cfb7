""" "Send to BG Stats": the link of a finished game or saved score pad, and its JSON twin.

The link (companion.records.bgstats) opens BG Stats on the phone with the play filled in; the
pages show it in a small block of their own (`_bgstats.html`), which calls `bgstats_link`.
`GET /games/N/bgstats.json` and `/scorepad/N/bgstats.json` answer `{"link", "data"}` (404
for a game not finished yet).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from werkzeug.exceptions import NotFound

from companion.family.catalog import default_family_catalog
from companion.records.bgstats import link, link_data
from companion.records.exchange import DEFAULT_LOCATION, duel_play, pad_play
from companion.records.journal import JournalError
from companion.records.logged import logged_plays
from companion.records.pads import UnknownPad, saved_pad
from companion.records.results import GAMES, Play

from .access import catalog, get_journal

bp = Blueprint("bgstats", __name__)


def _location() -> str:
    return str(current_app.config.get("BOX_NAME") or DEFAULT_LOCATION)


def play_of(kind: str, number: int) -> Play | None:
    """The play of game `number` ("game") or score pad `number` ("pad"); None while the game
    is not finished or the pad does not exist."""
    journal = get_journal()
    if journal is None:
        return None
    try:
        if kind == "pad":
            return pad_play(default_family_catalog(), saved_pad(journal, number), _location())
        return duel_play(journal, catalog(), number, _location())
    except (UnknownPad, JournalError):
        return None


def bgstats_link(kind: str, number: int) -> str | None:
    """The "Send to BG Stats" link of a finished game or saved pad (for the templates)."""
    play = play_of(kind, number)
    return link(play) if play is not None else None


def _answer(kind: str, number: int) -> Response:
    play = play_of(kind, number)
    if play is None:
        raise NotFound(f"No finished {'score pad' if kind == 'pad' else 'game'} {number}")
    return jsonify({"link": link(play), "data": link_data(play)})


@bp.get("/games/<game:game_id>/bgstats.json")
def game_json(game_id: int) -> Response:
    """The BG Stats link of a finished game and the play it sends."""
    return _answer("game", game_id)


@bp.get("/scorepad/<game:pad_id>/bgstats.json")
def pad_json(pad_id: int) -> Response:
    """The BG Stats link of a saved score pad and the play it sends."""
    return _answer("pad", pad_id)


def imported_plays() -> list[dict[str, Any]]:
    """The plays imported from BG Stats or BoardGameGeek, newest first, for the history."""
    journal = get_journal()
    plays = logged_plays(journal) if journal is not None else []
    return [
        {**play.to_json(), "game": GAMES[play.game].name}
        for play in sorted(plays, key=lambda p: p.played, reverse=True)
    ]


@bp.app_context_processor
def _for_templates() -> dict[str, Any]:
    return {"bgstats_link": bgstats_link, "imported_plays": imported_plays}
