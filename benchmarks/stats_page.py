"""Measure the statistics page over a journal of 10,000 games: server time and first load.

Run: .venv/bin/python benchmarks/stats_page.py [--games N] [--runs N] [--journal PATH] [--write]
(--journal keeps the generated journal at PATH and reuses it when it is there; --write replaces
the "## Statistics" section of BENCHMARKS.md with the results.)

The journal holds random complete games played by the simulator, imported through the rules
(as a phone or the import command would), spread over two years among six named players; one
game in fifty is played at the box event by event (real minutes). Server time is measured
inside the app (Flask test client, no network).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from report import machine, write_section
from web_pages import fetch, percentiles

from companion.config import Config
from companion.engine.catalog import default_catalog
from companion.play.simulate import play
from companion.records.game import Game, import_record
from companion.records.journal import Journal
from companion.records.tables import steps_applied
from web import WebServer, create_app
from web.stats import warm_up

SECTION = "## Statistics"
NAMES = ("Ann", "Ben", "Cleo", "Dag", "Eva", "Finn")
PLAYED_EVERY = 50  # one game in 50 is played at the box, event by event


class Clock:
    """The journal's clock, moved by the builder."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def build_journal(path: Path, games: int, seed: int) -> None:
    """A journal of `games` finished random games over two years."""
    catalog = default_catalog()
    rng = random.Random(seed)
    clock = Clock(datetime(2024, 11, 1, 19, 0, tzinfo=UTC))
    step = timedelta(days=730) / games
    with Journal.create(path, clock=clock) as journal:
        for number in range(games):
            clock.now += step
            playout = play(catalog, rng, check=False)
            pair = rng.sample(NAMES, 2)
            if number % PLAYED_EVERY:
                game_id = import_record(catalog, journal, list(playout.record_lines()))
            else:
                game = Game.start(catalog, journal)
                for event in playout.events:
                    clock.now += timedelta(seconds=rng.randint(20, 90))
                    game.submit(event)
                game_id = game.game_id
            journal.set_players(game_id, {"p1": pair[0], "p2": pair[1]})


def timed(app: Any, paths: Sequence[str], fresh: bool) -> list[float]:
    """Milliseconds per GET inside the app; `fresh` forgets everything cached first."""
    client = app.test_client()
    times = []
    for path in paths:
        if fresh:
            app.extensions["duel"].pop("stats", None)
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1e3)
        assert response.status_code == 200, path
        response.close()
    return times


def row(name: str, samples: Sequence[float]) -> str:
    median, p90, worst = percentiles(samples)
    return f"| {name} | {len(samples)} | {median:.1f} | {p90:.1f} | {worst:.1f} |"


def after_a_game(app: Any, path: Path, games: int = 5) -> list[float]:
    """Milliseconds of `/stats` each time one more finished game was imported."""
    catalog = default_catalog()
    rng = random.Random(path.stat().st_size)
    client = app.test_client()
    client.get("/stats")
    times = []
    for _ in range(games):
        with Journal.open(path) as journal:
            import_record(catalog, journal, list(play(catalog, rng, check=False).record_lines()))
        start = time.perf_counter()
        client.get("/stats").close()
        times.append((time.perf_counter() - start) * 1e3)
    return times


def warm_ups(path: Path, times: int) -> list[float]:
    """Milliseconds from the app's creation until its warm-up thread has the statistics."""
    found = []
    for _ in range(times):
        start = time.perf_counter()
        app = create_app(Config.defaults(journal=path), STATS_WARM_UP=False)
        warm_up(app).join()
        found.append((time.perf_counter() - start) * 1e3)
    return found


