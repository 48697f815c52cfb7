"""The search player: arena matches (seats swapped on paired deals), the time to a hint, and
rollouts per second.

Run parts separately (they take long; the machine is shared), each writing a JSON file, then
write the section of BENCHMARKS.md from the files:

    .venv/bin/python benchmarks/search_player.py arena --a normal --b random --games 400 \
        --out a.json
    .venv/bin/python benchmarks/search_player.py latency --positions 60 --out l.json
    .venv/bin/python benchmarks/search_player.py write a.json b.json c.json l.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from report import machine, write_section

from companion.arena import arena
from companion.catalog import default_catalog
from companion.engine.state import GameState, Player
from companion.search.player import LEVELS, suggest
from companion.simulate import play


def run_arena(a: str, b: str, games: int, seed: int, out: Path) -> dict[str, object]:
    """One match, timed; each game's result is appended to `out` + ".progress" as it ends
    (A is p1 in even games), so that a match cut short can still be read."""
    start = time.perf_counter()
    progress = out.with_suffix(".progress")
    progress.write_text("")

    def on_game(number: int, final: GameState) -> None:
        a_seat = Player.P1 if number % 2 == 0 else Player.P2
        result = "shared" if final.shared else "win" if final.winner is a_seat else "loss"
        line = {"game": number, "a": result, "seconds": time.perf_counter() - start}
        with progress.open("a") as file:
            file.write(json.dumps(line) + "\n")

    tally = arena(default_catalog(), a, b, games, seed, on_game)
    seconds = time.perf_counter() - start
    low, high = tally.interval
    return {
        "kind": "arena", "a": a, "b": b, "games": games, "seed": seed, "wins": tally.wins,
        "losses": tally.losses, "shared": tally.shared, "score": tally.score,
        "interval": [low, high], "seconds": seconds, "victories": tally.victories,
    }  # fmt: skip


def run_latency(positions: int, seed: int) -> dict[str, object]:
    """Time to a hint at each level over positions of random games (every 5th state with a
    dealt structure or a decision), and the search's rollouts per second."""
    catalog = default_catalog()
    states = []
    game = 0
    while len(states) < positions:
        found = play(catalog, random.Random(seed + game), check=False).states
        states += [s for s in found[2:-1:5] if s.structure is not None and not s.finished]
        game += 1
    states = [s for s in states if s.pending is None or s.pending.kind.value != "great_library"]
    states = states[:positions]
    result: dict[str, object] = {"kind": "latency", "positions": len(states)}
    for name, level in LEVELS.items():
        times, iterations, events, busy = [], 0, 0, 0.0
        for state in states:
            start = time.perf_counter()
            answer = suggest(state, level, seed)
            times.append(time.perf_counter() - start)
            iterations += answer.stats.iterations
            events += answer.stats.rollout_events
            busy += answer.stats.seconds
        times.sort()
        result[name] = {
            "p50": statistics.median(times),
            "p95": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
            "max": times[-1],
            "iterations_per_second": iterations / busy if busy else 0.0,
            "rollout_events_per_second": events / busy if busy else 0.0,
        }
    return result


def section(results: list[dict[str, object]]) -> str:
    lines = [
        "## Search player",
        "",
        "Measured by `benchmarks/search_player.py` (commands in its docstring) on a development "
        f"machine: {machine()}, shared with six other sessions' tests while measuring, **not "
        "a Raspberry Pi**. The camera loop and the web server were not running during these "
        "runs (the other sessions' work was the load).",
        "",
        "Arena (`companion/arena.py`, the same as `duel-companion arena`): games in pairs on "
        "the same setup and deals with the seats swapped; A's score counts a shared victory "
        "half; the interval is the 95 % Wilson score interval of A's score.",
        "",
        "| A | B | games | A wins | A losses | shared | A's score | 95 % interval | s/game |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        if r["kind"] != "arena":
            continue
        low, high = r["interval"]  # type: ignore[misc]
        lines.append(
            f"| {r['a']} | {r['b']} | {r['games']} | {r['wins']} | {r['losses']} | "
            f"{r['shared']} | {r['score']:.1%} | {low:.1%} to {high:.1%} | "  # type: ignore[str-format]
            f"{r['seconds'] / r['games']:.1f} |"  # type: ignore[operator]
        )
    for r in results:
        if r["kind"] != "latency":
            continue
        lines += [
            "",
            f"Time to a hint (`suggest`, as `duel-companion hint` after reading the record) over "
            f"{r['positions']} positions of random games, and the search's speed (one "
            "iteration = one determinization, one descent, one rollout of up to 12 events):",
            "",
            "| level | iterations | p50 | p95 | max | iterations/s | rollout events/s |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for name, level in LEVELS.items():
            m = r[name]
            lines.append(
                f"| {name} | {level.iterations} | {m['p50']:.2f} s | {m['p95']:.2f} s | "  # type: ignore[index]
                f"{m['max']:.2f} s | {m['iterations_per_second']:.0f} | "  # type: ignore[index]
                f"{m['rollout_events_per_second']:.0f} |"  # type: ignore[index]
            )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="part", required=True)
    one = sub.add_parser("arena")
    one.add_argument("--a", required=True)
    one.add_argument("--b", required=True)
    one.add_argument("--games", type=int, default=100)
    one.add_argument("--seed", type=int, default=0)
    one.add_argument("--out", type=Path, required=True)
    two = sub.add_parser("latency")
    two.add_argument("--positions", type=int, default=60)
    two.add_argument("--seed", type=int, default=0)
    two.add_argument("--out", type=Path, required=True)
    three = sub.add_parser("write")
    three.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    if args.part == "arena":
        args.out.write_text(json.dumps(run_arena(args.a, args.b, args.games, args.seed, args.out)))
    elif args.part == "latency":
        args.out.write_text(json.dumps(run_latency(args.positions, args.seed)))
    else:
        results = [json.loads(f.read_text()) for f in args.files]
        write_section(section(results))
        print(section(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
