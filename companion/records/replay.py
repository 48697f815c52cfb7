"""Game records in and out: replay JSON Lines into states, and states as JSON objects.

`state_to_json` is the object that `duel-companion replay --json` prints and that the web
pages serve; its shape is documented in docs/game-record.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from companion.catalog import default_catalog
from companion.engine.cards import RESOURCES, Catalog
from companion.engine.events import Event, IllegalEvent, event_from_record
from companion.engine.pricing import unit_prices
from companion.engine.rules import accessible_cards, apply, new_game
from companion.engine.scoring import ROWS, score_sheet
from companion.engine.state import GameState, Phase, Player


class ReplayError(ValueError):
    """A record line that cannot be read or that the rules refuse; names the line."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def read_events(lines: Iterable[str]) -> list[tuple[int, Event | None]]:
    """The events of a record with their line numbers; None stands for an `undo` line.

    Blank lines are skipped (line numbers still count them).

    Raises:
        ReplayError: a line is not JSON or not a well-formed event.
    """
    events: list[tuple[int, Event | None]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as bad:
            raise ReplayError(number, f"not valid JSON ({bad.msg})") from None
        if isinstance(obj, dict) and obj.get("type") == "undo":
            events.append((number, None))
            continue
        try:
            events.append((number, event_from_record(obj)))
        except IllegalEvent as bad:
            raise ReplayError(number, str(bad)) from None
    return events


def replay_record(lines: Iterable[str], catalog: Catalog | None = None) -> list[GameState]:
    """Every state of a game record: the new game, then the state after each event.

    An `{"type": "undo"}` line takes back the event before it (journals use it).

    Raises:
        ReplayError: "line N: reason" for the first line that is malformed or refused.
    """
    states = [new_game(catalog or default_catalog())]
    for number, event in read_events(lines):
        if event is None:
            if len(states) == 1:
                raise ReplayError(number, "Nothing to undo")
            states.pop()
            continue
        try:
            states.append(apply(states[-1], event))
        except IllegalEvent as refused:
            raise ReplayError(number, str(refused)) from None
    return states


def _status(state: GameState) -> str:
    return "finished" if state.phase is Phase.FINISHED else "in_progress"


def state_to_json(state: GameState) -> dict[str, Any]:
    """The state as one JSON object (docs/game-record.md, "The state object")."""
    sheet = score_sheet(state)
    winner = "shared" if state.shared else (state.winner.value if state.winner else None)
    players: dict[str, Any] = {}
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
            "score": {**{row: score.row(row) for row in ROWS}, "total": score.total},
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
    }
