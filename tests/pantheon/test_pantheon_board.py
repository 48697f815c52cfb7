"""Pantheon setup, the tokens on the structures, placing divinities, the Gate and the
price of an activation (docs/pantheon.md; expected values worked out by hand)."""

from __future__ import annotations

import json

import pytest
from pantheon_positions import CATALOG, P1, P2, age_2, city, on, setup_event, started

from companion.engine.events import (
    Activate,
    ChooseStarter,
    Deal,
    Discard,
    IllegalEvent,
    PlaceDivinity,
    event_from_record,
    event_to_record,
)
from companion.engine.rules import apply, available_library_tokens, legal_events, new_game
from companion.engine.state import PendingKind, evolve
from companion.records.replay import replay_record

AGE_1 = tuple(c.id for c in CATALOG.age_deck(1))[:20]
TOKENS_1 = ("greek", "roman", "egyptian", "greek", "phoenician")


def dealt_age_1() -> object:
    return apply(started(), Deal(1, AGE_1, TOKENS_1))  # type: ignore[arg-type]


def test_pantheon_sets_aside_8_progress_tokens() -> None:
    # 13 tokens, 5 on the board: the Great Library and Enki draw from the other 8
    assert len(available_library_tokens(started())) == 8


def test_pantheon_progress_pool_has_13_tokens_with_engineering() -> None:
    pool = {t.id for t in CATALOG.progress_tokens}
    assert len(pool) == 13 and {"engineering", "mysticism", "poliorcetics"} <= pool


def test_a_base_game_on_the_same_catalog_keeps_the_expansion_out() -> None:
    base = setup_event()
    base = type(base)(base.first_player, base.progress_tokens, base.wonders)
    with pytest.raises(IllegalEvent, match="The Sanctuary belongs to the Pantheon expansion"):
        apply(new_game(CATALOG), base)


def test_setup_record_gains_expansions_and_old_records_read_as_before() -> None:
    record = event_to_record(setup_event())
    assert record["expansions"] == ["pantheon"]
    assert event_from_record(json.loads(json.dumps(record))) == setup_event()
    old = {k: v for k, v in record.items() if k != "expansions"}
    assert event_from_record(old).expansions == ()  # type: ignore[union-attr]
    assert "expansions" not in event_to_record(event_from_record(old))


def test_mythology_and_offering_tokens_sit_on_the_rulebook_positions() -> None:
    state = dealt_age_1()
    assert state.pantheon.on_structure == tuple(  # type: ignore[attr-defined]
        zip((2, 4, 9, 11, 13), TOKENS_1, strict=True)
    )
    with pytest.raises(IllegalEvent, match="the box has only 2 greek Mythology tokens"):
        apply(started(), Deal(1, AGE_1, ("greek", "greek", "greek", "roman", "roman")))  # type: ignore[arg-type]
    with pytest.raises(IllegalEvent, match="age 1 needs 5 tokens"):
        apply(started(), Deal(1, AGE_1))  # type: ignore[arg-type]


def test_token_goes_to_the_player_whose_turn_turned_the_card_up() -> None:
    # position 9 ([4, 2], the Greek... here "egyptian" token) is covered by 14 and 15
    state = dealt_age_1()
    state = apply(state, Discard(P1, AGE_1[14]))  # type: ignore[arg-type]
    assert state.pantheon.mythology_tokens == ((), ())  # type: ignore[union-attr]
    state = apply(state, Discard(P2, AGE_1[15]))  # type: ignore[arg-type]
    assert state.pantheon.mythology_tokens == ((), ("egyptian",))  # type: ignore[union-attr]
    assert "egyptian" in state.city(P2).chain_symbols  # the Egyptian Grand Temple's chain


def test_every_card_turned_up_with_a_mythology_token_asks_for_placement() -> None:
    state = dealt_age_1()
    state = apply(state, Discard(P1, AGE_1[14]))  # type: ignore[arg-type]
    state = apply(state, Discard(P2, AGE_1[15]))  # type: ignore[arg-type]
    assert state.pending is not None and state.pending.kind is PendingKind.DIVINITY
    assert state.pending.player is P2
    with pytest.raises(IllegalEvent, match="p2 must first place a divinity"):
        apply(state, Discard(P1, AGE_1[16]))  # type: ignore[arg-type]
    # the Egyptian deck: anubis, isis, ra; draw 2, keep Ra on space 6, Isis back on top
    placed = apply(state, PlaceDivinity(P2, ("isis", "ra"), "ra", 6))  # type: ignore[arg-type]
    board = placed.pantheon
    assert board is not None and board.spaces == on(6, "ra")
    assert board.decks[0] == ("anubis", "isis") and board.tops[0] == "isis"
    assert placed.pending is None and placed.current is P1  # the turn passes


def test_the_card_put_back_must_be_in_the_next_draw_of_its_deck() -> None:
    state = age_2()
    board = evolve(state.pantheon, tops=("isis", None, None, None, None), to_place=("egyptian",))  # type: ignore[arg-type]
    state = evolve(state, age=1, pantheon=board)
    state = evolve(state, pending=legal_pending(state))
    with pytest.raises(IllegalEvent, match="Isis lies on top of the egyptian deck"):
        apply(state, PlaceDivinity(P1, ("anubis", "ra"), "ra", 1))  # type: ignore[arg-type]
    assert apply(state, PlaceDivinity(P1, ("ra", "isis"), "ra", 1)).pantheon.tops[0] == "isis"  # type: ignore[union-attr,arg-type]


