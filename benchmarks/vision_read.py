"""Vision benchmark: read rate, false reads, time per frame, import cost, smallest sticker.

Run: .venv/bin/python benchmarks/vision_read.py [--frames 1000] [--out results.md]

Frames come from companion.vision.synth with seeds disjoint from the tests' (100000+).
Read rate = held cards read / held cards readable in principle (code in view, not covered);
a false read is a card id decoded from a frame that holds no such card (must be zero).
All decoders see the same frames in one run. Prints a Markdown report.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from report import machine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import payloads, synth  # noqa: E402
from companion.vision.decode import Decoder, ZxingDecoder, make_decoder  # noqa: E402

SEED0 = 100_000
PIPELINES: dict[str, Callable[[], Decoder]] = {
    "zxing-cpp (default)": lambda: make_decoder("zxing"),
    "zxing-cpp, no downscale": lambda: ZxingDecoder(try_downscale=False),
    "pyzbar": lambda: make_decoder("zbar"),
    "OpenCV QRCodeDetector": lambda: make_decoder("opencv"),
}


def read_rates(frames: dict[synth.Difficulty, int], out: list[str]) -> None:
    decoders = {name: make() for name, make in PIPELINES.items()}
    out.append("| difficulty | frames | readable cards | " + " | ".join(decoders) + " |")
    out.append("|---|---|---|" + "---|" * len(decoders))
    false_reads = dict.fromkeys(decoders, 0)
    times: dict[str, list[float]] = {name: [] for name in decoders}
    for difficulty, count in frames.items():
        readable = covered = 0
        read = dict.fromkeys(decoders, 0)
        read_covered = dict.fromkeys(decoders, 0)
        for seed in range(SEED0, SEED0 + count):
            scene = synth.random_scene(seed, difficulty)
            present = {card.id for card in [*scene.held, *scene.background]}
            wanted = {card.id for card in scene.held if card.readable}
            hidden = {card.id for card in scene.held if card.covered > 0}
            readable += len(wanted)
            covered += len(hidden)
            for name, decoder in decoders.items():
                started = time.perf_counter()
                stickers = decoder.decode(scene.frame)
                times[name].append(time.perf_counter() - started)
                ids = {payloads.parse(s.text) for s in stickers} - {None}
                read[name] += len(wanted & ids)
                read_covered[name] += len(hidden & ids)
                false_reads[name] += len(ids - present)
        cells = " | ".join(f"{100 * read[n] / max(readable, 1):.2f} %" for n in decoders)
        out.append(f"| {difficulty} | {count} | {readable} | {cells} |")
        if covered:
            cells = " | ".join(f"{100 * read_covered[n] / covered:.1f} %" for n in decoders)
            out.append(f"| {difficulty}: sticker partly under a finger | | {covered} | {cells} |")
    out.append(
        "| false reads (all) | | | " + " | ".join(str(false_reads[n]) for n in decoders) + " |"
    )
    medians = " | ".join(f"{1000 * statistics.median(times[n]):.1f} ms" for n in decoders)
    out.append(f"| median time / frame (1280x720) | | | {medians} |")


def timing(out: list[str], repeats: int = 60) -> None:
    decoders = {name: make() for name, make in PIPELINES.items() if "OpenCV" not in name}
    out.append("| frames | " + " | ".join(f"{n} median / p95" for n in decoders) + " |")
    out.append("|---|" + "---|" * len(decoders))
    cases: list[tuple[str, list[object]]] = []
    for width, height in ((640, 480), (1280, 720)):
        spec = synth.SceneSpec(geometry=synth.Geometry(width=width, height=height))
        scenes = [synth.random_scene(SEED0 + i, "fine", spec).frame for i in range(repeats)]
        cases.append((f"{width}x{height}, 1-3 cards", scenes))
    ids = payloads.sticker_ids()
    for n in (0, 1, 2, 4, 6, 8):
        frame = synth.frame_with_cards(ids[10 : 10 + n], seed=SEED0 + n)
        cases.append((f"1280x720, {n} cards side by side", [frame] * repeats))
    for label, scenes in cases:
        cells = []
        for decoder in decoders.values():
            samples = []
            for frame in scenes:
                started = time.perf_counter()
                decoder.decode(frame)  # type: ignore[arg-type]
                samples.append(1000 * (time.perf_counter() - started))
            samples.sort()
            p95 = samples[int(0.95 * (len(samples) - 1))]
            cells.append(f"{statistics.median(samples):.1f} / {p95:.1f} ms")
        out.append(f"| {label} | " + " | ".join(cells) + " |")


IMPORTS = {
    "python alone": "pass",
    "numpy": "import numpy",
    "cv2 (OpenCV)": "import cv2",
    "zxingcpp": "import zxingcpp",
    "pyzbar": "from pyzbar import pyzbar",
    "vision stack, zxing (decode + tracker + zxingcpp, no cv2)": (
        "import companion.vision.tracker, companion.vision.decode as d; d.make_decoder('zxing')"
    ),
    "vision stack + cv2 (USB webcam / video source)": (
        "import cv2, companion.vision.tracker, companion.vision.decode as d; "
        "d.make_decoder('zxing')"
    ),
}


def imports(out: list[str], repeats: int = 5) -> None:
    out.append("| import | time (median of 5, ms) | max RSS (MiB) |")
    out.append("|---|---|---|")
    for label, code in IMPORTS.items():
        # VmHWM: the peak RSS of this process image (ru_maxrss would include the parent's)
        script = (
            "import time; t = time.perf_counter(); "
            f"{code}; t = time.perf_counter() - t; "
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]; "
            "print(t, hwm.split()[1])"
        )
        runs = []
        for _ in range(repeats):
            done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                  cwd=ROOT, check=True)  # fmt: skip
            seconds, rss_kib = done.stdout.split()
            runs.append((float(seconds), int(rss_kib)))
        ms = statistics.median(1000 * s for s, _ in runs)
        mib = statistics.median(k for _, k in runs) / 1024
        out.append(f"| {label} | {ms:.0f} | {mib:.0f} |")


def sticker_sizes(frames: int, sizes: tuple[float, ...], out: list[str]) -> None:
    decoder = make_decoder("zxing")
    out.append("| sticker (mm) | module (mm) | px / module at 150 / 250 mm | readable cards "
               "| read (zxing-cpp, fine) | false reads |")  # fmt: skip
    out.append("|---|---|---|---|---|---|")
    geometry = synth.Geometry()
    for size in sizes:
        spec = synth.SceneSpec(sticker_mm=size)
        readable = read = false = 0
        for seed in range(SEED0, SEED0 + frames):
            scene = synth.random_scene(seed, "fine", spec)
            present = {card.id for card in [*scene.held, *scene.background]}
            wanted = {card.id for card in scene.held if card.readable}
            ids = {payloads.parse(s.text) for s in decoder.decode(scene.frame)} - {None}
            readable += len(wanted)
            read += len(wanted & ids)
            false += len(ids - present)
        module = size / 25
        near, far = (module * geometry.px_per_mm(d) for d in (geometry.near_mm, geometry.far_mm))
        out.append(f"| {size:g} | {module:.2f} | {near:.1f} / {far:.1f} | {readable} "
                   f"| {100 * read / max(readable, 1):.2f} % | {false} |")  # fmt: skip


def error_levels(frames: int, out: list[str]) -> None:
    """The same scenes with stickers printed at each error-correction level (all version 1)."""
    decoder = make_decoder("zxing")
    counts: dict[synth.Difficulty, int] = {"fine": frames, "hard": frames // 2,
                                           "occluded": frames // 2}  # fmt: skip
    out.append("| level | fine | hard | occluded: uncovered cards "
               "| occluded: sticker partly under a finger | false reads |")  # fmt: skip
    out.append("|---|---|---|---|---|---|")
    for level in ("L", "M", "Q", "H"):
        spec = synth.SceneSpec(error_correction=level)
        cells, false = [], 0
        for difficulty, count in counts.items():
            readable = read = covered = read_covered = 0
            for seed in range(SEED0, SEED0 + count):
                scene = synth.random_scene(seed, difficulty, spec)
                present = {card.id for card in [*scene.held, *scene.background]}
                wanted = {card.id for card in scene.held if card.readable}
                hidden = {card.id for card in scene.held if card.covered > 0}
                ids = {payloads.parse(s.text) for s in decoder.decode(scene.frame)} - {None}
                readable, read = readable + len(wanted), read + len(wanted & ids)
                covered, read_covered = covered + len(hidden), read_covered + len(hidden & ids)
                false += len(ids - present)
            cells.append(f"{100 * read / max(readable, 1):.2f} % of {readable}")
            if difficulty == "occluded":
                cells.append(f"{100 * read_covered / max(covered, 1):.1f} % of {covered}")
        out.append(f"| {level} | " + " | ".join(cells) + f" | {false} |")


PARTS = ("rates", "timing", "imports", "sizes", "levels")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1000, help="fine frames (others scaled)")
    parser.add_argument("--sizes", default="12,14,16,18,20,22", help="sticker sizes to sweep, mm")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help="comma-separated, of " + ", ".join(PARTS)
    )
    args = parser.parse_args()
    n = args.frames
    parts = set(args.parts.split(","))
    if unknown := parts - set(PARTS):
        parser.error(f"unknown part {min(unknown)!r}: choose from {', '.join(PARTS)}")
    out = [f"Machine: {machine()}; shared with other work while measuring.", ""]
    command = f"benchmarks/vision_read.py --frames {n}"
    if parts != set(PARTS):
        command += f" --parts {','.join(p for p in PARTS if p in parts)}"
    out.append(f"Command: `.venv/bin/python {command}`")
    if "rates" in parts:
        title = "Read rate and false reads (same frames for every decoder, 20 mm stickers)"
        out += ["", f"#### {title}", ""]
        read_rates({"fine": n, "hard": n // 2, "occluded": n // 4}, out)
    if "timing" in parts:
        out += ["", "#### Time per frame (decode only, grayscale, full resolution)", ""]
        timing(out)
    if "imports" in parts:
        out += ["", "#### Import time and memory (fresh interpreter each)", ""]
        imports(out)
    if "sizes" in parts:
        out += ["", "#### Smallest sticker: fine frames, held 150-250 mm below the lens", ""]
        sizes = tuple(float(s) for s in args.sizes.split(","))
        sticker_sizes(max(n // 2, 1), sizes, out)
    if "levels" in parts:
        out += ["", "#### Error-correction level: the same frames, zxing-cpp, 20 mm stickers", ""]
        error_levels(max(n // 2, 1), out)
    report = "\n".join(out)
    print(report)
    if args.out:
        args.out.write_text(report + "\n")


if __name__ == "__main__":
    main()
