"""Partial deals: face-down cards unknown at the deal (null, or a guild's back in age 3),
named by `reveal` once uncovered; accessibility and refusals follow, records replay."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from engine_positions import SETUP, build, discard, play, position

from companion.engine.cards import Catalog, Color
from companion.engine.catalog import default_catalog
from companion.engine.events import RecordError, Reveal, event_from_record, event_to_record
from companion.engine.rules import IllegalEvent, accessible_cards, apply, new_game, unrevealed
from companion.engine.state import GameState, evolve, structure_from_cards
from companion.records.replay import replay_record, state_to_json

RECORDS = Path(__file__).parent.parent / "records"
FULL = sorted(RECORDS.glob("simulated_*.jsonl")) + sorted(RECORDS.glob("pantheon/*.jsonl"))


def partial(lines: list[str], catalog: Catalog) -> list[str]:
    """The same game as `lines` recorded as a table would see it: each deal with its face-down
    cards unknown (null; "guild" for a guild's back), each turned card revealed right after
    the action that uncovered it."""
    out: list[str] = []
    expansions = tuple(json.loads(lines[0]).get("expansions", ()))
    if expansions:  # a Pantheon game: its catalog
        catalog = default_catalog(expansions)
    state = new_game(catalog)
    full: tuple[Any, ...] = ()
    for line in lines:
        obj = json.loads(line)
        if obj["type"] == "deal":
            full = tuple(obj["layout"])
            obj["layout"] = hidden(catalog, obj["age"], full)
        out.append(json.dumps(obj))
        state = apply(state, event_from_record(obj))
        for index in unrevealed(state):
            out.append(json.dumps({"type": "reveal", "position": index, "card": full[index]}))
            state = apply(state, Reveal(index, full[index]))
    return out


def hidden(catalog: Catalog, age: int, cards: Sequence[str]) -> list[str | None]:
    """A full layout as seen at the deal: face-down cards null, guilds "guild"."""
    return [
        card if p.face_up else ("guild" if catalog.card(card).color is Color.PURPLE else None)
        for p, card in zip(catalog.layout(age).positions, cards, strict=True)
    ]


@pytest.mark.parametrize("path", FULL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_partial_record_replays_to_the_same_game(path: Path, catalog: Catalog) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    table = partial(lines, catalog)
    assert any('"reveal"' in line for line in table)
    full_json = state_to_json(replay_record(lines, catalog)[-1])
    partial_json = state_to_json(replay_record(table, catalog)[-1])
    # the last age's structure may still hold face-down cards nobody saw: "back"/"guild"
    full_cards = full_json.pop("structure")["cards"]
    partial_cards = partial_json.pop("structure")["cards"]
    assert full_json == partial_json
    for seen, truth in zip(partial_cards, full_cards, strict=True):
        assert seen == truth or seen in ("back", "guild")


def test_the_partial_golden_record_is_a_golden_game_converted(catalog: Catalog) -> None:
    source = (RECORDS / "simulated_civilian_win.jsonl").read_text(encoding="utf-8").splitlines()
    golden = (RECORDS / "partial_deals_civilian_win.jsonl").read_text(encoding="utf-8")
    assert golden.splitlines() == partial(source, catalog)


# --- Deal and reveal, step by step ------------------------------------------------------------


@pytest.fixture
def age_1(catalog: Catalog) -> tuple[GameState, list[str]]:
    """Age 1 dealt with the first 20 cards of the deck, the face-down ones (rows 2, 4) unknown."""
    cards = [c.id for c in catalog.age_deck(1)][:20]
    layout = hidden(catalog, 1, cards)
    return play(new_game(catalog), SETUP, {"type": "deal", "age": 1, "layout": layout}), cards


def test_unknown_face_down_cards_block_what_they_cover(age_1: Any) -> None:
    state, cards = age_1
    assert state.structure.cards[9] == "back"  # row 4, card 1: face down
    assert accessible_cards(state) == tuple(cards[14:])  # the open row, as with a full deal
    with pytest.raises(IllegalEvent, match="is covered"):
        play(state, build("p1", cards[5]))  # row 3 lies under row 4's unknown cards


def test_a_card_uncovered_must_be_revealed_before_it_is_taken(age_1: Any) -> None:
    state, cards = age_1
    # position 9 (row 4, card 1) is covered by positions 14 and 15 (row 5, cards 1 and 2)
    state = play(state, discard("p1", cards[14]), discard("p2", cards[15]))
    assert unrevealed(state) == (9,)
    assert cards[9] not in accessible_cards(state)  # not named yet: nothing to take there
    with pytest.raises(IllegalEvent, match=r"^Scan the card turned up at row 4, card 1 first$"):
        play(state, build("p1", cards[9]))
    state = play(state, {"type": "reveal", "position": 9, "card": cards[9]})
    assert unrevealed(state) == ()
    assert cards[9] in accessible_cards(state)
    state = play(state, discard("p1", cards[9]))
    assert state.taken == 3


def test_a_reveal_is_not_a_turn(age_1: Any) -> None:
    state, cards = age_1
    state = play(state, discard("p1", cards[14]), discard("p2", cards[15]))
    after = play(state, {"type": "reveal", "position": 9, "card": cards[9]})
    assert after.current is state.current and after.cities == state.cities
    assert after.taken == state.taken == 2


@pytest.mark.parametrize(
    ("position", "card", "message"),
    [
        (10, None, "row 4, card 2 is still covered"),  # 10 is covered by 15 (gone) and 16
        (14, None, "row 5, card 1 has been taken"),
        (16, None, "row 5, card 3 is known"),
        (9, "sawmill", "Sawmill is an age 2 card, not age 1"),
        (9, "nowhere", "Unknown card 'nowhere'"),
        (9, 0, "is already in the structure"),  # the card at position 0, still dealt
        (9, 14, "has already been taken"),
    ],
)
def test_bad_reveals_are_refused(age_1: Any, position: int, card: Any, message: str) -> None:
    state, cards = age_1
    state = play(state, discard("p1", cards[14]), discard("p2", cards[15]))
    if card is None:
        card = next(c.id for c in state.catalog.age_deck(1) if c.id not in cards)
    elif isinstance(card, int):
        card = cards[card]
    with pytest.raises(IllegalEvent, match=message):
        play(state, {"type": "reveal", "position": position, "card": card})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({14: None}, "row 5, card 1 is face up: name its card"),
        ({9: "guild"}, "only age 3 has guilds"),
        ({9: 0}, "20 different cards"),
    ],
)
def test_bad_partial_deals_are_refused(
    catalog: Catalog, change: dict[int, Any], message: str
) -> None:
    cards: list[Any] = [c.id for c in catalog.age_deck(1)][:20]
    layout: list[Any] = hidden(catalog, 1, cards)
    for index, value in change.items():
        layout[index] = cards[value] if isinstance(value, int) else value
    with pytest.raises(IllegalEvent, match=message):
        play(new_game(catalog), SETUP, {"type": "deal", "age": 1, "layout": layout})


def _age_3(catalog: Catalog, guild_backs: int) -> tuple[GameState, list[Any], list[str]]:
    """Age 3 dealt with its 3 guilds on row 2 (positions 2, 3, 4, face down), `guild_backs`
    of them given by their back; the other face-down cards (rows 4 and 6) unknown."""
    plain = [c.id for c in catalog.age_deck(3)][:17]
    guilds = [g.id for g in catalog.guilds][:3]
    cards = plain[:2] + guilds + plain[2:]  # row 1: 2 plain cards; row 2 (3 cards): guilds
    layout: list[Any] = []
    for p, card in zip(catalog.layout(3).positions, cards, strict=True):
        if p.face_up:
            layout.append(card)
        elif card in guilds:
            layout.append("guild" if guilds.index(card) < guild_backs else card)
        else:
            layout.append(None)
    deal = {"type": "deal", "age": 3, "layout": layout}
    return play(position(catalog, age=3), deal), layout, cards


def test_age_3_counts_guild_backs_as_guilds(catalog: Catalog) -> None:
    state, layout, _ = _age_3(catalog, guild_backs=3)
    assert state.structure is not None
    assert state.structure.cards[2:5] == ("guild", "guild", "guild")
    assert _age_3(catalog, guild_backs=1)[0].structure.cards[2:5][0] == "guild"  # type: ignore[union-attr]
    layout[4] = None  # 2 guild backs and no guild named: one short
    with pytest.raises(IllegalEvent, match="age 3 has 3 guilds, not 2"):
        play(position(catalog, age=3), {"type": "deal", "age": 3, "layout": layout})


def test_a_guild_back_takes_only_a_guild(catalog: Catalog) -> None:
    state, _, cards = _age_3(catalog, guild_backs=3)
    assert state.structure is not None
    # take rows 3 to 7 away (set directly, as if played) so rows 2 and 4 are uncovered
    rows = [p.row for p in catalog.layout(3).positions]
    left = tuple(None if rows[i] >= 3 and rows[i] != 4 else c
                 for i, c in enumerate(state.structure.cards))  # fmt: skip
    covering = state.structure.covering
    state = evolve(state, structure=structure_from_cards(3, left, covering))
    assert unrevealed(state) == (2, 3, 4, 9, 10)
    plain = next(c.id for c in catalog.age_deck(3) if c.id not in cards)
    guild = next(g.id for g in catalog.guilds if g.id not in cards)
    with pytest.raises(IllegalEvent, match="row 2, card 1 has a guild's back: it cannot be"):
        play(state, {"type": "reveal", "position": 2, "card": plain})
    with pytest.raises(IllegalEvent, match="row 4, card 1 has an age 3 back: it cannot be"):
        play(state, {"type": "reveal", "position": 9, "card": guild})
    state = play(state, {"type": "reveal", "position": 2, "card": cards[2]})
    assert state.structure is not None and state.structure.cards[2] == cards[2]
    assert cards[2] in accessible_cards(state)


def test_reveal_records_survive_and_malformed_ones_are_refused() -> None:
    event = Reveal(7, "baths")  # type: ignore[arg-type]
    assert event_to_record(event) == {"type": "reveal", "position": 7, "card": "baths"}
    assert event_from_record(json.loads(json.dumps(event_to_record(event)))) == event
    for bad, message in [
        ({"type": "reveal", "position": 20, "card": "baths"}, "position must be 0 to 19"),
        ({"type": "reveal", "position": True, "card": "baths"}, "position must be 0 to 19"),
        ({"type": "reveal", "position": 3}, "missing field 'card'"),
        ({"type": "deal", "age": 1, "layout": [None] * 19}, "list of 20 ids"),
        ({"type": "deal", "age": 1, "layout": [""] * 20}, "list of 20 ids"),
    ]:
        with pytest.raises(RecordError, match=message):
            event_from_record(bad)
