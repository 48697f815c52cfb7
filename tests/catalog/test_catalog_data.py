"""Facts of the shipped data/ folder, as the card reference and the rulebooks state them."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.engine.cards import Catalog, Color, Resource, Science, amounts

# The table "Counts by age and colour" of the card reference.
COUNTS = {
    "1": {"brown": 6, "grey": 2, "red": 4, "green": 4, "blue": 3, "yellow": 4},
    "2": {"brown": 3, "grey": 2, "red": 5, "green": 4, "blue": 5, "yellow": 4},
    "3": {"red": 5, "green": 4, "blue": 6, "yellow": 5},
    "guild": {"purple": 7},
}

# Rows of each age layout, from the row dealt first: (cards, columns).
ROWS = {
    1: [(5, 7), (4, 6, 8), (3, 5, 7, 9), (2, 4, 6, 8, 10), (1, 3, 5, 7, 9, 11)],
    2: [(1, 3, 5, 7, 9, 11), (2, 4, 6, 8, 10), (3, 5, 7, 9), (4, 6, 8), (5, 7)],
    3: [(5, 7), (4, 6, 8), (3, 5, 7, 9), (4, 8), (3, 5, 7, 9), (4, 6, 8), (5, 7)],
}


@pytest.mark.parametrize("age", COUNTS)
def test_each_age_has_the_reference_count_per_colour(catalog: Catalog, age: str) -> None:
    deck = catalog.guilds if age == "guild" else catalog.age_deck(int(age))
    assert Counter(c.color.value for c in deck) == COUNTS[age]


def test_there_are_23_23_20_cards_7_guilds_12_wonders_and_10_tokens(catalog: Catalog) -> None:
    sizes = [len(catalog.age_deck(age)) for age in (1, 2, 3)]
    assert sizes == [23, 23, 20]
    assert len(catalog.guilds) == 7
    assert all(g.age == 3 and g.color is Color.PURPLE for g in catalog.guilds)
    assert (len(catalog.wonders), len(catalog.progress_tokens)) == (12, 10)


def test_age_cards_carry_4_8_and_12_shields_24_in_all(catalog: Catalog) -> None:
    per_age = [sum(c.shields for c in catalog.age_deck(age)) for age in (1, 2, 3)]
    assert per_age == [4, 8, 12]


def test_every_chain_resolves_to_one_card_of_an_earlier_age(catalog: Catalog) -> None:
    givers = {c.chain_symbol: c for c in catalog.cards if c.chain_symbol}
    freed = [c for c in catalog.cards if c.chain_from]
    assert len(givers) == len(freed) == 17
    for card in freed:
        giver = givers[card.chain_from]
        assert giver.age < card.age, f"{card.id} chains from {giver.id}"
    assert sorted(c.chain_from for c in freed) == sorted(givers)


@pytest.mark.parametrize(
    ("giver", "middle", "last"),
    [("theater", "statue", "gardens"), ("altar", "temple", "pantheon")],
)
def test_two_chains_run_through_three_ages(
    catalog: Catalog, giver: str, middle: str, last: str
) -> None:
    assert catalog.card(middle).chain_from == catalog.card(giver).chain_symbol
    assert catalog.card(last).chain_from == catalog.card(middle).chain_symbol
    assert catalog.card(last).chain_from != catalog.card(giver).chain_symbol


def test_each_card_symbol_is_on_exactly_two_green_cards(catalog: Catalog) -> None:
    on_cards = Counter(c.science for c in catalog.cards if c.science)
    assert on_cards == {s: 2 for s in Science if s is not Science.LAW}
    assert all(c.color is Color.GREEN for c in catalog.cards if c.science)
    assert len([c for c in catalog.cards if c.color is Color.GREEN]) == 12


def test_law_is_the_seventh_symbol_on_the_law_token_only(catalog: Catalog) -> None:
    assert [t.id for t in catalog.progress_tokens if t.science] == ["law"]
    assert catalog.token("law").science is Science.LAW
    assert len(Science) == 7


@pytest.mark.parametrize("age", [1, 2, 3])
def test_layouts_have_20_positions_in_the_reference_rows(catalog: Catalog, age: int) -> None:
    layout = catalog.layout(age)
    assert len(layout.positions) == 20
    rows = [
        tuple(p.col for p in layout.positions if p.row == row) for row in range(1, layout.rows + 1)
    ]
    assert rows == ROWS[age]
    assert [p.index for p in layout.positions] == list(range(20))


@pytest.mark.parametrize("age", [1, 2, 3])
def test_odd_rows_are_face_up_and_even_rows_face_down(catalog: Catalog, age: int) -> None:
    for p in catalog.layout(age).positions:
        assert p.face_up == (p.row % 2 == 1), (p.row, p.col)


@pytest.mark.parametrize("age", [1, 2, 3])
def test_a_card_is_covered_by_the_cards_of_the_next_row_beside_it(
    catalog: Catalog, age: int
) -> None:
    layout = catalog.layout(age)
    place = {(p.row, p.col): p.index for p in layout.positions}
    for p in layout.positions:
        beside = {(p.row + 1, p.col - 1), (p.row + 1, p.col + 1)}
        assert set(p.covered_by) == {place[rc] for rc in beside if rc in place}
        for other in p.covers:
            assert p.index in layout.positions[other].covered_by


@pytest.mark.parametrize("age", [1, 2, 3])
def test_only_the_last_row_is_accessible_at_the_start(catalog: Catalog, age: int) -> None:
    layout = catalog.layout(age)
    last_row = {p.index for p in layout.positions if p.row == layout.rows}
    assert layout.initially_accessible() == last_row


def test_age_3_middle_row_hangs_between_two_cards_above_and_below(catalog: Catalog) -> None:
    layout = catalog.layout(3)
    middle = [p for p in layout.positions if p.row == 4]
    assert [(p.col, len(p.covers), len(p.covered_by)) for p in middle] == [(4, 2, 2), (8, 2, 2)]


@pytest.mark.parametrize(
    ("card", "coins", "resources"),
    [
        ("caravansery", 2, {Resource.GLASS: 1, Resource.PAPYRUS: 1}),  # Swedish guide example
        ("tacticians_guild", 0, {Resource.CLAY: 1, Resource.STONE: 2, Resource.PAPYRUS: 1}),
        ("courthouse", 0, {Resource.WOOD: 2, Resource.GLASS: 1}),  # Age II blue, 5 VP
        ("pretorium", 8, {}),  # Age III red, 3 shields
        ("forum", 3, {Resource.CLAY: 1}),
        ("tavern", 0, {}),
    ],
)
def test_printed_costs(
    catalog: Catalog, card: str, coins: int, resources: dict[Resource, int]
) -> None:
    cost = catalog.card(card).cost
    assert (cost.coins, cost.resources) == (coins, amounts(resources))


@pytest.mark.parametrize(
    ("card", "count", "coins"),
    [
        ("arena", "wonder", 2),
        ("chamber_of_commerce", "grey_card", 3),
        ("port", "brown_card", 2),
        ("lighthouse", "yellow_card", 1),
        ("armory", "red_card", 1),
    ],
)
def test_age_3_yellow_cards_give_coins_per_item_and_3_vp(
    catalog: Catalog, card: str, count: str, coins: int
) -> None:
    found = catalog.card(card)
    assert found.coins_per is not None
    assert ([c.value for c in found.coins_per.counts], found.coins_per.coins) == ([count], coins)
    assert found.points == 3


def test_guild_rules(catalog: Catalog) -> None:
    rules = {
        g.id: ([c.value for c in g.guild.counts], g.guild.coins, g.guild.points, g.guild.per)
        for g in catalog.guilds
        if g.guild
    }
    assert rules == {
        "merchants_guild": (["yellow_card"], 1, 1, 1),
        "shipowners_guild": (["brown_card", "grey_card"], 1, 1, 1),
        "builders_guild": (["wonder"], 0, 2, 1),
        "magistrates_guild": (["blue_card"], 1, 1, 1),
        "scientists_guild": (["green_card"], 1, 1, 1),
        "moneylenders_guild": (["coins"], 0, 1, 3),
        "tacticians_guild": (["red_card"], 1, 1, 1),
    }


def test_trade_and_choice_cards(catalog: Catalog) -> None:
    fixed = {c.id: sorted(c.fixed_price) for c in catalog.cards if c.fixed_price}
    assert fixed == {
        "stone_reserve": [Resource.STONE],
        "clay_reserve": [Resource.CLAY],
        "wood_reserve": [Resource.WOOD],
        "customs_house": [Resource.GLASS, Resource.PAPYRUS],
    }
    choices = {c.id: set(c.produces_one_of) for c in catalog.cards if c.produces_one_of}
    choices |= {w.id: set(w.produces_one_of) for w in catalog.wonders if w.produces_one_of}
    raw, goods = {Resource.WOOD, Resource.CLAY, Resource.STONE}, {Resource.GLASS, Resource.PAPYRUS}
    assert choices == {
        "forum": goods,
        "caravansery": raw,
        "the_great_lighthouse": raw,
        "piraeus": goods,
    }


def test_only_brown_and_grey_cards_produce_fixed_resources(catalog: Catalog) -> None:
    producers = {c.color for c in catalog.cards if any(c.produces)}
    assert producers == {Color.BROWN, Color.GREY}


def test_wonder_effects(catalog: Catalog) -> None:
    extra = {w.id for w in catalog.wonders if w.extra_turn}
    assert extra == {
        "the_appian_way",
        "the_hanging_gardens",
        "piraeus",
        "the_sphinx",
        "the_temple_of_artemis",
    }
    assert {w.id: w.destroys for w in catalog.wonders if w.destroys} == {
        "circus_maximus": Color.GREY,
        "the_statue_of_zeus": Color.BROWN,
    }
    shields = {w.id: w.shields for w in catalog.wonders if w.shields}
    assert shields == {"circus_maximus": 1, "the_colossus": 2, "the_statue_of_zeus": 1}
    coins = {w.id: w.coins for w in catalog.wonders if w.coins}
    assert coins == {"the_appian_way": 3, "the_hanging_gardens": 6, "the_temple_of_artemis": 12}
    assert catalog.wonder("the_appian_way").opponent_loses == 3
    assert catalog.wonder("the_mausoleum").builds_from_discard
    library = catalog.wonder("the_great_library")
    assert (library.draws_tokens, library.keeps_tokens) == (3, 1)
    points = [w.points for w in catalog.wonders]
    assert points == [3, 3, 3, 4, 4, 3, 2, 2, 9, 6, 3, 0]


def test_progress_token_numbers(catalog: Catalog) -> None:
    t = catalog.token
    assert (t("agriculture").coins, t("agriculture").points) == (6, 4)
    assert (t("urbanism").coins, t("urbanism").coins_per_chain) == (6, 4)
    assert t("philosophy").points == 7
    assert t("mathematics").points_per_token == 3
    assert t("architecture").waives_on_wonders == 2
    assert t("masonry").waives_on_blue == 2
    assert t("strategy").extra_shields_on_red == 1
    assert t("economy").receives_trade
    assert t("theology").wonders_extra_turn


def test_military_track_zones_and_loot(catalog: Catalog) -> None:
    track = catalog.track
    assert track.capital == 9
    assert [track.points_at(d) for d in range(9)] == [0, 2, 2, 5, 5, 5, 10, 10, 10]
    assert [(z.first, z.last, z.loot) for z in track.zones] == [(1, 2, 0), (3, 5, 2), (6, 8, 5)]


def test_setup(catalog: Catalog) -> None:
    rules = catalog.rules
    assert rules.starting_coins == 7
    assert (rules.removed_per_age, rules.guilds_in_age_3, rules.tokens_on_board) == (3, 3, 5)
    assert (rules.wonders_per_player, rules.max_wonders, rules.science_supremacy) == (4, 7, 6)
    assert "".join(rules.draft_order) == "ABBABAAB"
    assert rules.first_game_wonders == (
        ("the_pyramids", "the_great_lighthouse", "the_temple_of_artemis", "the_statue_of_zeus"),
        ("circus_maximus", "piraeus", "the_appian_way", "the_colossus"),
    )


def test_a_loot_token_lies_where_its_zone_begins_on_either_side(catalog: Catalog) -> None:
    track = catalog.track
    # board.toml: the 2-coin token at distance 3 (zone 3-5), the 5-coin one at 6 (zone 6-8)
    found = {signed: track.loot_token_at(signed) for signed in range(-9, 10)}
    tokens = {signed: (zone.loot, zone.last) for signed, zone in found.items() if zone}
    assert tokens == {-6: (5, 8), -3: (2, 5), 3: (2, 5), 6: (5, 8)}
