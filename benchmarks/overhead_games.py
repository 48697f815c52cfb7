"""Overhead benchmark: whole generated games read from above, checked against the games.

Run: .venv/bin/python benchmarks/overhead_games.py [--games 100] [--first 1]
     [--results out/overhead_games.jsonl] [--write]

Each game is a random legal game (`companion.play.simulate.play`, seed = its number) with
its full deals, played through the run loop's `App` with `overhead = true` (journal in a
temporary folder, OLED screens drawn, no buttons but those the screens ask for) at a table
seen from above (`playback.play_overhead`: generated top views at 2304x1296 of each age's
structure less the cards taken, read by the real decoder and structure reader; every 4th
card taken, a frame with a hand over the structure first). The players scan a card by hand
only when the camera gave nothing after 3 frames. For each game:

- the journal's events against the game as played (`playback.not_played`): events recorded
  that were not played (wrong), events played that were not recorded (missing);
- the cards scanned by hand, each checked against the last frame read before it: the view
  could not tell its position (None there), or it told it and the box still asked;
- the positions told wrongly over all frames read, the cards proposed that were not taken.

One JSON line per game goes to `--results` as it finishes (a long run can be stopped and
carried on with `--first`); `--write` puts the summary of all the lines in that file in
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from report import machine, write_section

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.engine.catalog import default_catalog  # noqa: E402
from companion.engine.events import Deal, Reveal, Setup  # noqa: E402
from companion.play.simulate import play as simulate  # noqa: E402
from companion.service.loop import App  # noqa: E402
from companion.service.playback import (  # noqa: E402
    FrameRecorder,
    TablePlayer,
    TopCamera,
    not_played,
    play_overhead,
    with_reveals,
)
from companion.service.root import open_journal  # noqa: E402

RESULTS = ROOT / "out" / "overhead_games.jsonl"
ACTIONS = ("build", "discard", "wonder")


def one_game(seed: int, spread: float = 0.0) -> dict[str, Any]:
    """Play generated game `seed` from above (its structures laid by hand with `spread`);
    its figures as one JSON object."""
    catalog = default_catalog()
    game = simulate(catalog, random.Random(seed), check=False, history=False)
    if game.failure is not None:
        raise SystemExit(f"game {seed}: {game.failure}")
    first = game.events[0]
    assert isinstance(first, Setup)
    full = [replace(first, players=("", "")), *game.events[1:]]  # the box names no one
    played = with_reveals(catalog, full)
    deals = {e.age: tuple(str(c) for c in e.layout) for e in full if isinstance(e, Deal)}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        journal = open_journal(Path(folder) / "journal.sqlite")
        app = App(catalog, journal, FrameRecorder(None), overhead=True)
        camera = TopCamera(deals, seed=seed * 10_000, spread=spread)
        counts = play_overhead(app, TablePlayer(played, mistakes=False), camera)
        wrong, missing = not_played(journal.effective_events(app.game.game_id), played)
        finished = app.state.finished
        journal.close()
    return {
        "game": seed,
        "spread": spread,
        "finished": finished,
        "ages": len(deals),
        "actions": sum(1 for e in played if e.type in ACTIONS),
        "reveals": sum(isinstance(e, Reveal) for e in played),
        "deals_read": counts.deals,
        "taken_read": counts.taken,
        "turned_read": counts.turned,
        "by_hand": counts.by_hand,
        "unclear": counts.unclear,
        "told": counts.told,
        "wrong_events": wrong,
        "missing_events": missing,
        "frames": counts.frames,
        "misread": counts.misread,
        "wrong_proposals": counts.wrong_proposals,
        "seconds": round(time.perf_counter() - started, 1),
        "reading_ms": round(1000 * sum(camera.reading_seconds) / len(camera.reading_seconds)),
    }


def _table_row(rows: list[dict[str, Any]]) -> str:
    """One line of the table: the games of one layout spread, added up."""
    total = {key: sum(r[key] for r in rows) for key in (
        "actions", "reveals", "deals_read", "taken_read", "turned_read", "by_hand", "unclear",
        "frames", "misread", "wrong_proposals", "ages", "finished",
    )}  # fmt: skip
    wrong = sum(len(r["wrong_events"]) for r in rows)
    missing = sum(len(r["missing_events"]) for r in rows)
    clean = sum(not r["wrong_events"] and not r["missing_events"] for r in rows)
    told = sum(len(r["told"]) for r in rows)
    reading = sorted(r["reading_ms"] for r in rows)
    seeds = f"{min(r['game'] for r in rows)}-{max(r['game'] for r in rows)}"
    return (
        f"| {rows[0]['spread']:g} | {len(rows)} ({seeds}) | {total['finished']} | {clean} "
        f"| {wrong} | {missing} | {total['deals_read']}/{total['ages']} "
        f"| {total['taken_read']}/{total['actions']} | {total['turned_read']}/{total['reveals']} "
        f"| {total['by_hand']} | {total['unclear']} | {told} | {total['frames']} "
        f"| {total['misread']} | {total['wrong_proposals']} | {reading[len(reading) // 2]} ms |"
    )


def summary(rows: list[dict[str, Any]], command: str) -> str:
    """The BENCHMARKS.md section of the games in `rows` (one line per layout spread)."""
    spreads = sorted({r.get("spread", 0.0) for r in rows})
    lines = [
        "## Overhead camera: whole games read from above",
        "",
        f"Measured by `{command}` on {machine()}. Generated games (random legal games with "
        "their full deals, `companion/play/simulate.py`, seed = game number), each played "
        "through the run loop's `App` with `overhead = true` at a table seen from above: "
        "generated top views at 2304x1296 of each age's structure less the cards taken, "
        "laid as data/table.toml assumes (spread 0) or by hand (spread 1: rows 50-60 % of a "
        "card's height apart, gaps of 1-4 mm, each card a little turned and shifted, the same "
        "for the whole age), fine light, every 4th card taken a frame with a hand over the "
        "structure first; read by the real decoder and structure reader. A card is scanned "
        "by hand only when the camera gave nothing after 3 frames "
        "(`benchmarks/overhead_games.py`, `playback.play_overhead`).",
        "",
        "| spread | games | finished | journal = game played | wrong events | missing events "
        "| deals read from above | cards taken proposed | cards turned up read "
        "| scanned by hand | of those, the view could not tell | told, yet asked | frames "
        "| positions told wrongly | proposed, still lying there | reading / frame |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *(_table_row([r for r in rows if r.get("spread", 0.0) == s]) for s in spreads),
        "",
        "Journal = game played: the journal's effective events are the game's events as "
        "played (cards turned up after one action compared as a set: the camera may read the "
        "second first), `playback.not_played`. Scanned by hand: deal cards, cards turned up "
        "and cards taken that the players scanned; each is checked against the last frame "
        "read before the scan: *the view could not tell* its position (the reader said "
        "None there: a hand, a sticker not read, the last cards of an age too few to place "
        "the structure), or it *told* the position and the box still asked (none wanted). "
        "Proposed, still lying there: the box proposed a card nobody had taken (nothing is "
        "recorded unless a player confirms it; the players here confirm only the card they "
        "take next, and go back otherwise). Reading / frame: the median of the games' "
        "mean (the load of the machine included).",
    ]
    told = [f"game {r['game']} (spread {r['spread']:g}): {t}" for r in rows for t in r["told"]]
    if told:
        lines += ["", "Told, yet asked: " + "; ".join(told[:6]) + "."]
    return "\n".join(lines) + "\n"


def read_results(*paths: Path) -> list[dict[str, Any]]:
    """The games in the results files, the last line of each game and spread kept."""
    rows = [json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines()]
    return list({(r["game"], r.get("spread", 0.0)): r for r in rows}.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=1, help="the first game's seed")
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="lay each age by hand (0: as data/table.toml says; 1: as people do)",
    )
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    args.results.parent.mkdir(parents=True, exist_ok=True)
    for seed in range(args.first, args.first + args.games):
        row = one_game(seed, args.spread)
        with args.results.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
        print(json.dumps({k: v for k, v in row.items() if k not in ("told",)}), flush=True)
    text = summary(read_results(args.results), "benchmarks/overhead_games.py --games 100 --write")
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
