"""Trade prices and the cheapest payment of cards and wonders: the rulebook's worked examples,
chains, Economy, Masonry and Architecture, and what never raises a price."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import RESOURCES, Card, Catalog, Color, Resource, TokenId, Wonder
from companion.engine.catalog import default_catalog
from companion.engine.pricing import Payment, affordable, cheapest_payment, unit_prices
from companion.engine.state import City

W, C, S, G, P = RESOURCES


def city_of(
    catalog: Catalog,
    cards: Iterable[str] = (),
    wonders: Iterable[str] = (),
    tokens: Iterable[str] = (),
    coins: int = 7,
) -> City:
    """A city holding these cards, built wonders and tokens, with the summaries the contract
    defines: production of brown and grey cards only, one choice per producer (cards and
    built wonders), fixed prices and chain symbols."""
    built = [catalog.card(card_id) for card_id in cards]
    built_wonders = [catalog.wonder(wonder_id) for wonder_id in wonders]
    produces = [0] * 5
    for card in built:
        if card.color in (Color.BROWN, Color.GREY):
            produces = [a + b for a, b in zip(produces, card.produces, strict=True)]
    w, c, s, g, p = produces
    choices = tuple(card.produces_one_of for card in built if card.produces_one_of) + tuple(
        wonder.produces_one_of for wonder in built_wonders if wonder.produces_one_of
    )
    return City(
        coins=coins,
        cards=tuple(card.id for card in built),
        wonders_built=tuple(wonder.id for wonder in built_wonders),
        tokens=frozenset(TokenId(t) for t in tokens),
        produces=(w, c, s, g, p),
        choices=choices,
        fixed_price=frozenset(r for card in built for r in card.fixed_price),
        chain_symbols=frozenset(card.chain_symbol for card in built if card.chain_symbol),
    )


def price(catalog: Catalog, city: City, opponent: City, target_id: str) -> Payment:
    target = catalog.card(target_id) if catalog.is_card(target_id) else catalog.wonder(target_id)
    return cheapest_payment(catalog, city, opponent, target)


# --- Trade prices --------------------------------------------------------------------------


def test_price_is_2_plus_the_opponents_brown_and_grey_production(catalog: Catalog) -> None:
    opponent = city_of(catalog, ["quarry", "stone_pit", "clay_pool", "glassworks"])
    assert unit_prices(City(), opponent) == (2, 3, 4, 3, 2)


def test_reserves_and_customs_house_fix_the_price_at_1(catalog: Catalog) -> None:
    opponent = city_of(catalog, ["quarry", "stone_pit", "lumber_yard", "glassworks", "press"])
    city = city_of(catalog, ["stone_reserve", "customs_house"])
    assert unit_prices(city, opponent) == (3, 2, 1, 1, 1)
    assert unit_prices(city_of(catalog, ["wood_reserve", "clay_reserve"]), opponent)[:2] == (1, 1)


def test_only_brown_and_grey_cards_set_prices(catalog: Catalog) -> None:
    # Caravansery, Forum and the two producing wonders give their owner a choice, never a price
    opponent = city_of(
        catalog, ["caravansery", "forum"], wonders=["the_great_lighthouse", "piraeus"]
    )
    assert len(opponent.choices) == 4
    assert unit_prices(City(), opponent) == (2, 2, 2, 2, 2)
    aqueduct = price(catalog, City(), opponent, "aqueduct")
    assert aqueduct.total == 6 and aqueduct.bought == ((S, 3, 2),)


# --- The rulebook's worked examples --------------------------------------------------------

# (builder's cards, opponent's cards, target, total, card coins, bought)
RULEBOOK = [
    # Tarjei has 2 stone; Espen has 1 clay and no papyrus: 3 for clay + 2 for papyrus
    pytest.param(
        ["quarry", "stone_pit"],
        ["clay_pool"],
        "fortifications",
        5,
        0,
        ((C, 1, 3), (P, 1, 2)),
        id="Fortifications for 5",
    ),
    # Espen produces nothing; Tarjei's brown cards produce 2 stone: 3 stone at 4 each
    pytest.param(
        [],
        ["quarry", "stone_pit"],
        "aqueduct",
        12,
        0,
        ((S, 3, 4),),
        id="Aqueduct for 12",
    ),
    # 2 printed coins + 3 for glass (Espen produces 1) + 2 for papyrus
    pytest.param(
        [],
        ["glassworks"],
        "caravansery",
        7,
        2,
        ((G, 1, 3), (P, 1, 2)),
        id="Caravansery for 7",
    ),
    # coins only: Scriptorium costs 2, Stone Pit 1, whatever the opponent produces
    pytest.param([], ["press"], "scriptorium", 2, 2, (), id="Scriptorium for 2 coins"),
    pytest.param([], ["quarry"], "stone_pit", 1, 1, (), id="Stone Pit for 1 coin"),
    # own production: Baths (1 stone) with a Quarry costs nothing
    pytest.param(["quarry"], ["quarry"], "baths", 0, 0, (), id="Baths from own stone"),
]


@pytest.mark.parametrize(("cards", "opponent_cards", "target", "total", "printed", "bought"),
                         RULEBOOK)  # fmt: skip
def test_rulebook_examples(
    catalog: Catalog,
    cards: list[str],
    opponent_cards: list[str],
    target: str,
    total: int,
    printed: int,
    bought: tuple[tuple[Resource, int, int], ...],
) -> None:
    payment = price(catalog, city_of(catalog, cards), city_of(catalog, opponent_cards), target)
    assert (payment.total, payment.card_coins, payment.bought) == (total, printed, bought)
    assert payment.trade == total - printed
    assert not payment.chain and payment.to_opponent == 0 and payment.waived == ()


# --- Chains --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("owned", "target"),
    [
        ("baths", "aqueduct"),  # Espen has Baths: Aqueduct is free in age II
        ("palisade", "fortifications"),  # Tarjei has Palisade: Fortifications is free
        ("scriptorium", "library"),  # a chain also waives printed coins and any Economy
    ],
)
def test_a_chain_makes_the_card_free(catalog: Catalog, owned: str, target: str) -> None:
    rich = city_of(catalog, ["quarry", "stone_pit", "press", "glassworks"], tokens=["economy"])
    payment = price(catalog, city_of(catalog, [owned], coins=0), rich, target)
    assert payment == Payment(total=0, chain=True)
    assert payment.affordable(0)


def test_no_chain_without_the_symbol(catalog: Catalog) -> None:
    payment = price(catalog, city_of(catalog, ["altar"]), City(), "aqueduct")
    assert not payment.chain and payment.total == 6


# --- Economy -------------------------------------------------------------------------------


def test_economy_with_reserves_pays_the_owner_1_per_unit(catalog: Catalog) -> None:
    owner = city_of(catalog, ["quarry", "stone_pit"], tokens=["economy"])
    buyer = city_of(catalog, ["stone_reserve"])
    payment = price(catalog, buyer, owner, "aqueduct")
    assert payment.bought == ((S, 3, 1),)
    assert (payment.total, payment.trade, payment.to_opponent) == (3, 3, 3)


def test_economy_never_takes_the_printed_coins(catalog: Catalog) -> None:
    owner = city_of(catalog, ["glassworks"], tokens=["economy"])
    payment = price(catalog, City(), owner, "caravansery")
    assert (payment.total, payment.card_coins, payment.to_opponent) == (7, 2, 5)


def test_economy_gets_nothing_when_nothing_is_bought(catalog: Catalog) -> None:
    owner = city_of(catalog, tokens=["economy"])
    payment = price(catalog, city_of(catalog, ["glassworks", "press"]), owner, "caravansery")
    assert (payment.total, payment.to_opponent) == (2, 0)


def test_the_buyers_own_economy_pays_nobody(catalog: Catalog) -> None:
    buyer = city_of(catalog, tokens=["economy"])
    payment = price(catalog, buyer, city_of(catalog, ["quarry"]), "aqueduct")
    assert (payment.total, payment.to_opponent) == (9, 0)


# --- Masonry, Architecture and choice production -------------------------------------------


def test_masonry_and_architecture_together_with_a_choice_card(catalog: Catalog) -> None:
    # Stone costs 4 (the opponent has 2); Forum gives glass or papyrus.
    opponent = city_of(catalog, ["quarry", "stone_pit"])
    city = city_of(catalog, ["forum"], tokens=["masonry", "architecture"])
    # Sphinx (clay, stone, 2 glass): Forum takes a glass, Architecture waives the stone (4)
    # and one of the 2-coin units; waiving both glasses instead would cost 6.
    sphinx = price(catalog, city, opponent, "the_sphinx")
    assert sphinx.total == 2 and sphinx.chosen == (G,)
    assert S in sphinx.waived and len(sphinx.waived) == 2
    # Palace (wood, clay, stone, 2 glass), a blue card: Masonry works the same way.
    palace = price(catalog, city, opponent, "palace")
    assert palace.total == 4 and palace.chosen == (G,)
    assert S in palace.waived and len(palace.waived) == 2
    # Pantheon (wood, clay, 2 papyrus): the waivers go where Forum cannot help.
    pantheon = price(catalog, city, opponent, "pantheon")
    # Waiving both papyrus units and leaving Forum idle would cost 4.
    assert pantheon.total == 2 and pantheon.chosen == (P,)
    assert pantheon.waived == (W, C) and pantheon.bought == ((P, 1, 2),)


def test_masonry_is_for_blue_cards_and_architecture_for_wonders(catalog: Catalog) -> None:
    opponent = City()
    masonry = city_of(catalog, tokens=["masonry"])
    architecture = city_of(catalog, tokens=["architecture"])
    assert price(catalog, masonry, opponent, "aqueduct").total == 2  # blue: 3 stone - 2
    assert price(catalog, masonry, opponent, "fortifications").total == 8  # red: no waiver
    assert price(catalog, masonry, opponent, "the_pyramids").total == 8  # wonder: no waiver
    assert price(catalog, architecture, opponent, "the_pyramids").total == 4
    assert price(catalog, architecture, opponent, "aqueduct").total == 6


def test_waivers_take_the_most_expensive_units(catalog: Catalog) -> None:
    # Pyramids: 3 stone and 1 papyrus; stone costs 6 and papyrus 3 for this city.
    opponent = city_of(catalog, ["quarry", "stone_pit", "shelf_quarry", "press"])
    assert opponent.produces == (0, 0, 4, 0, 1)
    payment = price(catalog, city_of(catalog, tokens=["architecture"]), opponent, "the_pyramids")
    assert payment.waived == (S, S)
    assert payment.bought == ((S, 1, 6), (P, 1, 3))
    assert payment.total == 9


def test_choice_producers_cover_the_dearest_units(catalog: Catalog) -> None:
    # Caravansery and the Great Lighthouse for the Statue of Zeus (wood, clay, stone,
    # 2 papyrus): clay costs 4 and stone 3, so both producers go there, wood is bought.
    opponent = City(produces=(0, 2, 1, 0, 0))
    city = city_of(catalog, ["caravansery", "press"], wonders=["the_great_lighthouse"])
    payment = price(catalog, city, opponent, "the_statue_of_zeus")
    assert set(payment.chosen) == {C, S}
    assert payment.bought == ((W, 1, 2), (P, 1, 2))
    assert payment.total == 4


# --- Payment -------------------------------------------------------------------------------


def test_affordable_compares_coins_with_the_total(catalog: Catalog) -> None:
    payment = price(catalog, City(), city_of(catalog, ["quarry", "stone_pit"]), "aqueduct")
    assert payment.total == 12
    assert payment.affordable(12) and payment.affordable(20)
    assert not payment.affordable(11)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"total": 3, "card_coins": 1, "trade": 1}, "total 3 is not card coins \\+ trade"),
        ({"total": 2, "trade": 2, "bought": ((W, 1, 3),)}, "trade 2 is not the sum"),
        ({"total": 2, "trade": 2, "bought": ((W, 1, 2),), "to_opponent": 1}, "all of the"),
        ({"total": 1, "card_coins": 1, "chain": True}, "through a chain is free"),
    ],
)
def test_inconsistent_payments_are_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Payment(**fields)  # type: ignore[arg-type]


def test_prices_never_depend_on_amounts_of_the_buyer(catalog: Catalog) -> None:
    """The buyer's own production lowers what is bought, never the unit price."""
    opponent = city_of(catalog, ["clay_pool", "clay_pit"])
    for cards in ([], ["clay_pool"], ["clay_pool", "clay_pit", "brickyard"]):
        assert unit_prices(city_of(catalog, cards), opponent)[1] == 4


