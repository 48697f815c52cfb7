"""Overhead reading, where its limits lie: the decoding of hard frames, and the placements a
frame read alone needs.

Run: .venv/bin/python benchmarks/structure_limits.py [--frames 24] [--write]

Decoding: the hard frames of benchmarks/structure_read.py (seeds 200000+, 2304x1296): how
many read no sticker of the age at all (whole frame, then sharpened); and each face-up sticker
no hand lies over, warped out at its true place (6 and 9 px/mm) and decoded as the reader's
step 7 does (as it is, stretched, sharpened), then with zxing-cpp's other binarizers, pyzbar,
and after a denoising pass. Placements: the frames of seeds 0-39 and 200000+ (both lights)
read alone with no bound on the placements looked at in the view: how many needed more than
`structure.MOST_VIEWS`, and how many positions those told. `--write` puts the report in
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
from report import machine, write_section

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import zxingcpp  # noqa: E402
from pyzbar import pyzbar  # noqa: E402

from companion.engine.catalog import default_catalog  # noqa: E402
from companion.vision import payloads, structure  # noqa: E402
from companion.vision.decode import make_decoder  # noqa: E402
from companion.vision.table_synth import random_table  # noqa: E402

SEED0 = 200_000


def crop(
    gray: np.ndarray, homography: np.ndarray, origin: tuple[float, float], k: float
) -> np.ndarray:
    """The sticker's place of a card at `origin`, rectified at `k` px/mm (4 mm around)."""
    m = structure.table_model()
    (left, top), (right, _), _, _ = m.code_corners()
    x0, y0 = origin[0] + left - 4, origin[1] + top - 4
    to_crop = np.array([[k, 0, -x0 * k], [0, k, -y0 * k], [0, 0, 1.0]]) @ np.linalg.inv(homography)
    size = round((right - left + 8) * k)
    return np.asarray(cv2.warpPerspective(gray, to_crop, (size, size), flags=cv2.INTER_CUBIC))


def zxing(image: np.ndarray, binarizer: zxingcpp.Binarizer) -> set[str]:
    formats = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    found = zxingcpp.read_barcodes(
        image, formats=formats, try_rotate=False, try_invert=False, binarizer=binarizer
    )
    return {r.text for r in found}


def zbar(image: np.ndarray) -> set[str]:
    return {r.data.decode() for r in pyzbar.decode(image, symbols=[pyzbar.ZBarSymbol.QRCODE])}


def decoding(frames: int, out: list[str]) -> None:
    decoder = make_decoder("zxing")
    catalog = default_catalog()
    m = structure.table_model()
    ways = {
        "the reader's (zxing-cpp, local average)": lambda v: zxing(
            v, zxingcpp.Binarizer.LocalAverage
        ),
        "zxing-cpp, fixed threshold": lambda v: zxing(v, zxingcpp.Binarizer.FixedThreshold),
        "zxing-cpp, global histogram": lambda v: zxing(v, zxingcpp.Binarizer.GlobalHistogram),
        "pyzbar": zbar,
    }
    counts = {(name, k): 0 for name in [*ways, "denoised first", "any of them"] for k in (6.0, 9.0)}
    faces = unread = 0
    for seed in range(SEED0, SEED0 + frames):
        scene = random_table(seed, difficulty="hard")
        gray = scene.frame
        found = structure._merged(
            decoder.decode(gray), decoder.decode(structure._sharpened(gray)), structure._zoom(gray)
        )
        ages = [structure._of_age(payloads.parse(s.text), scene.age, catalog) for s in found]
        unread += not any(ages)
        origins = m.slot_corners(catalog.layout(scene.age))
        for i, truth in enumerate(scene.truth):
            if truth in ("back", "empty") or scene.hidden[i]:
                continue
            faces += 1
            want = payloads.payload_for(truth)
            for k in (6.0, 9.0):
                variants = list(
                    structure._variants(
                        crop(gray, scene.plane_to_frame, origins[i], k), structure.SLOT_BLUR_MM * k
                    )
                )
                denoised = [cv2.fastNlMeansDenoising(v, None, 15) for v in variants[:2]]
                hits = {name: any(want in way(v) for v in variants) for name, way in ways.items()}
                hits["denoised first"] = any(
                    want in ways["the reader's (zxing-cpp, local average)"](v) for v in denoised
                )
                hits["any of them"] = any(hits.values()) or any(
                    want in way(v) for v in denoised for way in ways.values()
                )
                for name, hit in hits.items():
                    counts[(name, k)] += hit
    out += [
        f"Hard frames at 2304x1296 (seeds {SEED0}-{SEED0 + frames - 1}): {unread} of {frames} "
        "read no sticker of the age in the whole frame, even sharpened and enlarged. Each "
        f"face-up sticker no hand lies over ({faces}) decoded from its true place:",
        "",
        "| decoding | at 6 px/mm (the reader's) | at 9 px/mm |",
        "|---|---|---|",
    ]
    for name in [*ways, "denoised first", "any of them"]:
        out.append(f"| {name} | {counts[(name, 6.0)]} | {counts[(name, 9.0)]} |")


def placements(frames: int, out: list[str]) -> None:
    decoder = make_decoder("zxing")
    looked = [0]
    view = structure._View

    class Counted(view):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object) -> None:
            looked[0] += 1
            super().__init__(*args)

    structure._View = Counted  # type: ignore[misc]
    bound = structure.MOST_VIEWS
    structure.MOST_VIEWS = 10**6
    over = told = reads = 0
    try:
        for seed in [*range(0, 40), *range(SEED0, SEED0 + frames)]:
            for difficulty in ("fine", "hard"):
                scene = random_table(seed, difficulty=difficulty)  # type: ignore[arg-type]
                looked[0] = 0
                slots = structure.read_structure(scene.frame, scene.age, decoder).slots
                reads += 1
                if looked[0] > bound:
                    over += 1
                    told += sum(s is not None for s in slots)
    finally:
        structure._View, structure.MOST_VIEWS = view, bound
    out.append(
        f"Placements: of {reads} frames read alone (seeds 0-39 and {SEED0}-{SEED0 + frames - 1}, "
        f"both lights) with no bound, {over} needed more than {bound} placements looked at "
        f"in the view, and those told {told} positions in all (the bound makes them a "
        "cannot-tell)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md")
    args = parser.parse_args()
    out = [
        "## Overhead camera: where the limits lie",
        "",
        f"Measured by `.venv/bin/python benchmarks/structure_limits.py --frames {args.frames} "
        f"--write` on {machine()}.",
        "",
    ]
    decoding(args.frames, out)
    out.append("")
    placements(args.frames, out)
    text = "\n".join(out) + "\n"
    print(text)
    if args.write:
        write_section(text)


if __name__ == "__main__":
    main()
