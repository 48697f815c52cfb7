"""The rules: `apply(state, event)` returns the next state or refuses the event.

One rules code serves two ways of knowing the table. With a `deal` event for the current
age the engine knows the structure and enforces which cards are accessible; without one
(table mode, the device), a card is accepted when it belongs to the current age and has not
been taken before, and the age ends after 20 cards. Refusals raise `IllegalEvent` with a
one-line message and change nothing (states are immutable).

This module checks the phase, the turn and any pending decision, then dispatches: the
opening (`opening`), the structure of an age (`structure`), the three actions (`actions`),
what cards and tokens give (`effects`), the decisions (`decisions`), and the working copy
with the end of a turn, an age and the game (`turn`).
"""

from __future__ import annotations

from .actions import build, build_wonder, discard, discard_gain
from .cards import Catalog
from .decisions import (
    DECISIONS,
    available_library_tokens,
    build_from_discard,
    choose_starter,
    decision_events,
    destroy,
    keep_library_token,
    library_draw,
    take_progress,
)
from .divinities import activate, activations, answer_pantheon, pantheon_events
from .effects import city_of
from .events import (
    Activate,
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Deal,
    Destroy,
    Discard,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Reveal,
    Setup,
    TakeProgress,
)
from .opening import check_draft, draft_pickers, setup
from .state import GameState, Pending, Phase, evolve
from .structure import (
    accessible_cards,
    cards_left,
    deal,
    is_accessible,
    is_face_up,
    reveal,
    unrevealed,
    was_taken,
)
from .turn import Turn, end_turn

__all__ = [
    "IllegalEvent",
    "accessible_cards",
    "apply",
    "available_library_tokens",
    "cards_left",
    "check_draft",
    "city_of",
    "discard_gain",
    "draft_pickers",
    "is_accessible",
    "is_face_up",
    "legal_events",
    "library_draw",
    "new_game",
    "unrevealed",
    "was_taken",
]


def new_game(catalog: Catalog) -> GameState:
    """The state before the setup event: the next event must be `setup`."""
    return GameState(catalog=catalog)


def apply(state: GameState, event: Event) -> GameState:
    """Return the state after `event`; raise IllegalEvent and change nothing if refused.

    Raises:
        IllegalEvent: the event is not legal now (wrong player, unknown or unavailable id,
            unaffordable, out of order with a pending decision, game over...).
    """
    if state.phase is not Phase.PLAYING:
        if state.phase is Phase.FINISHED:
            raise IllegalEvent("The game is over")
        if isinstance(event, Setup):
            return setup(state, event)
        raise IllegalEvent("The game is not set up yet: the first event must be setup")
    if isinstance(event, Setup):
        raise IllegalEvent("The game is already set up")
    if isinstance(event, Reveal):  # not a player's action: allowed while a choice is pending
        return reveal(state, event)
    pending = state.pending
    if pending is not None:
        return _answer(state, pending, event)
    match event:
        case Build():
            return build(state, event)
        case Discard():
            return discard(state, event)
        case BuildWonder():
            return build_wonder(state, event)
        case Deal():
            return deal(state, event)
        case Activate():
            return activate(state, event)
        case _:
            raise IllegalEvent(f"No {event.type} decision is pending")


def _answer(state: GameState, pending: Pending, event: Event) -> GameState:
    """Apply the event that answers the pending decision; refuse anything else."""
    if event.type != pending.kind:  # a StrEnum: its value is the answering event's type
        raise IllegalEvent(f"{pending.player} must first {DECISIONS[pending.kind].asks}")
    player = getattr(event, "player", None)
    if player is not pending.player:
        raise IllegalEvent(f"It is {pending.player}'s choice: {DECISIONS[pending.kind].asks}")
    if isinstance(event, ChooseStarter):
        return choose_starter(state, event)
    turn = Turn(state, pending.player)
    turn.clear_pending()  # a call, not `turn.pending = None`: the answer may ask again
    match event:
        case TakeProgress():
            take_progress(turn, event)
        case Destroy():
            destroy(turn, event)
        case BuildFromDiscard():
            build_from_discard(turn, event)
        case KeepLibraryToken():
            keep_library_token(turn, event)
        case _:
            answer_pantheon(turn, event)
    extra = pending.extra_turn or turn.extra_turn  # Isis's wonder may give an extra turn
    if not turn.finished and turn.pending is None:
        end_turn(turn, extra_turn=extra)
    elif turn.pending is not None:  # a Mausoleum card that makes a pair: the turn goes on
        turn.pending = evolve(turn.pending, extra_turn=extra)
    return turn.state()


def legal_events(state: GameState) -> list[Event]:
    """Every legal event now, except `setup` and `deal` (which carry hidden information).

    In table mode every unseen card of the age counts as takeable. Great Library events
    list every draw of 3 available tokens.
    """
    if state.phase is not Phase.PLAYING:
        return []
    pending = state.pending
    if pending is not None:
        if state.pantheon is not None:
            return decision_events(state, pending) or pantheon_events(state, pending)
        return decision_events(state, pending)
    player = state.current
    if state.structure is not None:
        cards = accessible_cards(state)
    else:
        catalog = state.catalog
        cards = tuple(
            c.id
            for c in catalog.cards
            if c.age == state.age
            and not was_taken(state, c.id)
            and (not c.is_temple or state.pantheon is not None)
            and (not c.is_guild or state.pantheon is None)
        )
    found: list[Event] = []
    if state.pantheon is not None:
        found += activations(state)
    for card in cards:
        options: list[Event] = [Build(player, card), Discard(player, card)]
        options += [BuildWonder(player, w, card) for w in state.city(player).wonders_unbuilt]
        for event in options:
            try:
                apply(state, event)
            except IllegalEvent:
                continue
            found.append(event)
    return found
