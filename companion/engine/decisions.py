"""The pending decisions and the events that answer them: a progress token, the card a
wonder destroys, the Mausoleum's card, the Great Library's token, who begins the next age.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from .cards import TokenId
from .effects import construct, gain_token, remove_card
from .events import (
    BuildFromDiscard,
    ChooseStarter,
    Destroy,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    TakeProgress,
)
from .pantheon_rules import next_age
from .state import GameState, Pending, PendingKind, Player
from .turn import Turn

__all__ = [
    "DECISIONS",
    "Wording",
    "available_library_tokens",
    "build_from_discard",
    "choose_starter",
    "decision_events",
    "destroy",
    "keep_library_token",
    "library_draw",
    "take_progress",
]

LIBRARY_DRAW: Final = 3


class Wording:
    """How every part of the companion speaks of one kind of decision: `title` heads the
    OLED's prompt ("Destroy"), `asks` completes "Ann must ..." on the phone and in a refusal
    ("choose a card to destroy"), `short` completes "Ann ..." under the OLED's title
    ("destroys one")."""

    __slots__ = ("asks", "short", "title")

    def __init__(self, title: str, asks: str, short: str) -> None:
        self.title = title
        self.asks = asks
        self.short = short


DECISIONS: Final = {
    PendingKind.PROGRESS: Wording("Progress token", "choose a progress token", "takes one"),
    PendingKind.DESTROY: Wording("Destroy", "choose a card to destroy", "destroys one"),
    PendingKind.MAUSOLEUM: Wording(
        "Mausoleum", "choose a card from the discard pile", "builds one"
    ),
    PendingKind.GREAT_LIBRARY: Wording(
        "Great Library", "keep one of the Great Library's tokens", "keeps one"
    ),
    PendingKind.NEXT_AGE: Wording("Next age", "choose who begins the next age", "chooses"),
    # Pantheon
    PendingKind.DIVINITY: Wording("Divinity", "place a divinity on the Pantheon", "places one"),
    PendingKind.ENKI: Wording("Enki", "choose one of Enki's progress tokens", "keeps one"),
    PendingKind.SNAKE: Wording("Nisaba", "put the Snake on a green card", "places it"),
    PendingKind.BAAL: Wording("Baal", "choose a card for Baal to take", "takes one"),
    PendingKind.HADES: Wording(
        "Hades", "choose a card from the discard pile for Hades", "builds one"
    ),
    PendingKind.ZEUS: Wording("Zeus", "choose a card of the structure for Zeus", "discards one"),
    PendingKind.ANUBIS: Wording("Anubis", "choose a wonder for Anubis", "unbuilds one"),
    PendingKind.ISIS: Wording(
        "Isis", "choose a wonder and a discarded card for Isis", "builds one"
    ),
    PendingKind.RA: Wording("Ra", "choose a wonder for Ra to take", "takes one"),
    PendingKind.MINERVA: Wording("Minerva", "place the Minerva pawn", "places it"),
    PendingKind.NEPTUNE: Wording("Neptune", "choose Neptune's loot tokens", "chooses"),
    PendingKind.GATE: Wording("Gate", "choose a divinity revealed by the Gate", "chooses one"),
    PendingKind.THEATER: Wording(
        "Divine Theater", "choose a divinity for the Divine Theater", "chooses one"
    ),
}
"""The one wording of each pending decision (the engine's refusals, the OLED, the phone)."""


def take_progress(turn: Turn, event: TakeProgress) -> None:
    """Take one of the progress tokens still on the board.

    Raises:
        IllegalEvent: the token is not on the board.
    """
    if event.token not in turn.board_tokens:
        catalog = turn.catalog
        name = catalog.name(event.token) if catalog.is_token(event.token) else repr(event.token)
        raise IllegalEvent(f"{name} is not on the board")
    turn.board_tokens = tuple(t for t in turn.board_tokens if t != event.token)
    gain_token(turn, event.token)


def destroy(turn: Turn, event: Destroy) -> None:
    """Put an opponent's card of the wonder's colour on the discard pile.

    Raises:
        IllegalEvent: the card is not in the opponent's city or not of that colour.
    """
    catalog = turn.catalog
    color = catalog.wonder(turn.city.wonders_built[-1]).destroys
    opponent = turn.opponent
    if event.card not in opponent.cards:
        label = catalog.name(event.card) if catalog.is_card(event.card) else repr(event.card)
        raise IllegalEvent(f"{label} is not in {turn.player.opponent}'s city")
    card = catalog.card(event.card)
    if card.color is not color:
        raise IllegalEvent(f"{catalog.name(card.id)} is not a {color} card")
    turn.opponent = remove_card(opponent, card)
    turn.discard = (*turn.discard, card.id)


def build_from_discard(turn: Turn, event: BuildFromDiscard) -> None:
    """The Mausoleum: build a card of the discard pile for free, with all its effects.

    Raises:
        IllegalEvent: the card is not in the discard pile.
    """
    catalog = turn.catalog
    if event.card not in turn.discard:
        label = catalog.name(event.card) if catalog.is_card(event.card) else repr(event.card)
        raise IllegalEvent(f"{label} is not in the discard pile")
    index = turn.discard.index(event.card)
    turn.discard = turn.discard[:index] + turn.discard[index + 1 :]
    construct(turn, catalog.card(event.card), turn.city.coins)


def available_library_tokens(state: GameState) -> tuple[TokenId, ...]:
    """The progress tokens the Great Library may draw: not on the board, owned or boxed."""
    owned = state.cities[0].tokens | state.cities[1].tokens
    pantheon = state.catalog.pantheon
    expansion = frozenset() if pantheon is None or state.pantheon else pantheon.token_ids
    return tuple(
        t.id
        for t in state.catalog.progress_tokens
        if t.id not in state.board_tokens
        and t.id not in owned
        and t.id not in state.boxed_tokens
        and t.id not in expansion  # a base game played with the expansion's catalog
    )


def library_draw(state: GameState) -> int:
    """How many tokens the Great Library draws: 3, or all that are left when fewer are."""
    return min(LIBRARY_DRAW, len(available_library_tokens(state)))


def keep_library_token(turn: Turn, event: KeepLibraryToken) -> None:
    """The Great Library: keep one of the 3 tokens drawn; the other 2 go back to the box.

    Raises:
        IllegalEvent: not 3 different drawable tokens (fewer when fewer are left), or a kept
            token that was not drawn.
    """
    available = available_library_tokens(turn.base)
    drawn = event.drawn
    wanted = library_draw(turn.base)
    if len(set(drawn)) != len(drawn) or len(drawn) != wanted:
        raise IllegalEvent(f"great_library: {wanted} different tokens must be drawn")
    for token in drawn:
        if token not in available:
            raise IllegalEvent(
                f"great_library: {token!r} cannot be drawn (on the board, owned or unknown)"
            )
    if event.token not in drawn:
        raise IllegalEvent(f"great_library: {event.token!r} was not drawn")
    turn.boxed_tokens = turn.boxed_tokens | {t for t in drawn if t != event.token}
    gain_token(turn, event.token)


def choose_starter(state: GameState, event: ChooseStarter) -> GameState:
    """Begin the next age with the chosen player."""
    return GameState(  # every field, in declaration order
        state.catalog,
        state.phase,
        state.age + 1,
        event.starter,
        state.cities,
        state.names,
        state.position,
        state.loot,
        state.board_tokens,
        state.boxed_tokens,
        state.boxed_wonders,
        None,
        0,
        state.discard,
        None,
        state.winner,
        state.shared,
        state.victory,
        None if state.pantheon is None else next_age(state, state.age + 1),
    )


def decision_events(state: GameState, pending: Pending) -> list[Event]:
    """The events that answer `pending`."""
    player = pending.player
    catalog = state.catalog
    match pending.kind:
        case PendingKind.PROGRESS:
            return [TakeProgress(player, t) for t in state.board_tokens]
        case PendingKind.DESTROY:
            color = catalog.wonder(state.city(player).wonders_built[-1]).destroys
            return [
                Destroy(player, c)
                for c in state.city(player.opponent).cards
                if catalog.card(c).color is color
            ]
        case PendingKind.MAUSOLEUM:
            return [BuildFromDiscard(player, c) for c in dict.fromkeys(state.discard)]
        case PendingKind.GREAT_LIBRARY:
            draws = _combinations(available_library_tokens(state), library_draw(state))
            return [KeepLibraryToken(player, d, t) for d in draws for t in d]
        case PendingKind.NEXT_AGE:
            return [ChooseStarter(player, Player.P1), ChooseStarter(player, Player.P2)]
    return []  # the Pantheon's decisions: `divinities.pantheon_events`


def _combinations(items: tuple[TokenId, ...], size: int) -> list[tuple[TokenId, ...]]:
    return list(combinations(items, size))
