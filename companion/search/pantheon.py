"""The Pantheon expansion in the search: activations as moves, the answers to its decisions,
what they are worth at a glance, and what of the Pantheon is hidden.

Hidden: in Age I the divinities lie face down on the Pantheon, so the divinity a player
placed is known by its mythology only (the card's back); a world draws it among the
mythology's divinities not yet seen (`hidden_spaces`, `draw_divinities`), as it draws the
face-down cards of the structure. The order of the decks is hidden too. The searcher uses
public information only, so it does not count on its own placed divinity either.

Chance: a Mythology token's draw (the top 2 cards of its deck), Enki's 2 tokens and the cards
the Gate turns up are drawn, not chosen. At the root they are given (`drawn`, as the Great
Library's 3 tokens); inside a world they are drawn from the world's generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.engine.cards import MYTHOLOGIES, DivinityId, Science
from companion.engine.decisions import available_library_tokens
from companion.engine.divinities import activations, pantheon_events
from companion.engine.events import (
    Activate,
    Event,
    GateActivation,
    HadesBuild,
    IllegalEvent,
    IsisWonder,
    KeepLibraryToken,
    PlaceDivinity,
    PlaceSnake,
    StealCard,
    TakeEnkiToken,
    TheaterActivation,
)
from companion.engine.pantheon_rules import activation_price, rules_of
from companion.engine.state import GameState, PantheonState, Pending, PendingKind, evolve

__all__ = [
    "CHANCE_DECISIONS",
    "answers_drawn",
    "chance_draw",
    "divinity_worth",
    "draw_divinities",
    "hidden_spaces",
    "pantheon_decisions",
    "pantheon_moves",
    "pantheon_score",
    "random_tokens",
]

CHANCE_DECISIONS = frozenset({PendingKind.DIVINITY, PendingKind.ENKI, PendingKind.GATE})
"""The Pantheon's decisions whose answer names a draw (chance) besides the choice."""

DIVINITY_WORTH: dict[str, float] = {
    "enki": 3.0, "ishtar": 3.0, "nisaba": 2.5, "astarte": 4.0, "baal": 2.5, "tanit": 3.5,
    "aphrodite": 7.0, "hades": 3.0, "zeus": 1.5, "anubis": 2.0, "isis": 3.0, "ra": 2.0,
    "mars": 2.5, "minerva": 1.5, "neptune": 2.0, "gate": 3.0,
}  # fmt: skip
"""What activating each card of the Pantheon is worth at a glance (VP-like units, before
its price): points and coins at face value, shields and symbols as a card's."""


def pantheon_moves(state: GameState) -> list[Event]:
    """The activations the current player can pay for now (none before Age II or in a base
    game)."""
    if state.pantheon is None or state.pending is not None:
        return []
    return activations(state)


def chance_draw(event: Event) -> tuple[str, ...] | None:
    """The drawn part of an answer (a Great Library's or Enki's tokens, a Mythology token's
    cards, the cards the Gate turns up), None for an answer without a draw."""
    if isinstance(event, KeepLibraryToken | TakeEnkiToken | PlaceDivinity):
        return tuple(event.drawn)
    if isinstance(event, GateActivation):
        return tuple(event.revealed)
    return None


def answers_drawn(state: GameState, pending: Pending, drawn: Sequence[str] | None) -> list[Event]:
    """The answers to a Pantheon decision; for a draw, those of the draw `drawn` (in any
    order; not needed when the deck leaves a single draw).

    Raises:
        ValueError: the decision has several possible draws and `drawn` is not given.
        IllegalEvent: `drawn` is not a draw the decision can have.
    """
    events = pantheon_events(state, pending)
    if pending.kind not in CHANCE_DECISIONS:
        return events
    draws = {frozenset(chance_draw(e) or ()) for e in events}
    if drawn:
        wanted = frozenset(drawn)
        found = [e for e in events if frozenset(chance_draw(e) or ()) == wanted]
        if not found:
            raise IllegalEvent(f"{pending.kind.value}: {', '.join(drawn)} is not a possible draw")
        return found
    if len(draws) > 1:
        raise ValueError(f"The {pending.kind.value} draw is needed: the cards or tokens drawn")
    return events


def pantheon_decisions(state: GameState, pending: Pending, rng: random.Random) -> list[Event]:
    """The answers to a Pantheon decision inside a world: a draw (of a Mythology deck, of
    Enki's tokens, of the Gate's cards) is drawn from `rng` first, then every choice on it."""
    pantheon = state.pantheon
    assert pantheon is not None
    player = pending.player
    if pending.kind is PendingKind.ENKI:
        available = sorted(available_library_tokens(state))
        drawn = tuple(rng.sample(available, min(2, len(available))))
        return [TakeEnkiToken(player, drawn, t) for t in drawn]
    if pending.kind is PendingKind.GATE:
        revealed = tuple(
            top if top is not None else cards[int(rng.random() * len(cards))]
            for top, cards in zip(pantheon.tops, pantheon.decks, strict=True)
            if cards
        )
        return [GateActivation(player, revealed, d) for d in revealed]
    events = pantheon_events(state, pending)
    if pending.kind is PendingKind.DIVINITY and events:
        draws = sorted({tuple(e.drawn) for e in events if isinstance(e, PlaceDivinity)})
        chosen = draws[int(rng.random() * len(draws))]
        return [e for e in events if isinstance(e, PlaceDivinity) and tuple(e.drawn) == chosen]
    return events


