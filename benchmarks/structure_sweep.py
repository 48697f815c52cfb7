"""Overhead sweep: the positions told wrongly over many generated top views (must be 0).

Run: .venv/bin/python benchmarks/structure_sweep.py [--start 0] [--stop 300]
     [--resolution 2304x1296] [--hands any|yes|no] [--spread 0] [--deal] [--old REV]
     [--against REV]

Each seed in [start, stop) at both difficulties ("fine", "hard"), read twice as
benchmarks/structure_read.py reads it: from the frame alone (`duel-companion scan
--structure`) and as the device knows (`known=scene.known`, `taken=scene.taken_cards`).
Prints the reads, the positions told right and wrong, and every read with a wrong position
(seed:difficulty:reading, then position, told, truth, under a hand). The tests' seeds are
among them (the benchmark's are 200000+). `--spread` lays the structures by hand
(`table_synth.hand_laid`: 1 is rows 50-60 % of a card apart, gaps of 1-4 mm, cards turned
and shifted). `--deal` reads each seed's deal instead (every position holds a card) from
the frame alone and as the device reads it before the deal is recorded (20 "back"
entries). `--old REV` reads every frame with the reader of git revision REV instead
(benchmarks/structure_read.py's `old_reader`), to count its positions on the same frames.
`--against REV` reads every frame with both this reader and REV's, in the same run: the
counts of each, then every read whose slots differ (seed:difficulty:reading, REV's slots,
this reader's).
Split a long sweep with --start/--stop to use both cores.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from structure_read import old_reader  # noqa: E402

from companion.vision.decode import make_decoder  # noqa: E402
from companion.vision.structure import read_structure  # noqa: E402
from companion.vision.table_synth import RESOLUTIONS, TableScene, random_table  # noqa: E402

HANDS = {"any": None, "yes": True, "no": False}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--stop", type=int, default=300)
    parser.add_argument("--resolution", choices=sorted(RESOLUTIONS), default="2304x1296")
    parser.add_argument("--hands", choices=sorted(HANDS), default="any")
    parser.add_argument("--spread", type=float, default=0.0)
    parser.add_argument("--deal", action="store_true", help="read each seed's deal")
    parser.add_argument("--old", metavar="REV", help="read with the reader of revision REV")
    parser.add_argument("--against", metavar="REV", help="read with this reader and REV's")
    args = parser.parse_args()
    read = old_reader(args.old) if args.old else read_structure
    against = old_reader(args.against) if args.against else None
    decoder = make_decoder("zxing")
    reads = right = wrong = 0
    bad: list[str] = []
    before = {"right": 0, "wrong": 0}
    bad_before: list[str] = []
    changed: list[str] = []
    for seed in range(args.start, args.stop):
        for difficulty in ("fine", "hard"):
            scene = random_table(
                seed, resolution=args.resolution, difficulty=difficulty, hands=HANDS[args.hands],
                spread=args.spread, **({"taken": []} if args.deal else {}),
            )  # fmt: skip
            as_known = ("back",) * 20 if args.deal else scene.known
            for reading, known, taken in (
                ("alone", None, []),
                ("known", as_known, scene.taken_cards),
            ):
                slots = read(scene.frame, scene.age, decoder, known=known, taken=taken).slots  # type: ignore[attr-defined]
                reads += 1
                good, misses = _score(slots, scene)
                right += good
                wrong += len(misses)
                if misses:
                    bad.append(f"{seed}:{difficulty}:{reading} {misses}")
                if against is not None:
                    old = against(scene.frame, scene.age, decoder, known=known, taken=taken).slots  # type: ignore[attr-defined]
                    good, misses = _score(old, scene)
                    before["right"] += good
                    before["wrong"] += len(misses)
                    if misses:
                        bad_before.append(f"{seed}:{difficulty}:{reading} {misses}")
                    if tuple(old) != tuple(slots):
                        changed.append(
                            f"{seed}:{difficulty}:{reading} {list(old)} -> {list(slots)}"
                        )
    print(
        f"seeds {args.start}-{args.stop - 1}, {args.resolution}, hands {args.hands}, "
        f"spread {args.spread:g}{', the deals' if args.deal else ''}"
        f"{f', the reader of {args.old}' if args.old else ''}: "
        f"{reads} reads, {right} positions told right, {wrong} told wrongly"
    )
    for line in bad:
        print(line)
    if args.against:
        print(
            f"the reader of {args.against}, same frames: {reads} reads, {before['right']} "
            f"positions told right, {before['wrong']} told wrongly"
        )
        for line in bad_before:
            print(line)
        print(f"reads whose slots differ ({args.against} -> this reader): {len(changed)}")
        for line in changed:
            print(line)


def _score(
    slots: Sequence[str | None], scene: TableScene
) -> tuple[int, list[tuple[int, str, str, bool]]]:
    """The positions told right, and those told wrongly (position, told, truth, under a
    hand)."""
    told = [
        (i, s, t, h)
        for i, (s, t, h) in enumerate(zip(slots, scene.truth, scene.hidden, strict=True))
        if s is not None
    ]
    return sum(s == t for _, s, t, _ in told), [(i, s, t, h) for i, s, t, h in told if s != t]


if __name__ == "__main__":
    main()
