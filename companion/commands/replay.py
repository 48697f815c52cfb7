"""`duel-companion replay FILE [--json]`: the state after the last event of a game record.

The record is read by the one reader (`companion.records.reader`: size, nesting, numbers,
names; undo lines allowed) and replayed by the one replay. A refused record exits with status 2
and prints only the refusal, one line ("line N: reason" on stderr, or
`{"error": ..., "line": N}` on stdout with --json; `line` is null for the whole record).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.device.words import coins
from companion.engine.catalog import default_catalog
from companion.engine.state import GameState, Player
from companion.records.reader import RecordRefused, read_record_file, read_records
from companion.records.replay import replay, state_to_json

HELP = "Replay a game record (JSON Lines) and print the state after its last event."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE and --json."""
    parser.add_argument("file", type=Path, metavar="FILE", help="the game record (.jsonl)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def main(args: argparse.Namespace) -> int:
    """Replay the record; 0 when every line is accepted, 2 on a refusal or unreadable file."""
    path: Path = args.file
    try:
        numbered = read_records(read_record_file(path), undo=True)
        state = replay(default_catalog(), numbered).state
    except RecordRefused as refused:
        return _refuse(args.json, refused.reason, refused.line)
    if args.json:
        print(json.dumps(state_to_json(state)))
    else:
        print(describe(state))
    return 0


def _refuse(as_json: bool, reason: str, line: int | None = None) -> int:
    if as_json:
        print(json.dumps({"error": reason, "line": line}))
    else:
        print(f"line {line}: {reason}" if line is not None else reason, file=sys.stderr)
    return 2


def describe(state: GameState) -> str:
    """A few readable lines: status, age, turn or decision, pawn, each player's summary."""
    data = state_to_json(state)
    lines = []
    if data["status"] == "finished":
        lines.append(f"Finished: {data['winner']} wins ({data['victory']})")
    else:
        pending = data["pending"]
        doing = f"{pending['player']} decides {pending['type']}" if pending else "to play"
        lines.append(f"Age {data['age']}, {data['current_player']} {doing}")
    lines.append(f"Conflict pawn: {data['military']['position']:+d}")
    for player in Player:
        city = data["players"][player.value]
        score = city["score"]
        lines.append(
            f"{player.value} {city['name'] or ''}: {coins(city['coins'])}, "
            f"{len(city['cards'])} cards, {len(city['wonders_built'])} wonders, "
            f"tokens {', '.join(city['progress_tokens']) or '-'}; score {score['total']}"
        )
    return "\n".join(lines)
