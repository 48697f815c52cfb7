"""A QR code found but not decoded, told by its modules against the stickers we print.

In hard light (a defocused lens, a dim room, heavy JPEG) at 2.6 px a module, zxing-cpp
often finds a sticker's finder patterns but samples its modules wrongly: a checksum error,
no text. Our stickers are few (every payload of data/stickers.toml, the Pantheon's and the
family pad's: each a version-1 code), so such a code's modules, sampled where the decoder
found them, are compared with every sticker's: the one they match far better than any
other, and well, is read. A code of another kind (a foreign one, a sticker not ours)
matches none of them well, and a code sampled off its modules matches none far better
than the next (BENCHMARKS.md, "Overhead camera: codes told by their modules").
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from companion.vision import payloads, stickers
from companion.vision.decode import Corners, Sticker

MODULES = 21  # a version-1 code
SAMPLE_PX = 4  # px a module of the code's square warped out of the frame, averaged down
LEAST = 0.36  # the best sticker's correlation with the modules sampled
MARGIN = 0.16  # how far it must lie above the second best's
# (generated hard frames, seeds 940000-940047: codes matched to the sticker they are, 0.45
# to 0.85, 0.16 to 0.5 above the next; a code sampled off its modules or not ours, at most
# 0.31, 0.11 above the next)


def _function_modules() -> np.ndarray:
    """The modules every version-1 code has alike: the three finder patterns with their
    separators and format bits' corners, and the timing lines; the rest tell codes apart."""
    alike = np.zeros((MODULES, MODULES), dtype=bool)
    alike[:9, :9] = alike[:9, -8:] = alike[-8:, :9] = True
    alike[6, :] = alike[:, 6] = True
    return alike


DATA = ~_function_modules()


@functools.cache
def _stickers() -> tuple[tuple[str, ...], np.ndarray]:
    """Every payload we print, and its data modules as a row of -1 (dark) and 1 (light),
    centred and scaled to unit spread (a correlation is then one product)."""
    texts: list[str] = []
    for table in (
        payloads.sticker_table(),
        payloads.pantheon_sticker_table(),
        payloads.family_sticker_table(),
    ):
        texts += [t for t in table.by_payload if t not in texts]
    rows = []
    for text in texts:
        modules = stickers.qr_modules(text, payloads.sticker_table().error_correction)
        row = np.where(modules[DATA], -1.0, 1.0)
        rows.append((row - row.mean()) / row.std())
    return tuple(texts), np.array(rows)


def sampled(gray: np.ndarray, corners: Corners) -> np.ndarray:
    """The mean grey of each of a code's 21x21 modules, its corners (top-left, top-right,
    bottom-right, bottom-left of the code as found) in `gray`'s pixels."""
    side = MODULES * SAMPLE_PX
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    to_square = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), square)
    warped = cv2.warpPerspective(gray, to_square, (side, side), flags=cv2.INTER_LINEAR)
    return np.asarray(cv2.resize(warped, (MODULES, MODULES), interpolation=cv2.INTER_AREA))


def match(gray: np.ndarray, corners: Corners) -> Sticker | None:
    """The sticker whose code lies at `corners` in `gray`, told by its modules: the one
    they correlate with at least LEAST and MARGIN more than with any other; None if none."""
    grey = sampled(gray, corners)[DATA].astype(np.float64)
    spread = grey.std()
    if spread < 1e-6:
        return None
    texts, rows = _stickers()
    scores = rows @ ((grey - grey.mean()) / spread) / grey.size
    order = np.argsort(-scores)
    best, second = scores[order[0]], scores[order[1]]
    if best < LEAST or best - second < MARGIN:
        return None
    return Sticker(texts[order[0]], corners)
