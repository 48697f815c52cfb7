"""Forced lines: a win the player who acts can reach within their own turn chain.

A turn chain is the events one player makes before the other acts: a move, the decisions it
asks for (a pair's progress token, the Mausoleum's card, a card to destroy) and, after a
wonder that gives another turn (the Sphinx, the Temple of Artemis, the Hanging Gardens,
Piraeus, the Appian Way, every wonder once Theology is owned), the next move. The solver
tries every such chain exhaustively (within a budget of events) and returns the first one
that ends the game with the player's win: military or scientific supremacy (Law counts as a
symbol), or the last card of age 3 when the count is theirs.

Hidden information: only cards whose identity the player knows before the chain may be
taken (`known`: the cards face up now); a card that a move of the chain uncovers is turned
up only after that move, so a line may not count on it. A Great Library draw is chance, so
a chain stops there.

Pantheon: activating a divinity is a move of the chain (Mars's shields, Ishtar's symbol,
Nisaba's Snake on a green card, Hades's card from the discard pile, a wonder built by Isis,
and the other decisions their activation asks for). A draw (a Mythology deck's cards, Enki's
tokens, the Gate's cards) is chance, so a chain stops there too.
"""

from __future__ import annotations

from collections.abc import Hashable

from companion.engine.actions import THEOLOGY
from companion.engine.cards import CardId, Science, TokenId
from companion.engine.decisions import decision_events
from companion.engine.divinities import pantheon_events
from companion.engine.effects import STRATEGY
from companion.engine.events import (
    Build,
    BuildWonder,
    Discard,
    Event,
    IllegalEvent,
)
from companion.engine.rules import apply, cards_left
from companion.engine.state import PANTHEON_DECISIONS, GameState, PendingKind, Player
from companion.engine.structure import UNKNOWN

from .policy import acting_player, moves, shields_needed

__all__ = ["BUDGET", "forced_win", "is_exposed"]

BUDGET = 3000
"""Events a search for one forced line may apply: enough for a chain through every
play-again wonder of a city (a few hundred events), a bound on the time in any position."""

SYMBOLS_TO_WIN = 6
CHAIN_DECISIONS = frozenset(
    {PendingKind.PROGRESS, PendingKind.MAUSOLEUM, PendingKind.DESTROY}
    | (PANTHEON_DECISIONS - {PendingKind.DIVINITY, PendingKind.ENKI, PendingKind.GATE})
)
"""The decisions inside a turn chain (a Great Library draw is chance; the next age's starter
ends the chain); the Pantheon's, except its draws (chance). The Divine Theater looks at a
deck whose order is hidden: in a world it is drawn, which a line may not count on, but its
cards are the mythology's unseen ones either way."""
LAW = TokenId("law")


def forced_win(
    state: GameState, known: frozenset[CardId] | None = None, budget: int = BUDGET
) -> tuple[Event, ...] | None:
    """The events of a turn chain that wins for the player who acts after `state`, or None
    when there is none (or none found within `budget` events). With `known`, only cards in
    `known` may be taken from the structure."""
    if state.finished or state.structure is None:
        return None
    player = acting_player(state)
    if not _could_win(state, player, known):
        return None
    solver = _Solver(player, known, budget)
    try:
        return solver.line(state)
    except _OutOfBudget:
        return None


def is_exposed(
    state: GameState,
    player: Player,
    known: frozenset[CardId] | None = None,
    depth: int = 2,
    budget: int = BUDGET,
) -> bool:
    """Whether after `state` the opponent of `player` has a forced win whatever `player`
    still does in their own turn chain (looked at `depth` play-again turns deep)."""
    if state.finished or state.structure is None:
        return False
    actor = acting_player(state)
    if actor is not player:
        return forced_win(state, known, budget) is not None
    if depth == 0:
        return False
    events = _chain_events(state, known)
    if events is None or not events:
        return False
    for event in events:
        try:
            after = apply(state, event)
        except IllegalEvent:
            continue
        if after.age != state.age or not is_exposed(after, player, known, depth - 1, budget):
            return False
    return True


class _OutOfBudget(Exception):
    """The solver applied its budget of events without an answer."""


class _Solver:
    """One search for a forced line of `player`."""

    def __init__(self, player: Player, known: frozenset[CardId] | None, budget: int) -> None:
        self.player = player
        self.known = known
        self.budget = budget
        self.failed: set[Hashable] = set()

    def line(self, state: GameState) -> tuple[Event, ...] | None:
        """A winning chain from `state` (where `player` acts): the wins in one event first,
        then the events after which `player` acts again, searched in turn."""
        events = _chain_events(state, self.known)
        if not events:
            return None
        going_on: list[tuple[Event, GameState]] = []
        for event in events:
            if not self._worth_trying(state, event):
                continue
            self.budget -= 1
            if self.budget < 0:
                raise _OutOfBudget
            try:
                after = apply(state, event)
            except IllegalEvent:
                continue
            if after.finished:
                if after.winner is self.player:
                    return (event,)
                continue
            if self._goes_on(state, after):
                going_on.append((event, after))
        for event, after in going_on:
            key = _key(after)
            if key in self.failed:
                continue
            rest = self.line(after) if _could_win(after, self.player, self.known) else None
            if rest is not None:
                return (event, *rest)
            self.failed.add(key)
        return None

    def _worth_trying(self, state: GameState, event: Event) -> bool:
        """A cheap filter: a card without shields or science ends the turn without winning,
        so does a discard, and a wonder without shields, another turn or the Mausoleum
        (except when the move may end the game: the last card of age 3)."""
        if state.pending is not None:
            return True
        if state.age == 3 and cards_left(state) == 1:
            return True
        catalog = state.catalog
        if isinstance(event, Build):
            card = catalog.card(event.card)
            return bool(card.shields) or card.science is not None
        if isinstance(event, BuildWonder):
            wonder = catalog.wonder(event.wonder)
            again = wonder.extra_turn or THEOLOGY in state.city(self.player).tokens
            return again or bool(wonder.shields) or wonder.builds_from_discard
        return not isinstance(event, Discard)

    def _goes_on(self, before: GameState, after: GameState) -> bool:
        """Whether `player` acts again in the same age (another turn, or a decision of the
        chain)."""
        if acting_player(after) is not self.player or after.age != before.age:
            return False
        pending = after.pending
        return pending is None or pending.kind in CHAIN_DECISIONS


