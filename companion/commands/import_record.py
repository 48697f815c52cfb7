"""`duel-companion import RECORD --journal PATH`: add a game record to a journal as a new game.

Prints the new game's id. A refused record names the line and the reason (exit 2) and leaves
the journal unchanged; a missing journal is created. The record is read by the one reader
(256 KB at most, the phone's limit; names by the pages' rule). A record already in the history
is named ("already in the history as game N", exit 2), not added again. The journal's writer
lock is taken for the import: while `duel-companion run` (or a writing `web`) holds the
journal the import is refused naming it; another import is waited for (up to 30 s).
A whole history exported by `duel-companion export --history` is imported too: its games that
the journal does not hold yet are added, and the command prints what it did as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.config import ConfigError, load_config
from companion.engine.catalog import default_catalog
from companion.files import FileRefused, read_capped
from companion.records.archive import (
    MAX_HISTORY_BYTES,
    check_history,
    import_history,
    parsed_history,
)
from companion.records.game import check_record, import_record
from companion.records.journal import Journal, JournalError
from companion.records.lock import WriterLock
from companion.records.reader import RecordRefused, decode_record

HELP = "Add a game record (JSON Lines, finished or not) to a journal and print its game id."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """RECORD, --journal and --config."""
    parser.add_argument("record", type=Path, metavar="RECORD", help="the game record (.jsonl)")
    parser.add_argument("--journal", type=Path, help="the journal file (default: from config)")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")


def main(args: argparse.Namespace) -> int:
    """Import the record; 0 and the id on stdout, 2 with a one-line refusal on stderr."""
    path: Path = args.record
    try:
        journal_path = args.journal or load_config(args.config).journal
    except ConfigError as refused:
        return _refuse(str(refused))
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
        with (
            WriterLock(journal_path, wait_for=("import",), wait_seconds=30.0),
            Journal.open(journal_path) as journal,
        ):
            done = import_history(catalog, journal, history)
    except (RecordRefused, JournalError) as refused:
        return _refuse(f"{path}: {refused}")
    print(json.dumps(done.to_json()))
    return 0


def _refuse(message: str) -> int:
    print(message, file=sys.stderr)
    return 2
