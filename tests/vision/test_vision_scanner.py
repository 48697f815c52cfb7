"""The scanner thread: frames to scans through the real decoder, and a camera that fails."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import synth
from companion.vision.scanner import CAMERA_LOST, Scanner
from companion.vision.tracker import TrackedScan
from hardware.camera import CameraError, open_source

WAIT = 30.0  # generous: the machine is shared; a passing test never waits this long

HELD = synth.frame_with_cards(["quarry"], seed=5)
EMPTY = synth.frame_with_cards([], seed=5)


class Recorder:
    """Collects scans and statuses, and sets an event when a wanted number has arrived."""

    def __init__(self, scans_wanted: int = 1) -> None:
        self.scans: queue.Queue[TrackedScan] = queue.Queue()
        self.statuses: list[str | None] = []
        self.lost = threading.Event()
        self.back = threading.Event()

    def on_scan(self, scan: TrackedScan) -> None:
        self.scans.put(scan)

    def on_status(self, problem: str | None) -> None:
        self.statuses.append(problem)
        (self.lost if problem else self.back).set()


class FlakySource:
    """Gives its frames, but the n-th source opened raises on its first read (unplugged)."""

    opened = 0

    def __init__(self, frames: list[np.ndarray], fail_on: set[int]) -> None:
        FlakySource.opened += 1
        self.number = FlakySource.opened
        self.frames = list(frames)
        self.fail = self.number in fail_on
        self.closed = False

    def read(self) -> np.ndarray | None:
        if self.fail:
            raise CameraError("camera 0 gave no frame")
        return self.frames.pop(0) if self.frames else None

    def close(self) -> None:
        self.closed = True


def test_a_video_file_is_scanned_once_per_showing(tmp_path: Path) -> None:
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (1280, 720))
    for frame in [HELD, HELD, HELD, EMPTY, EMPTY, HELD, HELD, EMPTY]:
        writer.write(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    writer.release()
    recorder = Recorder()
    scanner = Scanner(lambda: open_source(f"video:{path}"), recorder.on_scan, fps=None)
    with scanner:
        assert scanner.finished.wait(WAIT)
    cards = [recorder.scans.get_nowait().card for _ in range(recorder.scans.qsize())]
    assert cards == ["quarry", "quarry"]
    assert scanner.frames == 8


def test_a_failing_camera_is_reported_retried_and_recovered() -> None:
    FlakySource.opened = 0
    opened: list[FlakySource] = []

    def open_flaky() -> FlakySource:
        opened.append(FlakySource([HELD, HELD, HELD], fail_on={1, 2}))
        return opened[-1]

    recorder = Recorder()
    ticks = iter(range(1_000_000))
    scanner = Scanner(
        open_flaky,
        recorder.on_scan,
        recorder.on_status,
        fps=None,
        retry_first=0.001,
        retry_longest=0.01,
        clock=lambda: float(next(ticks)),
    )
    with scanner:
        assert recorder.lost.wait(WAIT)
        assert recorder.back.wait(WAIT)
        scan = recorder.scans.get(timeout=WAIT)
        assert scanner.finished.wait(WAIT)
    assert recorder.statuses == [CAMERA_LOST, None]  # lost once, though it failed twice
    assert len(opened) == 3 and opened[0].closed and opened[1].closed
    assert scan.card == "quarry" and scan.at >= 0
    assert scanner.problem is None


def test_a_camera_that_cannot_open_is_retried_until_stopped() -> None:
    attempts = threading.Event()
    count = [0]

    def never() -> FlakySource:
        count[0] += 1
        if count[0] >= 3:
            attempts.set()
        raise CameraError("cannot open camera 0")

    recorder = Recorder()
    scanner = Scanner(never, recorder.on_scan, recorder.on_status, retry_first=0.001)
    scanner.start()
    try:
        assert attempts.wait(WAIT)
        assert scanner.problem == "cannot open camera 0"
    finally:
        scanner.stop()
    assert scanner.finished.wait(WAIT)
    assert recorder.statuses == [CAMERA_LOST]


def test_a_consumer_that_raises_does_not_stop_the_scanner(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[str | None] = []

    def broken(scan: TrackedScan) -> None:
        seen.append(scan.card)
        raise RuntimeError("queue closed")

    frames = [HELD, HELD, EMPTY, EMPTY, HELD, HELD]
    scanner = Scanner(lambda: FlakySource(frames, set()), broken, fps=None)
    with scanner:
        assert scanner.finished.wait(WAIT)
    assert seen == ["quarry", "quarry"]
    assert "on_scan failed" in caplog.text


def test_an_unknown_decoder_is_refused_before_the_thread_starts() -> None:
    with pytest.raises(ValueError, match="unknown decoder 'zbra'"):
        Scanner(lambda: FlakySource([], set()), print, decoder="zbra")
