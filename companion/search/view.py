"""What a player can know of a game: the public view of a state.

Public: the cards face up in the structure, every card taken (cities, under wonders, the
discard pile), the tokens on the board and owned, coins, the conflict pawn and its loot
tokens, the wonders. Hidden, even when a record's `deal` names them: the face-down cards of
the structure, the 3 cards removed from each age and which progress tokens a Great Library
draw will bring. A face-down card of age 3 shows its back: a guild's slot is known as a
guild's, not which guild.

The search reads a state only through this module and `determinize`, so its answer depends
on public information alone.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from companion.engine.cards import CardId, Catalog
from companion.engine.rules import is_face_up
from companion.engine.state import GameState
from companion.engine.structure import GUILD_BACK, UNKNOWN

__all__ = [
    "HIDDEN",
    "HIDDEN_GUILD",
    "PublicView",
    "hidden_positions",
    "is_guild_slot",
    "known_cards",
    "public_seed",
    "unseen_cards",
]

HIDDEN = "?"
"""A face-down card in `PublicView.structure`."""
HIDDEN_GUILD = "?guild"
"""A face-down guild (age 3: the purple back shows) in `PublicView.structure`."""


def hidden_positions(state: GameState) -> tuple[int, ...]:
    """Layout positions of the current structure whose card nobody knows: face down, or
    turned up but not named yet (a partial deal's card awaiting its `reveal`)."""
    structure = state.structure
    if structure is None:
        return ()
    return tuple(
        index
        for index, card in enumerate(structure.cards)
        if card is not None and (card in UNKNOWN or not is_face_up(state, index))
    )


def is_guild_slot(catalog: Catalog, card: str) -> bool:
    """Whether a hidden structure entry shows a guild's back (age 3): the marker of a
    partial deal, or a named guild."""
    if card == GUILD_BACK:
        return True
    return card not in UNKNOWN and (catalog.card(card).is_guild or catalog.card(card).is_temple)


def known_cards(state: GameState) -> frozenset[CardId]:
    """The cards of the structure whose identity is public now: face up, not taken."""
    structure = state.structure
    if structure is None:
        return frozenset()
    hidden = set(hidden_positions(state))
    return frozenset(c for i, c in enumerate(structure.cards) if c is not None and i not in hidden)


def _seen(state: GameState) -> set[CardId]:
    """Every card whose identity is public: taken, or face up in the structure."""
    one, two = state.cities
    seen: set[CardId] = {*one.cards, *two.cards, *one.tucked, *two.tucked, *state.discard}
    return seen | known_cards(state)


def unseen_cards(state: GameState, age: int) -> tuple[tuple[CardId, ...], tuple[CardId, ...]]:
    """The cards of `age` nobody has seen, (others, guilds), in catalog order: where the
    face-down cards and the removed ones are drawn from (guilds only in age 3)."""
    seen = _seen(state)
    catalog = state.catalog
    others = tuple(c.id for c in catalog.age_deck(age) if c.id not in seen)
    purple = catalog.guilds if state.pantheon is None else catalog.temples  # Grand Temples
    guilds = tuple(c.id for c in purple if c.id not in seen) if age == 3 else ()
    return others, guilds


@dataclass(frozen=True, slots=True)
class PublicView:
    """The public information of a state, as plain values (comparable and hashable).

    `structure` holds for each layout position the card id when face up, `HIDDEN` or
    `HIDDEN_GUILD` when face down, None once taken (empty tuple: no deal known).
    """

    phase: str
    age: int
    current: str
    pending: tuple[str, str, bool] | None
    cities: tuple[tuple[object, ...], tuple[object, ...]]
    position: int
    loot: tuple[int, ...]
    board_tokens: tuple[str, ...]
    boxed_tokens: tuple[str, ...]
    boxed_wonders: tuple[str, ...]
    structure: tuple[str | None, ...]
    taken: int
    discard: tuple[str, ...]
    winner: str | None

    @classmethod
    def of(cls, state: GameState) -> PublicView:
        """The public view of `state`."""
        catalog = state.catalog
        structure: tuple[str | None, ...] = ()
        if state.structure is not None:
            hidden = set(hidden_positions(state))
            structure = tuple(
                _public_card(catalog, card) if index in hidden else card
                for index, card in enumerate(state.structure.cards)
            )
        pending = state.pending
        return cls(
            phase=state.phase.value,
            age=state.age,
            current=state.current.value,
            pending=None
            if pending is None
            else (pending.kind.value, pending.player.value, pending.extra_turn),
            cities=(_city(state, 0), _city(state, 1)),
            position=state.position,
            loot=tuple(sorted(state.loot)),
            board_tokens=tuple(state.board_tokens),
            boxed_tokens=tuple(sorted(state.boxed_tokens)),
            boxed_wonders=tuple(state.boxed_wonders),
            structure=structure,
            taken=state.taken,
            discard=tuple(state.discard),
            winner=None if state.winner is None else state.winner.value,
        )


def _public_card(catalog: Catalog, card: CardId | None) -> str | None:
    if card is None:
        return None
    return HIDDEN_GUILD if is_guild_slot(catalog, card) else HIDDEN


def _city(state: GameState, index: int) -> tuple[object, ...]:
    city = state.cities[index]
    return (
        city.coins,
        city.cards,
        city.wonders_built,
        city.wonders_unbuilt,
        tuple(sorted(city.tokens)),
        city.tucked,
    )


def public_seed(state: GameState, seed: int, *extra: str) -> int:
    """A seed drawn from `seed` and the public view only (plus `extra` words): two states
    that differ in their face-down cards alone give the same seed."""
    text = repr((seed, PublicView.of(state), extra)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
