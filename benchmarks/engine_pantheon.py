"""Engine speed with the Pantheon expansion: random full Pantheon games per CPU second beside
base games, and the base games against an unpacked build of another commit (to see that the
expansion costs a base game nothing).

Run: .venv/bin/python benchmarks/engine_pantheon.py [--games N] [--runs R]
[--baseline-folder PATH --baseline-name NAME] [--write]

Each round runs, in turn and each in a new process, `duel-companion simulate --games N --seed 0
--no-checks --json` for base games, the same with `--expansion pantheon`, the Pantheon games
with every invariant checked (N/4 games), and, with `--baseline-folder`, the base games of the
build unpacked there (a wheel of another commit, its engine compiled, unpacked as
`benchmarks/engine_games.py` does). Figures are medians of the rounds with their range; rates
count games only (process start and catalog loading are outside the clock), per CPU second of
the process (`cpu_seconds`) and per wall-clock second. `--write` puts the table in
BENCHMARKS.md (section "Engine: Pantheon").
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
CLI = "from companion.cli import main; raise SystemExit(main())"
FROM_FOLDER = """
import sys
folder = sys.argv.pop(1)
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path.insert(0, folder)
"""


def simulate(games: int, *, pantheon: bool, checked: bool, folder: Path | None) -> dict[str, float]:
    """One `simulate` run's figures: games per CPU second and per second, and the engine."""
    code = CLI if folder is None else FROM_FOLDER + CLI
    command = [sys.executable, "-c", code, *([str(folder)] if folder else [])]
    command += ["simulate", "--games", str(games), "--seed", "0", "--json"]
    command += ["--failures", "/dev/null"]
    if pantheon:
        command += ["--expansion", "pantheon"]
    if not checked:
        command.append("--no-checks")
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    if out["engine"] != "compiled":
        raise SystemExit(f"the engine ran {out['engine']}: rebuild it (scripts/bootstrap.sh)")
    return {"cpu": out["games"] / out["cpu_seconds"], "wall": out["games_per_second"]}


def summary(values: list[float]) -> str:
    """Median and range, as whole numbers."""
    return f"{statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline-folder", type=Path, help="an unpacked build to compare")
    parser.add_argument("--baseline-name", default="baseline", help="its name in the table")
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    kinds = [
        ("base games, this commit", False, False, None),
        ("Pantheon games, this commit", True, False, None),
        ("Pantheon games, every invariant checked", True, True, None),
    ]
    if args.baseline_folder:
        kinds.insert(1, (f"base games, {args.baseline_name}", False, False, args.baseline_folder))
    load_before = os.getloadavg()[0]
    figures: dict[str, list[dict[str, float]]] = {name: [] for name, *_ in kinds}
    for _ in range(args.runs):
        for name, pantheon, checked, folder in kinds:
            games = args.games // 4 if checked else args.games
            figures[name].append(simulate(games, pantheon=pantheon, checked=checked, folder=folder))
    load_after = os.getloadavg()[0]
    rows = ["| games | per CPU second | per second (wall clock) |", "| --- | --- | --- |"]
    for name, *_ in kinds:
        cpu = [f["cpu"] for f in figures[name]]
        wall = [f["wall"] for f in figures[name]]
        rows.append(f"| {name} | {summary(cpu)} | {summary(wall)} |")
    text = "\n".join(
        [
            "## Engine: Pantheon",
            "",
            "Random full games with the Pantheon expansion (setup, draft of 8 of the 14 wonders, "
            "deals with their tokens, divinities placed and activated about one turn in five "
            "from Age II, every decision, random choices) beside base games, by "
            "`benchmarks/engine_pantheon.py`, compiled engine. Command (repository root, venv "
            "python):",
            "",
            f"    .venv/bin/python benchmarks/engine_pantheon.py --games {args.games} "
            f"--runs {args.runs}"
            + (" --baseline-folder PATH --baseline-name NAME" if args.baseline_folder else "")
            + " --write",
            "",
            f"Machine: {report.machine()}; **shared with other work while measuring** (load "
            f"average {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} "
            f"cores). Each figure: median of {args.runs} rounds (range in brackets); in each "
            "round the runs go in turn, each in a new process; the checked games are a quarter "
            "as many.",
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
