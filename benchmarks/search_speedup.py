"""The search player's speed against an older version of it, in the same run: iterations and
rollout events per CPU second of `suggest` at the normal level, old and new taking turns over
the same positions (so that a change in the machine's load falls on both).

    .venv/bin/python benchmarks/search_speedup.py --old 56ab4f2 --positions 12 --rounds 3

The old `companion/search` is taken from git (`git archive`) into a temporary folder and
imported as a package of its own; it runs on the engine installed now (compiled when built),
as pure Python unless its commit compiled it. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.engine.catalog import default_catalog
from companion.engine.state import GameState
from companion.engine_loader import engine_is_compiled
from companion.play.simulate import play
from companion.search import player

REPO = Path(__file__).resolve().parent.parent


def old_player(revision: str, folder: Path) -> ModuleType:
    """`companion/search/player.py` as it was at `revision`, imported as `old_search.player`."""
    archive = subprocess.run(
        ["git", "archive", revision, "companion/search"], cwd=REPO, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / "companion" / "search"
    spec = importlib.util.spec_from_file_location(
        "old_search", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_search"] = module
    spec.loader.exec_module(module)
    return importlib.import_module("old_search.player")


def positions(count: int) -> list[GameState]:
    """Every 5th state of random games with a dealt structure (no Great Library draw)."""
    catalog = default_catalog()
    found: list[GameState] = []
    game = 0
    while len(found) < count:
        states = play(catalog, random.Random(game), check=False).states
        found += [
            s
            for s in states[2:-1:5]
            if s.structure is not None
            and not s.finished
            and (s.pending is None or s.pending.kind.value != "great_library")
        ]
        game += 1
    return found[:count]


def _normal(module: Any) -> Any:
    """The normal level (200 iterations) of `module`: named "normal" before the levels were
    numbered, "3" since."""
    levels = module.LEVELS
    return levels["normal"] if "normal" in levels else levels["3"]


def speed(module: Any, states: list[GameState]) -> tuple[float, float]:
    """Iterations and rollout events per CPU second of `module.suggest` over `states`."""
    iterations = events = 0
    start = time.process_time()
    for state in states:
        answer = module.suggest(state, _normal(module), 0)
        iterations += answer.stats.iterations
        events += answer.stats.rollout_events
    cpu = time.process_time() - start
    return iterations / cpu, events / cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True, help="the git revision to compare with")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    states = positions(args.positions)
    rounds: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        old = old_player(args.old, Path(folder))
        for _ in range(args.rounds):
            old_iterations, old_events = speed(old, states)
            new_iterations, new_events = speed(player, states)
            rounds.append(
                {
                    "old_iterations_per_cpu_second": old_iterations,
                    "new_iterations_per_cpu_second": new_iterations,
                    "old_rollout_events_per_cpu_second": old_events,
                    "new_rollout_events_per_cpu_second": new_events,
                    "ratio": new_iterations / old_iterations,
                }
            )
    result = {
        "old": args.old,
        "engine_compiled": engine_is_compiled(),
        "search_compiled": not (player.__file__ or "").endswith(".py"),
        "positions": len(states),
        "rounds": rounds,
        "median_ratio": statistics.median(r["ratio"] for r in rounds),
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
