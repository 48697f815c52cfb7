"""Structures laid by hand: the generator's hand-laid geometry and the reader on it."""

from __future__ import annotations

import pytest

from companion.vision.decode import make_decoder
from companion.vision.structure import read_structure
from companion.vision.table import table_model
from companion.vision.table_synth import HandLaid, TableScene, hand_laid, random_table


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


DECODER = make_decoder("zxing")
NONE = ((0.0, 0.0),) * 20


def laid(col_mm: float, row_mm: float, shift: float = 0.0, turn: float = 0.0) -> HandLaid:
    """Every card at the steps given, shifted by `shift` mm (right and down, left and up by
    turns along the layout) and turned `turn` degrees one way or the other in turn."""
    signs = [1 if i % 2 else -1 for i in range(20)]
    return HandLaid(
        col_mm=col_mm,
        row_mm=row_mm,
        shifts=tuple((s * shift, -s * shift) for s in signs),
        turns=tuple(s * turn for s in signs),
        sticker_offsets=NONE,
    )


def assert_deal_read_whole(scene: TableScene) -> None:
    slots = read_structure(scene.frame, scene.age, DECODER).slots
    wrong = [(i, s, t) for i, (s, t) in enumerate(zip(slots, scene.truth, strict=True)) if s != t]
    assert wrong == []


@pytest.mark.parametrize(
    ("age", "row_mm"),
    [(1, 34.0), (2, 37.4), (3, 40.8), (1, 40.8)],  # rows 50, 55 and 60 % of a card apart
)
def test_a_deal_with_rows_laid_further_apart_is_read_whole(age: int, row_mm: float) -> None:
    scene = random_table(5, age=age, taken=[], hands=False, laid=laid(23.0, row_mm))
    assert_deal_read_whole(scene)


@pytest.mark.parametrize(("age", "gap_mm"), [(1, 1.0), (2, 4.0), (3, 4.0), (3, 1.0)])
def test_a_deal_with_its_cards_a_few_mm_apart_is_read_whole(age: int, gap_mm: float) -> None:
    scene = random_table(6, age=age, taken=[], hands=False, laid=laid((44 + gap_mm) / 2, 40.0))
    assert_deal_read_whole(scene)


@pytest.mark.parametrize(("age", "turn"), [(1, 2.5), (2, -2.5), (3, 2.5)])
def test_a_deal_with_each_card_turned_and_shifted_is_read_whole(age: int, turn: float) -> None:
    # neighbours turned 5 degrees against each other and shifted 1 mm each way (4 mm
    # apart: a card that overlaps its neighbour hides the right edge of its sticker)
    scene = random_table(
        8, age=age, taken=[], hands=False, laid=laid(24.0, 37.0, shift=1.0, turn=turn)
    )
    assert_deal_read_whole(scene)


def test_the_steps_fitted_at_the_deal_are_kept_for_the_age() -> None:
    # rows 40 mm apart, cards 3 mm apart: the deal's fit finds those steps (within the
    # shifts of single cards), and a frame late in the age, whose few cards fit the layout
    # in several ways, is read with them as the device reads it
    table = laid(23.5, 40.0)
    deal = random_table(11, age=2, taken=[], hands=False, laid=table)
    first = read_structure(deal.frame, deal.age, DECODER)
    assert first.fit is not None
    assert abs(first.fit.col_mm - 23.5) < 0.3 and abs(first.fit.row_mm - 40.0) < 0.6
    later = random_table(
        11, age=2, deal=deal.deal, taken=[19, 18, 17, 16, 15, 14, 13, 12, 11], hands=False,
        laid=table,
    )  # fmt: skip
    again = read_structure(later.frame, 2, DECODER, known=later.known, fit=first.fit)
    assert (again.fit is not None) and (again.fit.row_mm, again.fit.col_mm) == (
        first.fit.row_mm,
        first.fit.col_mm,
    )
    assert list(again.slots) == later.truth