def divinity_worth(state: GameState, divinity: str) -> float:
    """What activating `divinity` (or the Gate) is worth at a glance to the current player."""
    player = state.current
    city = state.city(player)
    rules = rules_of(state.catalog)
    if divinity == rules.gate or divinity not in DIVINITY_WORTH:
        return DIVINITY_WORTH.get(divinity, 2.0)
    card = rules.divinity(divinity)
    value = DIVINITY_WORTH[divinity]
    if card.science is not None and card.science not in city.symbols:
        value += 0.6 * len(city.symbols)
    if card.shields:
        sign = 1 if player.value == "p1" else -1
        needed = state.catalog.track.capital - sign * state.position
        value += 0.5 * max(0, 9 - needed)  # more pressing the further the pawn stands
    return value


def pantheon_score(state: GameState, event: Event) -> float | None:
    """A Pantheon move's or answer's worth at a glance (VP-like units), None for another
    event. An activation that wins at once (Mars's shields, Ishtar's symbol) scores 100."""
    pantheon = state.pantheon
    if pantheon is None:
        return None
    match event:
        case Activate():
            card = pantheon.spaces[event.space - 1] or ""
            price = activation_price(state, event.player, event.space, event.offerings)
            rules = rules_of(state.catalog)
            if card != rules.gate and _wins_at_once(state, card):
                return 100.0
            offered = 0.3 * sum(event.offerings)
            return divinity_worth(state, card) - 0.3 * price - offered
        case TheaterActivation() | GateActivation():
            return divinity_worth(state, event.divinity)
        case PlaceDivinity():
            return divinity_worth(state, event.divinity) * 0.2
        case StealCard() | HadesBuild() | IsisWonder() | PlaceSnake():
            return 1.0
    return None


def _wins_at_once(state: GameState, divinity: str) -> bool:
    """Whether activating `divinity` gives the current player a supremacy by itself."""
    card = rules_of(state.catalog).divinity(divinity)
    player = state.current
    city = state.city(player)
    if card.shields:
        sign = 1 if player.value == "p1" else -1
        if card.shields >= state.catalog.track.capital - sign * state.position:
            return True
    supremacy = state.catalog.rules.science_supremacy
    symbol: Science | None = card.science
    return symbol is not None and symbol not in city.symbols and len(city.symbols) + 1 >= supremacy


def hidden_spaces(state: GameState) -> tuple[int, ...]:
    """The spaces of the Pantheon whose divinity is face down (Age I), as indexes 0 to 5."""
    pantheon = state.pantheon
    if pantheon is None or state.age >= rules_of(state.catalog).first_age:
        return ()
    return tuple(i for i, card in enumerate(pantheon.spaces) if card is not None)


def draw_divinities(state: GameState, rng: random.Random, keep: frozenset[str]) -> PantheonState:
    """The Pantheon of `state` with each face-down divinity drawn among its mythology's
    divinities not seen (those on face-down spaces and in the deck), the decks holding the
    rest in catalog order, their tops unknown. The mythologies in `keep` stay as they are
    (a draw of theirs is being answered: its cards are known to lie in the deck)."""
    pantheon = state.pantheon
    assert pantheon is not None
    rules = rules_of(state.catalog)
    order = {d.id: i for i, d in enumerate(rules.divinities)}
    spaces = list(pantheon.spaces)
    decks = list(pantheon.decks)
    tops = list(pantheon.tops)
    for index, mythology in enumerate(MYTHOLOGIES):
        if mythology in keep:
            continue
        slots = [i for i in hidden_spaces(state) if _mythology(state, spaces[i]) == mythology]
        pool: list[DivinityId] = [DivinityId(spaces[i] or "") for i in slots] + list(decks[index])
        rng.shuffle(pool)
        for slot, divinity in zip(slots, pool, strict=False):
            spaces[slot] = divinity
        decks[index] = tuple(sorted(pool[len(slots) :], key=order.__getitem__))
        tops[index] = None
    return evolve(pantheon, spaces=tuple(spaces), decks=tuple(decks), tops=tuple(tops))


def _mythology(state: GameState, card: str | None) -> str | None:
    rules = rules_of(state.catalog)
    if card is None or card == rules.gate:
        return None
    return rules.divinity(card).mythology


def random_tokens(state: GameState, rng: random.Random, age: int) -> tuple[str, ...]:
    """The tokens of a random Pantheon deal of `age`: 5 of the 10 Mythology tokens in
    Age I, the Offering tokens shuffled in Age II, none after (a base game: none)."""
    catalog = state.catalog
    if state.pantheon is None or catalog.pantheon is None:
        return ()
    rules = catalog.pantheon
    if age == 1:
        box = [m for m in MYTHOLOGIES for _ in range(rules.mythology_tokens_per_mythology)]
        return tuple(rng.sample(box, rules.mythology_tokens_in_play))
    if age == 2:
        values = [str(v) for v in rules.offering_tokens]
        rng.shuffle(values)
        return tuple(values)
    return ()
