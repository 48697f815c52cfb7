"""`duel-companion arena --a LEVEL --b LEVEL|greedy|random --games N --seed S [--json]`:
full games between two players, seats swapped on paired deals (game 2k has A as p1, game
2k + 1 the same setup and deals with A as p2), and A's wins, losses and shared victories
with the 95 % Wilson interval of A's score rate (a shared victory counts half).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from companion.engine.catalog import default_catalog
from companion.play.arena import PLAYERS, arena
from companion.search.player import LEVEL_CHOICES

HELP = "Play full games between two players (search levels, greedy, random), seats swapped."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--a, --b, --games, --seed, --json."""
    parser.add_argument("--a", required=True, help=f"player A: {', '.join(LEVEL_CHOICES)}")
    parser.add_argument("--b", required=True, help=f"player B: {', '.join(PLAYERS)}")
    parser.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def main(args: argparse.Namespace) -> int:
    """Play the games and print A's tally; 2 with one line on bad arguments."""
    if args.a not in LEVEL_CHOICES:
        return _refuse(f"--a must be one of {', '.join(LEVEL_CHOICES)}, not {args.a!r}")
    if args.b not in PLAYERS:
        return _refuse(f"--b must be one of {', '.join(PLAYERS)}, not {args.b!r}")
    if args.games < 1:
        return _refuse("--games must be at least 1")
    start = time.perf_counter()
    tally = arena(default_catalog(), args.a, args.b, args.games, args.seed)
    seconds = time.perf_counter() - start
    low, high = tally.interval
    if args.json:
        print(
            json.dumps(
                {
                    "a": args.a,
                    "b": args.b,
                    "games": tally.games,
                    "seed": args.seed,
                    "wins": tally.wins,
                    "losses": tally.losses,
                    "shared": tally.shared,
                    "score": round(tally.score, 4),
                    "interval": [round(low, 4), round(high, 4)],
                    "victories": tally.victories,
                    "seconds": round(seconds, 1),
                }
            )
        )
    else:
        print(
            f"{args.a} against {args.b}: {tally.wins} wins, {tally.losses} losses, "
            f"{tally.shared} shared in {tally.games} games ({seconds:.0f} s)"
        )
        print(f"score {tally.score:.1%}, 95 % interval {low:.1%} to {high:.1%}")
    return 0


def _refuse(reason: str) -> int:
    print(reason, file=sys.stderr)
    return 2
