"""The JSON API beside the pages (docs/web-api.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request
from werkzeug.exceptions import (
    BadRequest,
    Conflict,
    NotFound,
    UnprocessableEntity,
    UnsupportedMediaType,
)

from companion.engine.events import IllegalEvent
from companion.records.journal import AlreadyInHistory, JournalError, UnknownGame
from companion.records.reader import RecordRefused, check_event
from companion.records.replay import state_to_json

from .access import get_journal, loaded_or_404, overhead_version, summary_or_404
from .history import decode_lines
from .live import asked_text, checked_names
from .security import require_pairing, require_same_origin_api

bp = Blueprint("api", __name__)


@bp.get("/games")
def games() -> Response:
    """Every game: id, status, winner, victory, started, finished (and players)."""
    journal = get_journal()
    return jsonify([s.to_json() for s in (journal.games() if journal is not None else [])])


@bp.get("/games/<game:game_id>")
def game(game_id: int) -> Response:
    """The object `duel-companion replay --json` prints for this game."""
    return jsonify(state_to_json(loaded_or_404(game_id).state))


@bp.get("/games/<game:game_id>/record")
def record(game_id: int) -> Response:
    """The game record (JSON Lines) of the game's effective events, as a download."""
    summary_or_404(game_id)
    journal = get_journal()
    assert journal is not None
    response = Response(journal.export_record(game_id), mimetype="application/jsonl")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.jsonl"'
    return response


@bp.get("/games/<game:game_id>/seq")
def seq(game_id: int) -> Response:
    """The tiny poll answer: the latest seq and status (the live page refreshes on change),
    and when the box reads the table from above the number of its last reading (the page
    loads its picture again)."""
    summary = summary_or_404(game_id)
    journal = get_journal()
    assert journal is not None
    answer = {
        "game": game_id,
        "seq": journal.last_seq(game_id),
        "status": summary.status,
        "players": dict(summary.players),
        "asked": asked_text(game_id),
    }
    if current_app.config.get("OVERHEAD_VERSION") is not None:  # the box reads from above
        answer["overhead"] = overhead_version()
    return jsonify(answer)


@bp.post("/games/<game:game_id>/undo")
def undo(game_id: int) -> Response:
    """Undo the latest event: 403 without the pairing code, 409 when nothing is left."""
    _mutation()
    summary_or_404(game_id)
    _control(lambda control: control.undo(game_id))
    return _after(game_id)


@bp.post("/games/<game:game_id>/players")
def players(game_id: int) -> Response:
    """Name the players: {"p1": "Ann", "p2": "Ben"} (either or both)."""
    _mutation()
    summary_or_404(game_id)
    names = checked_names(_json_object())
    _control(lambda control: control.name_players(game_id, names))
    return _after(game_id)


@bp.post("/games/<game:game_id>/correct")
def correct(game_id: int) -> Response:
    """Replace the latest event with {"record": {...}}: a mis-scan corrected."""
    _mutation()
    summary_or_404(game_id)
    body = _json_object()
    new = body.get("record")
    if not isinstance(new, dict):
        raise BadRequest('Expected {"record": {...}} with one game-record event')
    try:
        event = check_event(new)  # the reader's guards, names included
    except RecordRefused as refused:
        raise UnprocessableEntity(f"record: {refused}") from None
    _control(lambda control: control.correct(game_id, event))
    return _after(game_id)


@bp.post("/games")
def import_game() -> tuple[Response, int]:
    """Add a game record (the body, JSON Lines) as a new game: 201 with its id."""
    _mutation()
    if request.mimetype not in ("application/jsonl", "application/x-ndjson", "text/plain"):
        raise UnsupportedMediaType("Send the record as application/jsonl (JSON Lines)")
    lines = decode_lines(request.get_data())
    game_id = _control(lambda control: control.import_record(lines))
    summary = summary_or_404(int(game_id))
    return jsonify(summary.to_json()), 201


def _mutation() -> None:
    require_same_origin_api()
    require_pairing(form=False)


def _json_object() -> dict[str, Any]:
    if not request.is_json:
        raise UnsupportedMediaType("Send a JSON object (Content-Type: application/json)")
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # json's C scanner recurses: a body of 100 000 '[' is not JSON to us
        body = None
    if not isinstance(body, dict):
        raise BadRequest("The body is not a JSON object")
    return body


def _control(action: Any) -> Any:
    try:
        return action(current_app.config["CONTROL"])
    except UnknownGame as unknown:
        raise NotFound(str(unknown)) from None
    except RecordRefused as refused:
        raise UnprocessableEntity(str(refused)) from None
    except AlreadyInHistory as known:
        body = {"error": str(known), "status": 409, "game": known.game_id}
        abort(Response(jsonify(body).get_data(), 409, mimetype="application/json"))
    except (IllegalEvent, JournalError) as refused:
        raise Conflict(str(refused)) from None


def _after(game_id: int) -> Response:
    journal = get_journal()
    assert journal is not None
    summary = journal.game(game_id)
    return jsonify({**summary.to_json(), "seq": journal.last_seq(game_id)})
