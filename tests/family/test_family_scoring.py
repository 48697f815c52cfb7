"""Scoring the base game: every category worked out by hand from the rulebook (seed 002)."""

from __future__ import annotations

import pytest
from family_sheets import player, points, score

# Two neighbours with known cards, around Ann (index 0): Bob is next (left), Cid previous.
BOB = player(
    "Bob",
    "giza",
    # brown 3, grey 1, blue 1, red 1, green 1, yellow 2
    ["lumber_yard", "stone_pit", "tree_farm", "loom", "altar", "stockade", "apothecary",
     "tavern", "marketplace"],
    stages=2,
    military=[-1, -1, -1],
)  # fmt: skip
CID = player(
    "Cid",
    "rhodes",
    # brown 1, grey 2, blue 2, red 3, green 2, yellow 1
    ["clay_pool", "glassworks", "press", "baths", "temple", "barracks", "walls", "circus",
     "workshop", "library", "east_trading_post"],
    stages=3,
    military=[-1, 1, 3],
)  # fmt: skip


@pytest.mark.parametrize(
    ("guild", "expected"),
    [
        ("workers_guild", 3 + 1),  # 1 VP x brown: Bob 3 + Cid 1
        ("craftsmens_guild", 2 * (1 + 2)),  # 2 VP x grey: Bob 1 + Cid 2 = 6
        ("traders_guild", 2 + 1),  # 1 VP x yellow: Bob 2 + Cid 1
        ("philosophers_guild", 1 + 2),  # 1 VP x green: Bob 1 + Cid 2
        ("spies_guild", 1 + 3),  # 1 VP x red: Bob 1 + Cid 3
        ("magistrates_guild", 1 + 2),  # 1 VP x blue: Bob 1 + Cid 2
        ("strategists_guild", 3 + 1),  # 1 VP x defeat token: Bob 3 + Cid 1
        ("shipowners_guild", 1 + 1),  # own city: Ore Vein (brown) + the guild itself (purple)
        ("builders_guild", 1 + 2 + 3),  # stages: own 1 + Bob 2 + Cid 3
        ("scientists_guild", 0),  # a wildcard: its point goes to science
    ],
)
def test_every_guild_counts_what_its_card_says(guild: str, expected: int) -> None:
    ann = player("Ann", "ephesus", ["ore_vein", guild], stages=1)
    assert points(score(ann, BOB, CID), "Ann", "guilds") == expected


def test_the_scientists_guild_is_a_science_wildcard() -> None:
    ann = player("Ann", "ephesus", ["scientists_guild"])
    # One symbol of one kind: 1x1 = 1, no set.
    assert points(score(ann, BOB, CID), "Ann", "science") == 1


# Ann's city: brown 2, grey 2, yellow 5 (Tavern + the four Age III yellows), 2 stages built.
YELLOW_CITY = ["lumber_yard", "ore_vein", "loom", "press", "tavern", "haven", "lighthouse",
               "chamber_of_commerce", "arena"]  # fmt: skip


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("haven", 2),  # 1 VP x 2 brown cards in own city (Bob's 3 and Cid's 1 do not count)
        ("lighthouse", 5),  # 1 VP x 5 yellow cards in own city, itself included
        ("chamber_of_commerce", 4),  # 2 VP x 2 grey cards in own city
        ("arena", 2),  # 1 VP x 2 wonder stages built in own city
    ],
)
def test_every_age_iii_yellow_card_counts_its_own_city(card: str, expected: int) -> None:
    ann = player("Ann", "halicarnassus", YELLOW_CITY, stages=2)
    result = score(ann, BOB, CID)
    line = next(p for p in result.players if p.name == "Ann").lines["commercial"]
    assert {part.reason.split(":")[0]: part.points for part in line.parts}[
        {"haven": "Haven", "lighthouse": "Lighthouse", "chamber_of_commerce": "Chamber of Commerce",
         "arena": "Arena"}[card]
    ] == expected  # fmt: skip
    assert line.points == 2 + 5 + 4 + 2


