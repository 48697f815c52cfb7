"""Level 5's playouts per CPU second, this build against an older build, in the same run.

    .venv/bin/python benchmarks/playout_speed.py --old /tmp/old-build --positions 20 --rounds 3

With `--level` (and `--old-level`), a `search_levels.VARIANTS` name instead of level 5, for
example two variants of one build (`--old .`):

    .venv/bin/python benchmarks/playout_speed.py --old . --old-level 5 --level 5-sharp

`--old` is a folder holding an installed (compiled) `companion` package of the older version,
for example a copy of a checkout's `companion/` and `data/` taken after
`pip install -e .` at that commit. Each round runs `suggest` at level 5 over the same
positions (every 5th state of random games with a dealt structure, no Great Library draw)
once with each build, each in a fresh process, old first, so that a change in the machine's
load falls on both. CPU time (`time.process_time`) of the searches only. Prints one JSON
object: per build and round, the playouts and rollout events per CPU second and the CPU
seconds a move (median and 95th percentile), its mean and the mean iterations a move (which a
variant with time management, `search_levels.VARIANTS["5-tm"]`, spends unevenly).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import json, random, statistics, sys, time
from companion.engine.catalog import default_catalog
from companion.engine_loader import engine_is_compiled
from companion.play.simulate import play
from companion.search.player import LEVELS, suggest

count, seed, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, "benchmarks")
from search_levels import VARIANTS
catalog = default_catalog()
states, game = [], 0
while len(states) < count:
    found = play(catalog, random.Random(seed + game), check=False).states
    states += [s for s in found[2:-1:5] if s.structure is not None and not s.finished
               and (s.pending is None or s.pending.kind.value != "great_library")]
    game += 1
states = states[:count]
level = VARIANTS[name] if name in VARIANTS else LEVELS[name]
iterations = events = 0
times = []
for state in states:
    start = time.process_time()
    answer = suggest(state, level, seed)
    times.append(time.process_time() - start)
    iterations += answer.stats.iterations
    events += answer.stats.rollout_events
cpu = sum(times)
times.sort()
p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
print(json.dumps({
    "compiled": engine_is_compiled(), "positions": len(states),
    "playouts_per_cpu_second": iterations / cpu, "events_per_cpu_second": events / cpu,
    "cpu_p50": statistics.median(times), "cpu_p95": p95,
    "cpu_mean": cpu / len(times), "iterations_mean": iterations / len(times),
}))
"""


def measure(root: Path, positions: int, seed: int, level: str = "5") -> dict[str, object]:
    """One run of the child in a fresh process importing `companion` from `root`, searching
    as `level` (a level's name or a `search_levels.VARIANTS` name)."""
    environ = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(positions), str(seed), level],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="folder with the old build")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="5", help="the new build's level or variant")
    parser.add_argument("--old-level", default="5", help="the old build's level or variant")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, object]]] = {"old": [], "new": []}
    for _ in range(args.rounds):
        runs["old"].append(measure(args.old, args.positions, args.seed, args.old_level))
        runs["new"].append(measure(REPO, args.positions, args.seed, args.level))
    print(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
