"""Engine speed: random full games per second, the compiled engine (mypyc) against its
pure-Python fallback in the same run, and the replay of a full record.

Run: .venv/bin/python benchmarks/engine_games.py [--games N] [--runs R] [--write]

Each round runs, once per engine and alternating (the pure one through
DUEL_COMPANION_PURE_ENGINE=1), each in a new process:
`duel-companion simulate --games N --seed 0 --no-checks --json` (bare games),
`duel-companion simulate --games N/4 --seed 0 --json` (every invariant checked), and 200
replays of a full record. Figures are the medians of the rounds, with their range; a run's rate
counts its games only (process start and catalog loading are outside its clock), in wall-clock
time (`games_per_second`) and in the process's CPU time (`cpu_seconds`: on a shared machine
the wall clock also counts the time other processes hold the cores). `--write`
puts the table in BENCHMARKS.md (section "Engine").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import report

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "tests" / "records" / "simulated_civilian_win.jsonl"
PURE_ENV = "DUEL_COMPANION_PURE_ENGINE"
CLI = "from companion.cli import main; raise SystemExit(main())"
REPLAY = """
import json, statistics, sys, time
from pathlib import Path
from companion.catalog import default_catalog
from companion.records.replay import replay_record
catalog = default_catalog()
lines = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()
times = []
for _ in range(200):
    start = time.process_time()
    replay_record(lines, catalog)
    times.append((time.process_time() - start) * 1000)
print(json.dumps(statistics.median(times)))
"""


def run(pure: bool, *args: str) -> str:
    """The output of `python args...` in the repository, with the pure engine or not."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, *args], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def simulate(pure: bool, games: int, checked: bool) -> dict[str, object]:
    """The JSON answer of one `duel-companion simulate` run."""
    flags = [] if checked else ["--no-checks"]
    out = run(pure, "-c", CLI, "simulate", "--games", str(games), "--seed", "0", "--json",
              "--failures", os.devnull, *flags)  # fmt: skip
    answer: dict[str, object] = json.loads(out)
    if answer["failures"]:
        raise SystemExit(f"simulate reported failing games: {answer}")
    return answer


def summary(values: list[float], digits: int = 0) -> str:
    """'median (min-max)'."""
    fmt = f"{{:,.{digits}f}}"
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{fmt.format(mid)} ({fmt.format(low)}-{fmt.format(high)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    rates: dict[tuple[bool, bool], list[float]] = {}
    cpu_rates: dict[tuple[bool, bool], list[float]] = {}
    replays: dict[bool, list[float]] = {}
    engines: dict[bool, str] = {}
    for _ in range(args.runs):
        for pure in (False, True):
            for checked, games in ((False, args.games), (True, max(1, args.games // 4))):
                answer = simulate(pure, games, checked)
                rates.setdefault((pure, checked), []).append(float(answer["games_per_second"]))
                cpu_rate = games / max(float(str(answer["cpu_seconds"])), 1e-9)
                cpu_rates.setdefault((pure, checked), []).append(cpu_rate)
                engines[pure] = str(answer["engine"])
            replays.setdefault(pure, []).append(json.loads(run(pure, "-c", REPLAY, str(RECORD))))
    load_after = os.getloadavg()[0]
    if engines[False] != "compiled":
        print("warning: the compiled engine is not built here; both columns are pure Python")

    def ratio(checked: bool, figures: dict[tuple[bool, bool], list[float]]) -> str:
        fast = statistics.median(figures[(False, checked)])
        return f"{fast / statistics.median(figures[(True, checked)]):.2f}x"

    replay_ratio = statistics.median(replays[True]) / statistics.median(replays[False])
    bare = f"`simulate --games {args.games} --seed 0 --no-checks`"
    checked = f"`simulate --games {max(1, args.games // 4)} --seed 0`"
    rows = [
        "| what | compiled engine | pure-Python fallback | ratio |",
        "| --- | --- | --- | --- |",
        f"| bare random games ({bare}), `games_per_second` (wall clock) "
        f"| {summary(rates[(False, False)])} | {summary(rates[(True, False)])} "
        f"| {ratio(False, rates)} |",
        f"| the same, games per CPU second (`games / cpu_seconds`) "
        f"| {summary(cpu_rates[(False, False)])} | {summary(cpu_rates[(True, False)])} "
        f"| {ratio(False, cpu_rates)} |",
        f"| every invariant checked ({checked}), `games_per_second` "
        f"| {summary(rates[(False, True)])} | {summary(rates[(True, True)])} "
        f"| {ratio(True, rates)} |",
        f"| the same, games per CPU second "
        f"| {summary(cpu_rates[(False, True)])} | {summary(cpu_rates[(True, True)])} "
        f"| {ratio(True, cpu_rates)} |",
        f"| replay of a full record ({RECORD.name}, median of 200), CPU ms "
        f"| {summary(replays[False], 2)} | {summary(replays[True], 2)} | {replay_ratio:.2f}x |",
    ]
    text = "\n".join(
        [
            "## Engine",
            "",
            "Random full games (setup, wonder draft, deals, every decision, random choices) and "
            "the replay of a record, by `benchmarks/engine_games.py`. Command (repository root, "
            "venv python):",
            "",
            f"    .venv/bin/python benchmarks/engine_games.py --games {args.games} "
            f"--runs {args.runs} --write",
            "",
            f"Machine: {report.machine()}; **shared with other work while measuring** (load "
            f"average {load_before:.1f} before, {load_after:.1f} after, on "
            f"{os.cpu_count()} cores): wall-clock figures are far lower than on a quiet machine, "
            "CPU-time figures much less so. Each figure: median of "
            f"{args.runs} rounds (range in brackets); in each round both engines run in turn, "
            "each in a new process.",
            "",
            *rows,
            "",
        ]
    )
    print(text)
    if args.write:
        report.write_section(text)


if __name__ == "__main__":
    main()