def test_rulebook_examples_for_military_treasury_wonders_civilian() -> None:
    # Seed 002: Alexandria holds +1, +3, +5, -1, -1, -1 = 6; 14 coins = 4 VP (2 left over);
    # all 3 stages of side A = 3 + 7 = 10; Altar 2 + Aqueduct 5 + Town Hall 6 = 13; Chamber of
    # Commerce with 2 grey cards = 4.
    alexandria = player(
        "Ann",
        "alexandria",
        ["altar", "aqueduct", "town_hall", "chamber_of_commerce", "loom", "glassworks"],
        stages=3,
        coins=14,
        military=[1, 3, 5, -1, -1, -1],
    )
    result = score(alexandria, player("Bob", "giza"), player("Cid", "rhodes"))
    assert points(result, "Ann", "military") == 6
    assert points(result, "Ann", "treasury") == 4
    assert points(result, "Ann", "wonders") == 10
    assert points(result, "Ann", "civilian") == 13
    assert points(result, "Ann", "commercial") == 4
    assert next(p for p in result.players if p.name == "Ann").total == 6 + 4 + 10 + 13 + 4


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        # Seed 002: 3 compasses, 2 gears, 1 tablet: 9 + 4 + 1 + 7 = 21.
        (["apothecary", "dispensary", "lodge", "workshop", "laboratory", "scriptorium"], 21),
        # ... and one more tablet: (9 + 4 + 4) + (7 + 7) = 31.
        (["apothecary", "dispensary", "lodge", "workshop", "laboratory", "scriptorium",
          "library"], 31),
    ],
)  # fmt: skip
def test_science_without_wildcards_is_squares_plus_sets(cards: list[str], expected: int) -> None:
    result = score(player("Ann", "giza", cards), player("Bob", "ephesus"), player("Cid", "rhodes"))
    assert points(result, "Ann", "science") == expected


def _science(ann: dict[str, object]) -> tuple[int, tuple[str, ...]]:
    result = score(ann, player("Bob", "ephesus"), player("Cid", "rhodes"))
    line = next(p for p in result.players if p.name == "Ann").lines["science"]
    return line.points, line.notes


def test_one_wildcard_goes_to_the_most_frequent_symbol_rather_than_a_set() -> None:
    # 4 compasses, 2 gears. As a compass: 25 + 4 = 29; as a tablet (completing a set):
    # 16 + 4 + 1 + 7 = 28; as a gear: 16 + 9 = 25.
    cards = ["apothecary", "dispensary", "lodge", "academy", "workshop", "laboratory",
             "scientists_guild"]  # fmt: skip
    total, notes = _science(player("Ann", "giza", cards))
    assert total == 29
    assert notes == ("Scientists Guild counted as a compass: 29 VP (as a gear 25, as a tablet 28)",)


def test_one_wildcard_completes_a_set_when_that_is_worth_more() -> None:
    # 3 compasses, 3 gears. As a tablet: 9 + 9 + 1 + 7 = 26; as a compass: 16 + 9 = 25.
    cards = ["apothecary", "dispensary", "lodge", "workshop", "laboratory", "study"]
    total, notes = _science(player("Ann", "babylon", cards, stages=2))
    assert total == 26
    assert notes[0].startswith("The Hanging Gardens of Babylon stage 2 counted as a tablet: 26")


