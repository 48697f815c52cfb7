"""Corners of the rules: one test per rule of RULES.md that had no test or a weak one.

Every expected number is worked out by hand from the rulebook in a comment beside it; the
rule -> test table in docs/engine.md points here.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_positions import build, city, discard, play, position, progress, wonder

from companion.engine.cards import Catalog
from companion.engine.pricing import unit_prices
from companion.engine.rules import IllegalEvent, legal_events
from companion.engine.scoring import score_sheet
from companion.engine.state import PendingKind, Player, Victory

P1, P2 = Player.P1, Player.P2


def destroy(player: str, card: str) -> dict[str, Any]:
    return {"type": "destroy", "player": player, "card": card}


def mausoleum(player: str, card: str) -> dict[str, Any]:
    return {"type": "mausoleum", "player": player, "card": card}


def library(player: str, drawn: list[str], token: str) -> dict[str, Any]:
    return {"type": "great_library", "player": player, "drawn": drawn, "token": token}


# --- Setup: 17 age cards + 3 guilds in age 3 ---------------------------------------------------


@pytest.mark.parametrize("guilds", [0, 2])
def test_an_age_3_deal_needs_exactly_3_guilds(catalog: Catalog, guilds: int) -> None:
    # Setup 6: 3 of the 20 age 3 cards are removed, 3 guilds added: 17 + 3 = 20, never fewer.
    others = [c.id for c in catalog.age_deck(3)][: 20 - guilds]
    layout = others + [g.id for g in catalog.guilds][:guilds]
    with pytest.raises(IllegalEvent, match=f"age 3 has 3 guilds, not {guilds}"):
        play(position(catalog, age=3), {"type": "deal", "age": 3, "layout": layout})


def test_table_mode_refuses_an_18th_age_3_card_that_is_not_a_guild(catalog: Catalog) -> None:
    # Only 17 of the 20 age 3 cards are in play; the other 3 places hold guilds.
    rich = city(catalog, coins=99)
    state = position(catalog, rich, rich, age=3)
    deck = [c.id for c in catalog.age_deck(3)]
    for number, card in enumerate(deck[:17]):
        state = play(state, discard("p1" if number % 2 == 0 else "p2", card))
    with pytest.raises(IllegalEvent, match="only 17 cards besides the guilds"):
        play(state, discard("p2", deck[17]))
    after = play(state, discard("p2", catalog.guilds[0].id))  # a guild is still welcome
    assert after.taken == 18


def test_table_mode_refuses_a_guild_outside_age_3(catalog: Catalog) -> None:
    # Guilds are shuffled into the age 3 deck only.
    with pytest.raises(IllegalEvent, match="is an age 3 card, not age 1"):
        play(position(catalog), discard("p1", "merchants_guild"))


# --- Discard --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "gain"),
    [
        ((), 2),  # 2 coins and nothing else
        (("theater", "guard_tower", "lumber_yard", "glassworks", "workshop"), 2),  # not yellow
        (("tavern", "forum", "customs_house"), 5),  # 2 + 3 yellow cards
    ],
)
def test_a_discard_counts_only_yellow_cards(
    catalog: Catalog, cards: tuple[str, ...], gain: int
) -> None:
    state = position(catalog, city(catalog, *cards, coins=0), age=2)
    assert play(state, discard("p1", "sawmill")).city(P1).coins == gain


# --- Economy and Urbanism ------------------------------------------------------------------------


def test_economy_gets_nothing_from_a_build_through_a_chain(catalog: Catalog) -> None:
    # Horse Breeders (wood + clay) is free with Stable's horseshoe: no trade, nothing to p2.
    state = position(
        catalog, city(catalog, "stable", coins=0), city(catalog, coins=0, tokens=["economy"]),
        age=2,
    )  # fmt: skip
    after = play(state, build("p1", "horse_breeders"))
    assert (after.city(P1).coins, after.city(P2).coins) == (0, 0)


def test_economy_gets_the_trade_of_a_wonder(catalog: Catalog) -> None:
    # Pyramids: 3 stone at 3 (p2's Quarry) + papyrus at 2 = 11 coins, all of it trade.
    mine = city(catalog, coins=20, wonders_unbuilt=["the_pyramids"])
    theirs = city(catalog, "quarry", coins=0, tokens=["economy"])
    after = play(position(catalog, mine, theirs), wonder("p1", "the_pyramids", "lumber_yard"))
    assert (after.city(P1).coins, after.city(P2).coins) == (9, 11)


def test_economy_gets_the_trade_left_after_masonry(catalog: Catalog) -> None:
    # Palace: wood, clay, stone, 2 glass. Glass costs 3 (p2's Glassworks), so Masonry waives
    # both glass; p1 buys wood, clay, stone at 2 = 6, and those 6 coins go to p2.
    mine = city(catalog, coins=20, tokens=["masonry"])
    theirs = city(catalog, "glassworks", coins=0, tokens=["economy"])
    after = play(position(catalog, mine, theirs, age=3), build("p1", "palace"))
    assert (after.city(P1).coins, after.city(P2).coins) == (14, 6)


def test_urbanism_pays_nothing_when_a_chain_card_goes_under_a_wonder(catalog: Catalog) -> None:
    # Horse Breeders would chain from Stable, but it is tucked: the wonder is paid (Pyramids:
    # 3 stone + papyrus at 2 = 8) and nothing is built through a chain.
    mine = city(catalog, "stable", coins=20, tokens=["urbanism"], wonders_unbuilt=["the_pyramids"])
    after = play(position(catalog, mine, age=2), wonder("p1", "the_pyramids", "horse_breeders"))
    assert after.city(P1).coins == 12


def test_urbanism_pays_nothing_for_a_mausoleum_build(catalog: Catalog) -> None:
    # The Mausoleum builds for free, not through the chain p1 happens to own.
    mine = city(catalog, "stable", coins=20, tokens=["urbanism"], wonders_unbuilt=["the_mausoleum"])
    state = position(catalog, mine, age=2, discard=("horse_breeders",))
    state = play(state, wonder("p1", "the_mausoleum", "forum"))
    after = play(state, mausoleum("p1", "horse_breeders"))
    assert after.city(P1).coins == state.city(P1).coins
    assert "horse_breeders" in after.city(P1).cards


# --- Extra turns --------------------------------------------------------------------------------


def test_theology_and_a_replay_wonder_give_one_extra_turn_only(catalog: Catalog) -> None:
    mine = city(catalog, coins=40, tokens=["theology"], wonders_unbuilt=["the_sphinx"])
    state = play(position(catalog, mine, age=2), wonder("p1", "the_sphinx", "forum"))
    assert state.current is P1
    assert play(state, discard("p1", "brewery")).current is P2


@pytest.mark.parametrize(("tokens", "next_player"), [((), P2), (("theology",), P1)])
def test_a_decision_keeps_the_extra_turn_of_its_wonder(
    catalog: Catalog, tokens: tuple[str, ...], next_player: Player
) -> None:
    # The Great Library has no extra turn of its own; Theology gives it one, taken once the
    # token is chosen.
    mine = city(catalog, coins=40, tokens=list(tokens), wonders_unbuilt=["the_great_library"])
    state = play(position(catalog, mine, age=2), wonder("p1", "the_great_library", "forum"))
    assert state.pending is not None and state.pending.kind is PendingKind.GREAT_LIBRARY
    after = play(state, library("p1", ["urbanism", "philosophy", "mathematics"], "philosophy"))
    assert (after.current, after.pending) == (next_player, None)


def test_a_decision_on_the_last_card_of_an_age_loses_the_extra_turn(catalog: Catalog) -> None:
    # Statue of Zeus with Theology on the 20th card: 1 shield (pawn to +1, p2's side), the
    # destroy is chosen, then the age ends: no extra turn, p2 (weaker) chooses who begins.
    mine = city(catalog, coins=40, tokens=["theology"], wonders_unbuilt=["the_statue_of_zeus"])
    state = position(catalog, mine, city(catalog, "clay_pool"), age=2, taken=19)
    state = play(state, wonder("p1", "the_statue_of_zeus", "forum"))
    assert state.pending is not None and state.pending.kind is PendingKind.DESTROY
    after = play(state, destroy("p1", "clay_pool"))
    assert after.pending is not None
    assert (after.pending.kind, after.pending.player) == (PendingKind.NEXT_AGE, P2)


# --- Mausoleum ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("tokens", "next_player"), [((), P2), (("theology",), P1)])
def test_a_mausoleum_card_that_makes_a_pair_asks_for_a_token(
    catalog: Catalog, tokens: tuple[str, ...], next_player: Player
) -> None:
    # Laboratory from the discard pile pairs Workshop's plumb bob: a token, then the turn ends
    # (or p1 plays again with Theology).
    mine = city(
        catalog, "workshop", coins=40, tokens=list(tokens), wonders_unbuilt=["the_mausoleum"]
    )
    state = position(catalog, mine, age=2, discard=("laboratory",))
    state = play(state, wonder("p1", "the_mausoleum", "forum"), mausoleum("p1", "laboratory"))
    assert state.pending is not None and state.pending.kind is PendingKind.PROGRESS
    after = play(state, progress("p1", "agriculture"))
    assert (after.current, after.pending) == (next_player, None)
    assert after.discard == ()


def test_a_mausoleum_card_can_win_by_science(catalog: Catalog) -> None:
    # Five different symbols; University (globe) from the discard pile is the sixth.
    greens = ("workshop", "apothecary", "scriptorium", "pharmacist", "academy")
    mine = city(catalog, *greens, coins=40, wonders_unbuilt=["the_mausoleum"])
    state = position(catalog, mine, age=3, discard=("university",))
    state = play(state, wonder("p1", "the_mausoleum", "palace"), mausoleum("p1", "university"))
    assert (state.winner, state.victory, state.pending) == (P1, Victory.SCIENCE, None)


# --- Supremacy in the middle of a wonder's effects ------------------------------------------------


def test_a_shield_wonder_reaching_the_capital_wins_before_its_destroy(catalog: Catalog) -> None:
    # Circus Maximus from +8: its shield reaches p2's capital; no destroy is asked for.
    mine = city(catalog, coins=40, wonders_unbuilt=["circus_maximus"])
    state = position(catalog, mine, city(catalog, "glassworks"), age=2, position=8)
    after = play(state, wonder("p1", "circus_maximus", "forum"))
    assert (after.winner, after.victory, after.pending, after.position) == (
        P1, Victory.MILITARY, None, 9,
    )  # fmt: skip
    assert after.city(P2).cards == ("glassworks",)


def test_law_from_the_great_library_as_the_sixth_symbol_wins(catalog: Catalog) -> None:
    greens = ("workshop", "apothecary", "scriptorium", "pharmacist", "academy")
    mine = city(catalog, *greens, coins=40, wonders_unbuilt=["the_great_library"])
    board = ("agriculture", "economy", "masonry", "strategy", "theology")  # Law set aside
    state = position(catalog, mine, age=3, board=board)
    state = play(state, wonder("p1", "the_great_library", "palace"))
    after = play(state, library("p1", ["law", "philosophy", "mathematics"], "law"))
    assert (after.winner, after.victory, after.pending) == (P1, Victory.SCIENCE, None)


def test_a_shield_wonder_takes_loot(catalog: Catalog) -> None:
    # Colossus: 2 shields from +1 to +3, entering p2's 2-coin zone.
    mine = city(catalog, coins=40, wonders_unbuilt=["the_colossus"])
    state = position(catalog, mine, city(catalog, coins=5), age=2, position=1)
    after = play(state, wonder("p1", "the_colossus", "forum"))
    assert (after.position, after.city(P2).coins) == (3, 3)


# --- Destroyed cards ---------------------------------------------------------------------------


def test_a_destroyed_card_no_longer_sets_prices_or_counts_for_guilds(catalog: Catalog) -> None:
    mine = city(catalog, "lumber_yard", "quarry", coins=40, wonders_unbuilt=["the_statue_of_zeus"])
    theirs = city(catalog, "clay_pool", "clay_pit", "stone_pit")
    state = position(catalog, mine, theirs, age=3)
    assert unit_prices(state.city(P1), state.city(P2))[1] == 4  # clay: 2 + Clay Pool + Clay Pit
    state = play(
        state, wonder("p1", "the_statue_of_zeus", "arsenal"), destroy("p1", "clay_pit"),
        discard("p2", "palace"),
    )  # fmt: skip
    assert unit_prices(state.city(P1), state.city(P2))[1] == 3
    assert state.discard == ("clay_pit", "palace")
    # Shipowners: clay at 3, stone own, glass and papyrus at 2 = 7; 1 coin per brown and grey
    # card in the city with the most: p1 2, p2 2 (3 before the destroy).
    before = state.city(P1).coins
    after = play(state, build("p1", "shipowners_guild"))
    assert after.city(P1).coins == before - 7 + 2


# --- Military --------------------------------------------------------------------------------


def test_loot_tokens_of_each_side_are_used_once_as_the_pawn_swings(catalog: Catalog) -> None:
    # p2's 2-coin token is already used (the pawn went to +3 earlier). Coins worked out per
    # step: p1 30, p2 30 (p2 owns Strategy).
    state = position(
        catalog, city(catalog, coins=30), city(catalog, coins=30, tokens=["strategy"]),
        age=3, current=P2, position=1, loot=frozenset({6, -3, -6}),
    )  # fmt: skip
    state = play(state, build("p2", "arsenal"))  # 3 + 1 shields: +1 -> -3; p2 pays 2 wood 3 clay
    assert (state.position, state.city(P1).coins, state.city(P2).coins) == (-3, 28, 20)
    state = play(
        state,
        build("p1", "pretorium"),  # 8 coins, 3 shields: -3 -> 0
        discard("p2", "palace"),  # p2 22
        build("p1", "circus"),  # 2 clay 2 stone = 8, 2 shields: 0 -> 2
        discard("p2", "town_hall"),  # p2 24
        build("p1", "fortifications"),  # clay 2 stone papyrus = 8, 2 shields: 2 -> 4
    )
    assert state.position == 4
    assert (state.city(P1).coins, state.city(P2).coins) == (30 - 2 - 8 - 8 - 8, 24)  # no loot
    assert state.loot == {6, -6}


# --- Scoring -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("coins", "points"), [(2, 0), (3, 1), (8, 2), (9, 3), (17, 5)])
def test_coins_score_1_vp_per_full_set_of_3(catalog: Catalog, coins: int, points: int) -> None:
    sheet = score_sheet(position(catalog, city(catalog, coins=coins)))
    assert sheet.p1.coins == points


def test_a_guild_may_count_one_city_for_coins_and_the_other_for_vp(catalog: Catalog) -> None:
    # Tacticians: p2 has 2 red cards, p1 1: 2 coins when built (clay, 2 stone, papyrus = 8).
    # Then p1 builds 2 more red cards: 3 against 2, so 3 VP from p1's own city.
    mine = city(catalog, "guard_tower", coins=60)
    state = position(catalog, mine, city(catalog, "garrison", "stable", coins=0), age=3)
    state = play(state, build("p1", "tacticians_guild"))
    assert state.city(P1).coins == 60 - 8 + 2
    state = play(
        state, discard("p2", "palace"), build("p1", "arsenal"), discard("p2", "town_hall"),
        build("p1", "pretorium"),
    )  # fmt: skip
    assert score_sheet(state).p1.purple == 3


def test_a_guild_counts_either_city_on_a_tie(catalog: Catalog) -> None:
    # Magistrates: 2 blue cards in each city: 2 VP.
    mine = city(catalog, "magistrates_guild", "theater", "altar")
    theirs = city(catalog, "baths", "statue")
    assert score_sheet(position(catalog, mine, theirs)).p1.purple == 2


# --- End of an age -------------------------------------------------------------------------------


def test_with_the_pawn_in_the_centre_the_last_player_chooses(catalog: Catalog) -> None:
    # p2 takes the 20th card with the pawn on the centre: p2 chooses, and may pick p1.
    state = position(catalog, current=P2, taken=19)
    after = play(state, discard("p2", "lumber_yard"))
    assert after.pending is not None
    assert (after.pending.kind, after.pending.player) == (PendingKind.NEXT_AGE, P2)
    begun = play(after, {"type": "next_age", "player": "p2", "starter": "p1"})
    assert (begun.age, begun.current) == (2, P1)


def test_the_choice_of_starter_offers_both_players(catalog: Catalog) -> None:
    after = play(position(catalog, position=-4, taken=19), discard("p1", "lumber_yard"))
    assert {e.starter for e in legal_events(after)} == {P1, P2}  # type: ignore[union-attr]


# --- Great Library in table mode ----------------------------------------------------------------


def test_the_great_library_cannot_draw_a_token_a_player_owns(catalog: Catalog) -> None:
    mine = city(catalog, coins=40, wonders_unbuilt=["the_great_library"])
    theirs = city(catalog, tokens=["philosophy"])
    state = play(position(catalog, mine, theirs, age=2), wonder("p1", "the_great_library", "forum"))
    with pytest.raises(IllegalEvent, match="'philosophy' cannot be drawn"):
        play(state, library("p1", ["philosophy", "urbanism", "theology"], "urbanism"))
    kept = play(state, library("p1", ["mathematics", "urbanism", "theology"], "theology"))
    assert kept.boxed_tokens == {"mathematics", "urbanism"}
    assert "theology" in kept.city(P1).tokens


# --- Wonders that produce -----------------------------------------------------------------------


def test_a_built_choice_wonder_pays_for_later_cards_but_not_the_opponents_prices(
    catalog: Catalog,
) -> None:
    # Piraeus (2 wood, clay, stone = 8 coins) gives a glass or papyrus each turn and replays.
    # Laboratory (wood + 2 glass) then costs wood 2 + one glass 2 = 4 instead of 6.
    mine = city(catalog, coins=20, wonders_unbuilt=["piraeus"])
    state = play(position(catalog, mine, age=2), wonder("p1", "piraeus", "forum"))
    assert state.city(P1).coins == 12
    assert unit_prices(state.city(P2), state.city(P1)) == (2, 2, 2, 2, 2)  # p2's prices
    after = play(state, build("p1", "laboratory"))
    assert after.city(P1).coins == 12 - 4
