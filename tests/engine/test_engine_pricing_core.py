"""The pure pricing core: exact against a brute force over every choice and every waiver."""

from __future__ import annotations

from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import RESOURCES, Amounts, Resource
from companion.engine.pricing import Choices, Purchase, cheapest_purchase

W, C, S, G, P = RESOURCES
RAW = (W, C, S)  # Caravansery, Great Lighthouse
MANUFACTURED = (G, P)  # Forum, Piraeus
NOTHING: Amounts = (0, 0, 0, 0, 0)


def amounts(**units: int) -> Amounts:
    w, c, s, g, p = (units.get(r.value, 0) for r in RESOURCES)
    return (w, c, s, g, p)


def brute_force(
    need: Amounts, produces: Amounts, choices: Choices, prices: Amounts, waivers: int
) -> int:
    """Fewest coins over every assignment of every producer (idle included) and every
    placement of every number of waivers up to `waivers`."""
    best: int | None = None
    for assignment in product(*((None, *options) for options in choices)):
        have = list(produces)
        for resource in assignment:
            if resource is not None:
                have[RESOURCES.index(resource)] += 1
        for used in range(waivers + 1):
            for placed in combinations_with_replacement(range(5), used):
                waived = [placed.count(i) for i in range(5)]
                coins = sum(max(0, need[i] - have[i] - waived[i]) * prices[i] for i in range(5))
                best = coins if best is None else min(best, coins)
    assert best is not None
    return best


def check_consistent(
    purchase: Purchase,
    need: Amounts,
    produces: Amounts,
    choices: Choices,
    prices: Amounts,
    waivers: int,
) -> None:
    """The purchase is a legal way to pay: real choices, waivers within the allowance, the
    rest bought exactly, coins adding up."""
    assert len(purchase.chosen) == len(choices)
    covered = [0] * 5
    for resource, options in zip(purchase.chosen, choices, strict=True):
        if resource is not None:
            assert resource in options
            covered[RESOURCES.index(resource)] += 1
    assert sum(purchase.waived) <= waivers
    for i in range(5):
        assert purchase.bought[i] >= 0 and purchase.waived[i] >= 0
        provided = produces[i] + covered[i] + purchase.waived[i] + purchase.bought[i]
        assert provided >= need[i]
        # nothing is bought that production, choices and waivers already give
        assert purchase.bought[i] == max(0, need[i] - produces[i] - covered[i] - purchase.waived[i])
    assert purchase.coins == sum(b * p for b, p in zip(purchase.bought, prices, strict=True))


def small_amounts(top: int) -> st.SearchStrategy[Amounts]:
    unit = st.integers(min_value=0, max_value=top)
    return st.tuples(unit, unit, unit, unit, unit)


# Choice producers of the game, and any other subsets of two or more resources, so that the
# core stays exact beyond the four producers the base game has.
game_producer = st.sampled_from([RAW, MANUFACTURED])
any_producer = st.lists(st.sampled_from(RESOURCES), min_size=2, max_size=5, unique=True).map(tuple)
producers = st.lists(st.one_of(game_producer, any_producer), max_size=4).map(tuple)
prices = st.tuples(*(st.integers(min_value=1, max_value=7) for _ in range(5)))


@settings(max_examples=600, deadline=None)
@given(
    need=small_amounts(4),
    produces=small_amounts(2),
    choices=producers,
    prices=prices,
    waivers=st.integers(min_value=0, max_value=3),
)
def test_cheapest_purchase_equals_brute_force(
    need: Amounts, produces: Amounts, choices: Choices, prices: Amounts, waivers: int
) -> None:
    purchase = cheapest_purchase(need, produces, choices, prices, waivers)
    check_consistent(purchase, need, produces, choices, prices, waivers)
    assert purchase.coins == brute_force(need, produces, choices, prices, waivers)