def test_the_numbers_of_the_tokens_come_from_the_catalog(catalog: Catalog) -> None:
    masonry = replace(catalog.token("masonry"), waives_on_blue=3)
    economy = replace(catalog.token("economy"), receives_trade=False)
    others = [t for t in catalog.progress_tokens if t.id not in ("masonry", "economy")]
    changed = replace(catalog, progress_tokens=(*others, masonry, economy))
    city = city_of(catalog, tokens=["masonry"])
    opponent = city_of(catalog, tokens=["economy"])
    town_hall = catalog.card("town_hall")  # 2 wood, 3 stone
    assert cheapest_payment(catalog, city, opponent, town_hall).total == 6
    assert cheapest_payment(catalog, city, opponent, town_hall).to_opponent == 6
    assert cheapest_payment(changed, city, opponent, town_hall).total == 4
    assert cheapest_payment(changed, city, opponent, town_hall).to_opponent == 0


# --- Whole payments against a brute force, on random cities --------------------------------

CARD_IDS = [card.id for card in default_catalog().cards]
WONDER_IDS = [wonder.id for wonder in default_catalog().wonders]
SOME_TOKENS = ["masonry", "architecture", "economy", "urbanism"]


def brute_force_payment(
    catalog: Catalog,
    cards: list[str],
    wonders: list[str],
    tokens: list[str],
    opponent_cards: list[str],
    opponent_tokens: list[str],
    target_id: str,
) -> tuple[int, int, bool]:
    """(total, to opponent, chain) straight from RULES.md "Costs", trying every choice of
    every producer and every placement of the waivers."""
    owned = [catalog.card(c) for c in cards]
    target: Card | Wonder
    if catalog.is_card(target_id):
        target = catalog.card(target_id)
        if target.chain_from and any(c.chain_symbol == target.chain_from for c in owned):
            return 0, 0, True
        waivers = 2 if "masonry" in tokens and target.color is Color.BLUE else 0
    else:
        target = catalog.wonder(target_id)
        waivers = 2 if "architecture" in tokens else 0
    opponents = [catalog.card(c) for c in opponent_cards]
    prices = [
        1
        if any(r in c.fixed_price for c in owned)
        else 2 + sum(c.produces[i] for c in opponents if c.color in (Color.BROWN, Color.GREY))
        for i, r in enumerate(RESOURCES)
    ]
    have = [sum(c.produces[i] for c in owned) for i in range(5)]
    producers = [c.produces_one_of for c in owned if c.produces_one_of]
    producers += [catalog.wonder(w).produces_one_of for w in wonders]
    trade = min(
        sum(
            max(0, target.cost.resources[i] - have[i] - picks.count(r) - placed.count(i))
            * prices[i]
            for i, r in enumerate(RESOURCES)
        )
        for picks in product(*(options or (None,) for options in producers))
        for placed in combinations_with_replacement(range(6), waivers)  # 5: a waiver unused
    )
    economy = "economy" in opponent_tokens
    return target.cost.coins + trade, trade if economy else 0, False


