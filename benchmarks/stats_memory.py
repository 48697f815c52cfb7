"""Measure what the statistics keep in memory and what a first request costs, at 10,000 games.

Run: .venv/bin/python benchmarks/stats_memory.py [--games N] [--journal PATH] [--write]
(--journal keeps the generated journal at PATH and reuses it, as benchmarks/stats_page.py
does, which builds it: random complete games over two years among six named players; --write
replaces the "## Statistics memory" section of BENCHMARKS.md.)

Memory: Python's allocations still held (tracemalloc) after the app answered `/stats` for the
default filter, every player and every month of 2025 (the 16 kept results and their charts),
from a fresh start. First requests: each filter asked once after a fresh start of the
statistics (nothing kept), server time inside the app (Flask test client) and its CPU time.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from report import machine, write_section
from stats_page import NAMES, build_journal
from web_pages import percentiles

from companion.config import Config
from companion.records.journal import Journal
from companion.records.tables import steps_applied
from web import create_app

SECTION = "## Statistics memory"
MONTHS = [f"/stats?since=2025-{m:02d}-01&until=2025-{m:02d}-28" for m in range(1, 13)]
PATHS = ["/stats", *(f"/stats?player={name}" for name in NAMES), *MONTHS]


def app_for(path: Path) -> Any:
    app = create_app(Config.defaults(journal=path), STATS_WARM_UP=False)
    client = app.test_client()
    client.get("/stats?game=7wonders").close()  # imports and templates, not statistics
    app.extensions["duel"].pop("stats", None)
    return app


def memory(path: Path) -> tuple[float, float]:
    """MiB held and at peak by the statistics after every path of `PATHS` was asked once."""
    app = app_for(path)
    client = app.test_client()
    gc.collect()
    tracemalloc.start()
    for wanted in PATHS:
        client.get(wanted).close()
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return held / 2**20, peak / 2**20


def first_requests(path: Path) -> tuple[list[float], list[float]]:
    """Milliseconds (server time, CPU time) of each path asked first after a fresh start."""
    app = app_for(path)
    client = app.test_client()
    server, cpu = [], []
    for wanted in [*PATHS, *(p.replace("/stats", "/stats.json") for p in PATHS)]:
        app.extensions["duel"].pop("stats", None)  # nothing kept: a first request
        start, clock = time.perf_counter(), time.process_time()
        response = client.get(wanted)
        server.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - clock) * 1e3)
        assert response.status_code == 200, wanted
        response.close()
    return server, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", type=Path, help="keep (and reuse) the journal here")
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    path = args.journal or Path(tempfile.mkdtemp(prefix="stats-memory-")) / "journal.sqlite"
    if not path.exists():
        start = time.perf_counter()
        build_journal(path, args.games, args.seed)
        print(f"built {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    with Journal.open(path) as journal, journal.transaction() as db:
        steps_applied(db)  # a journal kept from an older version: as its next game would
        games = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
    held, peak = memory(path)
    server, cpu = first_requests(path)
    load = os.getloadavg()[0]
    rows = [
        "| first request (ms) | requests | median | p90 | max |",
        "|---|---|---|---|---|",
        "| server time | {} | {:.1f} | {:.1f} | {:.1f} |".format(len(server), *percentiles(server)),
        "| CPU time of the process | {} | {:.1f} | {:.1f} | {:.1f} |".format(
            len(cpu), *percentiles(cpu)
        ),
        "",
        f"The heaviest filter is the default one, every game: `/stats` {server[0]:.1f} ms "
        f"({cpu[0]:.1f} ms CPU), `/stats.json` {server[len(PATHS)]:.1f} ms "
        f"({cpu[len(PATHS)]:.1f} ms CPU).",
    ]
    command = f"python benchmarks/stats_memory.py --games {args.games}"
    lines = [
        SECTION,
        "",
        "What the statistics keep in memory and what a first request costs, by "
        "`benchmarks/stats_memory.py`. Command (from the repository root, venv python; "
        "`--journal PATH` keeps the journal, built as for `benchmarks/stats_page.py`):",
        "",
        "    .venv/bin/" + command + (" --write" if args.write else ""),
        "",
        f"Machine: {machine()}; load average {load:.1f} on 2 cores while measuring (other "
        f"work). Journal: {games} finished Duel games.",
        "",
        f"- Memory held by the statistics after the default page, every player and every "
        f"month of 2025 were asked for ({len(PATHS)} filters, 16 kept with their charts): "
        f"**{held:.1f} MiB** (peak while counting {peak:.1f} MiB; target: under 30 MiB).",
        "- First requests: `/stats` and `/stats.json` for each of these filters, every one "
        "asked with nothing kept (target: under 100 ms):",
        "",
        *rows,
        "",
        "How: the Duel's statistics are counted by SQLite in one statement over `stat_seats`, a "
        "row per seat of each finished game kept by triggers beside the summaries "
        "(companion/records/seat_stats.py); Python receives a few rows per player, pair, day, "
        "wonder and progress token, so neither the memory nor the Python work grows with the "
        "games. SQLite's own work still does: it reads every seat of the chosen games.",
    ]
    print("\n".join(lines))
    if args.write:
        write_section("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
