"""The players the box remembers: the list (most recent first), adding one, renaming one, and
the import of another box's whole history."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import Conflict, UnprocessableEntity
from werkzeug.wrappers import Response

from companion.records.archive import import_history
from companion.records.journal import Journal, JournalError, RecordRefused
from companion.records.players import (
    KnownPlayer,
    PlayerRefused,
    add_player,
    known_players,
    rename_player,
)

from .access import catalog, get_journal
from .security import require_pairing, require_same_origin_form

bp = Blueprint("players", __name__)


def _players() -> list[KnownPlayer]:
    journal = get_journal()
    return known_players(journal) if journal is not None else []


@bp.get("/players")
def page(error: str | None = None) -> str:
    """Every remembered player with their games, and the forms to add or rename one."""
    return render_template("players/list.html", players=_players(), error=error)


@bp.get("/players.json")
def page_json() -> Response:
    """The JSON twin: {"players": [{"name", "games", "last"}]}, most recent first."""
    return jsonify({"players": [player.to_json() for player in _players()]})


def _change(action: Any) -> Response | tuple[str, int]:
    """Run a change of the players through the writer; a refusal shows the page again."""
    require_same_origin_form()
    require_pairing()
    try:
        current_app.config["CONTROL"].write(action)
    except PlayerRefused as refused:
        return page(str(refused)), 422
    except JournalError as refused:
        raise Conflict(str(refused)) from None
    return redirect(url_for("players.page"), code=303)


@bp.post("/players")
def add_form() -> Response | tuple[str, int]:
    """Remember a player before their first game."""
    name = request.form.get("name", "")
    return _change(lambda journal: add_player(journal, name))


@bp.post("/players/rename")
def rename_form() -> Response | tuple[str, int]:
    """Rename a player in every game (onto a known name: the two become one)."""
    old, new = request.form.get("old", ""), request.form.get("new", "")
    return _change(lambda journal: rename_player(journal, old, new))


def import_history_file(history: dict[str, Any]) -> dict[str, Any]:
    """Import a whole history (parsed JSON) through the writer; return what it did.

    Raises:
        UnprocessableEntity: not a history, or a game the rules refuse.
    """

    def change(journal: Journal) -> dict[str, Any]:
        return import_history(catalog(), journal, history).to_json()

    try:
        result: dict[str, Any] = current_app.config["CONTROL"].write(change)
    except RecordRefused as refused:
        raise UnprocessableEntity(str(refused)) from None
    return result
