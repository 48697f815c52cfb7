"""The three actions: costs (rulebook examples), discards, chains, wonders and their effects."""

from __future__ import annotations

from typing import Any

import pytest
from engine_positions import build, city, discard, play, position, wonder

from companion.engine.cards import Catalog
from companion.engine.rules import IllegalEvent
from companion.engine.state import GameState, PendingKind, Player, evolve

P1, P2 = Player.P1, Player.P2

# --- Costs: the rulebook's worked examples ----------------------------------------------------

# (age, card, p1's cards, p2's cards, coins p1 pays). Each row is a position in which the
# rulebook's example price holds:
COSTS = [
    # Fortifications (clay, 2 stone, papyrus) for 5: p1 lacks 1 stone (3: p2 has a Stone Pit)
    # and 1 papyrus (2).
    (3, "fortifications", ("clay_pool", "quarry"), ("stone_pit",), 5),
    # Aqueduct (3 stone) for 12: p2's Shelf Quarry makes stone cost 4 each.
    (2, "aqueduct", (), ("shelf_quarry",), 12),
    # Caravansery (2 coins, glass, papyrus) for 7: glass 3 (p2's Glassworks), papyrus 2.
    (2, "caravansery", (), ("glassworks",), 7),
    # Only the opponent's brown and grey cards raise the price: a Forum does not.
    (2, "caravansery", (), ("forum",), 6),
    # Fixed prices: Customs House buys glass and papyrus for 1 whatever p2 produces.
    (2, "caravansery", ("customs_house",), ("glassworks", "press"), 4),
    # A printed coin cost alone.
    (1, "stone_reserve", (), ("quarry",), 3),
    # Own production covers the cost: free.
    (1, "baths", ("quarry",), ("quarry",), 0),
]


@pytest.mark.parametrize(("age", "card", "mine", "theirs", "paid"), COSTS)
def test_rulebook_costs(
    catalog: Catalog, age: int, card: str, mine: tuple[str, ...], theirs: tuple[str, ...],
    paid: int,
) -> None:  # fmt: skip
    state = position(catalog, city(catalog, *mine, coins=20), city(catalog, *theirs), age=age)
    after = play(state, build("p1", card))
    assert after.city(P1).coins == 20 - paid
    assert after.city(P1).cards[-1] == card


def test_discard_gives_2_plus_1_per_yellow_card(catalog: Catalog) -> None:
    # Rulebook: with Tavern and Clay Reserve, a discard is worth 4 coins.
    state = position(catalog, city(catalog, "tavern", "clay_reserve", coins=0))
    after = play(state, discard("p1", "lumber_yard"))
    assert after.city(P1).coins == 4
    assert after.discard == ("lumber_yard",)


def test_economy_gives_the_opponent_the_trade_coins_not_the_printed_ones(catalog: Catalog) -> None:
    # Caravansery: 2 printed coins to the bank, glass 3 + papyrus 2 to p2 through Economy.
    state = position(
        catalog, city(catalog, coins=10), city(catalog, "glassworks", coins=0, tokens=["economy"]),
        age=2,
    )  # fmt: skip
    after = play(state, build("p1", "caravansery"))
    assert (after.city(P1).coins, after.city(P2).coins) == (3, 5)


def test_economy_with_a_reserve_pays_the_fixed_price(catalog: Catalog) -> None:
    # Clay Reserve: clay for 1 even against p2's Clay Pool; Economy hands that 1 coin to p2.
    state = position(
        catalog, city(catalog, "clay_reserve", coins=5),
        city(catalog, "clay_pool", coins=0, tokens=["economy"]),
    )  # fmt: skip
    after = play(state, build("p1", "garrison"))
    assert (after.city(P1).coins, after.city(P2).coins) == (4, 1)


def test_masonry_waiver_goes_where_the_choice_card_cannot_help(catalog: Catalog) -> None:
    # Palace: wood, clay, stone, 2 glass. Caravansery gives one raw resource, Masonry waives
    # the 2 glass (4 each against p2's 2 glass): p1 buys the 2 other raw resources for 2 each.
    state = position(
        catalog, city(catalog, "caravansery", coins=20, tokens=["masonry"]),
        city(catalog, "glassworks", "glass_blower"), age=3,
    )  # fmt: skip
    assert play(state, build("p1", "palace")).city(P1).coins == 16


