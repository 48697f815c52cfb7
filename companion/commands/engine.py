"""`duel-companion engine [--level L] [--seed S]`: the search player behind the engine
protocol (docs/engine-protocol.md): one JSON request a line on standard input, one answer a
line on standard output, flushed at once, until the end of input.
"""

from __future__ import annotations

import argparse
import io
import sys

from companion.engine.catalog import default_catalog
from companion.protocol import serve
from companion.search.player import LEVEL_CHOICES, level_named

HELP = "Answer engine-protocol requests (JSON lines) on standard input with the search player."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--level, --seed."""
    parser.add_argument(
        "--level", default="3", help="1 (casual) to 5 (strongest); easy, normal, hard are 2, 3, 4"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")


def main(args: argparse.Namespace) -> int:
    """Serve requests until the end of input; 2 with one line on a bad --level."""
    try:
        level = level_named(args.level)
    except KeyError:
        choices = ", ".join(LEVEL_CHOICES)
        print(f"--level must be one of {choices}, not {args.level!r}", file=sys.stderr)
        return 2
    requests = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    serve(requests, sys.stdout, default_catalog(), level, args.seed)  # answers are ASCII
    return 0