def measure(path: Path, runs: int) -> list[str]:
    app = create_app(Config.defaults(journal=path), STATS_WARM_UP=False)
    filters = [f"/stats?player={name}" for name in NAMES] + [
        f"/stats?since=2025-{month:02d}-01&until=2025-{month:02d}-28" for month in range(1, 13)
    ]
    changing = [filters[i % len(filters)] for i in range(runs)]
    cases: list[tuple[str, Callable[[], list[float]]]] = [
        ("`/stats`, first request after start (summaries read + statistics + page)",
         lambda: timed(app, ["/stats"] * max(runs // 10, 3), True)),
        ("`/stats`, a filter not asked before (statistics + page)",
         lambda: timed(app, changing, False)),
        ("`/stats`, asked before (cached statistics, page rendered)",
         lambda: timed(app, ["/stats"] * runs, False)),
        ("`/stats.json`, asked before", lambda: timed(app, ["/stats.json"] * runs, False)),
    ]  # fmt: skip
    lines = ["| server time (ms) | requests | median | p90 | max |", "|---|---|---|---|---|"]
    timed(app, ["/stats", "/stats.json"], True)  # imports and templates
    for name, run in cases:
        lines.append(row(name, run()))
    lines.append(
        row("`/stats` after one more game finished (its summary read)", after_a_game(app, path))
    )
    lines.append(row("warm-up at start (a background thread, until ready)", warm_ups(path, 3)))
    with WebServer(app, "127.0.0.1", 0, threads=2) as server:
        sizes = [(p, fetch(server.port, p)[1]) for p in ("/stats", "/static/style.css")]
    with Journal.open(path, readonly=True) as journal:
        games = len(journal.games())
    parts = ", ".join(f"{p} {size}" for p, size in sizes)
    lines += [
        "",
        f"First load of `/stats` over {games} games (bytes over HTTP, headers included, no "
        f"compression): {parts}, **{sum(s for _, s in sizes)}** in all.",
    ]
    return lines


def kept_journal(path: Path | None, games: int, seed: int) -> Path:
    """The journal at `path` (built there when missing; a temporary one when None), brought
    up to this version's schema as its next game would bring it."""
    path = path or Path(tempfile.mkdtemp(prefix="stats-bench-")) / "journal.sqlite"
    if not path.exists():
        start = time.perf_counter()
        build_journal(path, games, seed)
        print(f"built {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    with Journal.open(path) as journal, journal.transaction() as db:
        steps_applied(db)  # a journal kept from an older version: as its next game would
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=60, help="requests per timing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", type=Path, help="keep (and reuse) the journal here")
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    path = kept_journal(args.journal, args.games, args.seed)
    results = measure(path, args.runs)
    command = f"python benchmarks/stats_page.py --games {args.games} --runs {args.runs}"
    lines = [
        SECTION,
        "",
        "The statistics page (`/stats`, issue 16), by `benchmarks/stats_page.py`. Command (from "
        "the repository root, venv python; `--journal PATH` keeps the generated journal):",
        "",
        "    .venv/bin/" + command + (" --write" if args.write else ""),
        "",
        f"Machine: {machine()}; shared with other work while measuring. The journal holds "
        f"{args.games} random finished games over two years among six named players (one in "
        f"{PLAYED_EVERY} played at the box event by event, the others imported). Server time is "
        "measured inside the app (Flask test client, no network); target: under 100 ms, and "
        "a first load under 100 KB.",
        "",
        *results,
        "",
        "How: each finished game leaves a summary row (`game_summaries`) when its last event "
        "is written, and SQLite triggers keep a row per seat beside it (`stat_seats`), so "
        "statistics never replay games and keep none in memory: the statistics of a filter "
        "are one SQL statement (companion/records/seat_stats.py), kept for the last 16 "
        "filters until the journal changes (a change log kept by triggers tells). At start, "
        "a background thread counts the default statistics, so the first phone normally "
        "finds them ready; the first row is that work done inside a request. The memory "
        'and first requests of every filter: "Statistics memory". The load average while '
        "measuring was "
        f"{os.getloadavg()[0]:.1f} on 2 cores (other helpers' tests), so these times are "
        "several times what the same machine gives idle.",
    ]
    print("\n".join(lines))
    if args.write:
        write_section("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
