"""Overhead reading of structures laid by hand: rates by layout spread, light and resolution.

Run: .venv/bin/python benchmarks/structure_layout.py [--frames 24] [--seed0 400000]
     [--spreads 0,0.5,1] [--lights fine,hard] [--resolutions 2304x1296] [--write]

Frames come from companion.vision.table_synth with `spread` (0: the spacing data/table.toml
names; 1: rows 50-60 % of a card's height apart, gaps of 1-4 mm, each card turned and
shifted a little, each sticker a little off its place). Each seed gives two readings:
- the deal (every position holds a card), read from the frame alone, as
  `duel-companion scan --structure --age N IMAGE` reads it;
- a later moment of the age (1 to 18 cards taken), read as `scan --structure --known
  KNOWN.json` reads it: KNOWN the moment before the last card was taken (a card id where one
  lay face up, "back" where a face-down card lay, "empty" where a card had been taken), so
  the frame shows one more position empty and the cards it uncovered turned up.
Shares count the positions no hand lies over (benchmarks/structure_read.py's columns);
wrong counts every position told wrongly (must be 0). Time: decoding and reading, one core.
`--write` puts the report in BENCHMARKS.md ("Overhead camera: structures laid by hand").
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from report import machine, write_section
from structure_read import PI4_FACTOR, Tally

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.decode import make_decoder  # noqa: E402
from companion.vision.structure import read_structure  # noqa: E402
from companion.vision.table_synth import _take, random_table  # noqa: E402


def later_taken(seed: int) -> int:
    """How many cards are taken at the later moment of `seed` (1 to 18)."""
    return 1 + seed * 7 % 18


def rows(
    frames: int, seed0: int, spreads: list[float], lights: list[str], resolutions: list[str]
) -> list[str]:
    decoder = make_decoder("zxing")
    out = [
        "| resolution | light | spread | reading | frames | face-up read | face-down right "
        "| empty right | just taken: empty | under a hand: told | wrong "
        "| time / frame median (p95) | Pi 4 estimate |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for resolution in resolutions:
        for light in lights:
            for spread in spreads:
                deal, later = Tally(), Tally()
                for seed in range(seed0, seed0 + frames):
                    scene = random_table(
                        seed, resolution=resolution, difficulty=light,  # type: ignore[arg-type]
                        spread=spread, taken=[],
                    )  # fmt: skip
                    started = time.perf_counter()
                    slots = read_structure(scene.frame, scene.age, decoder).slots
                    deal.times.append(time.perf_counter() - started)
                    deal.add(scene, slots)
                    order = _take(scene.age, later_taken(seed), random.Random(seed))
                    scene = random_table(
                        seed, resolution=resolution, difficulty=light,  # type: ignore[arg-type]
                        spread=spread, deal=scene.deal, taken=order,
                    )  # fmt: skip
                    started = time.perf_counter()
                    slots = read_structure(scene.frame, scene.age, decoder, known=scene.known).slots
                    later.times.append(time.perf_counter() - started)
                    later.add(scene, slots)
                for name, tally in (("deal, frame alone", deal), ("later, --known", later)):
                    out.append(
                        f"| {resolution} | {light} | {spread:g} | {name} | {frames} "
                        f"| {tally.shares()} | {tally.timing()} |"
                    )
                print(*out[-2:], sep="\n", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--seed0", type=int, default=400_000)
    parser.add_argument("--spreads", default="0,0.5,1")
    parser.add_argument("--lights", default="fine,hard")
    parser.add_argument("--resolutions", default="2304x1296")
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    spreads = [float(s) for s in args.spreads.split(",")]
    command = (
        f".venv/bin/python benchmarks/structure_layout.py --frames {args.frames} "
        f"--seed0 {args.seed0} --spreads {args.spreads} --lights {args.lights} "
        f"--resolutions {args.resolutions} --write"
    )
    load = os.getloadavg()[0]
    table = rows(
        args.frames, args.seed0, spreads, args.lights.split(","), args.resolutions.split(",")
    )
    text = "\n".join(
        [
            "## Overhead camera: structures laid by hand",
            "",
            f"Measured by `{command}` on {machine()}; load average (1 min) {load:.1f} at "
            f"the start, {os.getloadavg()[0]:.1f} after (other work shared the machine). "
            f"Pi 4 estimate: the median times {PI4_FACTOR:g} (the Overhead camera section).",
            "",
            *table,
            "",
        ]
    )
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
