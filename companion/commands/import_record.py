"""`duel-companion import RECORD --journal PATH`: add a game record to a journal as a new game.

Prints the new game's id. A refused record names the line and the reason (exit 2) and leaves
the journal unchanged; a missing journal is created. The record is read by the one reader
(256 KB at most, the phone's limit; names by the pages' rule). A record already in the history
is named ("already in the history as game N", exit 2), not added again. The journal's writer
lock is taken for the import: while `duel-companion run` (or a writing `web`) holds the
journal the import is refused naming it; another import is waited for (up to 30 s).
A whole history exported by `duel-companion export --history` is imported too: its games that
the journal does not hold yet are added, and the command prints what it did as JSON.
`--bgstats FILE` (a BG Stats backup) and `--bgg-xml FILE` (a player's plays downloaded from
BoardGameGeek) add the plays of the games the box knows, skip those already there, name the
others, and print `{"added", "already", "skipped"}`; a file that cannot be read is refused
in one line and nothing is imported.
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
    check_history,
    check_pads_and_plays,
    import_history,
    parsed_history,
)
from companion.records.bggxml import PlaysRefused, read_plays
from companion.records.bgstats import BackupRefused, read_backup
from companion.records.exchange import import_plays
from companion.records.game import check_record, import_record
from companion.records.journal import Journal, JournalError
from companion.records.lock import WriterLock
from companion.records.reader import RecordRefused, decode_record
from companion.records.results import Play

HELP = "Add a game record (JSON Lines, finished or not) to a journal and print its game id."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """RECORD (or --bgstats FILE, --bgg-xml FILE), --journal and --config."""
    parser.add_argument(
        "record", type=Path, metavar="RECORD", nargs="?", help="the game record (.jsonl)"
    )
    parser.add_argument("--bgstats", type=Path, metavar="FILE", help="a BG Stats backup (JSON)")
    parser.add_argument(
        "--bgg-xml", type=Path, metavar="FILE", help="plays downloaded from BoardGameGeek (XML)"
    )
    parser.add_argument("--journal", type=Path, help="the journal file (default: from config)")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")


def main(args: argparse.Namespace) -> int:
    """Import the record; 0 and the id on stdout, 2 with a one-line refusal on stderr."""
    given = [a for a in (args.record, args.bgstats, args.bgg_xml) if a is not None]
    if len(given) != 1:
        return _refuse("give one file: RECORD, --bgstats FILE or --bgg-xml FILE")
    try:
        journal_path = args.journal or load_config(args.config).journal
    except ConfigError as refused:
        return _refuse(str(refused))
    if args.record is None:
        return import_plays_file(given[0], journal_path, bgstats=args.bgstats is not None)
    path: Path = args.record
    try:
        data = read_capped(path, MAX_HISTORY_BYTES)
    except FileRefused as refused:
        return _refuse(f"{path}: {refused}")
    history = parsed_history(data)
    if history is not None:
        return _import_history(path, journal_path, history)
    catalog = default_catalog()
    try:
        lines = decode_record(data)  # the one reader: 256 KB at most, UTF-8
        check_record(catalog, lines)  # refused before the journal is opened, created or moved
        with (
            WriterLock(journal_path, wait_for=("import",), wait_seconds=30.0),
            Journal.open(journal_path) as journal,
        ):
            game_id = import_record(catalog, journal, lines)
    except (RecordRefused, JournalError) as refused:  # RecordRefused names the line
        return _refuse(f"{path}: {refused}")
    print(game_id)
    return 0


def _import_history(path: Path, journal_path: Path, history: dict[str, Any]) -> int:
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
    print(json.dumps(done.to_json()))
    return 0


def import_plays_file(path: Path, journal_path: Path, *, bgstats: bool) -> int:
    """Add the plays of a BG Stats backup (or a BoardGameGeek plays file) that the journal does
    not hold; print what was done as JSON."""
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
    print(json.dumps(done.to_json(), ensure_ascii=False))
    return 0


def _read_plays(data: bytes, *, bgstats: bool) -> tuple[list[Play], dict[str, int]]:
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
