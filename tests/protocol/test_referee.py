"""What the referee shows a program (the public record) and which answers it accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.cards import Catalog, TokenId
from companion.engine.events import GUILD_BACK, Deal, Event, event_to_record
from companion.engine.state import GameState, Player
from companion.play.referee import Refused, accepted_event, public_record, request
from companion.records.replay import read_events, replay_record

RECORDS = Path(__file__).resolve().parents[1] / "records"
FACE_DOWN_AGE_3 = (2, 3, 4, 9, 10, 15, 16, 17)  # rows 2, 4 and 6 of 2 3 4 2 4 3 2


def game(name: str, catalog: Catalog) -> tuple[list[GameState], list[Event]]:
    lines = (RECORDS / name).read_text().splitlines()
    return replay_record(lines, catalog), [e for _, e in read_events(lines) if e is not None]


def test_age_3_shows_its_face_up_cards_and_the_guilds_backs_only(catalog: Catalog) -> None:
    states, events = game("simulated_science_win.jsonl", catalog)
    start = next(i for i, e in enumerate(events) if isinstance(e, Deal) and e.age == 3)
    deal = events[start]
    assert isinstance(deal, Deal)
    shown = public_record(events[: start + 1], states[start + 1])
    layout = shown[start]["layout"]
    guilds = {c.id for c in catalog.guilds}
    for index, card in enumerate(deal.layout):
        if index in FACE_DOWN_AGE_3:
            assert layout[index] == (GUILD_BACK if card in guilds else None)
        else:
            assert layout[index] == card
    assert shown[:start] == [event_to_record(e) for e in events[:start]]  # earlier ages whole
    # as the age goes on, each face-down card is named once no card covers it any more
    turned = 0
    for after in range(start + 1, len(events) + 1):
        structure = states[after].structure
        if structure is None or states[after].age != 3:
            break
        layout = public_record(events[:after], states[after])[start]["layout"]
        for index in FACE_DOWN_AGE_3:
            uncovered = all(structure.cards[c] is None for c in catalog.layout(3).positions[
                index].covered_by)  # fmt: skip
            card = deal.layout[index]
            assert layout[index] == (card if uncovered else GUILD_BACK if card in guilds else None)
            turned += uncovered
    assert turned


def test_an_answer_is_accepted_only_as_a_legal_move_of_the_player_asked(
    catalog: Catalog,
) -> None:
    states, events = game("simulated_military_win.jsonl", catalog)
    library = 39  # the Great Library was built just before: p2 keeps a token of 3 drawn
    state = states[library]
    drawn = (TokenId("agriculture"), TokenId("law"), TokenId("economy"))
    asked = request(events[:library], state, Player.P2, seconds=0.5, drawn=drawn)
    assert (asked["player"], asked["seconds"], asked["drawn"]) == ("p2", 0.5, list(drawn))
    kept = {"event": event_to_record(events[library])}
    assert accepted_event(kept, state, Player.P2, drawn) == events[library]
    refusals = [
        ("no", "the answer is not a JSON object"),
        ({"error": "no idea"}, "it answered an error: no idea"),
        ({"move": 1}, 'the answer has no "event"'),
        ({"event": {"type": "buy"}}, "not a record line: unknown event type 'buy'"),
        ({"event": {"type": "reveal", "position": 1, "card": "baths"}},
         "a reveal is the referee's, not a move"),
        ({"event": {**kept["event"], "player": "p1"}}, "a move of p1, not of p2"),
        ({"event": {**kept["event"], "drawn": ["law", "economy", "urbanism"]}},
         "great_library: the tokens drawn were agriculture, law, economy"),
        ({"event": {**kept["event"], "token": "urbanism"}},
         "illegal move: great_library: 'urbanism' was not drawn"),
    ]  # fmt: skip
    for answer, reason in refusals:
        with pytest.raises(Refused) as refused:
            accepted_event(answer, state, Player.P2, drawn)
        assert str(refused.value) == reason
