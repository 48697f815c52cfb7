"""Overhead reading of structures laid by hand: rates by layout spread, light and resolution.

Run: .venv/bin/python benchmarks/structure_layout.py [--frames 24] [--seed0 400000]
     [--spreads 0,0.5,1] [--lights fine,hard] [--resolutions 2304x1296] [--old REV] [--write]

Frames come from companion.vision.table_synth with `spread` (0: the spacing data/table.toml
names; 1: rows 50-60 % of a card's height apart, gaps of 1-4 mm, each card turned and
shifted a little, each sticker a little off its place). Each seed gives two readings:
- the deal (every position holds a card), read from the frame alone, as
  `duel-companion scan --structure --age N IMAGE` reads it;
- the same frame read as the device reads the deal, told it is the deal: KNOWN 20 "back"
  entries (every position holds a card, which ones not known: `overhead.known_cards` before
  the deal is recorded), as `scan --structure --age N --known DEAL.json IMAGE` reads it;
- a later moment of the age (1 to 18 cards taken), read as `scan --structure --known
  KNOWN.json` reads it: KNOWN the moment before the last card was taken (a card id where one
  lay face up, "back" where a face-down card lay, "empty" where a card had been taken), so
  the frame shows one more position empty and the cards it uncovered turned up.
Shares count the positions no hand lies over (benchmarks/structure_read.py's columns);
wrong counts every position told wrongly (must be 0).
Time: the CPU time of the process per reading (decoding and reading, OpenCV held to one
thread as the service's reader runs on one core), which a loaded machine does not inflate as
it does the wall time (shown too); the stickers' drawings are built before (`known_codes.warm`,
as the device does while it starts). `--old REV` reads every frame with the reader of git
revision REV too, in the same run (rows "before").
`--write` puts the report in BENCHMARKS.md ("Overhead camera: structures laid by hand").
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
from report import machine, write_section
from structure_read import PI4_FACTOR, Reader, Tally, old_reader

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import known_codes  # noqa: E402
from companion.vision.decode import make_decoder  # noqa: E402
from companion.vision.structure import read_structure  # noqa: E402
from companion.vision.table_synth import TableScene, _take, random_table  # noqa: E402


@dataclass
class LaidTally(Tally):
    """Tally's counts, with the face-up positions whose sticker a card laid over it covers
    (`TableScene.covered`: no reader can read it) counted apart, not among the face-up."""

    covered: int = 0
    covered_told: int = 0
    cpu: list[float] = field(default_factory=list)  # CPU seconds of the process per reading

    def cpu_timing(self) -> str:
        median = statistics.median(self.cpu)
        p95 = sorted(self.cpu)[int(0.95 * (len(self.cpu) - 1))]
        return f"{median * 1000:.0f} ms ({p95 * 1000:.0f} ms) | {median * PI4_FACTOR:.2f} s"

    def add(self, scene: TableScene, slots: tuple[str | None, ...]) -> None:
        apart = [c and not h for c, h in zip(scene.covered, scene.hidden, strict=True)]
        for seen, truth, covered in zip(slots, scene.truth, apart, strict=True):
            if covered:
                self.covered += 1
                self.covered_told += seen is not None
                self.wrong += seen is not None and seen != truth
        rest = [s for s, c in zip(slots, apart, strict=True) if not c]
        kept = [i for i, c in enumerate(apart) if not c]
        newly = scene.newly_empty
        part = replace(
            scene,
            truth=[scene.truth[i] for i in kept],
            hidden=[scene.hidden[i] for i in kept],
            taken=[] if newly is None or newly not in kept else [kept.index(newly)],
        )
        super().add(part, tuple(rest))


def later_taken(seed: int) -> int:
    """How many cards are taken at the later moment of `seed` (1 to 18)."""
    return 1 + seed * 7 % 18


def timed(tally: LaidTally, read: Reader, scene: TableScene, **known: object) -> None:
    """One reading of `scene` by `read` (given `known`), its CPU and wall time, tallied."""
    started, cpu = time.perf_counter(), time.process_time()
    slots = read(scene.frame, scene.age, DECODER, **known).slots  # type: ignore[attr-defined]
    tally.times.append(time.perf_counter() - started)
    tally.cpu.append(time.process_time() - cpu)
    tally.add(scene, slots)


DECODER = make_decoder("zxing")
AT_THE_DEAL = ("back",) * 20  # what the device knows before the deal is recorded


def rows(
    frames: int, seed0: int, spreads: list[float], lights: list[str], resolutions: list[str],
    old: Reader | None = None,
) -> list[str]:  # fmt: skip
    out = [
        "| resolution | light | spread | reading | frames | face-up read | face-down right "
        "| empty right | just taken: empty | under a hand: told | wrong "
        "| sticker under a card: told | CPU / frame median (p95) | Pi 4 estimate "
        "| wall time median (p95) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for resolution in resolutions:
        for light in lights:
            for spread in spreads:
                deal, told, later = LaidTally(), LaidTally(), LaidTally()
                deal_old, told_old, later_old = LaidTally(), LaidTally(), LaidTally()
                for seed in range(seed0, seed0 + frames):
                    scene = random_table(
                        seed, resolution=resolution, difficulty=light,  # type: ignore[arg-type]
                        spread=spread, taken=[],
                    )  # fmt: skip
                    timed(deal, read_structure, scene)
                    if old is not None:
                        timed(deal_old, old, scene)
                    timed(told, read_structure, scene, known=AT_THE_DEAL)
                    if old is not None:
                        timed(told_old, old, scene, known=AT_THE_DEAL)
                    order = _take(scene.age, later_taken(seed), random.Random(seed))
                    scene = random_table(
                        seed, resolution=resolution, difficulty=light,  # type: ignore[arg-type]
                        spread=spread, deal=scene.deal, taken=order,
                    )  # fmt: skip
                    timed(later, read_structure, scene, known=scene.known)
                    if old is not None:
                        timed(later_old, old, scene, known=scene.known)
                tallies = [("deal, frame alone", deal), ("deal, --known all back", told),
                           ("later, --known", later)]  # fmt: skip
                if old is not None:
                    tallies += [("before: deal, frame alone", deal_old),
                                ("before: deal, --known all back", told_old),
                                ("before: later, --known", later_old)]  # fmt: skip
                for name, tally in tallies:
                    out.append(
                        f"| {resolution} | {light} | {spread:g} | {name} | {frames} "
                        f"| {tally.shares()} | {tally.covered_told}/{tally.covered} "
                        f"| {tally.cpu_timing()} | {tally.timing().split(' |')[0]} |"
                    )
                print(*out[-len(tallies) :], sep="\n", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--seed0", type=int, default=400_000)
    parser.add_argument("--spreads", default="0,0.5,1")
    parser.add_argument("--lights", default="fine,hard")
    parser.add_argument("--resolutions", default="2304x1296")
    parser.add_argument("--old", metavar="REV", help="also read with the reader of revision REV")
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    cv2.setNumThreads(1)  # the service reads on one core
    # the stickers' modules and their blurred drawings are built once, as the device builds
    # them while it starts (`known_codes.warm`): not counted in the first frames that need them
    known_codes.warm()
    old = old_reader(args.old) if args.old else None
    spreads = [float(s) for s in args.spreads.split(",")]
    command = (
        f".venv/bin/python benchmarks/structure_layout.py --frames {args.frames} "
        f"--seed0 {args.seed0} --spreads {args.spreads} --lights {args.lights} "
        f"--resolutions {args.resolutions}"
        + (f" --old {args.old}" if args.old else "")
        + " --write"
    )
    load = os.getloadavg()[0]
    table = rows(
        args.frames, args.seed0, spreads, args.lights.split(","), args.resolutions.split(","), old
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
