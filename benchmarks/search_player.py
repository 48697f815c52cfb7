"""The search player: arena matches (seats swapped on paired deals), the time to a hint, and
rollouts per second.

Run parts separately (they take long; the machine is shared), each writing a JSON file, then
write the section of BENCHMARKS.md from the files:

    .venv/bin/python benchmarks/search_player.py arena --a normal --b random --games 400 \
        --jobs 2 --out a.json
    .venv/bin/python benchmarks/search_player.py latency --positions 60 --out l.json
    .venv/bin/python benchmarks/search_player.py latency --positions 60 --expansion pantheon \
        --out lp.json   # Pantheon positions (not drawn by `write`)
    .venv/bin/python benchmarks/search_player.py table --positions 30 --out t.json
    .venv/bin/python benchmarks/search_player.py write a.json b.json c.json l.json t.json

`table` is the time to a hint at the table: the coach asked on the device while its camera
loop and its web server run, with phones polling the live page (benchmarks/table_hint.py).
Run it alone on the machine (not niced): it measures waiting for a core too.

`write` keeps every result in benchmarks/search_player.json: a file given replaces the stored
result of the same match, latency run or table run, so that one part can be run again and
written without the others. The section is drawn from all stored results; the notes written
by hand at its end (from the line starting "What these runs show") are kept as they are.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from report import BENCHMARKS, machine, write_section
from table_hint import run_table

from companion.device.coach import SECONDS as COACH_SECONDS
from companion.engine.catalog import default_catalog
from companion.engine.state import GameState, PendingKind, Player
from companion.play.arena import Tally, arena
from companion.play.simulate import play
from companion.search.pantheon import CHANCE_DECISIONS
from companion.search.player import LEVEL_CHOICES, LEVELS, suggest

DRAWN_FIRST = CHANCE_DECISIONS | {PendingKind.GREAT_LIBRARY}
"""Decisions whose answer waits for a draw from the table (left out of the latency run)."""


def _pair(job: tuple[str, str, int]) -> tuple[int, list[str], dict[str, int], float]:
    """One pair of games of a match (the deals of `pair_seed`, A as p1 then as p2), as
    `arena` plays them inside a longer match: A's results, the victories, the CPU time."""
    a, b, pair_seed = job
    start = time.process_time()
    results: list[str] = []

    def on_game(number: int, final: GameState) -> None:
        a_seat = Player.P1 if number % 2 == 0 else Player.P2
        results.append("shared" if final.shared else "win" if final.winner is a_seat else "loss")

    tally = arena(default_catalog(), a, b, 2, pair_seed, on_game)
    return pair_seed, results, tally.victories, time.process_time() - start


