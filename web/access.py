"""The journal and the catalog as the pages see them: read-only, per request, cached replays."""

from __future__ import annotations

from pathlib import Path

from flask import current_app, g, request
from werkzeug.exceptions import BadRequest, NotFound

from companion.engine.cards import Catalog
from companion.records.journal import GameSummary, Journal, JournalError, UnknownGame

from .present import Loaded, load

CACHE_SIZE = 32


def catalog() -> Catalog:
    """The catalog the app names cards with."""
    found: Catalog = current_app.extensions["duel"]["catalog"]
    return found


def overhead_version() -> int:
    """The number of the last overhead reading the box kept (0 without one): it moves with
    each new reading, and the live page loads the picture again."""
    version = current_app.config.get("OVERHEAD_VERSION")
    return int(version()) if version is not None else 0


def language() -> str:
    """The configured language of card names."""
    return str(current_app.config["LANGUAGE"])


def get_journal() -> Journal | None:
    """The journal, opened read-only once per request; None while no journal exists yet."""
    if "journal" not in g:
        try:
            g.journal = Journal.open(current_app.config["JOURNAL"], readonly=True)
        except JournalError:
            if not _journal_exists():
                g.journal = None
            else:
                raise
    journal: Journal | None = g.journal
    return journal


def _journal_exists() -> bool:
    """Whether a journal is there: an empty file (a creation cut short) is none yet."""
    path = Path(current_app.config["JOURNAL"])
    return path.exists() and (not path.is_file() or path.stat().st_size > 0)


def close_journal(_error: BaseException | None = None) -> None:
    """Close this request's journal connection, if one was opened."""
    journal = g.pop("journal", None)
    if journal is not None:
        journal.close()


def summary_or_404(game_id: int) -> GameSummary:
    """The summary of a game, or a 404 naming the id."""
    journal = get_journal()
    if journal is None:
        raise NotFound(f"No game {game_id}: the journal is empty")
    try:
        return journal.game(game_id)
    except UnknownGame:
        raise NotFound(f"No game {game_id} in the journal") from None


def loaded_or_404(game_id: int) -> Loaded:
    """A game replayed from the journal (cached by its last seq), or a 404."""
    summary = summary_or_404(game_id)
    journal = get_journal()
    assert journal is not None
    seq = journal.last_seq(game_id)
    key = (game_id, seq, tuple(sorted(summary.players.items())), summary.status)
    state = current_app.extensions["duel"]
    with state["lock"]:
        if key in state["cache"]:
            state["cache"].move_to_end(key)
            cached: Loaded = state["cache"][key]
            return cached
    loaded = load(catalog(), language(), summary, journal.rows(game_id))
    with state["lock"]:
        state["cache"][key] = loaded
        while len(state["cache"]) > CACHE_SIZE:
            state["cache"].popitem(last=False)
    return loaded


def wants_json() -> bool:
    """Whether the answer should be JSON: API paths and `.json` twins."""
    return request.path.startswith("/api/") or request.path.endswith(".json")


def form_upload(field: str, missing: str) -> bytes:
    """The bytes of a form's uploaded file `field`, else of its pasted `text`.

    Raises:
        BadRequest: neither holds anything but blanks (`missing` says what to give).
    """
    upload = request.files.get(field)
    data = upload.read() if upload is not None and upload.filename else b""
    if not data:
        data = request.form.get("text", "").encode()
    if not data.strip():
        raise BadRequest(missing)
    return data
