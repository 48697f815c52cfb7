"""Engine speed by interpreter: the command of issue 15's speed target,
`duel-companion simulate --games N --seed S --no-checks --json`, with the compiled engine of
two commits, each built for each Python given, the runs interleaved.

Run: .venv/bin/python benchmarks/engine_python.py --python PATH [--python PATH ...]
[--code REF] [--baseline REF] [--games N] [--seed S] [--runs R] [--write]

Each commit (`--code`, by default HEAD; `--baseline`, by default the commit before this
session's engine work) is exported from git and built into a wheel by each `--python` (`pip
wheel`, as `pip install` builds it: the engine compiled by mypyc for that interpreter), and
the wheel unpacked in a temporary folder. Each round then runs every (commit, Python) once, in
turn, each in a new process; the figures are the medians of the rounds, with their range, in
wall-clock time (`games_per_second`) and per CPU second. `--write` puts the table in
BENCHMARKS.md (section "Engine: the interpreter").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

import report
from engine_games import CLI, Engine, build_wheel, run, summary

BASELINE = "724bb71"
"""The code before this session's engine work (civilian count, playout without history,
structure masks)."""


def describe(python: str) -> str:
    """'CPython 3.11.2 (`/usr/bin/python3`, libpython linked in)' and the like (Linux)."""
    probe = (
        "import platform; print(platform.python_version()); "
        "maps = open('/proc/self/maps').read(); "
        "print('shared' if 'libpython' in maps else 'linked in')"
    )
    version, linked = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return f"CPython {version} (`{python}`, libpython {linked})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", action="append", required=True, help="an interpreter")
    parser.add_argument("--code", default="HEAD")
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    refs = [args.code, args.baseline]
    for python in args.python:
        if shutil.which(python) is None:
            raise SystemExit(f"engine_python: no interpreter at {python}")
    names = {python: describe(python) for python in args.python}
    with tempfile.TemporaryDirectory(prefix="engine-python-") as folder:
        engines = [
            Engine(
                f"{ref} with {names[python]}", False, build_wheel(ref, Path(folder), python), python
            )
            for ref in refs
            for python in args.python
        ]
        load_before = os.getloadavg()[0]
        wall: dict[str, list[float]] = {e.name: [] for e in engines}
        cpu: dict[str, list[float]] = {e.name: [] for e in engines}
        for _ in range(args.runs):
            for engine in engines:
                flags = [
                    "--seed",
                    str(args.seed),
                    "--no-checks",
                    "--json",
                    "--failures",
                    os.devnull,
                ]
                answer = json.loads(
                    run(engine, CLI, "simulate", "--games", str(args.games), *flags)
                )
                if answer["failures"] or answer["engine"] != "compiled":
                    raise SystemExit(f"{engine.name}: {answer}")
                wall[engine.name].append(float(answer["games_per_second"]))
                cpu[engine.name].append(args.games / max(float(answer["cpu_seconds"]), 1e-9))
        load_after = os.getloadavg()[0]
    rows = [
        "| code | interpreter | `games_per_second` (wall clock) | games per CPU second | "
        f"against {args.baseline} with the first interpreter (wall clock medians) |",
        "| --- | --- | --- | --- | --- |",
    ]
    baseline_rate = statistics.median(wall[engines[len(args.python)].name])
    for engine in engines:
        ref, python = engine.name.split(" with ", 1)
        ratio = statistics.median(wall[engine.name]) / baseline_rate
        rows.append(
            f"| {ref} | {python} | {summary(wall[engine.name])} | {summary(cpu[engine.name])} "
            f"| {ratio:.2f}x |"
        )
    command = " ".join(f"--python {p}" for p in args.python)
    text = "\n".join(
        [
            "## Engine: the interpreter",
            "",
            "Issue 15's command, `duel-companion simulate --games "
            f"{args.games} --seed {args.seed} --no-checks --json`, with the compiled engine of "
            "two commits, each built by each interpreter as `pip install` builds it, by "
            "`benchmarks/engine_python.py`. Command (repository root, venv python):",
            "",
            f"    .venv/bin/python benchmarks/engine_python.py {command} --runs {args.runs} "
            "--write",
            "",
            f"Machine: {report.machine().split(', Python')[0]}, {platform.machine()}; load "
            f"average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} "
            f"cores. Each figure: median of {args.runs} rounds (range in brackets); in each "
            "round every build runs once, in turn, each in a new process. First commit: "
            f"{args.code} ({git_commit(args.code)}).",
            "",
            *rows,
        ]
    )
    print(text)
    if args.write:
        report.write_section(text)


def git_commit(ref: str) -> str:
    """The short hash of `ref`."""
    return subprocess.run(
        ["git", "rev-parse", "--short", ref], capture_output=True, text=True, check=True
    ).stdout.strip()


if __name__ == "__main__":
    main()
