"""The run loop's parts failing and coming back: the display, the camera."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

import cv2
from PIL import Image

from companion.config import Config
from companion.device.controller import Scan, Status
from companion.service.root import ReconnectingDisplay, start_scanner
from companion.vision import synth
from hardware.faults import Backoff, Health, Reconnecting


class FlakyOled:
    """An OLED that fails while `broken` is set (an I2C error)."""

    def __init__(self) -> None:
        self.broken = False
        self.shown: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        if self.broken:
            raise OSError("[Errno 121] Remote I/O error")
        self.shown.append(image)


def test_a_lost_display_is_reported_and_gets_the_last_frame_when_back() -> None:
    now = [0.0]
    oled = FlakyOled()
    health = Health()
    part = Reconnecting("display", lambda: oled, on_change=health,
                        backoff=Backoff(first=1.0), clock=lambda: now[0])  # fmt: skip
    display = ReconnectingDisplay(part)
    first, second = Image.new("1", (128, 64)), Image.new("1", (128, 64), 1)
    display.show(first)
    oled.broken = True
    display.show(second)  # fails: the display is lost, the game goes on
    assert health.summary() == "display lost"
    oled.broken = False
    now[0] = 5.0
    display.poll()
    assert health.ok
    assert oled.shown == [first, second]  # the frame shown while it was lost, once back


def config_with(source: str) -> Config:
    return Config.defaults(camera={"source": source, "fps": 100, "image_seconds": 0.0})


def collect(inbox: queue.Queue[Any], wanted: int) -> list[Any]:
    got = [inbox.get(timeout=60) for _ in range(wanted)]
    return got


def test_the_scanner_thread_reads_a_folder_of_frames(tmp_path: Path) -> None:
    empty = synth.frame_with_cards([], seed=0)
    card = synth.frame_with_cards(["lumber_yard"], seed=1)
    for index, frame in enumerate([card, card, card, empty, empty, card, card]):
        cv2.imwrite(str(tmp_path / f"{index:03d}.png"), frame)
    inbox: queue.Queue[Any] = queue.Queue()
    scanner = start_scanner(config_with(f"folder:{tmp_path}"), inbox)
    try:
        scans = collect(inbox, 2)
        assert scanner.finished.wait(30)  # the folder ran out: the thread ends by itself
    finally:
        scanner.stop()
    assert scans == [Scan("lumber_yard"), Scan("lumber_yard")]  # held once, shown again
    assert all(s.at is not None for s in scans)
    assert inbox.empty()


def test_a_missing_camera_is_a_status_and_is_retried(tmp_path: Path) -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    health = Health()
    (tmp_path / "unplugged").mkdir()
    cv2.imwrite(str(tmp_path / "unplugged" / "000.png"), synth.frame_with_cards([], seed=0))
    missing = tmp_path / "unplugged-camera"
    scanner = start_scanner(config_with(f"folder:{missing}"), inbox, health)
    try:
        assert inbox.get(timeout=30) == Status("camera lost")
        assert health.lost("camera")
        (tmp_path / "unplugged").rename(missing)  # plugged in again
        assert inbox.get(timeout=30) == Status(None)
        assert not health.lost("camera")
    finally:
        scanner.stop()
