"""Engine speed: random full games per second, the compiled engine (mypyc) against its
pure-Python fallback and against the code before the last speed work, in the same run, and
the replay of a full record.

Run: .venv/bin/python benchmarks/engine_games.py [--games N] [--runs R] [--baseline REF]
[--write]

The code of `--baseline` (a git commit, by default `BEFORE`, the engine before the speed work
of issue 15's item 5; "" for none) is exported from git and built into a wheel as `pip install`
builds it (its engine compiled; a minute or more), unpacked in a temporary folder. Each round
then runs, once per engine and in turn (the pure one through DUEL_COMPANION_PURE_ENGINE=1,
the baseline's compiled engine from its folder), each in a new process:
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
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import report

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "tests" / "records" / "simulated_civilian_win.jsonl"
PURE_ENV = "DUEL_COMPANION_PURE_ENGINE"
BEFORE = "56ab4f2"
"""The code before the speed work of issue 15, item 5 (3.22 M instructions per game)."""
CLI = "from companion.cli import main; raise SystemExit(main())"
FROM_FOLDER = """
import sys
folder = sys.argv.pop(1)
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path.insert(0, folder)
"""
"""Prepended to a baseline's code: import `companion` from the folder given first (not from
this checkout, which the editable install would otherwise find first)."""
REPLAY = """
import json, statistics, sys, time
from pathlib import Path
from companion.engine.catalog import default_catalog
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


@dataclass(frozen=True)
class Engine:
    """One engine to measure: the pure-Python one or not, from this checkout or a folder."""

    name: str
    pure: bool = False
    folder: Path | None = None
    python: str = sys.executable


