"""Generated camera frames of cities held out for the family score pad (JPEG bytes)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.payloads import family_sticker_table, payload_for
from companion.vision.synth import city_frame


def city_jpeg(card_ids: list[str], seed: int, duel_ids: tuple[str, ...] = ()) -> bytes:
    """A frame of these base-game cards (and Duel cards, foreign to the pad), as a JPEG."""
    table = family_sticker_table().by_id
    cards = [(c, table[c]) for c in card_ids] + [(c, payload_for(c)) for c in duel_ids]
    frame = np.clip(city_frame(cards, seed), 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return encoded.tobytes()
