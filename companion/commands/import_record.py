"""`duel-companion import RECORD --journal PATH`: add a game record to a journal as a new game.

Says what it did in one sentence ("Added game 3 to journal.sqlite."); `--json` prints it as
`{"added": [ids], "already": [{"game": n, "id": id}], "players": n, ...}` instead, for a
record and a history alike. A refused record names the line and the reason (exit 2) and leaves
the journal unchanged; a missing journal is created. The record is read by the one reader
(256 KB at most, the phone's limit; names by the pages' rule). A game already in the history
is named ("already in the history as game N"), not added again, and the import succeeds
(exit 0) as for a history imported twice: the journal holds the game either way, so running
an import again is safe. The journal's writer lock is taken for the import: while
`duel-companion run` (or a writing `web`) holds the journal the import is refused naming it;
another import is waited for (up to 30 s). A whole history exported by `duel-companion export
--history` is imported too: its games that the journal does not hold yet are added. A 7 Wonders
score sheet is recognised and sent to `scorepad`.
`--bgstats FILE` (a BG Stats backup) and `--bgg-xml FILE` (a player's plays downloaded from
BoardGameGeek) add the plays of the games the box knows, skip those already there, name the
others, and say so (`--json`: `{"added", "already", "skipped"}`); a file that cannot be read
is refused in one line and nothing is imported.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.config import ConfigError, load_config
from companion.engine.catalog import default_catalog
from companion.family.catalog import default_family_catalog
from companion.files import FileRefused, read_capped
from companion.records.archive import (
    MAX_HISTORY_BYTES,
    Imported,
    check_history,
    check_pads_and_plays,
    import_history,
    other_file,
    parsed_history,
)
from companion.records.bggxml import PlaysRefused, read_plays
from companion.records.bgstats import BackupRefused, read_backup
from companion.records.exchange import ImportedPlays, import_plays
from companion.records.game import check_record, import_record
from companion.records.journal import AlreadyInHistory, Journal, JournalError
from companion.records.lock import WriterLock
from companion.records.reader import RecordRefused, decode_record
from companion.records.results import Play, Skipped

HELP = "Add a game record (JSON Lines, finished or not) or a whole history to a journal."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """RECORD (or --bgstats FILE, --bgg-xml FILE), --journal and --config."""
    parser.add_argument(
        "record",
        type=Path,
        metavar="RECORD",
        nargs="?",
        help="the game record (.jsonl) or history (.json)",
    )
    parser.add_argument("--bgstats", type=Path, metavar="FILE", help="a BG Stats backup (JSON)")
    parser.add_argument(
        "--bgg-xml", type=Path, metavar="FILE", help="plays downloaded from BoardGameGeek (XML)"
    )
    parser.add_argument("--journal", type=Path, help="the journal file (default: from config)")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")
    parser.add_argument("--json", action="store_true", help="say what was done as JSON")


def main(args: argparse.Namespace) -> int:
    """Import the record; 0 and what was done on stdout, 2 with a one-line refusal on stderr."""
    given = [a for a in (args.record, args.bgstats, args.bgg_xml) if a is not None]
    if len(given) != 1:
        return _refuse("give one file: RECORD, --bgstats FILE or --bgg-xml FILE")
    try:
        journal_path = args.journal or load_config(args.config).journal
    except ConfigError as refused:
        return _refuse(str(refused))
    if args.record is None:
        bgstats = args.bgstats is not None
        return import_plays_file(given[0], journal_path, bgstats=bgstats, as_json=args.json)
    path: Path = args.record
    try:
        data = read_capped(path, MAX_HISTORY_BYTES)
    except FileRefused as refused:
        return _refuse(f"{path}: {refused}")
    history = parsed_history(data)
    if history is not None:
        return _import_history(path, journal_path, history, args.json)
    if (other := other_file(data)) is not None:
        kind, what = other
        if kind == "sheet":
            return _refuse(f"{path}: {what}, not a game record: score it with "
                           f"duel-companion scorepad {path}")  # fmt: skip
        return _refuse(f"{path}: {what}, not a game record: import it with "
                       f"duel-companion import --{kind} {path}")  # fmt: skip
    catalog = default_catalog()
    try:
        lines = decode_record(data)  # the one reader: 256 KB at most, UTF-8
        check_record(catalog, lines)  # refused before the journal is opened, created or moved
        with (
            WriterLock(journal_path, wait_for=("import",), wait_seconds=30.0),
            Journal.open(journal_path) as journal,
        ):
            game_id = import_record(catalog, journal, lines)
    except AlreadyInHistory as there:  # the journal holds it: nothing to do, as for a history
        _told(Imported(already={1: there.game_id}), journal_path, as_json=args.json)
        return 0
    except (RecordRefused, JournalError) as refused:  # RecordRefused names the line
        return _refuse(f"{path}: {refused}")
    _told(Imported(added=[game_id]), journal_path, as_json=args.json)
    return 0


def _told(done: Imported, journal_path: Path, *, as_json: bool) -> None:
    """What an import did: JSON, or one sentence."""
    if as_json:
        print(json.dumps(done.to_json()))
        return
    print(import_sentence(done, journal_path.name))


def import_sentence(done: Imported, journal: str) -> str:
    """ "Added game 3 to journal.sqlite.", "Added games 1 to 5 to journal.sqlite.", "Nothing
    added: already in the history as game 7." (with the score pads and plays a history adds)"""
    parts = []
    if done.added:
        first, last = done.added[0], done.added[-1]
        if len(done.added) == 1:
            parts.append(f"Added game {first} to {journal}")
        elif done.added == list(range(first, last + 1)):
            parts.append(f"Added games {first} to {last} to {journal}")
        else:
            parts.append(f"Added games {', '.join(map(str, done.added))} to {journal}")
    for count, what in ((done.pads, "score pad"), (done.plays, "play")):
        if count:
            parts.append(
                f"{'added ' if parts else 'Added '}{count} {what}{'s' if count > 1 else ''}"
            )
    if done.already:
        ids = sorted(set(done.already.values()))
        there = f"game {ids[0]}" if len(ids) == 1 else f"games {', '.join(map(str, ids))}"
        count = len(done.already)
        games = "already in the history" if count == 1 else f"{count} games already there"
        if not parts:
            parts.append(f"Nothing added: {games} as {there}")
        else:
            parts.append(f"{games} as {there}")
    if not parts:
        parts.append("Nothing added: the history holds no game")
    return "; ".join(parts) + "."


