"""The one plural helper and the one wording of each pending decision."""

from __future__ import annotations

import pytest

from companion.engine.plural import noun_for, plural


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "0 coins"), (1, "1 coin"), (2, "2 coins"), (-1, "-1 coin"), (-3, "-3 coins")],
)
def test_one_takes_the_singular_every_other_count_the_plural(count: int, expected: str) -> None:
    assert plural(count, "coin") == expected


def test_signed_counts_carry_their_sign() -> None:
    assert plural(2, "coin", signed=True) == "+2 coins"
    assert plural(-1, "coin", signed=True) == "-1 coin"
    assert plural(0, "coin", signed=True) == "+0 coins"


def test_an_irregular_plural_is_given() -> None:
    assert plural(2, "victory", "victories") == "2 victories"
    assert noun_for(1, "victory", "victories") == "victory"
    assert noun_for(5, "game") == "games"


def test_every_decision_has_one_wording() -> None:
    from companion.engine.decisions import DECISIONS
    from companion.engine.state import PendingKind

    assert set(DECISIONS) == set(PendingKind)
    for wording in DECISIONS.values():
        assert wording.title and wording.asks and wording.short
