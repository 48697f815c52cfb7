"""Overhead benchmark: the structure read from generated top views, at both resolutions.

Run: .venv/bin/python benchmarks/structure_read.py [--frames 24] [--old REV] [--write]

Frames come from companion.vision.table_synth with seeds disjoint from the tests' (200000+):
every age, every moment of an age, camera turned and tilted, hands, cities, wonders, tokens
and a phone beside the structure; "fine" and "hard" (dim, blurred, glare) light. Per slot the
truth is a card id, "back" or "empty". Each frame is read twice: from the frame alone, and
as the device reads it at the first frame that shows the last card taken gone (`known`:
the cards it knows at each position, "empty" where a card was taken and recorded; `taken`:
the cards recorded as taken; the last card taken is not recorded yet). Shares count the
positions no hand lies over: face-up positions read (card id right), face-down and empty
positions told right, apart the position of the card just taken (the one the device must
see empty); positions under a hand must be null unless known (how many were told is
shown); wrong = any position given a value that is not the truth, under a hand or not
(must be 0). The same seeds at both resolutions. Time per frame:
decoding and reading, this machine, one core; `--old REV` also times the reader of git
revision REV on the same frames (frame alone). A breakdown by age and moment (2304x1296,
fine light, as the device knows), and the read rate of face-up stickers against the sticker size
(decoder alone). `--write` puts the report in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from report import machine, write_section

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import payloads  # noqa: E402
from companion.vision.decode import make_decoder  # noqa: E402
from companion.vision.structure import read_structure  # noqa: E402
from companion.vision.table_synth import RESOLUTIONS, TableScene, random_table  # noqa: E402

SEED0 = 200_000
PI4_FACTOR = 5.0  # a Pi 4's Cortex-A72 core against one core here, for this work (see report)
NOTE = (  # where the misses come from (read off the runs; update with the figures)
    "Where the misses come from. Frame alone: late in an age the cards left fit the layout "
    "shifted by a column or a row, so the positions the placements disagree on are null, "
    "and an empty position is told only once every position over it is, so one position "
    "not told (a lamp's glare, a hand, the far side of a fit from a few cards close "
    "together) leaves the positions under it null too. As the device knows: the positions "
    "taken and recorded are empty for certain and the cards taken are never placed, so only "
    "the position of the card just taken is read from the frame (just taken: empty); a "
    "miss there in fine light, looked at: a shadow that leaves its lower half less bare "
    "than the rule asks while its upper half lies over cards. Hard light at 2304x1296: "
    "given the true place of each face-up sticker no hand lies over (147), decoding its "
    "crop alone reads 127, against 122 read as the device knows, so the limit is the "
    "decoding of such blurred codes, not finding them (docs/vision.md, Limits). Time: the "
    "view is built once per placement looked at (from the frame alone more placements come "
    "near the best one; at most 12, then the frame is a cannot-tell), and a frame that "
    "reads fewer than 4 cards is decoded again sharpened (enlarged twice at 2304x1296), "
    "which the hard frames read alone pay."
)
BEFORE = (  # the figures this run replaces (the reader of 724bb71, given the cards only)
    "Before (commit 724bb71, measured on the same seeds with `known=` the cards seen at each "
    "position, taken ones too, and no positions or cards taken): 98.2 % face-up read, 100 % "
    "face-down and 83.2 % empty right at 2304x1296 in fine light, 55.1 %, 50.7 % and 38.5 % "
    "in hard light; 97.6 %, 96.1 % and 86.4 % at 4608x2592 in fine light, 76.5 %, 80.8 % and "
    "72.6 % in hard light; no wrong position."
)


@dataclass
class Tally:
    """Counts over the positions of many frames."""

    up: int = 0
    up_read: int = 0
    down: int = 0
    down_right: int = 0
    empty: int = 0
    empty_right: int = 0
    new: int = 0  # the position of the card just taken (the device has not recorded it)
    new_right: int = 0
    hidden: int = 0
    hidden_told: int = 0
    wrong: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, scene: TableScene, slots: tuple[str | None, ...]) -> None:
        for i, (seen, truth, under) in enumerate(
            zip(slots, scene.truth, scene.hidden, strict=True)
        ):
            self.wrong += seen is not None and seen != truth
            if under:
                self.hidden += 1
                self.hidden_told += seen is not None
            elif truth == "back":
                self.down += 1
                self.down_right += seen == "back"
            elif i == scene.newly_empty:
                self.new += 1
                self.new_right += seen == "empty"
            elif truth == "empty":
                self.empty += 1
                self.empty_right += seen == "empty"
            else:
                self.up += 1
                self.up_read += seen == truth

    def shares(self) -> str:
        def share(a: int, b: int) -> str:
            return f"{a / b:.1%} ({a}/{b})" if b else "-"

        return (
            f"{share(self.up_read, self.up)} | {share(self.down_right, self.down)} "
            f"| {share(self.empty_right, self.empty)} | {share(self.new_right, self.new)} "
            f"| {self.hidden_told}/{self.hidden} "
            f"| {self.wrong}"
        )

    def timing(self) -> str:
        median = statistics.median(self.times)
        p95 = sorted(self.times)[int(0.95 * (len(self.times) - 1))]
        return f"{median * 1000:.0f} ms ({p95 * 1000:.0f} ms) | {median * PI4_FACTOR:.2f} s"


Reader = Callable[..., object]


def old_reader(rev: str) -> Reader:
    """read_structure as it was at git revision `rev` (its own module, same imports)."""
    source = subprocess.run(
        ["git", "show", f"{rev}:companion/vision/structure.py"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    path = Path(tempfile.mkdtemp()) / "structure_old.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("structure_old", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["structure_old"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module.read_structure  # type: ignore[no-any-return]


def reading(frames: int, old: Reader | None, out: list[str]) -> None:
    decoder = make_decoder("zxing")
    # the revision's reader takes what the device knows (since 8e8026c's `taken`)
    knows = old is not None and "taken" in inspect.signature(old).parameters
    out.append(
        "| resolution | light | reading | frames | face-up read | face-down right | empty right "
        "| just taken: empty | under a hand: told | wrong | time / frame median (p95) "
        "| Pi 4 estimate |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for resolution in RESOLUTIONS:
        for difficulty in ("fine", "hard"):
            alone, known, fitted, before, before_known = (Tally() for _ in range(5))
            for seed in range(SEED0, SEED0 + frames):
                scene = random_table(seed, resolution=resolution, difficulty=difficulty)  # type: ignore[arg-type]
                # the frame before: the table before the last card was taken, the same
                # camera (its light and noise drawn again), read as the device read it
                earlier = random_table(
                    seed, resolution=resolution, difficulty=difficulty,  # type: ignore[arg-type]
                    deal=scene.deal, taken=scene.taken[:-1],
                )  # fmt: skip
                fit = read_structure(
                    earlier.frame, earlier.age, decoder,
                    known=earlier.known, taken=earlier.taken_cards,
                ).fit  # fmt: skip
                for tally, seen, taken, given in (
                    (alone, None, [], None),
                    (known, scene.known, scene.taken_cards, None),
                    (fitted, scene.known, scene.taken_cards, fit),
                ):
                    started = time.perf_counter()
                    slots = read_structure(
                        scene.frame, scene.age, decoder, known=seen, taken=taken, fit=given
                    ).slots
                    tally.times.append(time.perf_counter() - started)
                    tally.add(scene, slots)
                if old is not None:
                    started = time.perf_counter()
                    slots = old(scene.frame, scene.age, decoder).slots  # type: ignore[attr-defined]
                    before.times.append(time.perf_counter() - started)
                    before.add(scene, slots)
                    if knows:
                        started = time.perf_counter()
                        read = old(
                            scene.frame, scene.age, decoder,
                            known=scene.known, taken=scene.taken_cards,
                        )  # fmt: skip
                        slots = read.slots  # type: ignore[attr-defined]
                        before_known.times.append(time.perf_counter() - started)
                        before_known.add(scene, slots)
            rows = [
                ("frame alone", alone),
                ("as the device knows", known),
                ("as the device knows, the fit of the frame before", fitted),
            ]
            if old is not None:
                rows.append(("before (frame alone)", before))
            if knows:
                rows.append(("before (as the device knows)", before_known))
            for name, tally in rows:
                out.append(
                    f"| {resolution} | {difficulty} | {name} | {frames} | {tally.shares()} "
                    f"| {tally.timing()} |"
                )


def by_moment(frames: int, out: list[str]) -> None:
    decoder = make_decoder("zxing")
    out.append(
        "| age | moment | frames | face-up read | face-down right | empty right "
        "| just taken: empty | under a hand: told | wrong |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|")
    for age in (1, 2, 3):
        for moment in ("start", "middle", "late"):
            tally = Tally()
            for seed in range(SEED0, SEED0 + frames):
                scene = random_table(seed, age=age, moment=moment)  # type: ignore[arg-type]
                slots = read_structure(
                    scene.frame, age, decoder, known=scene.known, taken=scene.taken_cards
                ).slots
                tally.add(scene, slots)
            out.append(f"| {age} | {moment} | {frames} | {tally.shares()} |")


def sticker_sizes(frames: int, sizes: tuple[float, ...], out: list[str]) -> None:
    decoder = make_decoder("zxing")
    out.append(
        "| sticker (mm) | resolution | module (px) | face-up stickers read (not under a hand) |"
    )
    out.append("|---|---|---|---|")
    for size in sizes:
        for resolution in RESOLUTIONS:
            wanted = got = 0
            modules: list[float] = []
            for seed in range(SEED0, SEED0 + frames):
                scene = random_table(seed, resolution=resolution, sticker_mm=size)
                up = {
                    t for t, h in zip(scene.truth, scene.hidden, strict=True)
                    if t not in ("back", "empty") and not h
                }  # fmt: skip
                ids = {payloads.parse(s.text) for s in decoder.decode(scene.frame)}
                wanted += len(up)
                got += len(up & ids)
                modules.append(scene.module_px)
            out.append(
                f"| {size:g} | {resolution} | {statistics.mean(modules):.1f} "
                f"| {got / wanted:.1%} ({got}/{wanted}) |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--moment-frames", type=int, default=6)
    parser.add_argument("--size-frames", type=int, default=8)
    parser.add_argument("--old", metavar="REV", help="also time the reader of git revision REV")
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    old = old_reader(args.old) if args.old else None
    command = (
        f".venv/bin/python benchmarks/structure_read.py --frames {args.frames} "
        f"--moment-frames {args.moment_frames} --size-frames {args.size_frames}"
        + (f" --old {args.old}" if args.old else "")
        + " --write"
    )
    out = [
        "## Overhead camera",
        "",
        f"Measured by `{command}` on {machine()}; shared with other work while measuring "
        "(the times include that load). Generated top views (companion/vision/table_synth.py), "
        "the same seeds at both resolutions; stickers as data/table.toml places them (20 mm).",
        "",
    ]
    load = os.getloadavg()[0]
    reading(args.frames, old, out)
    out[2] += f" Load average (1 min) {load:.1f} at the start, {os.getloadavg()[0]:.1f} after."
    out += [
        "",
        "Shares count the positions no hand lies over. Face-up read: positions whose card is "
        'face up and read as that card. Face-down and empty right: told as "back" and '
        '"empty"; empty right counts the empty positions but the one of the card just '
        "taken, which has its own column (just taken: empty; the frame's only evidence for "
        "the device, which knows the others). Under a hand: positions whose visible part a "
        "hand overlaps, and how many of them were still told (a card whose sticker is read "
        "there, or a position known to be empty; wrong counts every position told wrongly, "
        "under a hand or not). Positions not told are null (cannot tell). Frame alone: "
        "`read_structure(frame, age, decoder)`; as the device knows: with `known=` (the "
        'cards at each position, "empty" where a card was taken and recorded, '
        "`overhead.known_cards`) and `taken=` (the cards recorded as taken, "
        "`overhead.taken_cards`) at the first frame that shows the last card taken gone, "
        "not recorded yet. The fit of the frame before: the same, with `fit=` the fit "
        "the device kept from the frame before the last card was taken (the same camera, "
        "its light and noise drawn again, read as the device knows), as the service's "
        "reader keeps the last fit of each age (`app.table_reader`): a frame that places "
        "fewer than 4 cards from its own codes looks for the cards known where that fit "
        "puts them. Before: the reader of the revision named, on the same frames (frame "
        "alone, and as the device knows when that revision takes `known` and `taken`). The "
        "times include decoding the whole frame, which the service's scanner does once for "
        "both its readers.",
        "",
        NOTE,
        "",
        BEFORE,
        "",
        "By age and moment (2304x1296, fine light, as the device knows; start: 0-2 cards taken, "
        "middle: 3-12, late: 13-18):",
        "",
    ]
    by_moment(args.moment_frames, out)
    out += [
        "",
        f"Pi 4 estimate: this machine's median times {PI4_FACTOR:g}. The reading is one "
        "thread of zxing-cpp (scalar C++) and OpenCV/NumPy image work (warps, filters, "
        "connected parts: SIMD, memory-bound). Against one core here (EPYC, about 3 GHz, "
        "AVX2), a Pi 4 core (Cortex-A72, 1.5-1.8 GHz, 128-bit NEON, slower memory) is about "
        "2 times slower by clock, 1.5-2 times by instructions per clock, and loses again on "
        "vector width and memory bandwidth for the image work: 3 to 6 times in all (the "
        "Device section's figure). 5 is taken, near the slow end, because the image work "
        "dominates. Measure on a Pi with the same command.",
        "",
        "Sticker size against read rate (decoder alone, fine light, the sticker's right edge "
        "kept where data/table.toml puts it):",
        "",
    ]
    sticker_sizes(args.size_frames, (12.0, 16.0, 20.0), out)
    text = "\n".join(out) + "\n"
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