POSITIONS = given(
    cards=st.lists(st.sampled_from(CARD_IDS), unique=True, max_size=14),
    wonders=st.lists(st.sampled_from(WONDER_IDS), unique=True, max_size=3),
    tokens=st.lists(st.sampled_from(SOME_TOKENS), unique=True),
    opponent_cards=st.lists(st.sampled_from(CARD_IDS), unique=True, max_size=14),
    opponent_tokens=st.lists(st.sampled_from(SOME_TOKENS), unique=True),
    target_id=st.sampled_from(CARD_IDS + WONDER_IDS),
)
"""A city, its opponent's and a card or wonder to price: the positions both checks against
the brute-force price draw."""


@settings(max_examples=400, deadline=None)
@POSITIONS
def test_cheapest_payment_equals_brute_force(
    cards: list[str],
    wonders: list[str],
    tokens: list[str],
    opponent_cards: list[str],
    opponent_tokens: list[str],
    target_id: str,
) -> None:
    catalog = default_catalog()
    city = city_of(catalog, cards, wonders, tokens)
    opponent = city_of(catalog, opponent_cards, tokens=opponent_tokens)
    payment = price(catalog, city, opponent, target_id)
    expected = brute_force_payment(
        catalog, cards, wonders, tokens, opponent_cards, opponent_tokens, target_id
    )
    assert (payment.total, payment.to_opponent, payment.chain) == expected
    assert len(payment.waived) <= 2


@settings(max_examples=400, deadline=None)
@POSITIONS
def test_affordable_says_what_the_brute_force_price_says(
    cards: list[str],
    wonders: list[str],
    tokens: list[str],
    opponent_cards: list[str],
    opponent_tokens: list[str],
    target_id: str,
) -> None:
    catalog = default_catalog()
    city = city_of(catalog, cards, wonders, tokens)
    opponent = city_of(catalog, opponent_cards, tokens=opponent_tokens)
    target = catalog.card(target_id) if catalog.is_card(target_id) else catalog.wonder(target_id)
    total = brute_force_payment(
        catalog, cards, wonders, tokens, opponent_cards, opponent_tokens, target_id
    )[0]
    for coins in range(0, 25):
        assert affordable(catalog, city, opponent, target, coins) == (total <= coins)
