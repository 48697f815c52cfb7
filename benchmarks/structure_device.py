"""The overhead reading as the device makes it, against the scan command's, on the same frames.

Run: .venv/bin/python benchmarks/structure_device.py [--frames 24] [--seed0 1100000]
     [--spreads 0,0.5,1] [--lights fine,hard]

On the device the camera's thread decodes each frame once (the scan zone and the structure
share it) and hands the structure reader what it decoded. Three readings of each frame, by
the same reader:
- "codes decoded only": `read_structure(stickers=...)` given only the codes the decoding
  read, as the device handed them over before it gave the codes found but not decoded too;
- "device": given those codes and the corners of the codes found but not decoded
  (`decode.decode_all`, `undecoded=`), as `companion.service.root.table_reader` gives them;
- "scan command": the frame alone, decoded by the reader itself, as `duel-companion scan
  --structure` reads it.
Each seed gives the deal (2304x1296, told it is the deal: 20 "back" entries, as the device
knows it before the deal is recorded) and a later moment of the age (KNOWN the moment before
the last card was taken, the cards recorded taken given as `taken`, as the device gives
`overhead.taken_cards`). Columns as benchmarks/structure_layout.py's; CPU time a reading
(the decoding included).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import cv2
from report import machine
from structure_layout import AT_THE_DEAL, DECODER, LaidTally, later_taken

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import known_codes  # noqa: E402
from companion.vision.decode import decode_all  # noqa: E402
from companion.vision.structure import read_structure  # noqa: E402
from companion.vision.table_synth import TableScene, _take, random_table  # noqa: E402

WAYS = ("codes decoded only", "device", "scan command")


def read(tally: LaidTally, scene: TableScene, way: str, known: tuple[str, ...]) -> None:
    """`scene` read one `way`, told `known` (and the cards recorded taken), tallied."""
    taken = [card for card, k in zip(scene.deal, known, strict=True) if k == "empty"]
    started = time.process_time()
    if way == "scan command":
        slots = read_structure(scene.frame, scene.age, DECODER, known=known, taken=taken).slots
    else:
        found, unread = decode_all(DECODER, scene.frame)
        slots = read_structure(
            scene.frame, scene.age, DECODER, stickers=found, known=known, taken=taken,
            undecoded=unread if way == "device" else (),
        ).slots  # fmt: skip
    tally.cpu.append(time.process_time() - started)
    tally.times.append(0.0)
    tally.add(scene, slots)


def rows(frames: int, seed0: int, spreads: list[float], lights: list[str]) -> list[str]:
    out = [
        "| light | spread | reading | way | frames | face-up read | face-down right "
        "| empty right | just taken: empty | under a hand: told | wrong "
        "| sticker under a card: told | CPU / frame median (p95) | Pi 4 estimate |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for light in lights:
        for spread in spreads:
            tallies = {(m, w): LaidTally() for m in ("deal", "later") for w in WAYS}
            for seed in range(seed0, seed0 + frames):
                scene = random_table(
                    seed, resolution="2304x1296", difficulty=light,  # type: ignore[arg-type]
                    spread=spread, taken=[],
                )  # fmt: skip
                for way in WAYS:
                    read(tallies["deal", way], scene, way, AT_THE_DEAL)
                order = _take(scene.age, later_taken(seed), random.Random(seed))
                scene = random_table(
                    seed, resolution="2304x1296", difficulty=light,  # type: ignore[arg-type]
                    spread=spread, deal=scene.deal, taken=order,
                )  # fmt: skip
                for way in WAYS:
                    read(tallies["later", way], scene, way, tuple(scene.known))
            for (moment, way), tally in tallies.items():
                out.append(
                    f"| {light} | {spread:g} | {moment} | {way} | {frames} | {tally.shares()} "
                    f"| {tally.covered_told}/{tally.covered} | {tally.cpu_timing()} |"
                )
            print(*out[-len(tallies) :], sep="\n", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--seed0", type=int, default=1_100_000)
    parser.add_argument("--spreads", default="0,0.5,1")
    parser.add_argument("--lights", default="fine,hard")
    args = parser.parse_args()
    cv2.setNumThreads(1)  # the service reads on one core
    known_codes.warm()  # as the device does while it starts
    load = os.getloadavg()[0]
    spreads = [float(s) for s in args.spreads.split(",")]
    table = rows(args.frames, args.seed0, spreads, args.lights.split(","))
    print(f"\n{machine()}; load average (1 min) {load:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} after", *table, sep="\n")  # fmt: skip


if __name__ == "__main__":
    main()