def test_architecture_waives_two_resources_of_a_wonder(catalog: Catalog) -> None:
    # Pyramids: 3 stone + papyrus; Architecture waives the 2 dearest (stone at 3 each).
    mine = city(catalog, coins=20, tokens=["architecture"], wonders_unbuilt=["the_pyramids"])
    state = position(catalog, mine, city(catalog, "quarry"))
    assert play(state, wonder("p1", "the_pyramids", "lumber_yard")).city(P1).coins == 15


def test_unaffordable_build_is_refused_and_changes_nothing(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, coins=11), city(catalog, "shelf_quarry"), age=2)
    with pytest.raises(IllegalEvent, match="Aqueduct costs 12 coins, p1 has 11"):
        play(state, build("p1", "aqueduct"))


# --- Chains -------------------------------------------------------------------------------


def test_a_chain_makes_the_card_free(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "garrison", coins=0), age=2)
    after = play(state, build("p1", "barracks"))  # printed 3 coins
    assert after.city(P1).coins == 0
    assert "barracks" in after.city(P1).cards


def test_urbanism_pays_4_coins_for_a_build_through_a_chain(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "stable", coins=0, tokens=["urbanism"]), age=2)
    assert play(state, build("p1", "horse_breeders")).city(P1).coins == 4


def test_urbanism_pays_nothing_for_an_ordinary_build(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, coins=5, tokens=["urbanism"]), age=2)
    assert play(state, build("p1", "barracks")).city(P1).coins == 2


# --- Yellow cards: coins counted once, when built ----------------------------------------------

# (card, p1's cards, coins paid, coins gained, age); p1 has 2 wonders built, p2 nothing.
YELLOW = [
    ("tavern", (), 0, 4, 1),
    ("brewery", (), 0, 6, 2),
    ("arena", (), 6, 4, 3),  # wood, clay, stone bought; 2 per wonder in p1's city
    ("port", ("lumber_yard", "quarry", "clay_pool"), 4, 6, 3),  # 2 per brown card
    ("chamber_of_commerce", ("glassworks", "press"), 2, 6, 3),  # 3 per grey card
    ("armory", ("stable", "garrison", "walls"), 6, 3, 3),  # 1 per red card
    ("lighthouse", ("tavern", "forum"), 0, 3, 3),  # chained; 1 per yellow card, itself included
]


@pytest.mark.parametrize(("card", "cards", "paid", "gain", "age"), YELLOW)
def test_yellow_cards_pay_their_coins_when_built(
    catalog: Catalog, card: str, cards: tuple[str, ...], paid: int, gain: int, age: int
) -> None:
    mine = city(catalog, *cards, coins=30, wonders_built=["the_pyramids", "the_sphinx"])
    state = position(catalog, mine, age=age)
    assert play(state, build("p1", card)).city(P1).coins == 30 - paid + gain


def test_yellow_coins_are_not_counted_again_later(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "port", coins=0), age=3)
    after = play(state, discard("p1", "arsenal"), discard("p2", "palace"))
    assert after.city(P1).coins == 2 + 1  # the discard only: 2 + 1 yellow card


# --- Wonders -------------------------------------------------------------------------------


def _wonder_position(catalog: Catalog, wonder_id: str, **p2: Any) -> Any:
    mine = city(catalog, coins=40, wonders_unbuilt=[wonder_id, "the_pyramids"])
    return position(catalog, mine, city(catalog, **p2), age=2)


def test_a_wonder_tucks_the_card_which_is_not_discarded(catalog: Catalog) -> None:
    after = play(_wonder_position(catalog, "the_pyramids"), wonder("p1", "the_pyramids", "forum"))
    assert after.city(P1).tucked == ("forum",)
    assert after.city(P1).wonders_built == ("the_pyramids",)
    assert after.discard == ()
    assert "forum" not in after.city(P1).cards


