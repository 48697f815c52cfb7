"""Setup, the draft order, deals, table mode, accessibility and refusals of taking cards."""

from __future__ import annotations

from typing import Any

import pytest
from engine_positions import SETUP, build, city, discard, play, position

from companion.engine.cards import Catalog
from companion.engine.rules import (
    IllegalEvent,
    accessible_cards,
    check_draft,
    draft_pickers,
    is_face_up,
    new_game,
)
from companion.engine.state import Phase, Player, evolve

P1, P2 = Player.P1, Player.P2


def test_setup_gives_7_coins_4_wonders_5_tokens_and_the_first_turn(catalog: Catalog) -> None:
    state = play(new_game(catalog), {**SETUP, "first_player": "p2"})
    assert state.phase is Phase.PLAYING
    assert [c.coins for c in state.cities] == [7, 7]
    assert state.current is P2
    assert state.board_tokens == tuple(SETUP["progress_tokens"])
    assert state.city(P1).wonders_unbuilt == tuple(SETUP["wonders"]["p1"])
    assert state.names == ("Ann", "Ben")
    assert state.position == 0
    assert state.loot == frozenset({3, 6, -3, -6})


def test_first_game_wonders_come_from_the_board_data(catalog: Catalog) -> None:
    assert catalog.rules.first_game_wonders == (
        tuple(SETUP["wonders"]["p1"]),
        tuple(SETUP["wonders"]["p2"]),
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"progress_tokens": ["law", "law", "economy", "masonry", "strategy"]}, "5 different"),
        ({"progress_tokens": ["law", "lore", "economy", "masonry", "strategy"]}, "unknown"),
        ({"wonders": {"p1": ["the_pyramids"] * 4, "p2": SETUP["wonders"]["p2"]}}, "twice"),
        ({"wonders": {"p1": ["the_pyramid", *SETUP["wonders"]["p1"][1:]],
                      "p2": SETUP["wonders"]["p2"]}}, "unknown wonder"),
        ({"first_player": "p3"}, "first_player must be 'p1' or 'p2'"),
        ({"wonders": {"p1": SETUP["wonders"]["p1"][:3], "p2": SETUP["wonders"]["p2"]}},
         "list of 4 ids"),
    ],
)  # fmt: skip
def test_bad_setups_are_refused(catalog: Catalog, change: dict[str, Any], message: str) -> None:
    with pytest.raises(IllegalEvent, match=message):
        play(new_game(catalog), {**SETUP, **change})


def test_nothing_before_setup_and_no_second_setup(catalog: Catalog) -> None:
    with pytest.raises(IllegalEvent, match="first event must be setup"):
        play(new_game(catalog), build("p1", "lumber_yard"))
    with pytest.raises(IllegalEvent, match="already set up"):
        play(new_game(catalog), SETUP, SETUP)


# --- Draft -----------------------------------------------------------------------------------


def test_draft_order_is_abba_then_baab(catalog: Catalog) -> None:
    a, b = P2, P1
    assert draft_pickers(catalog.rules, P2) == (a, b, b, a, b, a, a, b)


ROUND_1 = ["the_pyramids", "the_sphinx", "piraeus", "the_colossus"]
ROUND_2 = ["the_mausoleum", "the_great_library", "circus_maximus", "the_appian_way"]
PICKS = [
    (P1, "the_pyramids"), (P2, "the_sphinx"), (P2, "piraeus"), (P1, "the_colossus"),
    (P2, "the_mausoleum"), (P1, "the_great_library"), (P1, "circus_maximus"),
    (P2, "the_appian_way"),
]  # fmt: skip


def test_draft_gives_each_player_their_picks(catalog: Catalog) -> None:
    p1, p2 = check_draft(catalog, P1, (ROUND_1, ROUND_2), PICKS)
    assert p1 == ("the_pyramids", "the_colossus", "the_great_library", "circus_maximus")
    assert p2 == ("the_sphinx", "piraeus", "the_mausoleum", "the_appian_way")


