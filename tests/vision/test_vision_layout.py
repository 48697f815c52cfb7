"""Structures laid by hand: the generator's hand-laid geometry and the reader on it."""

from __future__ import annotations

import pytest

from companion.vision.table import table_model
from companion.vision.table_synth import hand_laid


@pytest.mark.parametrize("seed", range(30))
def test_a_structure_laid_by_hand_keeps_its_rows_and_gaps_in_the_ranges_people_use(
    seed: int,
) -> None:
    model = table_model()
    laid = hand_laid(seed, 1.0, model)
    assert 0.5 * 68 <= laid.row_mm <= 0.6 * 68  # rows 34 to 40.8 mm apart
    assert 1.0 <= 2 * laid.col_mm - 44 <= 4.0  # 1 to 4 mm between the cards of a row
    assert all(abs(dx) <= 3 and abs(dy) <= 3 for dx, dy in laid.shifts)
    assert all(abs(turn) <= 4 for turn in laid.turns)
    assert all(abs(dx) <= 1.5 and abs(dy) <= 1.5 for dx, dy in laid.sticker_offsets)


def test_spread_0_lays_the_structure_as_the_table_file_says() -> None:
    laid = hand_laid(7, 0.0, table_model())
    assert (laid.col_mm, laid.row_mm) == (23.0, 34.0)
    assert set(laid.shifts) == {(0.0, 0.0)} and set(laid.turns) == {0.0}
