"""`duel-companion run`: the device service (what systemd starts at boot).

On the kit: the OLED, the buttons and the camera from the configuration. On a machine without
the kit (the embedded default): the OLED is emulated (each frame written to
`var/oled/latest.png`), the keyboard stands in for the buttons when stdin is a terminal
(a/s/d = left/select/right, A/S/D held), and the camera is the configured source.

The journal's writer lock (`companion.records.lock`) is held while it runs: a second `run`,
an `import` or a writing `web` on the same journal is refused with one line naming this one.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.files import FileRefused, read_capped

HELP = "Run the device: camera, buttons, OLED, journal and the phone pages."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--config FILE; --script FILE for scripted inputs; --journal, --no-web, --events."""
    add = parser.add_argument
    add("--config", type=Path, help="configuration file (TOML; default: built-in defaults)")
    add("--journal", type=Path, help="journal file (overrides the configuration)")
    add("--script", type=Path, help="inputs from a file ('-': stdin), one per line, then exit")
    add("--no-web", action="store_true", help="do not serve the phone pages")
    add("--no-camera", action="store_true", help="do not open the camera")
    add("--events", action="store_true", help="print each event once it is in the journal")
    add("--verbose", "-v", action="store_true", help="log more")


def main(args: argparse.Namespace) -> int:
    """Run the service until stopped; exit 2 on a refused configuration or journal."""
    from companion.config import Config, ConfigError, load_config
    from companion.records.journal import JournalError
    from companion.records.lock import WriterLock
    from companion.service.root import ServiceOptions, run_service

    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        config: Config = load_config(args.config)
        if args.journal is not None:
            config = replace(config, journal=args.journal)
        script = _script(args.script)
    except ConfigError as refused:
        print(refused, file=sys.stderr)
        return 2
    except OSError as unreadable:
        print(f"run: cannot read the script: {unreadable}", file=sys.stderr)
        return 2

    def printed(record: Any) -> None:
        print(json.dumps(record), flush=True)

    def undone() -> None:
        print(json.dumps({"type": "undo"}), flush=True)

    options = ServiceOptions(
        script=script,
        camera=not args.no_camera,
        web=not args.no_web,
        on_event=printed if args.events else None,
        on_undo=undone if args.events else None,
    )
    try:
        with WriterLock(config.journal):  # a second run (or import, web) is refused, named
            return run_service(config, options)
    except JournalError as failed:
        print(f"run: {failed}", file=sys.stderr)
        return 2


MAX_SCRIPT_BYTES = 1024 * 1024  # a script of inputs: thousands of lines


def _script(path: Path | None) -> list[str] | None:
    if path is None:
        return None
    if str(path) == "-":
        return sys.stdin.read().splitlines()
    try:
        return read_capped(path, MAX_SCRIPT_BYTES).decode("utf-8").splitlines()
    except FileRefused as refused:
        raise OSError(f"{path}: {refused}") from None
    except UnicodeDecodeError:
        raise OSError(f"{path}: not UTF-8 text") from None
