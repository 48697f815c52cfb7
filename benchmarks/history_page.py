"""Measure the history page at 10,000 games: server time and bytes, paged and gzipped, against
the whole list on one page (the code before paging, rebuilt here in the same run).

Run: .venv/bin/python benchmarks/history_page.py [--games N] [--runs N] [--write]
(--write replaces the "## History" section of BENCHMARKS.md with the results.)

The journal is a real one (`Journal.create`); its games are written straight into the games
table in one transaction (finished games with names, winners and dates), since the history
reads nothing else and ten thousand simulated games would take minutes to import.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import render_template
from report import machine, write_section

from companion.config import Config
from companion.engine.catalog import default_catalog
from companion.records.journal import Journal
from web import create_app
from web.access import get_journal
from web.present import history_view

SECTION = "## History"
NAMES = ("Ann", "Ben", "Cleo", "Dag", "Eirik", "Frida", "Gunnhild", "Hallvard")
VICTORIES = ("civilian", "military", "science")


def build_journal(folder: Path, games: int, seed: int) -> Path:
    """A journal of `games` finished games, one every 40 minutes, with random players."""
    rng = random.Random(seed)
    path = folder / "journal.sqlite"
    Journal.create(path).close()
    start = datetime(2024, 1, 1, tzinfo=UTC)
    rows = []
    for index in range(games):
        began = start + timedelta(minutes=40 * index)
        ended = began + timedelta(minutes=rng.randint(20, 39))
        players = dict(zip(("p1", "p2"), rng.sample(NAMES, 2), strict=True))
        winner = rng.choice(("p1", "p2", "p1", "p2", "shared"))
        victory = "civilian" if winner == "shared" else rng.choice(VICTORIES)
        stamp = [t.isoformat(timespec="seconds").replace("+00:00", "Z") for t in (began, ended)]
        rows.append((*stamp, winner, victory, json.dumps(players)))
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (started, finished, status, winner, victory, players)"
            " VALUES (?, ?, 'finished', ?, ?, ?)",
            rows,
        )
    return path


def timed(call: Callable[[], Any], runs: int) -> tuple[list[float], list[float], Any]:
    """Wall-clock and CPU milliseconds of each of `runs` calls, and the last result (CPU time
    is what other processes on a shared machine disturb least)."""
    wall, cpu, result = [], [], None
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.process_time()
        result = call()
        cpu.append((time.process_time() - began_cpu) * 1000)
        wall.append((time.perf_counter() - began) * 1000)
    return wall, cpu, result


def percentiles(samples: Sequence[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{statistics.median(ordered):.2f} | {p90:.2f}"


def measure(games: int, runs: int, seed: int) -> str:
    """Run the measurements; return the BENCHMARKS.md section."""
    with tempfile.TemporaryDirectory(prefix="duel-history-") as temp:
        path = build_journal(Path(temp), games, seed)
        app = create_app(Config.defaults(journal=path), CATALOG=default_catalog())
        client = app.test_client()
        gz = {"Accept-Encoding": "gzip"}
        rows = []
        for label, url in (("page 1", "/history"), ("page 100", "/history?page=100")):
            *plain_ms, plain = timed(lambda url=url: client.get(url), runs)
            *gzip_ms, zipped = timed(lambda url=url: client.get(url, headers=gz), runs)
            assert plain.status_code == 200 and zipped.headers["Content-Encoding"] == "gzip"
            rows.append((f"paged, {label}", *plain_ms, len(plain.get_data())))
            rows.append((f"paged, {label}, gzipped", *gzip_ms, len(zipped.get_data())))

        def whole() -> str:  # the page before paging: every game, rendered at once
            with app.test_request_context("/history"):
                journal = get_journal()
                assert journal is not None
                view = history_view(journal.games())
                return render_template("history/list.html", view=view, current=None)

        *whole_ms, page = timed(whole, max(5, runs // 10))
        rows.append(("whole list (before), rendered in the app", *whole_ms, len(page.encode())))
    lines = [
        SECTION,
        "",
        "The history page, by `benchmarks/history_page.py`. Command (from the repository root,"
        " venv python):",
        "",
        f"    .venv/bin/python benchmarks/history_page.py --games {games} --runs {runs} --write",
        "",
        f"Machine: {machine()}; shared with other work while measuring (load average"
        f" {os.getloadavg()[0]:.1f} on 2 cores at the end of this run, so wall times include"
        " waiting for a core; CPU time is this process's own). A journal of "
        f"{games:,} finished games; server time inside the app (Flask test client, no network)."
        " Target: under 60 KB and 10 ms at 10,000 games. The whole list on one page is the"
        " code before paging, measured in the same run.",
        "",
        "| request | runs | wall ms, median | p90 | CPU ms, median | p90 | bytes |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, wall, cpu, size in rows:
        cells = f"{percentiles(wall)} | {percentiles(cpu)}"
        lines.append(f"| {label} | {len(wall)} | {cells} | {size:,} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args(argv)
    section = measure(args.games, args.runs, args.seed)
    print(section)
    if args.write:
        write_section(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
