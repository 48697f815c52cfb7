"""The one replay with undo: game records and journal rows into states.

`replay` applies (number, record) pairs in turn, each undo taking back the event it cancels
by the rule of `reader.undo_targets`; the CLI (`replay`, `import`), `Game` (recovery is replay),
the journal's imports and the pages all use it. `state_to_json` is the object that
`duel-companion replay --json` prints and that the web pages serve; its shape is documented in
docs/game-record.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine.cards import MYTHOLOGIES, RESOURCES, Catalog
from companion.engine.catalog import catalog_names, default_catalog, did_you_mean
from companion.engine.events import (
    Event,
    IllegalEvent,
    Setup,
    event_from_record,
    event_to_record,
)
from companion.engine.pricing import unit_prices
from companion.engine.rules import accessible_cards, apply, new_game
from companion.engine.scoring import PANTHEON_ROWS, ROWS, score_sheet
from companion.engine.state import GameState, Phase, Player
from companion.records.reader import Numbered, Record, RecordRefused, read_records, undo_targets

ReplayError = RecordRefused  # the name the replay's callers knew; one class of refusal


@dataclass(frozen=True, slots=True)
class Step:
    """One record replayed: the state before and after it.

    For an undo, `after` is the state it went back to and `undoes` the index (in
    `Replay.steps`) of the step it cancelled.
    """

    number: int
    record: Record
    before: GameState
    after: GameState
    undoes: int | None = None

    @property
    def is_undo(self) -> bool:
        """Whether this step is an undo."""
        return self.undoes is not None


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed game: every step, and the effective states and records."""

    steps: tuple[Step, ...]
    states: tuple[GameState, ...]  # the new game, then the state after each effective event
    records: tuple[Record, ...]  # the effective events as the rules read them (canonical)
    undone: frozenset[int]  # indices of the steps an undo cancelled

    @property
    def state(self) -> GameState:
        """The state after the latest effective event."""
        return self.states[-1]


def replay(catalog: Catalog, numbered: Sequence[Numbered], *, label: str = "line") -> Replay:
    """Apply the records in turn from a new game; an undo takes back the event it cancels.

    `label` names a number in a refusal: "line" for a record, "row" for journal rows.

    Raises:
        RecordRefused: "<label> N: reason" for the first record the rules refuse or that is
            malformed, or an undo with nothing to undo.
    """
    targets = undo_targets(numbered, label=label)
    stack: list[GameState] = [new_game(catalog)]
    records: list[Record] = []
    steps: list[Step] = []
    for index, (number, record) in enumerate(numbered):
        before = stack[-1]
        if index in targets:
            stack.pop()
            records.pop()
            steps.append(Step(number, record, before, stack[-1], targets[index]))
            continue
        try:
            event = event_from_record(record)
            if isinstance(event, Setup) and event.expansions and before.catalog.pantheon is None:
                before = stack[-1] = new_game(default_catalog(event.expansions))
            after = apply(before, event)
        except IllegalEvent as refused:
            reason = str(refused) + _meant(catalog, record)
            raise RecordRefused(reason, number, label=label) from None
        stack.append(after)
        records.append(event_to_record(event))
        steps.append(Step(number, record, before, after))
    undone = frozenset(targets.values())
    return Replay(tuple(steps), tuple(stack), tuple(records), undone)


def _meant(catalog: Catalog, record: Record) -> str:
    """ " (did you mean 'lumber_yard'?)" when a value of a refused record is no id of the
    catalog but a name of one ("Lumber Yard") or close to one; else ""."""
    names = catalog_names(catalog)
    for text in _texts(record):
        if text not in names and text not in ("p1", "p2") and (hint := did_you_mean(text, names)):
            return hint
    return ""


def _texts(value: Any, key: str = "") -> Iterable[str]:
    """The strings of a record that may name a card, wonder or token (not its type or
    names)."""
    if key in ("type", "players"):
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for inner, item in value.items():
            yield from _texts(item, inner)