# (wonder, p1's coins after (40 before, every resource bought at 2), p2's (2 before), replay)
WONDERS = [
    ("the_appian_way", 40 - 10 + 3, 0, True),  # 2 clay, 2 stone, papyrus; p2 loses 3 (has 2)
    ("the_hanging_gardens", 40 - 8 + 6, 2, True),
    ("the_temple_of_artemis", 40 - 8 + 12, 2, True),
    ("the_sphinx", 40 - 8, 2, True),
    ("piraeus", 40 - 8, 2, True),
    ("the_pyramids", 40 - 8, 2, False),
    ("the_colossus", 40 - 8, 2, False),
    ("the_great_lighthouse", 40 - 8, 2, False),
]


@pytest.mark.parametrize(("wonder_id", "p1_coins", "p2_coins", "replays"), WONDERS)
def test_wonder_coins_and_extra_turns(
    catalog: Catalog, wonder_id: str, p1_coins: int, p2_coins: int, replays: bool
) -> None:
    state = _wonder_position(catalog, wonder_id, coins=2)
    after = play(state, wonder("p1", wonder_id, "forum"))
    assert after.city(P1).coins == p1_coins
    assert after.city(P2).coins == p2_coins
    assert after.current is (P1 if replays else P2)


def test_theology_gives_an_extra_turn_with_every_wonder(catalog: Catalog) -> None:
    mine = city(catalog, coins=40, tokens=["theology"], wonders_unbuilt=["the_pyramids"])
    after = play(position(catalog, mine, age=2), wonder("p1", "the_pyramids", "forum"))
    assert after.current is P1


def test_an_extra_turn_is_lost_when_the_age_has_no_card_left(catalog: Catalog) -> None:
    state = evolve_taken(_wonder_position(catalog, "the_sphinx"), 19)
    after = play(state, wonder("p1", "the_sphinx", "forum"))
    assert after.pending is not None and after.pending.kind is PendingKind.NEXT_AGE
    # the pawn is central: the player who took the last turn chooses
    assert after.pending.player is P1


def evolve_taken(state: GameState, taken: int) -> GameState:
    return evolve(state, taken=taken)


def test_the_seventh_wonder_sends_the_last_unbuilt_one_to_the_box(catalog: Catalog) -> None:
    four = ["the_pyramids", "the_sphinx", "the_colossus", "piraeus"]
    mine = city(catalog, coins=50, wonders_built=four[:3], wonders_unbuilt=four[3:])
    theirs = city(
        catalog, wonders_built=["the_mausoleum", "the_great_library", "circus_maximus"],
        wonders_unbuilt=["the_appian_way"],
    )  # fmt: skip
    after = play(position(catalog, mine, theirs, age=2), wonder("p1", "piraeus", "forum"))
    assert after.city(P2).wonders_unbuilt == ()
    assert after.boxed_wonders == ("the_appian_way",)
    with pytest.raises(IllegalEvent, match="left the game"):
        play(after, wonder("p1", "the_appian_way", "brewery"))  # p1 replays (Piraeus)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (wonder("p1", "the_colossus", "forum"), "not one of p1's wonders"),
        (wonder("p1", "the_colosus", "forum"), "Unknown wonder"),
        (wonder("p2", "the_pyramids", "forum"), "It is p1's turn"),
    ],
)
def test_wonder_refusals(catalog: Catalog, event: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalEvent, match=message):
        play(_wonder_position(catalog, "the_sphinx"), event)


def test_a_built_wonder_cannot_be_built_again(catalog: Catalog) -> None:
    state = play(_wonder_position(catalog, "the_sphinx"), wonder("p1", "the_sphinx", "forum"))
    with pytest.raises(IllegalEvent, match="already built"):
        play(state, wonder("p1", "the_sphinx", "brewery"))


@pytest.mark.parametrize(
    ("wonder_id", "victim", "color"),
    [("the_statue_of_zeus", "clay_pool", "brown"), ("circus_maximus", "glassworks", "grey")],
)
def test_destroy_takes_an_opponent_card_of_the_wonders_colour(
    catalog: Catalog, wonder_id: str, victim: str, color: str
) -> None:
    theirs = city(catalog, "clay_pool", "glassworks")
    state = play(
        _wonder_position(
            catalog,
            wonder_id,
        ),
    )
    state = position(catalog, state.city(P1), theirs, age=2)
    state = play(state, wonder("p1", wonder_id, "forum"))
    assert state.pending is not None and state.pending.kind is PendingKind.DESTROY
    assert state.position == 1  # both carry a shield
    wrong = "glassworks" if victim == "clay_pool" else "clay_pool"
    with pytest.raises(IllegalEvent, match=f"not a {color} card"):
        play(state, {"type": "destroy", "player": "p1", "card": wrong})
    with pytest.raises(IllegalEvent, match="must first choose a card to destroy"):
        play(state, build("p1", "brewery"))
    after = play(state, {"type": "destroy", "player": "p1", "card": victim})
    assert victim not in after.city(P2).cards
    assert after.discard == (victim,)
    assert after.city(P2).produces == catalog.card(wrong).produces
    assert after.current is P2


