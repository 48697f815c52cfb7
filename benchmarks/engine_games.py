"""Engine speed: random full games per second on one core, and the replay of a full record.

Run: .venv/bin/python benchmarks/engine_games.py [--games N] [--runs R]
(each figure is the median of R runs, the best run in brackets: the machine is shared).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from companion.catalog import default_catalog
from companion.records.replay import replay_record
from companion.simulate import play

RECORD = Path(__file__).parent.parent / "tests" / "records" / "simulated_civilian_win.jsonl"


def games_per_second(games: int, check: bool) -> float:
    """Random full games (setup, deals, every decision) per second, one process."""
    catalog = default_catalog()
    start = time.perf_counter()
    for seed in range(games):
        play(catalog, random.Random(seed), check=check)
    return games / (time.perf_counter() - start)


def replay_ms(repeats: int) -> tuple[float, float]:
    """Median and best time (ms) to replay a full game record from its JSON lines."""
    catalog = default_catalog()
    lines = RECORD.read_text(encoding="utf-8").splitlines()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        replay_record(lines, catalog)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games_per_second(20, check=False)  # warm the pricing caches
    bare = [games_per_second(args.games, check=False) for _ in range(args.runs)]
    checked = [games_per_second(args.games // 4, check=True) for _ in range(args.runs)]
    median, best = replay_ms(200)
    print(
        f"random games, bare engine:        {statistics.median(bare):7.0f} games/s "
        f"(best {max(bare):.0f}; {args.games} games x {args.runs} runs)"
    )
    print(
        f"random games, invariants checked: {statistics.median(checked):7.0f} games/s "
        f"(best {max(checked):.0f}; {args.games // 4} games x {args.runs} runs)"
    )
    print(f"replay of a full record ({RECORD.name}): median {median:.2f} ms, best {best:.2f} ms")


if __name__ == "__main__":
    main()
