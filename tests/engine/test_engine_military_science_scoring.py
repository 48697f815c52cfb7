"""Military, science and progress tokens, end of ages, scoring and the tie-break."""

from __future__ import annotations

import pytest
from engine_positions import build, city, discard, play, position, progress, wonder

from companion.engine.cards import Catalog
from companion.engine.rules import IllegalEvent
from companion.engine.scoring import score_sheet
from companion.engine.state import PendingKind, Player, Victory, evolve

P1, P2 = Player.P1, Player.P2


# --- Military --------------------------------------------------------------------------------


def test_shields_move_the_pawn_toward_the_opponents_capital(catalog: Catalog) -> None:
    state = play(position(catalog), build("p1", "guard_tower"))
    assert state.position == 1
    state = play(state, build("p2", "palisade"))
    assert state.position == 0


def test_strategy_adds_a_shield_to_red_cards_not_to_wonders(catalog: Catalog) -> None:
    mine = city(catalog, coins=30, tokens=["strategy"], wonders_unbuilt=["the_colossus"])
    state = position(catalog, mine, age=2)
    assert play(state, build("p1", "walls")).position == 3
    assert play(state, wonder("p1", "the_colossus", "walls")).position == 2


def test_one_move_can_take_both_loot_tokens_and_more_coins_than_the_player_has(
    catalog: Catalog,
) -> None:
    # Arsenal (3) + Strategy: 4 shields from space 2 to space 6: p2 loses 2 then 5, has 3.
    mine = city(catalog, coins=30, tokens=["strategy"])
    state = position(catalog, mine, city(catalog, coins=3), age=3, position=2)
    after = play(state, build("p1", "arsenal"))
    assert after.position == 6
    assert after.city(P2).coins == 0
    assert after.loot == {-3, -6}


def test_a_loot_token_is_used_once(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, coins=30), city(catalog, coins=10), age=2, position=2)
    state = play(state, build("p1", "barracks"))  # to 3: p2 loses 2
    assert state.city(P2).coins == 8
    state = play(state, build("p2", "walls"), discard("p1", "sawmill"))  # p2 pushes back to 1
    state = play(state, discard("p2", "brickyard"), build("p1", "archery_range"))  # to 3 again
    assert state.position == 3
    assert state.city(P2).coins == 8 - 4 + 2  # walls (2 stone at 2) paid, discard +2, no loot


def test_reaching_the_capital_wins_at_once(catalog: Catalog) -> None:
    state = position(catalog, p2=city(catalog, coins=30), age=3, current=P2, position=-7)
    after = play(state, build("p2", "pretorium"))
    assert after.position == -9
    assert (after.winner, after.victory) == (P2, Victory.MILITARY)
    assert after.finished


@pytest.mark.parametrize(
    ("pawn", "points"),
    [(0, (0, 0)), (1, (2, 0)), (2, (2, 0)), (3, (5, 0)), (5, (5, 0)), (6, (10, 0)),
     (8, (10, 0)), (-2, (0, 2)), (-4, (0, 5)), (-8, (0, 10))],
)  # fmt: skip
def test_military_points_by_zone(catalog: Catalog, pawn: int, points: tuple[int, int]) -> None:
    sheet = score_sheet(position(catalog, position=pawn))
    assert (sheet.p1.military, sheet.p2.military) == points


# --- End of an age ------------------------------------------------------------------------------


@pytest.mark.parametrize(("pawn", "chooser"), [(2, P2), (-1, P1), (0, P1)])
def test_the_weaker_side_or_the_last_player_chooses_who_begins(
    catalog: Catalog, pawn: int, chooser: Player
) -> None:
    state = position(catalog, position=pawn, taken=19)
    after = play(state, discard("p1", "lumber_yard"))
    assert after.pending is not None
    assert (after.pending.kind, after.pending.player) == (PendingKind.NEXT_AGE, chooser)
    with pytest.raises(IllegalEvent, match=f"It is {chooser}'s choice"):
        play(after, {"type": "next_age", "player": chooser.opponent.value, "starter": "p1"})
    begun = play(after, {"type": "next_age", "player": chooser.value, "starter": "p2"})
    assert (begun.age, begun.current, begun.pending) == (2, P2, None)


def test_the_last_card_of_age_3_ends_the_game_with_a_civilian_victory(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "palace", coins=0), age=3, taken=19)
    after = play(state, discard("p1", "arsenal"))
    assert after.finished
    assert (after.winner, after.victory) == (P1, Victory.CIVILIAN)


@pytest.mark.parametrize(
    ("theirs", "winner", "shared"),
    [(("obelisk",), P1, False), (("palace",), None, True)],
)
def test_tie_break_on_blue_points_then_shared(
    catalog: Catalog, theirs: tuple[str, ...], winner: Player | None, shared: bool
) -> None:
    # p1: Town Hall 7 VP (blue 7); p2: Obelisk 5 + Mausoleum 2 (blue 5), or Palace 7 (blue 7)
    built = ["the_mausoleum"] if theirs == ("obelisk",) else []
    mine, other = (
        city(catalog, "town_hall", coins=0),
        city(catalog, *theirs, coins=0, wonders_built=built),
    )
    after = play(position(catalog, mine, other, age=3, taken=19), discard("p1", "arsenal"))
    sheet = score_sheet(after)
    assert sheet.p1.total == sheet.p2.total == 7
    assert (after.winner, after.shared, after.victory) == (winner, shared, Victory.CIVILIAN)