def run_arena(a: str, b: str, games: int, seed: int, out: Path, jobs: int = 1) -> dict[str, object]:
    """One match of `games` (even) games, its pairs played by `jobs` processes; each game's
    result is appended to `out` + ".progress" as its pair ends (A is p1 in even games), so
    that a match cut short can still be read. The games are those of `duel-companion arena`
    with the same seed: pair k is played on the deals of `seed + k` whoever plays it."""
    start = time.perf_counter()
    progress = out.with_suffix(".progress")
    progress.write_text("")
    wins = losses = shared = 0
    victories: dict[str, int] = {"military": 0, "science": 0, "civilian": 0, "forfeit": 0}
    cpu = 0.0
    pairs = [(a, b, seed + k) for k in range(games // 2)]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for pair_seed, results, won, seconds in pool.imap_unordered(_pair, pairs):
            cpu += seconds
            for kind, count in won.items():
                victories[kind] += count
            with progress.open("a") as file:
                for offset, result in enumerate(results):
                    wins += result == "win"
                    losses += result == "loss"
                    shared += result == "shared"
                    line = {
                        "game": 2 * (pair_seed - seed) + offset,
                        "a": result,
                        "seconds": time.perf_counter() - start,
                    }
                    file.write(json.dumps(line) + "\n")
    tally = Tally(wins + losses + shared, wins, losses, shared, victories)
    low, high = tally.interval
    return {
        "kind": "arena", "a": a, "b": b, "games": tally.games, "seed": seed, "wins": wins,
        "losses": losses, "shared": shared, "score": tally.score, "interval": [low, high],
        "seconds": time.perf_counter() - start, "cpu_seconds": cpu, "jobs": jobs,
        "victories": victories,
    }  # fmt: skip


def run_latency(positions: int, seed: int, expansions: tuple[str, ...] = ()) -> dict[str, object]:
    """Time to a hint at each level over positions of random games (every 5th state with a
    dealt structure or a decision; with `expansions`, games of the expansion), and the
    search's rollouts per second. Decisions that need a draw first (the Great Library's,
    and the Pantheon's Mythology deck, Enki and the Gate) are left out."""
    catalog = default_catalog(expansions)
    states = []
    game = 0
    while len(states) < positions:
        found = play(catalog, random.Random(seed + game), check=False).states
        states += [s for s in found[2:-1:5] if s.structure is not None and not s.finished]
        states = [s for s in states if s.pending is None or s.pending.kind not in DRAWN_FIRST]
        game += 1
    states = states[:positions]
    # a Pantheon run is its own kind: `write` draws the base game's section without it
    kind = "latency " + " ".join(expansions) if expansions else "latency"
    result: dict[str, object] = {"kind": kind, "positions": len(states)}
    for name, level in LEVELS.items():
        times, cpu_times, iterations, events, cpu = [], [], 0, 0, 0.0
        for state in states:
            start, start_cpu = time.perf_counter(), time.process_time()
            answer = suggest(state, level, seed)
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - start_cpu)
            iterations += answer.stats.iterations
            events += answer.stats.rollout_events
            cpu += cpu_times[-1]
        result[name] = {
            "p50": statistics.median(times),
            "p95": percentile(times, 0.95),
            "max": max(times),
            "cpu_p50": statistics.median(cpu_times),
            "cpu_p95": percentile(cpu_times, 0.95),
            "iterations_per_cpu_second": iterations / cpu if cpu else 0.0,
            "rollout_events_per_cpu_second": events / cpu if cpu else 0.0,
        }
    return result


def from_progress(a: str, b: str, seed: int, progress: Path) -> dict[str, object]:
    """A match stopped before its end, from the games it finished (whole pairs only, so
    that every deal was played from both seats)."""
    games = [json.loads(line) for line in progress.read_text().splitlines() if line.strip()]
    games = games[: len(games) - len(games) % 2]
    wins = sum(g["a"] == "win" for g in games)
    shared = sum(g["a"] == "shared" for g in games)
    tally = Tally(len(games), wins, len(games) - wins - shared, shared, {})
    low, high = tally.interval
    return {
        "kind": "arena", "a": a, "b": b, "games": len(games), "seed": seed, "wins": wins,
        "losses": tally.losses, "shared": shared, "score": tally.score,
        "interval": [low, high], "seconds": games[-1]["seconds"] if games else 0.0,
        "victories": {}, "cut_short": True,
    }  # fmt: skip


def games_text(result: dict[str, object]) -> str:
    """The games of a match; one stopped for time says so (400 were planned)."""
    if result.get("cut_short"):
        return f"{result['games']} (stopped for time; 400 planned)"
    return str(result["games"])


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


HEADING = "## Search player"
NOTES = "What these runs show"  # the start of the notes written by hand, kept by `write`
STORE = Path(__file__).resolve().parent / "search_player.json"


def result_key(result: dict[str, Any]) -> tuple[object, ...]:
    """What a result measures: a later result with the same key replaces it."""
    if result["kind"] == "arena":
        return ("arena", result["a"], result["b"])
    if result["kind"] == "table":
        return ("table", result["level"], result["seconds_limit"])
    return (str(result["kind"]),)


def merged(stored: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored results with the new ones in place of those they measure again (in the
    stored order; new kinds of result at the end)."""
    by_key = {result_key(r): r for r in stored}
    for result in new:
        by_key[result_key(result)] = result
    return list(by_key.values())


def kept_notes(path: Path = BENCHMARKS) -> str:
    """The hand-written notes at the end of the section (from the line starting `NOTES`)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    start = text.find(f"\n{HEADING}\n")
    if start == -1:
        return ""
    end = text.find("\n## ", start + 1)
    body = text[start : end if end != -1 else len(text)]
    notes = body.find(f"\n{NOTES}")
    return body[notes + 1 :].strip("\n") + "\n" if notes != -1 else ""


def section(results: list[dict[str, object]]) -> str:
    lines = [
        HEADING,
        "",
        "Measured by `benchmarks/search_player.py` (commands in its docstring) on a development "
        f"machine: {machine()}, shared with other sessions' tests while measuring (the load "
        "of each run is in its notes), **not a Raspberry Pi**. The camera loop and the web "
        "server were not running during these runs (the other sessions' work was the load), "
        "except for the time to a hint at the table, below.",
        "",
        "Arena (`companion/arena.py`, the same as `duel-companion arena`): games in pairs on "
        "the same setup and deals with the seats swapped; A's score counts a shared victory "
        "half; the interval is the 95 % Wilson score interval of A's score.",
        "",
        "| A | B | games | A wins | A losses | shared | A's score | 95 % interval | CPU s/game |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        if r["kind"] != "arena":
            continue
        low, high = r["interval"]
        lines.append(
            f"| {r['a']} | {r['b']} | {games_text(r)} | {r['wins']} | {r['losses']} | "
            f"{r['shared']} | {r['score']:.1%} | {low:.1%} to {high:.1%} | "
            f"{per_game(r)} |"
        )
    for r in results:
        if r["kind"] != "latency":
            continue
        lines += [
            "",
            f"Time to a hint (`suggest`, as `duel-companion hint` after reading the record) over "
            f"{r['positions']} positions of random games, and the search's speed (one "
            "iteration = one determinization, one descent, one rollout of up to 12 events):",
            "",
            "| level | iterations | wall p50 | wall p95 | wall max | CPU p50 | CPU p95 | "
            "iterations per CPU s | rollout events per CPU s |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for name, level in LEVELS.items():
            m = r[name]
            lines.append(
                f"| {name} | {level.iterations} | {m['p50']:.2f} s | {m['p95']:.2f} s | "
                f"{m['max']:.2f} s | {m['cpu_p50']:.2f} s | {m['cpu_p95']:.2f} s | "
                f"{m['iterations_per_cpu_second']:.0f} | "
                f"{m['rollout_events_per_cpu_second']:.0f} |"
            )
    lines += table_rows([r for r in results if r["kind"] == "table"])
    return "\n".join(lines) + "\n"


def per_game(r: dict[str, Any]) -> str:
    """CPU seconds a game; a match measured before CPU time was kept gives its wall time."""
    if "cpu_seconds" in r:
        return f"{float(r['cpu_seconds']) / r['games']:.1f}"
    return f"{float(r['seconds']) / r['games']:.1f} (wall)"


def table_rows(runs: list[dict[str, Any]]) -> list[str]:
    """The time to a hint at the table (benchmarks/table_hint.py): how it is measured, then
    one row per run with the machine's load around it."""
    if not runs:
        return []
    lines = [
        "",
        "Time to a hint at the table (`search_player.py table`), with the device running as "
        "`duel-companion run` wires it: the run loop, the camera thread decoding generated "
        "frames of the empty table (15 fps asked; the rate it kept is in the table), the phone "
        f"pages served by waitress and {runs[0]['clients']} phones polling the live page, over "
        "positions of random games. OLED: from the left press on the button map reaching the "
        "loop to the coach's answer handed to the display; phone: the live page's coach "
        "(`coach.json`), request to answer, at the same positions. Clock limit: where the "
        f"coach's search stops (the device's is {COACH_SECONDS:g} s, "
        "`companion/device/coach.py`). Load: the machine's load average over 1 minute "
        "before and after the run (2 cores: above 2, every thread waits for a core); CPU: "
        "the process (the device and the benchmark's phones), in % of one core.",
        "",
        "| level | clock limit (OLED / phone) | positions | load | CPU | camera fps | searches "
        "cut by the clock | OLED p50 | OLED p95 | OLED max | phone p50 | phone p95 | "
        "p95 <= 1 s (normal) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in runs:
        limits = [r["seconds_limit"], r.get("phone_seconds_limit")]
        clock = " / ".join(f"{x:g} s" if x else "none" for x in limits)
        box, phone = r["box"], r["phone"]
        target = "-" if r["level"] != "normal" else "met" if box["p95"] <= 1.0 else "**not met**"
        lines.append(
            f"| {r['level']} ({r['iterations']} iterations) | "
            f"{clock} | {r['positions']} | "
            f"{r['load_before'][0]:.1f} / {r['load_after'][0]:.1f} | "
            f"{r['process_cpu_percent']:.0f} % | {r['camera_fps']:.1f} | "
            f"{r['cut_by_clock']} of {r['searches']} | {box['p50']:.2f} s | "
            f"{box['p95']:.2f} s | {box['max']:.2f} s | {phone['p50']:.2f} s | "
            f"{phone['p95']:.2f} s | {target} |"
        )
    return lines


def write(files: list[Path], store: Path = STORE, path: Path = BENCHMARKS) -> str:
    """Merge the results in `files` into the store; write the section from all of them."""
    stored = json.loads(store.read_text(encoding="utf-8")) if store.exists() else []
    results = merged(stored, [json.loads(f.read_text(encoding="utf-8")) for f in files])
    store.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    notes = kept_notes(path)
    text = section(results) + ("\n" + notes if notes else "")
    write_section(text, path)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="part", required=True)
    one = sub.add_parser("arena")
    one.add_argument("--a", required=True)
    one.add_argument("--b", required=True)
    one.add_argument("--games", type=int, default=100)
    one.add_argument("--seed", type=int, default=0)
    one.add_argument("--out", type=Path, required=True)
    one.add_argument("--jobs", type=int, default=1, help="processes playing pairs (default 1)")
    two = sub.add_parser("latency")
    two.add_argument("--positions", type=int, default=60)
    two.add_argument("--seed", type=int, default=0)
    two.add_argument("--out", type=Path, required=True)
    two.add_argument("--expansion", action="append", default=[], choices=["pantheon"])
    cut = sub.add_parser("partial", help="the result of a match cut short, from its progress")
    cut.add_argument("--a", required=True)
    cut.add_argument("--b", required=True)
    cut.add_argument("--seed", type=int, default=0)
    cut.add_argument("--progress", type=Path, required=True)
    cut.add_argument("--out", type=Path, required=True)
    table = sub.add_parser("table", help="the time to a hint with the camera and the pages")
    table.add_argument("--positions", type=int, default=30)
    table.add_argument("--seed", type=int, default=0)
    table.add_argument("--clients", type=int, default=3, help="phones polling the live page")
    table.add_argument("--level", default="normal", choices=LEVEL_CHOICES)
    table.add_argument("--seconds", type=float, default=COACH_SECONDS,
                       help="the coach's clock limit (default the device's; 0: none)")  # fmt: skip
    table.add_argument("--out", type=Path, required=True)
    three = sub.add_parser("write")
    three.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    if args.part == "arena":
        args.out.write_text(
            json.dumps(run_arena(args.a, args.b, args.games, args.seed, args.out, args.jobs))
        )
    elif args.part == "latency":
        expansions = tuple(dict.fromkeys(args.expansion))
        args.out.write_text(json.dumps(run_latency(args.positions, args.seed, expansions)))
    elif args.part == "partial":
        args.out.write_text(json.dumps(from_progress(args.a, args.b, args.seed, args.progress)))
    elif args.part == "table":
        seconds = args.seconds or None
        result = run_table(args.positions, args.seed, args.clients, args.level, seconds)
        args.out.write_text(json.dumps(result))
    else:
        print(write(args.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
