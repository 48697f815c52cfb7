"""`duel-companion web --journal PATH [--host H] [--port N]`: the phone pages alone.

Serves the pages over an existing journal with waitress (never Flask's development server),
for review on a laptop. Changes from the phones (undo, names, import) write to the journal
through `Game`, so it takes the journal's writer lock: on the journal of a running
`duel-companion run` (which serves the same pages itself) it is refused, naming the running
one. With `--read-only`, or on a disk that cannot be written (a copy on a read-only medium,
opened `immutable`), it serves the pages without changes and takes no lock. The pairing code
for changes is printed at start.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion.config import ConfigError, load_config

HELP = "Serve the phone pages (score pad, live game, history) over an existing journal."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--journal, --host, --port, --threads and --config."""
    parser.add_argument("--journal", type=Path, help="the journal file (default: from config)")
    parser.add_argument("--host", help="address to listen on (default: web.host of the config)")
    parser.add_argument("--port", type=int, help="port (default: web.port of the config)")
    parser.add_argument("--threads", type=int, help="waitress threads (default: web.threads)")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")
    parser.add_argument(
        "--read-only", action="store_true", help="serve the pages without changes (no lock)"
    )


def main(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 on a bad configuration, port or journal."""
    from companion.records.journal import Journal, JournalError
    from companion.records.lock import WriterLock
    from web import create_app, serve, url_host
    from web.control import ReadOnlyControl

    try:
        config = load_config(args.config)
    except ConfigError as refused:
        return _refuse(str(refused))
    journal = args.journal or config.journal
    host = args.host or config.web.host
    port = config.web.port if args.port is None else args.port
    threads = config.web.threads if args.threads is None else args.threads
    if not 0 <= port <= 65535:
        return _refuse(f"--port: {port} is out of range 0..65535")
    if not 1 <= threads <= 64:
        return _refuse(f"--threads: {threads} is out of range 1..64")
    if not journal.exists():
        return _refuse(f"{journal}: no journal there (duel-companion import creates one)")
    try:
        Journal.open(journal, readonly=True).close()
    except JournalError as refused:
        return _refuse(str(refused))
    why_read_only = "--read-only" if args.read_only else _unwritable(journal)
    lock = None if why_read_only else WriterLock(journal)
    try:
        if lock is not None:
            lock.acquire()  # JournalBusy names the running writer
    except JournalError as refused:
        return _refuse(f"{refused} (`web --read-only` serves its pages without changes)")
    overrides = {} if lock else {"CONTROL": ReadOnlyControl(f"served read-only ({why_read_only})")}
    app = create_app(config, JOURNAL=str(journal), **overrides)

    def ready(bound: int) -> None:
        code = app.config["PAIRING_CODE"]
        url = f"http://{url_host(host)}:{bound}/"
        changes = f"pairing code {code}" if lock else f"read-only: {why_read_only}"
        print(f"Serving {journal} on {url} ({changes})", flush=True)

    try:
        serve(app, host, port, threads, ready)
    except OSError as failed:
        return _refuse(f"cannot listen on {host}:{port}: {failed.strerror or failed}")
    except KeyboardInterrupt:
        pass
    finally:
        if lock is not None:
            lock.release()
    return 0


def _unwritable(journal: Path) -> str:
    """Why the journal cannot be written here ("" when it can): a read-only disk or file."""
    if not os.access(journal.parent, os.W_OK):
        return "its folder cannot be written"
    if not os.access(journal, os.W_OK):
        return "the file cannot be written"
    return ""


def _refuse(message: str) -> int:
    print(message, file=sys.stderr)
    return 2
