"""The `duel-companion` command: one subcommand per module in `companion.commands`.

Each module `companion/commands/<name>.py` defines `HELP` (one line), `add_arguments(parser)`
and `main(args) -> int`. Modules are imported only when their subcommand runs, so that
`duel-companion catalog` never pays for OpenCV or Flask.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

# Subcommand name -> module name in companion.commands (in the order `--help` lists them).
SUBCOMMANDS: dict[str, str] = {
    "demo": "demo",
    "run": "run",
    "catalog": "catalog",
    "replay": "replay",
    "simulate": "simulate",
    "scan": "scan",
    "stickers": "stickers",
    "web": "web",
    "import": "import_record",
    "export": "export",
    "scorepad": "scorepad",
    "hint": "hint",
    "arena": "arena",
    "engine": "engine",
}


def _available() -> dict[str, Path]:
    """Subcommand name -> its module's file, for the subcommands this installation has."""
    found = {}
    for name, module in SUBCOMMANDS.items():
        spec = importlib.util.find_spec(f"companion.commands.{module}")
        if spec is not None and spec.origin is not None:
            found[name] = Path(spec.origin)
    return found


def _help_of(source: Path) -> str:
    """A subcommand's one-line `HELP`, read from its source without importing it (some
    subcommands import OpenCV or Flask, which the top-level help should not wait for)."""
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "HELP" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return ""


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The top-level parser; only the chosen subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog="duel-companion",
        description="Bookkeeping for a physical game of 7 Wonders Duel, and score pads for "
        "the 7 Wonders family (the base game for 2 to 7 players, Edifice, 7 Wonders Dice).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, source in _available().items():
        if name == chosen:
            module = importlib.import_module(f"companion.commands.{SUBCOMMANDS[name]}")
            sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
            module.add_arguments(sub)
            sub.set_defaults(handler=module.main)
        else:
            subparsers.add_parser(name, help=_help_of(source))
    return parser


def version() -> str:
    """The installed version of the package ("0.1.0"), or "unknown" in a bare checkout."""
    try:
        return importlib.metadata.version("duel-companion")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status.

    A reader that stops early (`duel-companion catalog --json | head`) ends the command
    quietly with status 1, as Python's documentation advises, instead of a BrokenPipeError
    traceback.
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    handler = getattr(args, "handler", None)
    if handler is None:  # a listed subcommand whose module failed to load
        parser.error(f"unknown command {args.command!r}")
    try:
        status: int = handler(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        # what is still buffered goes nowhere: the interpreter's own flush at exit
        # would raise again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
