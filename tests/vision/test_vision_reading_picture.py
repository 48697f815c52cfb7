"""The picture of an overhead reading (docs/screenshots/overhead-reading.png with
UPDATE_REFERENCE=1, else a temporary folder): a structure laid by hand, read as the device
reads it, each position outlined where the fit puts it and named."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import cv2
import numpy as np

from companion.vision.decode import make_decoder
from companion.vision.picture import COLOURS, WIDTH, reading_picture
from companion.vision.structure import read_structure
from companion.vision.table_synth import random_table

SCREENSHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("UPDATE_REFERENCE") == "1"
    else Path(tempfile.gettempdir()) / "duel-companion-screenshots"
)


def shows(picture: np.ndarray, colour: tuple[int, int, int]) -> bool:
    """Whether some pixels of the picture are drawn in `colour` (BGR)."""
    return bool(np.all(picture == colour, axis=2).sum() > 50)


def test_a_hand_laid_structure_read_as_the_device_reads_it_is_drawn_named() -> None:
    # age 3 laid by hand (rows 50-60 % of a card apart, cards turned and shifted), in the
    # middle of the age, a hand over part of it
    scene = random_table(4, age=3, spread=1.0, moment="middle", hands=True)
    reading = read_structure(scene.frame, 3, make_decoder("zxing"), known=scene.known)
    told = [(s, t) for s, t in zip(reading.slots, scene.truth, strict=True) if s is not None]
    assert all(s == t for s, t in told)
    untold = [i for i, s in enumerate(reading.slots) if s is None]
    assert any(scene.hidden[i] for i in untold)  # under the hand: cannot tell
    picture = reading_picture(scene.frame, reading, 3)
    assert picture.shape[1] == WIDTH
    for kind in ("card", "back", "empty", None):
        assert shows(picture, COLOURS[kind])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(SCREENSHOTS / "overhead-reading.png"), picture)
