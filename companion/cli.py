"""The `duel-companion` command: one subcommand per module in `companion.commands`.

Each module `companion/commands/<name>.py` defines `HELP` (one line), `add_arguments(parser)`
and `main(args) -> int`. Modules are imported only when their subcommand runs, so that
`duel-companion catalog` never pays for OpenCV or Flask.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

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
}


def _available() -> dict[str, str]:
    """Subcommands whose module exists in this checkout."""
    found = {}
    for name, module in SUBCOMMANDS.items():
        if importlib.util.find_spec(f"companion.commands.{module}") is not None:
            found[name] = module
    return found


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The top-level parser; only the chosen subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog="duel-companion",
        description="Bookkeeping for a physical game of 7 Wonders Duel.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    for name, module_name in _available().items():
        if name == chosen:
            module = importlib.import_module(f"companion.commands.{module_name}")
            sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
            module.add_arguments(sub)
            sub.set_defaults(handler=module.main)
        else:
            subparsers.add_parser(name, help=f"(see duel-companion {name} --help)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    handler = getattr(args, "handler", None)
    if handler is None:  # a listed subcommand whose module failed to load
        parser.error(f"unknown command {args.command!r}")
    status: int = handler(args)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
