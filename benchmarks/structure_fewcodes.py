"""Overhead reading when only a few codes can be read: positions told wrongly, and codes told.

Run: .venv/bin/python benchmarks/structure_fewcodes.py [--seed0 1100300] [--frames 16]
     [--sizes 3,4,5] [--per 8] [--lights fine,hard] [--old REV]

A stress test of "never a wrong card": a frame in which most stickers cannot be read leaves
the reader few cards to place the structure by, and a structure laid by hand fits a few cards
in more than one place. Each generated hand-laid deal (spread 1, 2304x1296,
companion.vision.table_synth) is read many times, each time with every face-up code but a
few (`--sizes`: how many are kept; `--per` subsets of each size, drawn at random) blurred past
reading (`table_synth.with_codes_unreadable`: a Gaussian of two modules over the code, its
texture kept, its modules gone; codes under a hand are left as they are). Each such frame
is read from the frame alone and told it is the deal (20 "back" entries), as `scan
--structure` reads it. Counted: the readings with a
position told wrongly (must be 0), the positions told wrongly, and the kept codes told at
their positions. `--old REV` reads every frame with the reader of git revision REV too.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
from pathlib import Path

import cv2
from report import machine
from structure_read import Reader, old_reader

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.decode import make_decoder  # noqa: E402
from companion.vision.structure import read_structure  # noqa: E402
from companion.vision.table_synth import random_table, with_codes_unreadable  # noqa: E402

DECODER = make_decoder("zxing")
AT_THE_DEAL = ("back",) * 20


def sweep(
    read: Reader, seeds: range, sizes: list[int], per: int, light: str
) -> tuple[int, int, int, int, list[str]]:
    """Readings, readings with a position told wrongly, positions told wrongly, kept codes
    told at their positions, and a line for each wrong reading."""
    readings = wrong_readings = wrong = told = 0
    lines: list[str] = []
    for seed in seeds:
        scene = random_table(seed, spread=1.0, difficulty=light, taken=[])  # type: ignore[arg-type]
        faces = [i for i in scene.codes if not scene.hidden[i] and not scene.covered[i]]
        rng = random.Random(seed)
        for size in sizes:
            subsets = list(itertools.combinations(faces, size))
            rng.shuffle(subsets)
            for keep in subsets[:per]:
                frame = with_codes_unreadable(scene, keep)
                for known in (None, AT_THE_DEAL):
                    slots = read(frame, scene.age, DECODER, known=known).slots  # type: ignore[call-arg]
                    readings += 1
                    bad = [
                        i
                        for i, (s, t) in enumerate(zip(slots, scene.truth, strict=True))
                        if s is not None and s != t
                    ]
                    told += sum(1 for i in keep if slots[i] == scene.truth[i])
                    if bad:
                        wrong_readings += 1
                        wrong += len(bad)
                        how = "alone" if known is None else "told the deal"
                        lines.append(f"{light} deal {seed}, codes kept {keep}, {how}: " + ", ".join(
                            f"{i} {slots[i]} (is {scene.truth[i]})" for i in bad
                        ))  # fmt: skip
    return readings, wrong_readings, wrong, told, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed0", type=int, default=1_100_300)
    parser.add_argument("--frames", type=int, default=16)
    parser.add_argument("--sizes", default="3,4,5")
    parser.add_argument("--per", type=int, default=8)
    parser.add_argument("--lights", default="fine,hard")
    parser.add_argument("--old", metavar="REV", help="also read with the reader of revision REV")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    seeds = range(args.seed0, args.seed0 + args.frames)
    sizes = [int(s) for s in args.sizes.split(",")]
    readers: list[tuple[str, Reader]] = [("this reader", read_structure)]  # type: ignore[list-item]
    if args.old:
        readers.append((f"reader of {args.old}", old_reader(args.old)))
    load = os.getloadavg()[0]
    rows = [
        "| reader | light | readings | readings with a position told wrongly "
        "| positions told wrongly | kept codes told |",
        "|---|---|---|---|---|---|",
    ]
    wrong_lines: list[str] = []
    for light in args.lights.split(","):
        for name, read in readers:
            readings, bad, wrong, told, lines = sweep(read, seeds, sizes, args.per, light)
            rows.append(f"| {name} | {light} | {readings} | {bad} | {wrong} | {told} |")
            wrong_lines += [f"{name}: {line}" for line in lines]
            print(rows[-1], flush=True)
    print(f"\n{machine()}; load average (1 min) {load:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} after", *rows, "", *wrong_lines, sep="\n")  # fmt: skip


if __name__ == "__main__":
    main()