# --- Science ------------------------------------------------------------------------------------


def test_a_pair_asks_for_a_progress_token_and_blocks_everything_else(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "workshop", coins=20), age=2)
    state = play(state, build("p1", "laboratory"))
    assert state.pending is not None and state.pending.kind is PendingKind.PROGRESS
    with pytest.raises(IllegalEvent, match="p1 must first choose a progress token"):
        play(state, build("p2", "walls"))
    with pytest.raises(IllegalEvent, match="not on the board"):
        play(state, progress("p1", "theology"))
    after = play(state, progress("p1", "agriculture"))
    assert after.city(P1).tokens == {"agriculture"}
    assert "agriculture" not in after.board_tokens
    assert after.current is P2


def test_a_pair_gives_nothing_when_the_board_has_no_token_left(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "workshop", coins=20), age=2, board=())
    after = play(state, build("p1", "laboratory"))
    assert after.pending is None and after.current is P2


def test_six_different_symbols_win_at_once(catalog: Catalog) -> None:
    greens = ("workshop", "apothecary", "scriptorium", "pharmacist", "academy")
    state = position(catalog, city(catalog, *greens, coins=40), age=3)
    after = play(state, build("p1", "university"))  # globe: the 6th symbol
    assert (after.winner, after.victory) == (P1, Victory.SCIENCE)


def test_law_taken_as_the_sixth_symbol_wins_at_once(catalog: Catalog) -> None:
    greens = ("workshop", "apothecary", "scriptorium", "pharmacist", "academy")
    state = position(catalog, city(catalog, *greens, coins=40), age=3)
    state = play(state, build("p1", "study"))  # a second sundial: a pair, 5 symbols
    assert state.pending is not None and state.pending.kind is PendingKind.PROGRESS
    after = play(state, progress("p1", "law"))
    assert (after.winner, after.victory) == (P1, Victory.SCIENCE)


def test_agriculture_and_urbanism_pay_6_coins_when_taken(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "workshop", coins=20), age=2, board=["urbanism"])
    after = play(state, build("p1", "laboratory"), progress("p1", "urbanism"))
    assert after.city(P1).coins == 20 - 6 + 6  # laboratory: wood + 2 glass at 2


# --- Scoring ------------------------------------------------------------------------------------


def test_score_rows_and_their_sources(catalog: Catalog) -> None:
    mine = city(
        catalog, "altar", "workshop", "tavern", "lighthouse", coins=11,
        tokens=["philosophy", "agriculture", "mathematics"], wonders_built=["the_pyramids"],
    )  # fmt: skip
    sheet = score_sheet(position(catalog, mine, position=4))
    score = sheet.p1
    assert (score.blue, score.green, score.yellow, score.wonders) == (3, 1, 3, 9)
    assert score.progress == 7 + 4 + 3 * 3  # Mathematics: 3 per token, itself included
    assert (score.coins, score.military) == (3, 5)
    assert score.total == 3 + 1 + 3 + 9 + 20 + 3 + 5
    assert ("wonders", "the_pyramids", 9) in score.sources
    assert sheet.p2.total == sheet.p2.coins == 2  # 7 coins


GUILDS = [
    # (guild, p1's cards, p2's cards, VP for p1): the city with the most counts, either one.
    ("magistrates_guild", ("altar",), ("theater", "baths", "altar"), 3),
    ("scientists_guild", ("workshop", "apothecary"), ("pharmacist",), 2),
    ("merchants_guild", (), ("tavern", "forum"), 2),
    ("tacticians_guild", ("stable",), ("garrison", "walls"), 2),
    ("shipowners_guild", ("lumber_yard", "quarry", "clay_pool"), ("glassworks", "press",
                          "quarry", "stone_pit"), 4),  # brown and grey together
    ("builders_guild", (), (), 4),  # p2 built 2 wonders, p1 none
]  # fmt: skip


@pytest.mark.parametrize(("guild", "mine", "theirs", "points"), GUILDS)
def test_guilds_count_the_city_with_the_most(
    catalog: Catalog, guild: str, mine: tuple[str, ...], theirs: tuple[str, ...], points: int
) -> None:
    p1 = city(catalog, *mine, coins=40)
    p2 = city(catalog, *theirs, coins=13, wonders_built=["the_sphinx", "piraeus"])
    after = play(position(catalog, p1, p2, age=3), build("p1", guild))
    assert score_sheet(after).p1.purple == points


def test_guild_coins_count_the_opponents_city_when_built(catalog: Catalog) -> None:
    p1 = city(catalog, coins=20)
    p2 = city(catalog, "theater", "baths", "altar")
    after = play(position(catalog, p1, p2, age=3), build("p1", "magistrates_guild"))
    # cost 2 wood, clay, papyrus at 2 each = 8; 1 coin per blue card in p2's city
    assert after.city(P1).coins == 20 - 8 + 3


def test_moneylenders_count_coins_at_the_end(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, "moneylenders_guild", coins=10), city(catalog, coins=2))
    assert score_sheet(state).p1.purple == 3
    richer = evolve(state, cities=(state.city(P1), evolve(state.city(P2), coins=18)))
    assert score_sheet(richer).p1.purple == 6