@pytest.mark.parametrize(
    ("picks", "message"),
    [
        ([(P2, "the_pyramids"), *PICKS[1:]], "pick 1 is p1's"),
        ([PICKS[0], (P2, "the_mausoleum"), *PICKS[2:]], "not among the wonders revealed"),
        ([PICKS[0], (P2, "the_pyramids"), *PICKS[2:]], "already taken"),
        (PICKS[:7], "8 picks needed"),
    ],
)
def test_draft_refuses_picks_out_of_order(
    catalog: Catalog, picks: list[tuple[Player, str]], message: str
) -> None:
    with pytest.raises(IllegalEvent, match=message):
        check_draft(catalog, P1, (ROUND_1, ROUND_2), picks)


@pytest.mark.parametrize(
    ("revealed", "message"),
    [
        (([*ROUND_1, "the_hanging_gardens"], ROUND_2), "2 rounds of 4 revealed wonders"),  # 5 shown
        ((ROUND_1[:3], ROUND_2), "2 rounds of 4 revealed wonders"),
        (([*ROUND_1, *ROUND_2],), "2 rounds of 4 revealed wonders"),  # 8 at once
        ((ROUND_1, [*ROUND_2[:3], "the_pyramids"]), "revealed twice"),
    ],
)
def test_draft_refuses_rounds_that_do_not_reveal_4_new_wonders(
    catalog: Catalog, revealed: tuple[list[str], ...], message: str
) -> None:
    # Setup 5: reveal 4 wonders, pick A-B-B-A; reveal 4 more, pick B-A-A-B.
    with pytest.raises(IllegalEvent, match=message):
        check_draft(catalog, P1, revealed, PICKS)


# --- Deal: the structure is known ------------------------------------------------------------

AGE_1_IDS = (
    "lumber_yard", "logging_camp", "clay_pool", "clay_pit", "quarry", "stone_pit", "glassworks",
    "press", "guard_tower", "stable", "garrison", "palisade", "workshop", "apothecary",
    "scriptorium", "pharmacist", "theater", "altar", "baths", "stone_reserve", "clay_reserve",
    "wood_reserve", "tavern",
)  # fmt: skip


def test_the_age_1_deck_has_23_cards(catalog: Catalog) -> None:
    assert tuple(c.id for c in catalog.age_deck(1)) == AGE_1_IDS


@pytest.fixture
def dealt(catalog: Catalog) -> Any:
    layout = [c.id for c in catalog.age_deck(1)][:20]
    state = play(new_game(catalog), SETUP, {"type": "deal", "age": 1, "layout": layout})
    return state, layout


def test_only_the_open_row_is_accessible_at_first(catalog: Catalog, dealt: Any) -> None:
    state, layout = dealt
    assert accessible_cards(state) == tuple(layout[14:])
    with pytest.raises(IllegalEvent, match="is covered"):
        play(state, build("p1", layout[0]))


def test_a_face_down_card_is_turned_up_once_uncovered(catalog: Catalog, dealt: Any) -> None:
    state, layout = dealt
    # position 9 (row 4, face down) is covered by positions 14 and 15 (row 5)
    assert not is_face_up(state, 9)
    state = play(state, discard("p1", layout[14]))
    assert not is_face_up(state, 9)
    state = play(state, discard("p2", layout[15]))
    assert is_face_up(state, 9)
    assert layout[9] in accessible_cards(state)
    state = play(state, discard("p1", layout[9]))
    assert state.taken == 3


def test_a_card_outside_the_deal_is_refused(catalog: Catalog, dealt: Any) -> None:
    state, layout = dealt
    outside = next(c.id for c in catalog.age_deck(1) if c.id not in layout)
    with pytest.raises(IllegalEvent, match="not in the age 1 structure"):
        play(state, build("p1", outside))


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"age": 2}, "this is age 1"),
        ({"layout": ["lumber_yard"] * 20}, "20 different cards"),
        ({"layout": ["lumber_yard", "x", *(f"x{i}" for i in range(18))]}, "unknown card 'x'"),
        ({"layout": ["sawmill", *(c for c in AGE_1_IDS[:19])]}, "not an age 1 card"),
    ],
)
def test_bad_deals_are_refused(catalog: Catalog, deal: dict[str, Any], message: str) -> None:
    layout = list(AGE_1_IDS[:20])
    with pytest.raises(IllegalEvent, match=message):
        play(new_game(catalog), SETUP, {"type": "deal", "age": 1, "layout": layout, **deal})