def read_events(lines: Iterable[str]) -> list[tuple[int, Event | None]]:
    """The events of a record with their line numbers; None stands for an `undo` line.

    Raises:
        RecordRefused: a line that is not read (reader's guards) or not a well-formed event.
    """
    events: list[tuple[int, Event | None]] = []
    for number, record in read_records(lines, undo=True):
        try:
            events.append((number, None if record["type"] == "undo" else event_from_record(record)))
        except IllegalEvent as bad:
            raise RecordRefused(str(bad), number) from None
    return events


def replay_record(lines: Iterable[str], catalog: Catalog | None = None) -> list[GameState]:
    """Every effective state of a game record: the new game, then the state after each event.

    An `{"type": "undo"}` line takes back the event before it (journals use it).

    Raises:
        RecordRefused: "line N: reason" for the first line that is malformed or refused.
    """
    numbered = read_records(lines, undo=True)
    return list(replay(catalog or default_catalog(), numbered).states)


def _status(state: GameState) -> str:
    return "finished" if state.phase is Phase.FINISHED else "in_progress"


def state_to_json(state: GameState) -> dict[str, Any]:
    """The state as one JSON object (docs/game-record.md, "The state object")."""
    sheet = score_sheet(state)
    winner = "shared" if state.shared else (state.winner.value if state.winner else None)
    players: dict[str, Any] = {}
    rows = ROWS if state.pantheon is None else PANTHEON_ROWS
    for player in Player:
        city, opponent = state.city(player), state.city(player.opponent)
        score = sheet.of(player)
        prices = unit_prices(city, opponent)
        players[player.value] = {
            "name": state.names[0 if player is Player.P1 else 1],
            "coins": city.coins,
            "cards": list(city.cards),
            "wonders_built": list(city.wonders_built),
            "wonders_unbuilt": list(city.wonders_unbuilt),
            "progress_tokens": sorted(city.tokens),
            "trade_prices": {r.value: p for r, p in zip(RESOURCES, prices, strict=True)},
            "score": {**{row: score.row(row) for row in rows}, "total": score.total},
        }
    pending = state.pending
    structure = state.structure
    return {
        "status": _status(state),
        "phase": state.phase.value,
        "age": state.age,
        "current_player": state.current.value if state.phase is Phase.PLAYING else None,
        "pending": None
        if pending is None
        else {"type": pending.kind.value, "player": pending.player.value},
        "winner": winner,
        "victory": state.victory.value if state.victory else None,
        "military": {"position": state.position, "loot": sorted(state.loot)},
        "progress_tokens": list(state.board_tokens),
        "discard": list(state.discard),
        "cards_taken": state.taken,
        "structure": None
        if structure is None
        else {"cards": list(structure.cards), "accessible": list(accessible_cards(state))},
        "players": players,
    } | ({} if state.pantheon is None else {"pantheon": _pantheon_json(state)})


def _pantheon_json(state: GameState) -> dict[str, Any]:
    """The Pantheon's part of the state object: the spaces, the tokens and pieces held,
    the cards activated, and how many divinities each Mythology deck has left."""
    pantheon = state.pantheon
    assert pantheon is not None
    return {
        "spaces": list(pantheon.spaces),
        "decks_left": {m: len(deck) for m, deck in zip(MYTHOLOGIES, pantheon.decks, strict=True)},
        "tokens_on_structure": [[position, token] for position, token in pantheon.on_structure],
        "minerva": pantheon.minerva,
        "snake": pantheon.snake,
        "players": {
            player.value: {
                "mythology_tokens": list(pantheon.mythology_tokens[i]),
                "offering_tokens": list(pantheon.offerings[i]),
                "astarte_coins": pantheon.astarte[i],
                "activated": list(pantheon.activated[i]),
            }
            for i, player in enumerate(Player)
        },
    }