def legal_pending(state: object) -> object:
    from companion.engine.state import Pending

    return Pending(PendingKind.DIVINITY, P1, False)


def test_the_gate_fills_the_empty_space_at_the_start_of_age_2() -> None:
    state = age_2(spaces=("zeus", "mars", None, "tanit", "isis", "enki"))
    state = evolve(state, age=1, pending=None)
    from companion.engine.state import Pending

    state = evolve(state, pending=Pending(PendingKind.NEXT_AGE, P1))
    after = apply(state, ChooseStarter(P1, P2))
    assert after.age == 2
    assert after.pantheon.spaces == ("zeus", "mars", "gate", "tanit", "isis", "enki")  # type: ignore[union-attr]


def test_divinities_cannot_be_activated_in_age_1() -> None:
    state = evolve(age_2(spaces=on(1, "tanit")), age=1)
    with pytest.raises(IllegalEvent, match="from Age II on"):
        apply(state, Activate(P1, 1, ()))


@pytest.mark.parametrize(
    ("player", "space", "card", "sanctuary", "offerings", "coins", "price"),
    [
        (P1, 2, "tanit", False, (), 10, 4),  # the space second nearest p1: 4
        (P1, 6, "gate", False, (), 20, 16),  # the Gate on the farthest space: 2 x 8
        (P1, 6, "gate", True, (), 20, 14),  # with the Sanctuary: 16 - 2
        (P1, 6, "gate", True, (4, 3), 20, 7),  # and the 4 and 3 Offering tokens: 14 - 7
        (P2, 1, "tanit", True, (4,), 10, 2),  # p2 on p1's nearest space: 8 - 2 - 4
        (P2, 6, "tanit", True, (4,), 10, 0),  # 3 - 2 - 4: never below 0, no change
    ],
)
def test_activation_prices(
    player: object,
    space: int,
    card: str,
    sanctuary: bool,
    offerings: tuple[int, ...],
    coins: int,
    price: int,
) -> None:
    built = ("the_sanctuary",) if sanctuary else ()
    mine = city(coins=coins, wonders_built=built)
    p1, p2 = (mine, None) if player is P1 else (None, mine)
    state = age_2(p1, p2, spaces=on(space, card), current=player, offerings=((4, 3), (4,)))  # type: ignore[arg-type]
    after = apply(state, Activate(player, space, offerings))  # type: ignore[arg-type]
    gained = 12 if card == "tanit" else 0
    assert after.city(player).coins == coins - price + gained  # type: ignore[arg-type]


def test_an_activation_the_player_cannot_pay_is_refused_and_changes_nothing() -> None:
    state = age_2(city(coins=3), spaces=on(3, "tanit"))  # 5 coins for p1
    with pytest.raises(IllegalEvent, match="Tanit costs 5 coins, p1 has 3"):
        apply(state, Activate(P1, 3, ()))
    with pytest.raises(IllegalEvent, match="p1 holds no Offering token of 2"):
        apply(state, Activate(P1, 3, (2,)))
    with pytest.raises(IllegalEvent, match="No card lies on space 4"):
        apply(state, Activate(P1, 4, ()))


def test_activating_is_a_turn_that_takes_no_card() -> None:
    state = age_2(spaces=on(1, "tanit"))
    after = apply(state, Activate(P1, 1, ()))
    assert after.current is P2 and after.taken == state.taken
    assert after.pantheon.spaces == (None,) * 6  # type: ignore[union-attr]
    assert after.pantheon.activated == (("tanit",), ())  # type: ignore[union-attr]
    assert Activate(P1, 1, ()) in legal_events(state)


def test_old_records_replay_unchanged() -> None:
    from pathlib import Path

    records = Path(__file__).parents[1] / "records"
    for path in sorted(records.glob("simulated_*.jsonl")):
        states = replay_record(path.read_text(encoding="utf-8").splitlines())
        assert states[-1].pantheon is None and states[-1].finished


def test_a_build_that_turns_up_an_offering_token_gives_it() -> None:
    state = apply(started(), Deal(1, AGE_1, TOKENS_1))  # type: ignore[arg-type]
    state = evolve(state, age=2, structure=None)
    age_2_cards = tuple(c.id for c in CATALOG.age_deck(2))[:20]
    state = apply(state, Deal(2, age_2_cards, ("3", "2", "4")))  # type: ignore[arg-type]
    assert state.pantheon.on_structure == ((6, "3"), (8, "2"), (10, "4"))  # type: ignore[union-attr]
    # Rows 4 and 5 and the right half of row 3 taken (positions 13 to 19): 11 ([3, 3]) and
    # 12 ([3, 5]) are open. Taking 11 turns up 6 ([2, 2], the 3); taking 12 then turns up
    # 7 ([2, 4]) and 8 ([2, 6], the 2), each token to the player who took the card.
    structure = evolve(state.structure, gone=0b1111111 << 13, open=0b11 << 11)  # type: ignore[type-var]
    state = evolve(state, structure=structure)
    state = apply(state, Discard(P1, age_2_cards[11]))  # type: ignore[arg-type]
    assert state.pantheon.offerings == ((3,), ())  # type: ignore[union-attr]
    state = apply(state, Discard(P2, age_2_cards[12]))  # type: ignore[arg-type]
    assert state.pantheon.offerings == ((3,), (2,))  # type: ignore[union-attr]