def test_two_wildcards_are_placed_together_not_one_at_a_time() -> None:
    # 3 compasses, 1 gear, Scientists Guild and Babylon A stage 2. One at a time, the first
    # wildcard would go to a tablet (9 + 1 + 1 + 7 = 18 beats 16 + 1 = 17), then the second to
    # a compass: 16 + 1 + 1 + 7 = 25. Together, both as compasses: 25 + 1 = 26. Each note
    # moves one wildcard, the other staying a compass: as a gear 16 + 4 = 20, as a tablet
    # 16 + 1 + 1 + 7 = 25.
    cards = ["apothecary", "dispensary", "lodge", "workshop", "scientists_guild"]
    total, notes = _science(player("Ann", "babylon", cards, stages=2))
    assert total == 26
    assert notes == (
        "Scientists Guild counted as a compass: 26 VP (as a gear 20, as a tablet 25)",
        "The Hanging Gardens of Babylon stage 2 counted as a compass: 26 VP "
        "(as a gear 20, as a tablet 25)",
    )


def test_olympia_b_copies_the_neighbour_guild_worth_most_to_it() -> None:
    # Olympia (Ann) with 3 stages; Bob holds the Workers Guild, Cid the Builders Guild.
    # Workers copied: brown in Bob 3 + Cid 1 = 4. Builders copied: stages 3 + 2 + 3 = 8.
    ann = player("Ann", "olympia", ["lumber_yard"], side="B", stages=3)
    bob = {**BOB, "cards": [*BOB["cards"], "workers_guild"]}
    cid = {**CID, "cards": [*CID["cards"], "builders_guild"]}
    result = score(ann, bob, cid)
    line = next(p for p in result.players if p.name == "Ann").lines["guilds"]
    assert line.points == 8
    assert line.notes == (
        "The Statue of Zeus in Olympia copies Builders Guild from Cid: +8 VP "
        "(other choices: Workers Guild (Bob) +4)",
    )
    # The original still scores for its owner: Cid's Builders Guild 3 + 3 + 2 = 8.
    assert points(result, "Cid", "guilds") == 8
    # Olympia B's stage 2 is worth 5.
    assert points(result, "Ann", "wonders") == 5


def test_olympia_b_copying_the_scientists_guild_adds_a_wildcard_to_science() -> None:
    # Ann: 2 compasses, 2 gears. Bob's Scientists Guild copied as a tablet: 4 + 4 + 1 + 7 = 16
    # instead of 8 (+8); Cid's Workers Guild copied: brown 3 (Bob) + 1 (Cid) = 4.
    ann = player("Ann", "olympia", ["apothecary", "dispensary", "workshop", "laboratory"],
                 side="B", stages=3)  # fmt: skip
    bob = {**BOB, "cards": ["lumber_yard", "stone_pit", "tree_farm", "scientists_guild"]}
    cid = {**CID, "cards": [*CID["cards"], "workers_guild"]}
    result = score(ann, bob, cid)
    assert points(result, "Ann", "science") == 16
    assert points(result, "Ann", "guilds") == 0
    ann_lines = next(p for p in result.players if p.name == "Ann").lines
    assert ann_lines["science"].notes == (
        "Scientists Guild copied from Bob counted as a tablet: 16 VP "
        "(as a compass 13, as a gear 13)",
    )


def test_olympia_b_copying_the_shipowners_guild_counts_the_copy_itself() -> None:
    # Ann's own brown 1 + grey 0 + purple: the copied guild, as if built in her city = 2.
    ann = player("Ann", "olympia", ["lumber_yard"], side="B", stages=3)
    bob = player("Bob", "giza", ["shipowners_guild", "stone_pit"])
    assert points(score(ann, bob, player("Cid", "rhodes")), "Ann", "guilds") == 2


def test_olympia_b_before_its_third_stage_copies_nothing() -> None:
    ann = player("Ann", "olympia", side="B", stages=2)
    bob = player("Bob", "giza", ["builders_guild"])
    assert points(score(ann, bob, player("Cid", "rhodes")), "Ann", "guilds") == 0


