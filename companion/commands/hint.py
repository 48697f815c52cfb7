"""`duel-companion hint RECORD.jsonl [--json] [--seed S] [--seconds T] [--level L]`: the
search player's answers for whoever acts after a game record, best first.

The answer uses public information only: it is the same when the face-down cards of a
`deal` are swapped among themselves, and the same for the same `--seed` (without
`--seconds`, which stops the search by the clock). `--drawn A,B,C` gives the 3 tokens of a
pending Great Library draw (Pantheon: the 2 divinities a Mythology token draws, Enki's 2
tokens, the cards the Gate turns up). A refused record or nothing to answer exits 2 with one
line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.engine.cards import Catalog, TokenId
from companion.engine.catalog import default_catalog
from companion.engine.events import Event, IllegalEvent, event_to_record
from companion.files import FileRefused, read_capped
from companion.records.reader import MAX_RECORD_BYTES
from companion.records.replay import ReplayError, replay_record
from companion.search.player import LEVEL_CHOICES, NoDecision, level_named, suggest

HELP = "Suggest the best moves (or answer the pending decision) after a game record."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """RECORD, --json, --seed, --seconds, --level, --drawn."""
    parser.add_argument("record", type=Path, metavar="RECORD", help="the game record (.jsonl)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    parser.add_argument(
        "--seconds", type=float, help="stop the search after this many seconds (default: none)"
    )
    parser.add_argument(
        "--level", default="3", help="1 (casual) to 5 (strongest); easy, normal, hard are 2, 3, 4"
    )
    parser.add_argument(
        "--drawn",
        help="the tokens (or divinities) of a pending Great Library or Pantheon draw, "
        "comma-separated",
    )


def main(args: argparse.Namespace) -> int:
    """Print the ranked answers; 2 with one line when there is nothing to answer."""
    try:
        level = level_named(args.level)
    except KeyError:
        choices = ", ".join(LEVEL_CHOICES)
        return _refuse(args.json, f"--level must be one of {choices}, not {args.level!r}")
    if args.seconds is not None and not args.seconds > 0:
        return _refuse(args.json, "--seconds must be more than 0")
    path: Path = args.record
    try:
        text = read_capped(path, MAX_RECORD_BYTES).decode("utf-8-sig")
    except FileRefused as refused:
        return _refuse(args.json, f"cannot read {path}: {refused.why}")
    except UnicodeDecodeError:
        return _refuse(args.json, f"{path}: not UTF-8 text (a game record is JSON Lines)")
    catalog = default_catalog()
    try:
        state = replay_record(text.splitlines(), catalog)[-1]
    except ReplayError as refused:
        return _refuse(args.json, str(refused))
    drawn = tuple(TokenId(t.strip()) for t in args.drawn.split(",")) if args.drawn else None
    try:
        answer = suggest(state, level, args.seed, seconds=args.seconds, drawn=drawn)
    except (NoDecision, IllegalEvent) as refused:
        return _refuse(args.json, str(refused))
    if args.json:
        moves: list[dict[str, object]] = []
        for move in answer.moves:
            entry: dict[str, object] = {"event": event_to_record(move.event), "win": move.win}
            if move.line:  # a forced win: the record lines of the whole turn chain
                entry["line"] = [event_to_record(e) for e in move.line]
            moves.append(entry)
        print(json.dumps({"player": answer.player.value, "moves": moves}))
        return 0
    stats = answer.stats
    print(
        f"{answer.player} to play (level {level.name}: {stats.iterations} iterations, "
        f"{stats.seconds:.2f} s)"
    )
    for rank, move in enumerate(answer.moves, start=1):
        why = f"  ({move.reason})" if move.reason is not None else ""
        print(f"{rank:2}. {describe(state.catalog, move.event):40} {move.win:6.0%}{why}")
        if len(move.line) > 1:
            print(f"    forced: {', then '.join(describe(state.catalog, e) for e in move.line)}")
    return 0


def describe(catalog: Catalog, event: Event) -> str:
    """An event in a few words: 'build Lumber Yard', 'wonder The Pyramids with Baths'."""
    record = event_to_record(event)
    kind = str(record["type"])
    if kind == "wonder":
        return f"wonder {catalog.name(record['wonder'])} with {catalog.name(record['card'])}"
    for key in ("card", "token", "divinity", "wonder"):
        if key in record:
            return f"{kind} {catalog.name(record[key])}"
    if kind == "activate":  # Pantheon: the card on that space
        return f"activate space {record['space']}"
    if kind == "next_age":
        return f"{record['starter']} begins the next age"
    return str(kind)


def _refuse(as_json: bool, reason: str) -> int:
    if as_json:
        print(json.dumps({"error": reason}))
    else:
        print(reason, file=sys.stderr)
    return 2
