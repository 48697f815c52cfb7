"""Speed of the family score pad: scoring a 7-player base-game sheet with two wildcards.

Sheets are drawn from a fixed seed: seven cities (every board, random sides), 14-20 random
cards each, one guild each; Babylon (side A, 2 stages) holds the Scientists Guild, so it places
two wildcards, and Olympia is on side B with 3 stages, so it weighs every neighbour guild. Each
call is timed on its own with `perf_counter_ns`, garbage collection off: "read + score" is the
sheet's JSON object to scores (what `scorepad` and the page do), "score" the checked table only.

Run: .venv/bin/python benchmarks/scorepad_speed.py [--sheets N] [--seed S] [--write]
(--write replaces the "## Score pad" section of BENCHMARKS.md with the results.)
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from report import machine, write_section

from companion.engine.cards import Color
from companion.family.scoring import score_table
from companion.family.sheet import read_table
from companion.family_catalog import default_family_catalog

WONDERS = ("babylon", "olympia", "giza", "rhodes", "ephesus", "alexandria", "halicarnassus")
TARGET_MS = 1.0


def random_sheet(rng: random.Random) -> dict[str, Any]:
    """A 7-player sheet as described in the module docstring."""
    catalog = default_family_catalog()
    buildings = sorted(c.id for c in catalog.cards.values() if c.color is not Color.PURPLE)
    guilds = [g for g in sorted(c.id for c in catalog.cards.values() if c.color is Color.PURPLE)
              if g != "scientists_guild"]  # fmt: skip
    rng.shuffle(guilds)
    players = []
    for i, wonder in enumerate(WONDERS):
        cards = rng.sample(buildings, rng.randint(14, 20))
        cards.append("scientists_guild" if wonder == "babylon" else guilds[i])
        side = {"babylon": "A", "olympia": "B"}.get(wonder, rng.choice("AB"))
        board = catalog.wonders[wonder].sides  # type: ignore[index]
        stages = {"babylon": 2, "olympia": 3}.get(wonder, rng.randint(0, len(board[side])))  # type: ignore[index]
        players.append({
            "name": f"Player {i + 1}", "wonder": wonder, "side": side, "stages": stages,
            "cards": cards, "coins": rng.randint(0, 20),
            "military": rng.sample([1, 1, 3, 3, 5, 5, -1, -1, -1], rng.randint(0, 6)),
        })  # fmt: skip
    rng.shuffle(players)
    return {"game": "7wonders", "variant": "base", "players": players}


def timed(call: Callable[[], object], repeats: int) -> list[float]:
    """Milliseconds of each of `repeats` calls, garbage collection off."""
    found = []
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter_ns()
            call()
            found.append((time.perf_counter_ns() - start) / 1e6)
    finally:
        gc.enable()
    return found


def row(name: str, samples: list[float], repeats: int) -> str:
    """A table row: samples, median, p90, p99, max, and the median over sheets of each
    sheet's fastest run (ms), which other processes on a shared machine inflate least."""
    ordered = sorted(samples)
    p90, p99 = (ordered[int(q * (len(ordered) - 1))] for q in (0.9, 0.99))
    fastest = [min(samples[i : i + repeats]) for i in range(0, len(samples), repeats)]
    values = (statistics.median(ordered), p90, p99, ordered[-1], statistics.median(fastest))
    return f"| {name} | {len(ordered)} | " + " | ".join(f"{v:.3f}" for v in values) + " |"


def main() -> None:
    """Time the sheets and print (or write) the section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    catalog = default_family_catalog()
    rng = random.Random(args.seed)
    sheets = [random_sheet(rng) for _ in range(args.sheets)]
    both: list[float] = []
    scoring: list[float] = []
    for raw in sheets:
        table = read_table(catalog, raw)
        both += timed(lambda raw=raw: score_table(read_table(catalog, raw)), args.repeats)
        scoring += timed(lambda table=table: score_table(table), args.repeats)
    worst = max(statistics.median(both), statistics.median(scoring))
    verdict = "met" if worst < TARGET_MS else "NOT met"
    command = (f".venv/bin/python benchmarks/scorepad_speed.py --sheets {args.sheets} "
               f"--seed {args.seed} --write")  # fmt: skip
    text = "\n".join([
        "## Score pad",
        "",
        "Scoring a 7-player 7 Wonders sheet (`companion/family/`), by "
        "`benchmarks/scorepad_speed.py`. Command (repository root, venv python):",
        "",
        f"    {command}",
        "",
        f"Machine: {machine()}; shared with other work while measuring. {args.sheets} random "
        "7-player sheets (14-20 cards and a guild per city; Babylon A with the Scientists Guild "
        "places two wildcards; Olympia B with 3 stages weighs every neighbour guild), each "
        f"timed {args.repeats} times on its own (`perf_counter_ns`, gc off). *Median of "
        "fastest*: the median over sheets of each sheet's fastest run, the figure other "
        "processes on this shared machine inflate least.",
        "",
        "| measurement (ms) | samples | median | p90 | p99 | max | median of fastest |",
        "|---|---|---|---|---|---|---|",
        row("read + score (sheet object to scores)", both, args.repeats),
        row("score (checked table to scores)", scoring, args.repeats),
        "",
        f"- Target: a 7-player sheet with two wildcards under {TARGET_MS:g} ms: median at most "
        f"{worst:.3f} ms ({verdict}).",
        "",
    ])  # fmt: skip
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