def test_destroy_with_nothing_to_destroy_asks_nothing(catalog: Catalog) -> None:
    after = play(
        _wonder_position(catalog, "the_statue_of_zeus"), wonder("p1", "the_statue_of_zeus", "forum")
    )
    assert after.pending is None and after.current is P2


def test_mausoleum_with_an_empty_discard_pile_asks_nothing(catalog: Catalog) -> None:
    state = _wonder_position(catalog, "the_mausoleum")
    after = play(state, wonder("p1", "the_mausoleum", "forum"))
    assert after.pending is None and after.current is P2


def test_mausoleum_rebuilds_a_destroyed_card_for_free(catalog: Catalog) -> None:
    mine = city(catalog, coins=40, wonders_unbuilt=["the_statue_of_zeus", "the_mausoleum"])
    state = position(catalog, mine, city(catalog, "clay_pool", "quarry"), age=2)
    state = play(
        state,
        wonder("p1", "the_statue_of_zeus", "forum"),
        {"type": "destroy", "player": "p1", "card": "clay_pool"},
        discard("p2", "brewery"),
        wonder("p1", "the_mausoleum", "caravansery"),
    )
    assert state.pending is not None and state.pending.kind is PendingKind.MAUSOLEUM
    coins = state.city(P1).coins
    with pytest.raises(IllegalEvent, match="not in the discard pile"):
        play(state, {"type": "mausoleum", "player": "p1", "card": "quarry"})
    after = play(state, {"type": "mausoleum", "player": "p1", "card": "clay_pool"})
    assert "clay_pool" in after.city(P1).cards
    assert after.city(P1).coins == coins
    assert after.discard == ("brewery",)
    assert after.city(P1).produces[1] == 1


def test_great_library_draws_3_unused_tokens_and_keeps_1(catalog: Catalog) -> None:
    state = play(
        _wonder_position(catalog, "the_great_library"), wonder("p1", "the_great_library", "forum")
    )
    assert state.pending is not None and state.pending.kind is PendingKind.GREAT_LIBRARY
    keep = {"type": "great_library", "player": "p1"}
    drawn = ["urbanism", "philosophy", "theology"]
    with pytest.raises(IllegalEvent, match="'law' cannot be drawn"):  # on the board
        play(state, {**keep, "drawn": ["law", "philosophy", "theology"], "token": "philosophy"})
    with pytest.raises(IllegalEvent, match="3 different tokens"):
        play(state, {**keep, "drawn": ["urbanism", "urbanism", "theology"], "token": "theology"})
    with pytest.raises(IllegalEvent, match="was not drawn"):
        play(state, {**keep, "drawn": drawn, "token": "mathematics"})
    after = play(state, {**keep, "drawn": drawn, "token": "urbanism"})
    assert after.city(P1).tokens == {"urbanism"}
    assert after.city(P1).coins == state.city(P1).coins + 6
    assert after.boxed_tokens == {"philosophy", "theology"}
    assert after.board_tokens == state.board_tokens


def test_appian_way_takes_up_to_3_coins(catalog: Catalog) -> None:
    after = play(
        _wonder_position(catalog, "the_appian_way", coins=1),
        wonder("p1", "the_appian_way", "forum"),
    )
    assert after.city(P2).coins == 0


def test_piraeus_and_the_great_lighthouse_are_choice_producers(catalog: Catalog) -> None:
    mine = city(catalog, wonders_built=["piraeus", "the_great_lighthouse"])
    assert mine.choices == (("glass", "papyrus"), ("wood", "clay", "stone"))
    # and they never raise the opponent's prices
    assert mine.produces == (0, 0, 0, 0, 0)