def test_a_deal_after_the_first_card_of_the_age_is_refused(catalog: Catalog) -> None:
    state = play(new_game(catalog), SETUP, build("p1", "lumber_yard"))
    layout = [c.id for c in catalog.age_deck(1) if c.id != "lumber_yard"][:20]
    with pytest.raises(IllegalEvent, match="already been taken"):
        play(state, {"type": "deal", "age": 1, "layout": layout})


def test_age_3_deal_holds_at_most_3_guilds(catalog: Catalog) -> None:
    layout = [c.id for c in catalog.age_deck(3)][:16] + [g.id for g in catalog.guilds][:4]
    state = position(catalog, age=3)
    with pytest.raises(IllegalEvent, match="3 guilds, not 4"):
        play(state, {"type": "deal", "age": 3, "layout": layout})


# --- Table mode: any unseen card of the age ----------------------------------------------------


def test_table_mode_accepts_any_unseen_card_of_the_age(catalog: Catalog) -> None:
    state = play(new_game(catalog), SETUP, build("p1", "lumber_yard"), discard("p2", "garrison"))
    assert state.city(Player.P1).cards == ("lumber_yard",)
    assert state.discard == ("garrison",)
    assert accessible_cards(state) == ()


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (build("p2", "quarry"), "It is p1's turn, not p2's"),
        (build("p1", "lumber_yard"), "Lumber Yard has already been taken"),
        (build("p1", "garrison"), "Garrison has already been taken"),
        (build("p1", "sawmill"), "Sawmill is an age 2 card, not age 1"),
        (build("p1", "lumberyard"), "Unknown card 'lumberyard'"),
        (build("p1", "stone_reserve"), "Stone Reserve costs 3 coins, p1 has 2"),
        ({"type": "progress", "player": "p1", "token": "law"}, "No progress decision"),
    ],
)
def test_table_mode_refusals_change_nothing(
    catalog: Catalog, event: dict[str, Any], message: str
) -> None:
    state = play(new_game(catalog), SETUP, build("p1", "lumber_yard"), discard("p2", "garrison"))
    state = evolve(state, cities=(evolve(state.city(P1), coins=2), state.city(P2)))
    before = state
    with pytest.raises(IllegalEvent, match=message):
        play(state, event)
    assert state == before


def test_table_mode_refuses_a_fourth_guild(catalog: Catalog) -> None:
    guilds = [g.id for g in catalog.guilds]
    rich = city(catalog, coins=99)
    state = position(catalog, rich, rich, age=3)
    state = play(
        state, discard("p1", guilds[0]), discard("p2", guilds[1]), discard("p1", guilds[2])
    )
    with pytest.raises(IllegalEvent, match="only 3 guilds"):
        play(state, discard("p2", guilds[3]))


def test_the_age_ends_after_20_cards_in_table_mode(catalog: Catalog) -> None:
    state = play(new_game(catalog), SETUP)
    cards = [c.id for c in catalog.age_deck(1)][:20]
    for number, card in enumerate(cards):
        state = play(state, discard("p1" if number % 2 == 0 else "p2", card))
    assert state.pending is not None and state.pending.kind.value == "next_age"
    left = [c.id for c in catalog.age_deck(1)][20]
    with pytest.raises(IllegalEvent, match="must first choose who begins"):
        play(state, discard("p1", left))
    state = play(state, {"type": "next_age", "player": "p2", "starter": "p2"})
    assert (state.age, state.current, state.taken) == (2, P2, 0)


def test_apply_refuses_everything_once_the_game_is_over(catalog: Catalog) -> None:
    state = position(catalog, city(catalog, coins=99), age=3, position=8)
    state = play(state, build("p1", "pretorium"))
    assert state.finished
    with pytest.raises(IllegalEvent, match="The game is over"):
        play(state, discard("p2", "arsenal"))