def _import_history(path: Path, journal_path: Path, history: dict[str, Any], as_json: bool) -> int:
    """Add the games of a history that the journal does not hold; print what was done."""
    catalog = default_catalog()
    try:
        check_history(catalog, history)  # refused before the journal is opened or created
        check_pads_and_plays(default_family_catalog(), history)
        with (
            WriterLock(journal_path, wait_for=("import",), wait_seconds=30.0),
            Journal.open(journal_path) as journal,
        ):
            done = import_history(catalog, journal, history)
    except (RecordRefused, JournalError) as refused:
        return _refuse(f"{path}: {refused}")
    _told(done, journal_path, as_json=as_json)
    return 0


def import_plays_file(
    path: Path, journal_path: Path, *, bgstats: bool, as_json: bool = False
) -> int:
    """Add the plays of a BG Stats backup (or a BoardGameGeek plays file) that the journal does
    not hold; say what was done (as JSON with `as_json`)."""
    try:
        data = read_capped(path, MAX_HISTORY_BYTES)  # a regular file, the history's cap
    except FileRefused as refused:
        return _refuse(f"{path}: {refused}")
    try:
        plays, skipped = _read_plays(data, bgstats=bgstats)  # refused before the journal opens
        with (
            WriterLock(journal_path, wait_for=("import",), wait_seconds=30.0),
            Journal.open(journal_path) as journal,
        ):
            done = import_plays(
                journal, default_catalog(), default_family_catalog(), plays, skipped
            )
    except (BackupRefused, PlaysRefused, JournalError) as refused:
        return _refuse(f"{path}: {refused}")
    if as_json:
        print(json.dumps(done.to_json(), ensure_ascii=False))
    else:
        print(plays_sentence(done, journal_path.name))
    return 0


def plays_sentence(done: ImportedPlays, journal: str) -> str:
    """ "Added 2 plays to j.sqlite; skipped 2 plays of Catan (not a game the box keeps)." """

    def plays(count: int) -> str:
        return f"{count} play{'s' if count != 1 else ''}"

    parts = [f"Added {plays(done.added)} to {journal}" if done.added else "Nothing added"]
    if done.already:
        parts.append(f"{plays(done.already)} already there")
    parts += [f"skipped {plays(n)} of {game} ({reason})"
              for (game, reason), n in done.skipped.items()]  # fmt: skip
    return "; ".join(parts) + "."


def _read_plays(data: bytes, *, bgstats: bool) -> tuple[list[Play], Skipped]:
    if not bgstats:
        return read_plays(data)
    try:
        parsed = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BackupRefused("not a BG Stats backup (not JSON)") from None
    return read_backup(parsed)


def _refuse(message: str) -> int:
    print(message, file=sys.stderr)
    return 2
