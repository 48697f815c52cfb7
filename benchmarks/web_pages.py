"""Measure the phone pages: server time of the score pad, bytes of a first load, requests/s.

Run: .venv/bin/python benchmarks/web_pages.py [--runs N] [--seconds S] [--write]
(--write replaces the "## Web" section of BENCHMARKS.md with the results.)

Everything runs on loopback (127.0.0.1) against a temporary journal holding random complete
games played by the simulator; the request loops are bounded by a count and a time limit.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from report import machine, write_section

from companion.config import Config
from companion.engine.catalog import default_catalog
from companion.play.simulate import play
from companion.records.game import import_record
from companion.records.journal import Journal
from web import WebServer, create_app

GAMES = 20
SECTION = "## Web"


def build_journal(folder: Path, games: int, seed: int) -> Path:
    """A journal with `games` random finished games (and the last one left unfinished)."""
    catalog = default_catalog()
    rng = random.Random(seed)
    path = folder / "journal.sqlite"
    with Journal.create(path) as journal:
        for _ in range(games):
            playout = play(catalog, rng, check=False)
            import_record(catalog, journal, list(playout.record_lines()))
    return path


def percentiles(samples: Sequence[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    return (
        statistics.median(ordered),
        ordered[int(0.9 * (len(ordered) - 1))],
        ordered[-1],
    )


def server_times(app: Any, path: str, runs: int, cold: bool) -> list[float]:
    """Milliseconds per request inside the app (Flask test client: no network)."""
    client = app.test_client()
    cache = app.extensions["duel"]["cache"]
    times = []
    for _ in range(runs):
        if cold:
            cache.clear()  # the first view of a game after a change: replay included
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1e3)
        assert response.status_code == 200, path
        response.close()
    return times


def fetch(port: int, path: str) -> tuple[int, int]:
    """Status and bytes received (status line, headers and body) for one GET over HTTP."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + sum(
        len(f"{k}: {v}\r\n") for k, v in response.getheaders()
    )
    connection.close()
    return response.status, head + len(body) + 2


def first_load(port: int, page: str, assets: Sequence[str]) -> list[tuple[str, int]]:
    """Bytes of the page and of each asset it loads (no cache: a first visit)."""
    sizes = []
    for path in (page, *assets):
        status, size = fetch(port, path)
        assert status == 200, path
        sizes.append((path, size))
    return sizes


def throughput(port: int, path: str, clients: int, requests: int, seconds: float) -> float:
    """Requests per second with `clients` keep-alive connections, bounded in count and time."""
    done = [0] * clients
    deadline = time.perf_counter() + seconds

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(requests):
            if time.perf_counter() > deadline:
                break
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            done[index] += 1
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.perf_counter() - start)


def row(name: str, samples: Sequence[float]) -> str:
    median, p90, worst = percentiles(samples)
    return f"| {name} | {len(samples)} | {median:.2f} | {p90:.2f} | {worst:.2f} |"


def measure(runs: int, seconds: float, seed: int) -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="web-bench-"))
    journal = build_journal(folder, GAMES, seed)
    app = create_app(Config.defaults(journal=journal))
    score = f"/games/{GAMES}/score"
    poll = f"/api/games/{GAMES}/seq"
    timed: list[tuple[str, Callable[[], list[float]]]] = [
        ("score pad, first view (replay + render)", lambda: server_times(app, score, runs, True)),
        ("score pad, again (cached replay)", lambda: server_times(app, score, runs, False)),
        ("live board, first view", lambda: server_times(app, f"/games/{GAMES}", runs, True)),
        ("poll (`/api/games/N/seq`)", lambda: server_times(app, poll, runs, False)),
        ("history (20 games)", lambda: server_times(app, "/history", runs, False)),
    ]  # fmt: skip
    lines = [
        "| server time (ms) | requests | median | p90 | max |",
        "|---|---|---|---|---|",
    ]
    for name, run in timed:
        run()  # warm up imports and templates
        lines.append(row(name, run()))
    threads = 4  # the config's default web.threads
    with WebServer(app, "127.0.0.1", 0, threads=threads) as server:
        score_sizes = first_load(server.port, score, ["/static/style.css"])
        live_sizes = first_load(
            server.port, f"/games/{GAMES}", ["/static/style.css", "/static/live.js"]
        )
        rates = [
            (path, clients, throughput(server.port, path, clients, 2000, seconds))
            for path in (score, poll)
            for clients in (1, 8)
        ]
    lines += ["", "| first load (bytes over HTTP, headers included, no compression) | bytes |"]
    lines.append("|---|---|")
    for label, sizes in (("score pad", score_sizes), ("live board", live_sizes)):
        parts = ", ".join(f"{path} {size}" for path, size in sizes)
        lines.append(f"| {label}: {parts} | **{sum(s for _, s in sizes)}** |")
    lines += ["", f"| requests/s on loopback, waitress with {threads} threads | clients | req/s |"]
    lines.append("|---|---|---|")
    for path, clients, rate in rates:
        lines.append(f"| GET {path} | {clients} | {rate:.0f} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="requests per server timing")
    parser.add_argument("--seconds", type=float, default=3.0, help="limit per throughput run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md ## Web")
    args = parser.parse_args()
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # 8 clients > 4 threads: by design
    results = measure(args.runs, args.seconds, args.seed)
    command = f"python benchmarks/web_pages.py --runs {args.runs} --seconds {args.seconds}"
    lines = [
        "The phone pages (`web/`), by `benchmarks/web_pages.py`. Command (from the repository "
        "root, venv python):",
        "",
        "    .venv/bin/" + command + (" --write" if args.write else ""),
        "",
        f"Machine: {machine()}; shared with other work while measuring, so the tails "
        "include other processes' noise. A temporary journal holds 20 random complete games "
        "from the simulator; the pages show the last one. Server time is measured inside "
        "the app (Flask test client, no network); targets: score pad under 20 ms, first load "
        "under 60 KB. A Raspberry Pi is several times slower than this machine.",
        "",
        *results,
        "",
        "Reading: a phone on the live page polls once every 2 s, so 8 phones make 4 requests/s "
        "of the cheapest kind, about 1 % of what the server answers here; they never hold a "
        "worker thread between polls (server-sent events would hold one each).",
    ]
    print("\n".join(lines))
    if args.write:
        write_section("## Web\n\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
