"""The table model of the overhead camera: card size, the laid-out structure of each age in
millimetres on the table plane, and where the sticker (and its QR code) sits on a card.

Plane coordinates: x to the players' right, y toward the players, in mm; a card at layout
(row, col) has its top-left corner at (col * col_mm - width / 2, (row - 1) * row_mm). The
card and sticker sizes are read from data/table.toml; the steps col_mm and row_mm are each
table's own, as the players laid the structure (the reader fits them), with defaults to try
first; the layouts come from the catalog (data/layouts.toml).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from companion.engine.cards import Layout
from companion.vision import payloads

QR_MODULES = 21  # a version-1 code
QUIET_MODULES = 2  # white margin of the printed sticker, in modules, on each side
DEFAULT_GAP_MM = 2.0  # between the cards of a row, before a table's own is fitted


@dataclass(frozen=True, slots=True)
class TableModel:
    """The sizes of data/table.toml, in mm."""

    card_w: float
    card_h: float
    sticker_mm: float
    sticker_left: float
    sticker_top: float
    # the layout's steps: every table's own (the reader fits them from the view, kept for
    # the age); these are the steps tried first, a 2 mm gap between the cards of a row and
    # rows half a card apart (the least people leave: the next row then hides the lower
    # half of a card)
    col_mm: float = 0.0
    row_mm: float = 0.0

    def __post_init__(self) -> None:
        if not self.col_mm:
            object.__setattr__(self, "col_mm", (self.card_w + DEFAULT_GAP_MM) / 2)
        if not self.row_mm:
            object.__setattr__(self, "row_mm", self.card_h / 2)

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

    def code_centre(self) -> tuple[float, float]:
        """The centre of the QR code from the card's top-left corner."""
        (left, top), _, (right, bottom), _ = self.code_corners()
        return ((left + right) / 2, (top + bottom) / 2)

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
                ("card", "width_mm"), ("card", "height_mm"), ("sticker", "size_mm"),
                ("sticker", "left_mm"), ("sticker", "top_mm"),
            )
        ]  # fmt: skip
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"table.toml: missing or bad size {error}") from None
    model = TableModel(*values)
    if min(values[:3]) <= 0 or min(values[3:]) < 0:
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
