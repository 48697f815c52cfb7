"""`duel-companion simulate --games N --seed S [--json] [--no-checks]`: random legal games,
checked.

Every event of every game is checked against the engine's invariants; failing games are
written as game records (in --failures, default ./simulate-failures) that `replay` reproduces,
and the exit status is 1 when any game failed. `--no-checks` plays the same games without the
checks, to measure the bare engine (`games_per_second`; `engine` says whether the compiled
engine or the pure-Python one ran).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from companion.engine.catalog import EXPANSIONS, default_catalog
from companion.engine_loader import engine_is_compiled
from companion.play.simulate import VICTORY_KINDS, simulate

HELP = "Play random legal games from a seed, checking invariants after every event."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--games, --seed, --json, --failures, --expansion, --no-checks."""
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--failures",
        type=Path,
        default=Path("simulate-failures"),
        help="folder for the records of failing games (default ./simulate-failures)",
    )
    parser.add_argument(
        "--expansion",
        choices=EXPANSIONS,
        action="append",
        default=[],
        help="play with an expansion (pantheon)",
    )
    parser.add_argument(
        "--no-checks",
        "--no-check",
        dest="no_checks",
        action="store_true",
        help="skip the invariant and replay checks (to measure the bare engine)",
    )


def main(args: argparse.Namespace) -> int:
    """Play the games and print the tally; 1 if any game failed, 2 on bad arguments."""
    if args.games < 1:
        print("--games must be at least 1")
        return 2
    catalog = default_catalog(tuple(dict.fromkeys(args.expansion)))
    start, cpu_start = time.perf_counter(), time.process_time()
    tally = simulate(
        catalog, args.games, args.seed, failures_dir=args.failures, check=not args.no_checks
    )
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start  # on a busy machine, less than `seconds`
    rate = tally.games / seconds if seconds else 0.0
    if args.json:
        print(
            json.dumps(
                {
                    "games": tally.games,
                    "seconds": round(seconds, 3),
                    "cpu_seconds": round(cpu_seconds, 3),
                    "games_per_second": round(rate, 1),
                    "failures": tally.failures,
                    "victories": {kind: tally.victories[kind] for kind in VICTORY_KINDS},
                    "failed_records": [str(p) for p in tally.failed_records],
                    "checked": not args.no_checks,
                    "engine": "compiled" if engine_is_compiled() else "pure",
                }
            )
        )
    else:
        kinds = ", ".join(f"{kind} {tally.victories[kind]}" for kind in VICTORY_KINDS)
        print(f"{tally.games} games in {seconds:.2f} s ({rate:.0f} games/s); {kinds}")
        print(f"failures: {tally.failures}")
        for path in tally.failed_records:
            print(f"  failing record: {path}")
    return 1 if tally.failures else 0
