"""The picture of an overhead reading: the view with each position of the structure outlined
where the fit puts it and named with what was read there, for the players to see why a card
must be scanned by hand (the phone's live page, docs/screenshots/overhead-reading.png).

Green: a card read (its id); blue: "back"; orange: "empty"; red: "?" (the view cannot tell).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from companion.engine.catalog import default_catalog
from companion.vision.structure import BACK, EMPTY, StructureReading, TableFit
from companion.vision.table import TableModel, table_model

COLOURS = {"card": (40, 170, 40), BACK: (230, 130, 40), EMPTY: (30, 160, 250), None: (40, 40, 230)}
NO_LAYOUT = "The camera cannot place the structure in this view"
WIDTH = 960  # pixels across the picture: a phone's screen at twice its density


def _label(slot: str | None) -> str:
    if slot is None:
        return "?"
    return slot if slot in (BACK, EMPTY) else slot.replace("_", " ")


def _whole(slots: Sequence[str | None], index: int, covered_by: Sequence[int]) -> bool:
    """Whether a position is outlined whole: a card nothing lies over any more, or a
    position of the open row; else the part the next row leaves in view."""
    return not covered_by or (slots[index] != EMPTY and all(slots[i] == EMPTY for i in covered_by))


def reading_picture(
    frame: np.ndarray,
    reading: StructureReading,
    age: int,
    *,
    model: TableModel | None = None,
    width: int = WIDTH,
) -> np.ndarray:
    """The part of the frame (grey or BGR) around the structure, `width` pixels across, in
    colour, each position of age `age`'s structure outlined where `reading.fit` puts it (the
    part of its card that shows) and named; without a fit (no layout found, or placements
    that disagree) the whole frame, and a line that says so."""
    picture = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    fit: TableFit | None = reading.fit
    if fit is None:
        scale = width / picture.shape[1]
        picture = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cv2.putText(picture, NO_LAYOUT, (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    COLOURS[None], 2, cv2.LINE_AA)  # fmt: skip
        return picture
    m = replace(model or table_model(), col_mm=fit.col_mm, row_mm=fit.row_mm)
    layout = default_catalog().layout(age)
    quads: list[np.ndarray] = []
    for position in layout.positions:
        x, y = m.card_origin(position.row, position.col)
        whole = _whole(reading.slots, position.index, position.covered_by)
        height = m.card_h if whole else m.row_mm
        corners = np.array(
            [[x, y], [x + m.card_w, y], [x + m.card_w, y + height], [x, y + height]],
            dtype=np.float64,
        )
        quads.append(cv2.perspectiveTransform(corners[None], fit.homography)[0])
    # the structure and a margin of a third of its size around it
    points = np.vstack(quads)
    low, high = points.min(axis=0), points.max(axis=0)
    margin = (high - low).max() / 3
    h, w = picture.shape[:2]
    left, top = (max(0, int(v - margin)) for v in low)
    right, bottom = min(w, int(high[0] + margin)), min(h, int(high[1] + margin))
    if right - left < 16 or bottom - top < 16:  # a fit far out of the frame: all of it
        left, top, right, bottom = 0, 0, w, h
    scale = width / (right - left)
    picture = cv2.resize(picture[top:bottom, left:right], None, fx=scale, fy=scale,
                         interpolation=cv2.INTER_AREA)  # fmt: skip
    for position, quad in zip(layout.positions, quads, strict=True):
        slot = reading.slots[position.index]
        shown = (quad - [left, top]) * scale
        colour = COLOURS[slot if slot in (BACK, EMPTY, None) else "card"]
        cv2.polylines(picture, [np.round(shown).astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        text = _label(slot)
        centre = shown.mean(axis=0)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
        at = (round(centre[0] - tw / 2), round(centre[1] + th / 2))
        cv2.putText(picture, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 3,
                    cv2.LINE_AA)  # fmt: skip
        cv2.putText(picture, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return picture


def reading_png(frame: np.ndarray, reading: StructureReading, age: int) -> bytes:
    """`reading_picture` as PNG bytes (the phone's live page)."""
    ok, data = cv2.imencode(".png", reading_picture(frame, reading, age))
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ValueError("the picture could not be encoded")
    return bytes(data.tobytes())
