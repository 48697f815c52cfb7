"""The table model of the overhead camera: card size, the laid-out structure of each age in
millimetres on the table plane, and where the sticker (and its QR code) sits on a card.

Plane coordinates: x to the players' right, y toward the players, in mm; a card at layout
(row, col) has its top-left corner at (col * col_mm - width / 2, (row - 1) * row_mm). Read
from data/table.toml; the layouts come from the catalog (data/layouts.toml).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from companion.engine.cards import Layout
from companion.vision import payloads

QR_MODULES = 21  # a version-1 code
QUIET_MODULES = 2  # white margin of the printed sticker, in modules, on each side


@dataclass(frozen=True, slots=True)
class TableModel:
    """The sizes of data/table.toml, in mm."""

    card_w: float
    card_h: float
    col_mm: float
    row_mm: float
    sticker_mm: float
    sticker_left: float
    sticker_top: float

    def card_origin(self, row: int, col: int) -> tuple[float, float]:
        """The top-left corner of the card at layout (row, col) on the table plane."""
        return (col * self.col_mm - self.card_w / 2, (row - 1) * self.row_mm)

    def code_corners(self, sticker_mm: float | None = None) -> tuple[tuple[float, float], ...]:
        """The QR code's corners (top-left, top-right, bottom-right, bottom-left, inside the
        quiet zone) from the card's top-left corner, for a sticker of `sticker_mm`."""
        size = self.sticker_mm if sticker_mm is None else sticker_mm
        module = size / (QR_MODULES + 2 * QUIET_MODULES)
        # the sticker's right edge stays where data/table.toml puts it for every size
        left = self.sticker_left + self.sticker_mm - size + QUIET_MODULES * module
        top = self.sticker_top + QUIET_MODULES * module
        side = QR_MODULES * module
        return ((left, top), (left + side, top), (left + side, top + side), (left, top + side))

    def slot_corners(self, layout: Layout) -> list[tuple[float, float]]:
        """The top-left corner of each of the 20 positions of `layout`, in layout order."""
        return [self.card_origin(p.row, p.col) for p in layout.positions]


def load_table_model(text: str) -> TableModel:
    """Parse data/table.toml.

    Raises:
        ValueError: a missing or non-positive size, or a sticker that leaves the card.
    """
    raw = tomllib.loads(text)
    try:
        values = [
            float(raw[section][key])
            for section, key in (
                ("card", "width_mm"), ("card", "height_mm"), ("structure", "col_mm"),
                ("structure", "row_mm"), ("sticker", "size_mm"), ("sticker", "left_mm"),
                ("sticker", "top_mm"),
            )
        ]  # fmt: skip
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"table.toml: missing or bad size {error}") from None
    model = TableModel(*values)
    if min(values[:5]) <= 0 or min(values[5:]) < 0:
        raise ValueError("table.toml: sizes must be positive")
    if model.sticker_left + model.sticker_mm > model.card_w or (
        model.sticker_top + model.sticker_mm > model.card_h
    ):
        raise ValueError("table.toml: the sticker does not fit on the card")
    return model


@cache
def table_model() -> TableModel:
    """data/table.toml, read once."""
    return load_table_model(payloads.read_data_file("table.toml"))
