"""The history of games, with the download of each record and the import form."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import NotFound, UnprocessableEntity
from werkzeug.wrappers import Response

from companion.records.archive import other_file, parsed_history
from companion.records.journal import AlreadyInHistory, JournalError
from companion.records.reader import RecordRefused, decode_record
from companion.records.summaries import game_expansions

from .access import form_upload, get_journal
from .players import import_history_file
from .present import history_view
from .security import require_pairing, require_same_origin_form

bp = Blueprint("history", __name__)


PAGE_SIZE = 50  # games per page of the history
HISTORY_MAX_BYTES = 16 * 1024 * 1024  # a history file of about 2,000 games (8 KB each)


def _view() -> dict[str, object]:
    """One page of the history (`?page=N`, 1 the newest).

    Raises:
        NotFound: a page that is not a number from 1 to the last page.
    """
    journal = get_journal()
    total = journal.game_count() if journal is not None else 0
    pages = max(1, -(-total // PAGE_SIZE))
    page = request.args.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= pages:
        raise NotFound(f"No page {page[:20]!r} of the history: pages 1 to {pages}")
    number = int(page)
    shown = [] if journal is None else journal.games(PAGE_SIZE, (number - 1) * PAGE_SIZE)
    found = {} if journal is None else game_expansions(journal, [g.id for g in shown])
    return history_view(shown, page=number, pages=pages, total=total, expansions=found)


@bp.get("/history")
def games() -> str:
    """The games, newest first, a page at a time, with players, result and dates."""
    journal = get_journal()
    current = journal.current_game() if journal is not None else None
    view = _view()
    links = {name: _link(name) for name in ("scoring.final_score", "live.board", "api.record")}
    for game in view["games"]:  # type: ignore[attr-defined]
        page = "scoring.final_score" if game["status"] == "finished" else "live.board"
        game["href"] = links[page](game["id"])
        game["record_href"] = links["api.record"](game["id"])
    return render_template("history/list.html", view=view, current=current)


def _link(endpoint: str) -> Callable[[int], str]:
    """The URL of `endpoint` for any game id, built once per page rather than per game
    (url_for is most of a long list's time)."""
    marker = 987654321  # a game id no URL part can contain by chance
    head, _, tail = url_for(endpoint, game_id=marker).partition(str(marker))
    return lambda game_id: f"{head}{game_id}{tail}"


@bp.get("/history.json")
def games_json() -> Response:
    """The JSON twin of the history (the same page)."""
    return jsonify(_view())


@bp.get("/history/import")
def import_page() -> str:
    """The form that adds a game record to the journal."""
    return render_template("history/import.html", error=None, done=None)


@bp.post("/history/import")
def import_form() -> Response | str | tuple[str, int]:
    """Add an uploaded or pasted game record, or a whole history file of another box (up to
    `HISTORY_MAX_BYTES`, about 2,000 games; pairing code and form token needed)."""
    request.max_content_length = HISTORY_MAX_BYTES  # before the form is read
    require_same_origin_form()
    require_pairing()
    data = form_upload("record", "Choose a game record file or paste its lines")
    history = parsed_history(data)
    if history is not None:
        done = import_history_file(history)
        return render_template("history/import.html", error=None, done=done)
    if (other := other_file(data)) is not None:
        return render_template("history/import.html", error=_not_a_record(*other), done=None), 422
    try:
        game_id = current_app.config["CONTROL"].import_record(decode_lines(data))
    except (RecordRefused, UnprocessableEntity) as refused:
        message = refused.description if isinstance(refused, UnprocessableEntity) else refused
        return render_template("history/import.html", error=str(message), done=None), 422
    except AlreadyInHistory as known:
        return (
            render_template(
                "history/import.html", error=str(known), known=known.game_id, done=None
            ),
            409,
        )
    except JournalError as refused:  # a read-only journal, a busy one
        return render_template("history/import.html", error=str(refused), done=None), 409
    return redirect(url_for("scoring.final_score", game_id=game_id), code=303)


def _not_a_record(kind: str, what: str) -> str:
    """The one line that sends a score sheet or a file of plays where it is imported."""
    where = {
        "sheet": "add it with Import a score sheet, under Score pads",
        "bgstats": "the box imports it with duel-companion import --bgstats FILE",
        "bgg-xml": "the box imports them with duel-companion import --bgg-xml FILE",
    }[kind]
    return f"{what}, not a game record: {where}"


def decode_lines(data: bytes) -> list[str]:
    """The lines of an uploaded record (the reader's size and text guards).

    Raises:
        UnprocessableEntity: over the size limit, or not UTF-8 text.
    """
    try:
        return decode_record(data)
    except RecordRefused as refused:
        raise UnprocessableEntity(f"The record is refused: {refused}") from None