def test_the_free_city_feeds_its_neighbours_guilds_but_is_not_ranked() -> None:
    # Two-player variant: Ann, Bob and the Free City. Ann's Spies Guild: red in Bob 1 + Free
    # City 2 = 3; her Strategists Guild: defeats in Bob 1 + Free City 2 = 3.
    ann = player("Ann", "giza", ["spies_guild", "strategists_guild"])
    bob = player("Bob", "rhodes", ["stockade"], military=[-1])
    free = player("Free City", "ephesus", ["barracks", "walls", "palace", "pantheon"],
                  coins=30, military=[-1, -1], free_city=True)  # fmt: skip
    result = score(ann, bob, free, variant="two-player")
    assert points(result, "Ann", "guilds") == 3 + 3
    # The Free City has 8 + 7 + 10 - 2 = 23 points, far more than Ann's 6, but is not ranked.
    assert [p.name for p in result.ranked] == ["Ann", "Bob"]
    assert result.winners == ("Ann",)


def test_a_tie_goes_to_most_coins() -> None:
    # Ann: Palace 8 + 1 coin = 8; Bob: 24 coins = 8. Equal points, Bob has more coins.
    result = score(
        player("Ann", "giza", ["palace"], coins=1),
        player("Bob", "rhodes", coins=24),
        player("Cid", "ephesus", coins=3),
    )
    assert points(result, "Ann", "treasury") + points(result, "Ann", "civilian") == 8
    assert result.winners == ("Bob",)


def test_a_tie_in_points_and_coins_is_a_shared_victory() -> None:
    # Ann: Temple 3 + 2 coins = 3; Cid: Baths 3 + 2 coins = 3; Bob 0.
    result = score(
        player("Ann", "giza", ["temple"], coins=2),
        player("Bob", "rhodes"),
        player("Cid", "ephesus", ["baths"], coins=2),
    )
    assert result.winners == ("Ann", "Cid")


@pytest.mark.parametrize("count", [3, 4, 5, 6, 7])
def test_neighbours_wrap_around_the_table(count: int) -> None:
    # The first player's Workers Guild counts the second (2 brown) and the last (1 brown)
    # player's cards, never those across the table (4 brown each).
    wonders = ["giza", "rhodes", "ephesus", "babylon", "olympia", "alexandria", "halicarnassus"]
    middle = ["lumber_yard", "stone_pit", "clay_pool", "ore_vein"]
    players = [player(f"P{i}", wonders[i], middle) for i in range(count)]
    players[0] = player("P0", "giza", ["workers_guild"])
    players[1] = player("P1", "rhodes", ["lumber_yard", "stone_pit"])
    players[-1] = player(f"P{count - 1}", wonders[count - 1], ["clay_pool"])
    result = score(*players)
    assert points(result, "P0", "guilds") == 2 + 1
    assert len(result.players) == count


def test_babylon_b_gives_its_wildcard_with_the_third_stage_only() -> None:
    # Babylon B: stage 1 3 VP, stage 2 the seventh card, stage 3 the wildcard. With a compass
    # and a gear: 2 stages give 1 + 1 = 2 science; 3 stages add a tablet: 1 + 1 + 1 + 7 = 10.
    cards = ["apothecary", "workshop"]
    two = score(player("Ann", "babylon", cards, side="B", stages=2), BOB, CID)
    three = score(player("Ann", "babylon", cards, side="B", stages=3), BOB, CID)
    assert points(two, "Ann", "science") == 2
    assert points(three, "Ann", "science") == 10
    assert points(three, "Ann", "wonders") == 3


@pytest.mark.parametrize(
    ("coins", "reason"),
    [
        (1, "1 coin / 3 = 0 (1 left over)"),  # 1 = 3 x 0 + 1
        (7, "7 coins / 3 = 2 (1 left over)"),  # 7 = 3 x 2 + 1
    ],
)
def test_the_treasury_reason_words_one_coin_and_many(coins: int, reason: str) -> None:
    result = score(
        player("Ann", "giza", coins=coins), player("Bob", "rhodes"), player("Cid", "babylon")
    )
    ann = next(p for p in result.players if p.name == "Ann")
    assert [part.reason for part in ann.lines["treasury"].parts] == [reason]
