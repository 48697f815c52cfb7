"""The referee's side of the engine protocol (docs/engine-protocol.md): what a player is shown
(the public record of the game, in a request) and which answers it accepts.

Pure: the requests and answers are plain values; sending them to a program and reading its
line back is the caller's (`companion.protocol.Program`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.cards import TokenId
from companion.engine.events import (
    GUILD_BACK,
    Deal,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Reveal,
    Setup,
    event_from_record,
    event_to_record,
)
from companion.engine.rules import apply
from companion.engine.state import GameState, Player
from companion.search.view import hidden_positions, is_guild_slot

__all__ = ["Refused", "accepted_event", "public_record", "request"]


class Refused(ValueError):
    """An answer the referee does not accept; the message is one line saying why."""


def public_record(events: Sequence[Event], state: GameState) -> list[dict[str, Any]]:
    """The record of `events` (which led to `state`) as a player at the table sees it: the
    deal of the age under way names its face-up cards and the face-down ones turned up
    since; the others are null, or "guild" where an age 3 guild's back shows. The deals of
    the ages played out name every card (each was turned up before it was taken)."""
    records = [event_to_record(e) for e in events]
    structure = state.structure
    hidden = hidden_positions(state)
    if structure is None or not hidden:
        return records
    last = max(i for i, e in enumerate(events) if isinstance(e, Deal))
    layout = list(records[last]["layout"])
    for index in hidden:
        card = structure.cards[index]
        layout[index] = GUILD_BACK if is_guild_slot(state.catalog, card or "") else None
    records[last] = {**records[last], "layout": layout}
    return records


def request(
    events: Sequence[Event],
    state: GameState,
    player: Player,
    *,
    seconds: float | None = None,
    drawn: Sequence[TokenId] | None = None,
) -> dict[str, Any]:
    """The request that asks `player` for its answer after `events` (which led to `state`):
    the public record, the player, the time to think and a Great Library's draw when given."""
    asked: dict[str, Any] = {"record": public_record(events, state), "player": player.value}
    if seconds is not None:
        asked["seconds"] = seconds
    if drawn is not None:
        asked["drawn"] = list(drawn)
    return asked


def accepted_event(
    answer: object,
    state: GameState,
    player: Player,
    drawn: Sequence[TokenId] | None = None,
) -> Event:
    """The event of `answer` (a parsed answer line) when it is a legal move or decision of
    `player` in `state` (with the Great Library's token among `drawn`, the tokens drawn).

    Raises:
        Refused: an error answer, not an answer, or an event the rules refuse now.
    """
    if not isinstance(answer, dict):
        raise Refused("the answer is not a JSON object")
    if "event" not in answer:
        if isinstance(answer.get("error"), str):
            raise Refused(f"it answered an error: {answer['error']}")
        raise Refused('the answer has no "event"')
    try:
        event = event_from_record(answer["event"])
    except IllegalEvent as bad:
        raise Refused(f"not a record line: {bad}") from None
    if isinstance(event, Setup | Deal | Reveal):
        raise Refused(f"a {event.type} is the referee's, not a move")
    mover = getattr(event, "player", None)
    if mover is not player:
        raise Refused(f"a move of {mover}, not of {player.value}")
    if isinstance(event, KeepLibraryToken) and sorted(event.drawn) != sorted(drawn or ()):
        raise Refused(f"great_library: the tokens drawn were {', '.join(drawn or ())}")
    try:
        apply(state, event)
    except IllegalEvent as refused:
        raise Refused(f"illegal move: {refused}") from None
    return event
