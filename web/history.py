"""The history of games, with the download of each record and the import form."""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import BadRequest, UnprocessableEntity
from werkzeug.wrappers import Response

from companion.records.journal import AlreadyInHistory, JournalError
from companion.records.reader import RecordRefused, decode_record

from .access import get_journal
from .present import history_view
from .security import require_pairing, require_same_origin_form

bp = Blueprint("history", __name__)


def _view() -> dict[str, object]:
    journal = get_journal()
    return history_view(journal.games() if journal is not None else [])


@bp.get("/history")
def games() -> str:
    """Every game, newest first, with players, result and dates."""
    journal = get_journal()
    current = journal.current_game() if journal is not None else None
    return render_template("history/list.html", view=_view(), current=current)


@bp.get("/history.json")
def games_json() -> Response:
    """The JSON twin of the history."""
    return jsonify(_view())


@bp.get("/history/import")
def import_page() -> str:
    """The form that adds a game record to the journal."""
    return render_template("history/import.html", error=None)


@bp.post("/history/import")
def import_form() -> Response | tuple[str, int]:
    """Add an uploaded or pasted game record (pairing code and form token needed)."""
    require_same_origin_form()
    require_pairing()
    upload = request.files.get("record")
    data = upload.read() if upload is not None and upload.filename else b""
    if not data:
        data = request.form.get("text", "").encode()
    if not data.strip():
        raise BadRequest("Choose a game record file or paste its lines")
    try:
        game_id = current_app.config["CONTROL"].import_record(decode_lines(data))
    except (RecordRefused, UnprocessableEntity) as refused:
        message = refused.description if isinstance(refused, UnprocessableEntity) else refused
        return render_template("history/import.html", error=str(message)), 422
    except AlreadyInHistory as known:
        return render_template("history/import.html", error=str(known), known=known.game_id), 409
    except JournalError as refused:  # a read-only journal, a busy one
        return render_template("history/import.html", error=str(refused)), 409
    return redirect(url_for("scoring.final_score", game_id=game_id), code=303)


def decode_lines(data: bytes) -> list[str]:
    """The lines of an uploaded record (the reader's size and text guards).

    Raises:
        UnprocessableEntity: over the size limit, or not UTF-8 text.
    """
    try:
        return decode_record(data)
    except RecordRefused as refused:
        raise UnprocessableEntity(f"The record is refused: {refused}") from None
