"""Determinization: one possible world consistent with the public view.

The face-down cards of the structure are drawn from the cards of the age nobody has seen
(a face-down guild's slot from the unseen guilds), and every later age is dealt at random when
the game reaches it. The draw uses only `view.unseen_cards`, in catalog order, so it does not
depend on where the real face-down cards lie.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from companion.engine.cards import MYTHOLOGIES, CardId, Catalog
from companion.engine.events import Deal
from companion.engine.rules import apply
from companion.engine.state import GameState, PendingKind, Phase, Structure, evolve

from .pantheon import draw_divinities, hidden_spaces, random_tokens
from .view import hidden_positions, is_guild_slot, unseen_cards

__all__ = ["Worlds", "deal_if_needed", "determinize", "needs_deal", "random_layout", "sample"]


def determinize(state: GameState, rng: random.Random) -> GameState:
    """`state` with its face-down cards replaced by cards drawn from the unseen ones."""
    return Worlds(state).draw(rng)


class Worlds:
    """The determinizations of one state: what is hidden and what it may be, worked out
    once, then a world per `draw` (the search draws one per iteration)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.draws: list[tuple[list[int], tuple[CardId, ...]]] = []
        pending = state.pending
        pantheon = state.pantheon
        self.divinities = bool(hidden_spaces(state)) or (
            pantheon is not None and any(t is not None for t in pantheon.tops)
        )
        """Pantheon: divinities face down on the Pantheon (Age I), or a deck's top known to
        the table (put back by a draw or the Gate: known to one player, or to both)."""
        self.keep: frozenset[str] = frozenset()
        if pantheon is not None and pending is not None and pantheon.to_place:
            self.keep = frozenset(pantheon.to_place[:1])  # the deck being drawn from
        if pending is not None and pending.kind is PendingKind.THEATER:
            # the Divine Theater's builder looks through the decks and its answers name their
            # cards: every world keeps them (and so the face-down divinities) as they are
            self.keep = frozenset(MYTHOLOGIES)
        structure = state.structure
        hidden = hidden_positions(state)
        if structure is None or not hidden:
            return
        catalog = state.catalog
        others, guilds = unseen_cards(state, structure.age)
        guild_slots = [i for i in hidden if is_guild_slot(catalog, structure.cards[i] or "")]
        other_slots = [i for i in hidden if i not in guild_slots]
        self.draws = [(other_slots, others), (guild_slots, guilds)]

    def draw(self, rng: random.Random) -> GameState:
        """One world: the face-down cards drawn from the unseen ones (`state` itself when
        nothing is hidden)."""
        state = self.state
        if self.divinities:
            state = evolve(state, pantheon=draw_divinities(state, rng, self.keep))
        structure = state.structure
        if structure is None or not self.draws:
            return state
        cards = list(structure.dealt)
        for slots, pool in self.draws:
            for index, card in zip(slots, sample(rng, pool, len(slots)), strict=True):
                cards[index] = card
        drawn = Structure(structure.age, tuple(cards), structure.gone, structure.open,
                          structure.covering)  # fmt: skip
        return evolve(state, structure=drawn)


def sample(rng: random.Random, pool: Sequence[CardId], k: int) -> list[CardId]:
    """`k` different cards of `pool` in a random order, every order as likely (a partial
    Fisher-Yates shuffle on `rng.getrandbits`: compiled, it costs a fraction of
    `rng.sample`, which runs as Python code).

    Raises:
        ValueError: `k` is more than the cards in `pool`.
    """
    items = list(pool)
    size = len(items)
    if k > size:
        raise ValueError(f"cannot draw {k} of {size} cards")
    for i in range(k):
        span = size - i
        bits = span.bit_length()
        offset = rng.getrandbits(bits)
        while offset >= span:  # rejection: every offset below span as likely
            offset = rng.getrandbits(bits)
        j = i + offset
        items[i], items[j] = items[j], items[i]
    return items[:k]


def needs_deal(state: GameState) -> bool:
    """Whether the age has begun without a structure: the next event must be a deal."""
    return (
        state.phase is Phase.PLAYING
        and state.structure is None
        and state.pending is None
        and state.taken == 0
    )


def random_layout(state: GameState, rng: random.Random) -> tuple[CardId, ...]:
    """20 cards for the current age drawn from the unseen ones (3 guilds in age 3), in a
    random layout order."""
    catalog = state.catalog
    others, guilds = _unseen_at_deal(state)
    wanted_guilds = catalog.rules.guilds_in_age_3 if state.age == 3 else 0  # or Grand Temples
    cards = sample(rng, others, 20 - wanted_guilds) + sample(rng, guilds, wanted_guilds)
    return tuple(sample(rng, cards, len(cards)))


def _unseen_at_deal(state: GameState) -> tuple[tuple[CardId, ...], tuple[CardId, ...]]:
    """`unseen_cards(state, state.age)`; before a base game's age is dealt nobody has seen a
    card of it (cards are taken from the age's own structure), so the whole deck and, in age
    3, every guild: worked out once per catalog and age (playouts deal two ages each)."""
    if not needs_deal(state) or state.pantheon is not None:
        return unseen_cards(state, state.age)
    catalog = state.catalog
    key = (id(catalog), state.age)
    known = _FRESH.get(key)
    if known is None or known[0] is not catalog:
        known = (catalog, unseen_cards(state, state.age))
        _FRESH[key] = known
    return known[1]


_FRESH: Final[
    dict[tuple[int, int], tuple[Catalog, tuple[tuple[CardId, ...], tuple[CardId, ...]]]]
] = {}
"""`_unseen_at_deal`'s answers by id of the catalog (which each entry holds) and age."""


def deal_if_needed(state: GameState, rng: random.Random) -> GameState:
    """`state`, dealt at random when it waits for the deal of its age."""
    if needs_deal(state):
        layout = random_layout(state, rng)
        return apply(state, Deal(state.age, layout, random_tokens(state, rng, state.age)))
    return state
