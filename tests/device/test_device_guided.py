"""Guided entry with the hand-held camera: the face-up cards asked in layout order make a
partial deal, uncovered cards are asked for by position, and a whole game entered so ends
as the same game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.device import words
from companion.device.guided import GuidedDeal, reveal_event, reveal_prompt
from companion.engine.cards import CardId, Catalog
from companion.engine.events import Deal, IllegalEvent, Reveal, event_from_record
from companion.engine.rules import apply, new_game, unrevealed
from companion.engine.state import GameState
from companion.records.replay import state_to_json

RECORD = Path(__file__).parents[1] / "records" / "simulated_civilian_win.jsonl"


def test_positions_are_named_row_and_card_of_the_row(catalog: Catalog) -> None:
    # age 1 rows hold 2, 3, 4, 5, 6 cards: position 0 is row 1's first of 2, position 9
    # row 4's first of 5 (2 + 3 + 4 = 9 positions before it), position 19 row 5's last of 6
    assert words.place(catalog, 1, 0) == "Row 1, card 1 of 2"
    assert words.place(catalog, 1, 9) == "Row 4, card 1 of 5"
    assert words.place(catalog, 1, 19) == "Row 5, card 6 of 6"


def test_the_face_up_cards_are_asked_in_layout_order(catalog: Catalog) -> None:
    guided = GuidedDeal(catalog, 1)
    assert guided.prompt() == "Scan row 1, card 1 of 2"
    deck = [c.id for c in catalog.age_deck(1)]
    guided.scan(deck[0])
    assert guided.prompt() == "Scan row 1, card 2 of 2"
    guided.scan(deck[1])
    assert guided.prompt() == "Scan row 3, card 1 of 4"  # row 2 is face down: not asked
    with pytest.raises(IllegalEvent, match=": already scanned"):
        guided.scan(deck[0])
    with pytest.raises(IllegalEvent, match="Sawmill: age 2 card"):
        guided.scan("sawmill")
    with pytest.raises(IllegalEvent, match="Not complete: Scan row 3, card 1 of 4"):
        guided.deal()
    guided.undo()
    assert guided.prompt() == "Scan row 1, card 2 of 2"


def test_a_whole_game_entered_by_guided_scans_ends_as_recorded(catalog: Catalog) -> None:
    """Replay the golden game as a table would enter it: each deal by scanning the face-up
    cards, each uncovered card by the position the box asks for."""
    full: list[GameState] = [new_game(catalog)]
    state = new_game(catalog)
    asked: list[str] = []
    truth: tuple[str | None, ...] = ()
    for line in RECORD.read_text(encoding="utf-8").splitlines():
        event = event_from_record(json.loads(line))
        full.append(apply(full[-1], event))
        if isinstance(event, Deal):
            truth = event.layout
            guided = GuidedDeal(catalog, event.age, guild_backs=frozenset(
                i for i, c in enumerate(truth)
                if c is not None and catalog.card(c).is_guild
                and not catalog.layout(event.age).positions[i].face_up
            ))  # fmt: skip
            while not guided.done:
                index = guided.next_position
                assert index is not None
                guided.scan(str(truth[index]))
            event = guided.deal()
        state = apply(state, event)
        while (question := reveal_prompt(state)) is not None:
            index = unrevealed(state)[0]  # the position the box names
            where = words.place(catalog, state.age, index)
            assert question == f"Turn up {where[0].lower()}{where[1:]} and scan it"
            asked.append(question)
            state = apply(state, reveal_event(state, str(truth[index])))  # the card turned
    assert asked and asked[0].startswith("Turn up row ")
    expected, got = state_to_json(full[-1]), state_to_json(state)
    expected.pop("structure"), got.pop("structure")
    assert got == expected


def test_nothing_to_reveal_is_refused(catalog: Catalog) -> None:
    lines = RECORD.read_text(encoding="utf-8").splitlines()
    state = apply(apply(new_game(catalog), event_from_record(json.loads(lines[0]))),
                  event_from_record(json.loads(lines[1])))  # fmt: skip
    assert reveal_prompt(state) is None
    with pytest.raises(IllegalEvent, match="No card waits to be turned up"):
        reveal_event(state, "baths")


def test_a_reveal_is_told_in_one_line(catalog: Catalog) -> None:
    lines = RECORD.read_text(encoding="utf-8").splitlines()
    state = apply(new_game(catalog), event_from_record(json.loads(lines[0])))
    line = words.event_line(words.Voice.oled(state), state, Reveal(9, CardId("baths")))
    assert line == "Turned up: Baths"


def test_age_3_asks_which_backs_show_a_guild_until_the_three_are_placed(
    catalog: Catalog,
) -> None:
    # age 3 face down: row 2 (positions 2-4), row 4 (9, 10), row 6 (15-17): 8 backs
    guilds = [c.id for c in catalog.cards if c.is_guild]
    others = [c.id for c in catalog.age_deck(3) if not c.is_guild]
    guided = GuidedDeal(catalog, 3)
    face_up = [guilds[0], *others[:11]]  # 12 face-up cards, one of them a guild
    for card in face_up:
        guided.scan(card)
    # 3 guilds - 1 face up = 2 to place among the 8 backs: the box asks position 2 first
    assert guided.next_back == 2 and guided.prompt() == "Row 2, card 1 of 3: back?"
    with pytest.raises(IllegalEvent, match="Answer for the back first"):
        guided.scan(others[12])
    guided.answer_back(guild=False)  # position 2: an age 3 back
    guided.answer_back(guild=True)  # position 3: a guild's back, 1 left to place
    for expected in (4, 9, 10, 15, 16):  # plain backs, until 1 back is left for 1 guild
        assert guided.next_back == expected
        guided.answer_back(guild=False)
    assert guided.done and guided.prompt() == "Age 3 entered"
    layout = guided.deal().layout
    assert [i for i, c in enumerate(layout) if c == "guild"] == [3, 17]  # 17: the last back
    assert [i for i, c in enumerate(layout) if c is None] == [2, 4, 9, 10, 15, 16]
    # the entries rebuild the same deal (the controller keeps them on its screen state)
    assert GuidedDeal.of(catalog, 3, guided.entries).deal() == guided.deal()