def _chain_events(state: GameState, known: frozenset[CardId] | None) -> list[Event] | None:
    """The events the player who acts may choose in a chain: the answers to a decision of
    the chain, or the moves with known cards; None at a Great Library draw or the choice of
    who begins the next age (chance, or the end of the chain)."""
    pending = state.pending
    if pending is not None:
        if pending.kind not in CHAIN_DECISIONS:
            return None
        if pending.kind in PANTHEON_DECISIONS:
            return pantheon_events(state, pending)
        return decision_events(state, pending)
    found = moves(state)
    if known is None:
        return found
    return [e for e in found if (card := getattr(e, "card", None)) is None or card in known]


def _could_win(state: GameState, player: Player, known: frozenset[CardId] | None) -> bool:
    """An upper bound: whether every shield, symbol or last card still within reach could
    make a win at all (the cards left in the structure that `player` knows, the discard
    pile for an unbuilt Mausoleum, the tokens on the board)."""
    structure = state.structure
    if structure is None:
        return False
    catalog = state.catalog
    city = state.city(player)
    cards = [
        catalog.card(c)
        for c in structure.cards
        if c is not None and c not in UNKNOWN and (known is None or c in known)
    ]
    unbuilt = [catalog.wonder(w) for w in city.wonders_unbuilt]
    if any(w.builds_from_discard for w in unbuilt):
        cards += [catalog.card(c) for c in state.discard]
    if state.age == 3 and cards_left(state) <= 1 + len(unbuilt):
        return True  # the chain may take the last card of the game
    red = [c for c in cards if c.shields]
    shields = sum(c.shields for c in red) + sum(w.shields for w in unbuilt)
    if STRATEGY in city.tokens or STRATEGY in state.board_tokens:
        shields += len(red)
    shields += _divinity_shields(state)
    if shields >= shields_needed(state, player):
        return True
    symbols: set[Science] = set(city.symbols)
    symbols.update(c.science for c in cards if c.science is not None)
    law = LAW in state.board_tokens and Science.LAW not in symbols
    return len(symbols) + law + _divinity_symbols(state, player, symbols) >= SYMBOLS_TO_WIN


def _divinity_shields(state: GameState) -> int:
    """Pantheon: an upper bound on the shields the cards of the Pantheon can give in a
    chain (Mars's 2; a Gate may turn up Mars)."""
    pantheon = state.pantheon
    rules = state.catalog.pantheon
    if pantheon is None or rules is None or state.age < rules.first_age:
        return 0
    return sum(
        rules.divinity(d).shields
        for d in (*pantheon.spaces, *(t for deck in pantheon.decks for t in deck))
        if d is not None and d != rules.gate
    )


def _divinity_symbols(state: GameState, player: Player, symbols: set[Science]) -> int:
    """Pantheon: an upper bound on the new symbols the cards of the Pantheon can give
    `player` in a chain: a divinity's own symbol (Ishtar's Law), the opponent's green
    symbols (Nisaba's Snake), and the discard pile's (Hades, Isis)."""
    pantheon = state.pantheon
    rules = state.catalog.pantheon
    if pantheon is None or rules is None or state.age < rules.first_age:
        return 0
    catalog = state.catalog
    new: set[Science] = set()
    cards = (*pantheon.spaces, *(t for deck in pantheon.decks for t in deck))
    for divinity in (rules.divinity(d) for d in cards if d is not None and d != rules.gate):
        if divinity.science is not None:
            new.add(divinity.science)
        if divinity.copies_opponent_science:
            new.update(state.city(player.opponent).symbols)
        if divinity.builds_from_discard or divinity.builds_wonder_from_discard:
            new.update(s for c in state.discard if (s := catalog.card(c).science) is not None)
    return len(new - symbols)


def _key(state: GameState) -> Hashable:
    """What tells apart the positions a chain reaches: the cards taken, both cities' coins,
    cards, wonders and tokens, the pawn and the pending decision."""
    structure = state.structure
    one, two = state.cities
    pending = state.pending
    return (
        structure.gone if structure is not None else -1,
        state.position,
        pending.kind if pending is not None else None,
        len(state.discard),
        tuple((c.coins, len(c.cards), frozenset(c.wonders_built), c.tokens) for c in (one, two)),
        state.pantheon,
    )
