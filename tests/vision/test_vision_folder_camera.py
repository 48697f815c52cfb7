"""A folder of photographs as the camera, for a newcomer trying the scanner: images read one
at a time (and found when added later), each held in view for a while with the card taken
away between two, optionally looping, and a warning when the folder runs out."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import synth
from companion.vision.decode import make_decoder
from companion.vision.tracker import Tracker
from hardware.camera import FolderSource


class Clock:
    """Monotonic seconds that the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def photograph(folder: Path, name: str, card: str | None) -> np.ndarray:
    frame = synth.frame_with_cards([card] if card else [], seed=3)
    cv2.imwrite(str(folder / name), frame)
    return frame


def test_images_are_read_when_shown_and_those_added_later_are_shown_too(tmp_path: Path) -> None:
    source = FolderSource(tmp_path)  # empty at start-up: nothing is read yet
    first = photograph(tmp_path, "001.png", "quarry")
    assert np.array_equal(source.read(), first)
    second = photograph(tmp_path, "002.png", "baths")  # dropped in while it runs
    assert np.array_equal(source.read(), second)
    assert source.read() is None


def test_each_image_is_held_then_taken_away(tmp_path: Path) -> None:
    clock = Clock()
    a = photograph(tmp_path, "a.png", "quarry")
    b = photograph(tmp_path, "b.png", "baths")
    source = FolderSource(tmp_path, hold=1.0, clock=clock)
    shown = []
    for now in (0.0, 0.9, 1.2, 1.49, 1.5, 2.4, 2.6, 3.0):
        clock.now = now
        shown.append(source.read())
    # held 1 s, then empty for 0.5 s, then the next image
    assert np.array_equal(shown[0], a) and np.array_equal(shown[1], a)
    assert not shown[2].any() and not shown[3].any()  # type: ignore[union-attr]
    assert np.array_equal(shown[4], b) and np.array_equal(shown[5], b)
    assert not shown[6].any()  # type: ignore[union-attr]
    assert shown[7] is None  # 1.5 s after b: the folder has run out


def test_the_same_card_in_two_images_counts_as_shown_twice(tmp_path: Path) -> None:
    clock = Clock()
    photograph(tmp_path, "a.png", "quarry")
    photograph(tmp_path, "b.png", "quarry")
    source = FolderSource(tmp_path, hold=1.0, clock=clock)
    decoder, tracker = make_decoder("zxing"), Tracker()
    scans = []
    for tick in range(60):  # the scanner's 15 frames a second for 4 s
        clock.now = tick / 15
        frame = source.read()
        if frame is None:
            break
        scans += [s.card for s in tracker.feed(decoder.decode(frame), clock.now)]
    assert scans == ["quarry", "quarry"]


def test_a_looping_folder_shows_its_card_again_each_round(tmp_path: Path) -> None:
    clock = Clock()
    only = photograph(tmp_path, "a.png", "quarry")
    source = FolderSource(tmp_path, hold=1.0, loop=True, clock=clock)
    seen = []
    for now in (0.0, 1.2, 1.5, 2.7, 3.0):
        clock.now = now
        frame = source.read()
        assert frame is not None
        seen.append(bool(np.array_equal(frame, only)))
    assert seen == [True, False, True, False, True]


def test_running_out_is_a_warning_even_without_verbose(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    photograph(tmp_path, "a.png", "quarry")
    source = FolderSource(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert source.read() is not None
        assert source.read() is None
    (warning,) = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "no more images" in warning.getMessage() and "camera.loop" in warning.getMessage()