@settings(max_examples=300, deadline=None)
@given(
    need=small_amounts(3),
    choices=st.lists(game_producer, max_size=4).map(tuple),
    prices=st.tuples(*(st.sampled_from([1, 2, 3, 4, 5]) for _ in range(5))),
    waivers=st.sampled_from([0, 2]),
)
def test_game_states_equal_brute_force(
    need: Amounts, choices: Choices, prices: Amounts, waivers: int
) -> None:
    """States the base game can reach: only its producers, 0 or 2 waivers."""
    purchase = cheapest_purchase(need, NOTHING, choices, prices, waivers)
    check_consistent(purchase, need, NOTHING, choices, prices, waivers)
    assert purchase.coins == brute_force(need, NOTHING, choices, prices, waivers)


# Hand-made cases: (need, produces, choices, prices, waivers, coins, bought, waived, chosen)
CASES = [
    pytest.param(
        amounts(stone=2, clay=1, papyrus=1),
        amounts(stone=2),
        (),
        amounts(wood=2, clay=3, stone=2, glass=2, papyrus=2),
        0,
        5,
        amounts(clay=1, papyrus=1),
        NOTHING,
        (),
        id="nothing to choose: buy what is missing",
    ),
    pytest.param(
        amounts(glass=1, stone=1),
        NOTHING,
        (MANUFACTURED,),
        amounts(wood=2, clay=2, stone=2, glass=4, papyrus=2),
        1,
        0,
        NOTHING,
        amounts(stone=1),
        (G,),
        id="the waiver goes where the choice card cannot help",
    ),
    pytest.param(
        amounts(glass=2, papyrus=1),
        NOTHING,
        (MANUFACTURED,),
        amounts(wood=2, clay=2, stone=2, glass=5, papyrus=3),
        1,
        3,
        amounts(papyrus=1),
        amounts(glass=1),
        (G,),
        id="choice and waiver both on the dearest resource",
    ),
    pytest.param(
        amounts(wood=1, clay=1),
        NOTHING,
        (RAW, (W, C)),
        amounts(wood=2, clay=2, stone=2, glass=2, papyrus=2),
        0,
        0,
        NOTHING,
        NOTHING,
        (C, W),
        id="a producer is moved along an augmenting path",
    ),
    pytest.param(
        amounts(stone=3),
        NOTHING,
        (RAW, RAW),
        amounts(wood=2, clay=2, stone=4, glass=2, papyrus=2),
        2,
        0,
        NOTHING,
        amounts(stone=1),
        (S, S),
        id="two producers and two waivers cover four units",
    ),
    pytest.param(
        amounts(wood=1, stone=1, papyrus=2),
        NOTHING,
        (RAW,),
        amounts(wood=3, clay=2, stone=5, glass=2, papyrus=4),
        2,
        3,
        amounts(wood=1),
        amounts(papyrus=2),
        (S,),
        id="waivers remove the most expensive units left",
    ),
    pytest.param(
        amounts(glass=1),
        amounts(glass=1),
        (MANUFACTURED,),
        amounts(wood=2, clay=2, stone=2, glass=6, papyrus=2),
        2,
        0,
        NOTHING,
        NOTHING,
        (None,),
        id="own production needs no choice and no waiver",
    ),
]


@pytest.mark.parametrize(
    ("need", "produces", "choices", "prices", "waivers", "coins", "bought", "waived", "chosen"),
    CASES,
)
def test_hand_made_cases(
    need: Amounts,
    produces: Amounts,
    choices: Choices,
    prices: Amounts,
    waivers: int,
    coins: int,
    bought: Amounts,
    waived: Amounts,
    chosen: tuple[Resource | None, ...],
) -> None:
    purchase = cheapest_purchase(need, produces, choices, prices, waivers)
    assert purchase == Purchase(coins, bought, waived, chosen)
    assert coins == brute_force(need, produces, choices, prices, waivers)


def test_negative_waivers_are_refused() -> None:
    with pytest.raises(ValueError, match="waivers: must not be negative, got -1"):
        cheapest_purchase(amounts(wood=1), NOTHING, (), amounts(wood=2), -1)
