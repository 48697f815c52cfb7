"""`duel-companion scorepad SHEET.json [--json]`: score a 7 Wonders (base game, two-player
variant, Edifice) or 7 Wonders Dice score sheet.

The text output is a table (a column per player, a row per category), the winners, and where
the points came from. A refused sheet exits with status 2 and one line: on stderr, or as
`{"error": "..."}` on stdout with --json. Formats: docs/scorepad.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.device import words
from companion.engine.catalog import CatalogError
from companion.family.catalog import default_family_catalog
from companion.family.pad import CATEGORY_LABELS, Pad, pad_to_json, score_sheet
from companion.family.sheet import SheetError
from companion.files import FileRefused, read_capped

MAX_SHEET_BYTES = 1024 * 1024  # a sheet of 7 players is a few KB

HELP = "Score a 7 Wonders or 7 Wonders Dice score sheet (JSON): table, winners and reasons."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """SHEET and --json."""
    parser.add_argument("sheet", type=Path, metavar="SHEET.json", help="the score sheet")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def main(args: argparse.Namespace) -> int:
    """Score the sheet; 0 with the scores, 2 with a one-line refusal."""
    path: Path = args.sheet
    try:
        raw = read_sheet(path)
        pad = score_sheet(default_family_catalog(), raw)
    except (SheetError, CatalogError) as refused:
        return _refuse(args.json, f"{path.name}: {refused}")
    if args.json:
        print(json.dumps(pad_to_json(pad), ensure_ascii=False))
    else:
        sys.stdout.write(render(pad))
    return 0


def read_sheet(path: Path) -> Any:
    """The parsed JSON of a sheet file.

    Raises:
        SheetError: the file cannot be read or is not JSON (one line).
    """
    try:
        text = read_capped(path, MAX_SHEET_BYTES).decode("utf-8-sig")
    except FileRefused as refused:
        raise SheetError(str(refused)) from None
    except UnicodeDecodeError:
        raise SheetError("not UTF-8 text (a score sheet is JSON)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as bad:
        raise SheetError(f"not JSON: line {bad.lineno} column {bad.colno}: {bad.msg}") from None
    except RecursionError:
        raise SheetError("not a score sheet: nested too deeply") from None
    except ValueError:  # Python's cap on the digits of an integer (4300)
        raise SheetError("not a score sheet: a number of thousands of digits") from None


def _refuse(as_json: bool, message: str) -> int:
    if as_json:
        print(json.dumps({"error": message}, ensure_ascii=False))
    else:
        print(message, file=sys.stderr)
    return 2


def label(key: str) -> str:
    """A row's name as the pad says it ("Gold reserve" for gold_reserve)."""
    return CATEGORY_LABELS.get(key, key)


def render(pad: Pad) -> str:
    """The score table, the winners and the reasons, as text."""
    players = pad.result.ranked
    keys = list(players[0].lines)
    rows = [["", *(p.name for p in players)]]
    rows += [[label(key), *(str(p.lines[key].points) for p in players)] for key in keys]
    rows.append(["Total", *(str(p.total) for p in players)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.rjust(width) if column else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    lines += ["", words.pad_winner(pad.result)]
    lines += [f"Warning: {w}" for w in pad.warnings]
    for player in pad.result.players:
        lines += ["", player.name + ("" if player.ranked else " (not ranked)")]
        for key, line in player.lines.items():
            for part in line.parts:
                lines.append(f"  {label(key)}: {part.points:+d} {part.reason}")
            lines += [f"  {label(key)}: {note}" for note in line.notes]
    return "\n".join(lines) + "\n"