def run(engine: Engine, code: str, *args: str) -> str:
    """The output of `python -c code args...` with `engine`."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if engine.pure:
        env[PURE_ENV] = "1"
    command = [engine.python, "-c", code, *args]
    if engine.folder is not None:
        command = [engine.python, "-c", FROM_FOLDER + code, str(engine.folder), *args]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def simulate(engine: Engine, games: int, checked: bool) -> dict[str, object]:
    """The JSON answer of one `duel-companion simulate` run."""
    flags = [] if checked else ["--no-checks"]
    out = run(engine, CLI, "simulate", "--games", str(games), "--seed", "0", "--json",
              "--failures", os.devnull, *flags)  # fmt: skip
    answer: dict[str, object] = json.loads(out)
    if answer["failures"]:
        raise SystemExit(f"simulate reported failing games: {answer}")
    return answer


def build_baseline(ref: str, folder: Path) -> Engine:
    """The code of commit `ref` exported from git, built into a wheel as `pip install` builds
    it (its engine compiled by mypyc), and the wheel unpacked into a folder in `folder`."""
    return Engine(f"before ({ref}, compiled)", folder=build_wheel(ref, folder, sys.executable))


def build_wheel(ref: str, folder: Path, python: str) -> Path:
    """Export commit `ref` from git into `folder`, build it into a wheel with `python -m pip
    wheel` (in an isolated build environment with the build requirements of its
    pyproject.toml: the engine compiled for that Python) and unpack the wheel; return the
    folder that holds the unpacked `companion`."""
    work = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
    source, wheels, installed = work / "source", work / "wheels", work / "installed"
    source.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", ref], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    subprocess.run(
        [python, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
        capture_output=True,
        check=True,
    )
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as unpacked:
        unpacked.extractall(installed)
    if not (installed / "companion" / "compiled.txt").exists():
        raise SystemExit(f"the engine of {ref} did not compile for {python}")
    return installed


def summary(values: list[float], digits: int = 0) -> str:
    """'median (min-max)'."""
    fmt = f"{{:,.{digits}f}}"
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{fmt.format(mid)} ({fmt.format(low)}-{fmt.format(high)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", default=BEFORE, help='a git commit to compare, "" for none')
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="engine-baseline-") as folder:
        engines = [Engine("compiled engine"), Engine("pure-Python fallback", pure=True)]
        if args.baseline:
            before = build_baseline(args.baseline, Path(folder))
            engines += [before, Engine(f"before ({args.baseline}, pure)", True, before.folder)]
        text = measure(engines, args.games, args.runs)
    print(text)
    if args.write:
        report.write_section(text)


def measure(engines: list[Engine], games: int, runs: int) -> str:
    """Run the rounds and return the section."""
    load_before = os.getloadavg()[0]
    checked_games = max(1, games // 4)
    rates: dict[tuple[str, bool], list[float]] = {}
    cpu_rates: dict[tuple[str, bool], list[float]] = {}
    replays: dict[str, list[float]] = {}
    kinds: dict[str, str] = {}
    for _ in range(runs):
        for engine in engines:
            for checked, count in ((False, games), (True, checked_games)):
                answer = simulate(engine, count, checked)
                rates.setdefault((engine.name, checked), []).append(
                    float(str(answer["games_per_second"]))
                )
                cpu_rate = count / max(float(str(answer["cpu_seconds"])), 1e-9)
                cpu_rates.setdefault((engine.name, checked), []).append(cpu_rate)
                kinds[engine.name] = str(answer["engine"])
            replays.setdefault(engine.name, []).append(json.loads(run(engine, REPLAY, str(RECORD))))
    load_after = os.getloadavg()[0]
    for engine in engines:
        if kinds[engine.name] != ("pure" if engine.pure else "compiled"):
            print(f"warning: {engine.name} ran the {kinds[engine.name]} engine")
    first = engines[0].name

    def cells(figures: dict[tuple[str, bool], list[float]], checked: bool) -> str:
        fast = statistics.median(figures[(first, checked)])
        shown = [summary(figures[(e.name, checked)]) for e in engines]
        ratios = [f"{fast / statistics.median(figures[(e.name, checked)]):.2f}x" for e in engines]
        return " | ".join(shown + ratios[1:])

    def replay_cells() -> str:
        fast = statistics.median(replays[first])
        shown = [summary(replays[e.name], 2) for e in engines]
        ratios = [f"{statistics.median(replays[e.name]) / fast:.2f}x" for e in engines]
        return " | ".join(shown + ratios[1:])

    names = [e.name for e in engines]
    against = [f"{first} against {name}" for name in names[1:]]
    bare = f"`simulate --games {games} --seed 0 --no-checks`"
    with_checks = f"`simulate --games {checked_games} --seed 0`"
    rows = [
        "| what | " + " | ".join(names + against) + " |",
        "|" + " --- |" * (1 + 2 * len(names) - 1),
        f"| bare random games ({bare}), `games_per_second` (wall clock) | {cells(rates, False)} |",
        f"| the same, games per CPU second (`games / cpu_seconds`) | {cells(cpu_rates, False)} |",
        f"| every invariant checked ({with_checks}), `games_per_second` | {cells(rates, True)} |",
        f"| the same, games per CPU second | {cells(cpu_rates, True)} |",
        f"| replay of a full record ({RECORD.name}, median of 200), CPU ms | {replay_cells()} |",
    ]
    baseline = engines[-1].folder is not None
    return "\n".join(
        [
            "## Engine",
            "",
            "Random full games (setup, wonder draft, deals, every decision, random choices) and "
            "the replay of a record, by `benchmarks/engine_games.py`. Command (repository root, "
            "venv python):",
            "",
            f"    .venv/bin/python benchmarks/engine_games.py --games {games} --runs {runs} "
            "--write",
            "",
            f"Machine: {report.machine()}; **shared with other work while measuring** (load "
            f"average {load_before:.1f} before, {load_after:.1f} after, on "
            f"{os.cpu_count()} cores): wall-clock figures are far lower than on a quiet machine, "
            "CPU-time figures much less so. Each figure: median of "
            f"{runs} rounds (range in brackets); in each round the engines run in turn, "
            "each in a new process"
            + (
                "; the *before* columns run the code of the commit they name, exported "
                "from git, its engine compiled in a temporary folder (`--baseline`)."
                if baseline
                else "."
            ),
            "",
            *rows,
            "",
        ]
    )


if __name__ == "__main__":
    main()
