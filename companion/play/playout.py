"""Random legal events, the simulator's hot path: compiled with the engine (mypyc) when built.

Randomness lives here and in `simulate`, never in the engine. Every draw is the one
`random.Random` would make (`Draws.choice`, `shuffle` and `sample` give the very same results
as the methods of that name, with fewer Python calls), so a seed gives the same game,
compiled or not, as it always has.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from companion.engine.cards import MYTHOLOGIES, Catalog, Pantheon
from companion.engine.divinities import activations as legal_activations
from companion.engine.events import (
    Build,
    BuildWonder,
    Deal,
    Discard,
    Event,
    GateActivation,
    KeepLibraryToken,
    Setup,
)
from companion.engine.pantheon_rules import PANTHEON
from companion.engine.pricing import cheapest_payment
from companion.engine.rules import (
    accessible_cards,
    apply,
    available_library_tokens,
    check_draft,
    draft_pickers,
    legal_events,
)
from companion.engine.state import GameState, PendingKind, Player, opponent_of

_T = TypeVar("_T")

WONDER_CHANCE: Final = 0.3
"""How often a random turn tries to build a wonder (then a building, else a discard)."""


class Draws:
    """The draws of a `random.Random`, each exactly as its method of that name makes it (the
    same stream of bits, so the same results), through bound methods taken once: compiled,
    a call of a bound method costs a fraction of a method looked up on every draw."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.bits: Callable[[int], int] = rng.getrandbits
        self.uniform: Callable[[], float] = rng.random

    def below(self, n: int) -> int:
        """A random int in [0, n), n > 0: `Random._randbelow` (rejection sampling on
        `getrandbits`)."""
        bits = self.bits
        k = BIT_LENGTHS[n] if n < len(BIT_LENGTHS) else n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def choice(self, items: Sequence[_T]) -> _T:
        """`rng.choice(items)`.

        Raises:
            IndexError: `items` is empty.
        """
        if not items:
            raise IndexError("Cannot choose from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: list[_T]) -> None:
        """`rng.shuffle(items)`."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[_T], k: int) -> list[_T]:
        """`rng.sample(items, k)`: for at most 5 of at most 21 items (all this module draws)
        its pool method, written out; otherwise `rng.sample` itself.

        Raises:
            ValueError: `k` is negative or larger than the number of items.
        """
        n = len(items)
        if k > SAMPLE_MOST or n > SAMPLE_POOL or not 0 <= k <= n:
            return self.rng.sample(items, k)
        pool = list(items)
        result: list[_T] = []
        for i in range(k):
            j = self.below(n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]  # the item not chosen takes the place
        return result


BIT_LENGTHS: Final = tuple(n.bit_length() for n in range(64))
"""`n.bit_length()` for the small `n` a game draws below (a method call on an int costs an
attribute lookup by name, compiled or not)."""

SAMPLE_MOST: Final = 5
SAMPLE_POOL: Final = 21
"""`random.Random.sample` draws from a copy of the items (its pool method) when it takes at
most 5 of at most 21 items (Python 3.11's rule for small samples)."""


def as_draws(rng: random.Random | Draws) -> Draws:
    """`rng` itself if it is a `Draws`, else the draws of the `random.Random`."""
    return rng if isinstance(rng, Draws) else Draws(rng)


def below(rng: random.Random, n: int) -> int:
    """`Draws(rng).below(n)`: a random int in [0, n), n > 0, as `Random._randbelow`."""
    return Draws(rng).below(n)


def choice(rng: random.Random, items: Sequence[_T]) -> _T:
    """`rng.choice(items)`, the same element for the same state of `rng`.

    Raises:
        IndexError: `items` is empty.
    """
    return Draws(rng).choice(items)


def shuffle(rng: random.Random, items: list[_T]) -> None:
    """`rng.shuffle(items)`: the same order for the same state of `rng`."""
    Draws(rng).shuffle(items)


def sample(rng: random.Random, items: Sequence[_T], k: int) -> list[_T]:
    """`rng.sample(items, k)`: the same sample for the same state of `rng`."""
    return Draws(rng).sample(items, k)


def random_setup(catalog: Catalog, rng: random.Random | Draws) -> Setup:
    """A setup drawn at random: 5 tokens on the board, a wonder draft, the first player."""
    draws = as_draws(rng)
    tokens = [t.id for t in catalog.progress_tokens]
    draws.shuffle(tokens)
    first = draws.choice((Player.P1, Player.P2))
    wonders = [w.id for w in catalog.wonders]
    draws.shuffle(wonders)
    per_round = len(catalog.rules.draft_order) // 2
    revealed = (wonders[:per_round], wonders[per_round : 2 * per_round])
    picks: list[tuple[Player, str]] = []
    picked: set[str] = set()
    for number, picker in enumerate(draft_pickers(catalog.rules, first)):
        left = [w for w in revealed[number // per_round] if w not in picked]
        pick = draws.choice(left)
        picks.append((picker, pick))
        picked.add(pick)
    allocated = check_draft(catalog, first, revealed, picks)
    return Setup(
        first_player=first,
        progress_tokens=tuple(tokens[: catalog.rules.tokens_on_board]),
        wonders=allocated,
        players=("Ann", "Ben"),
        expansions=() if catalog.pantheon is None else (PANTHEON,),
    )


def random_deal(catalog: Catalog, rng: random.Random | Draws, age: int) -> Deal:
    """An age's structure: the deck less 3 random cards (plus 3 random guilds in age 3),
    shuffled into layout order."""
    draws = as_draws(rng)
    deck = [c.id for c in catalog.age_deck(age)]
    draws.shuffle(deck)
    deck = deck[catalog.rules.removed_per_age :]
    pantheon = catalog.pantheon
    if age == 3:
        purple = catalog.guilds if pantheon is None else catalog.temples
        deck += draws.sample([c.id for c in purple], catalog.rules.guilds_in_age_3)
    draws.shuffle(deck)
    if pantheon is None:
        return Deal(age=age, layout=tuple(deck))
    return Deal(age=age, layout=tuple(deck), tokens=random_tokens(pantheon, draws, age))


def random_tokens(pantheon: Pantheon, draws: Draws, age: int) -> tuple[str, ...]:
    """Pantheon: the tokens on an age's marked cards, drawn at random (5 of the 10 Mythology
    tokens in Age I, the 3 Offering tokens in Age II)."""
    if age == 1:
        box = [m for m in MYTHOLOGIES for _ in range(pantheon.mythology_tokens_per_mythology)]
        return tuple(draws.sample(box, pantheon.mythology_tokens_in_play))
    if age == 2:
        values = [str(v) for v in pantheon.offering_tokens]
        draws.shuffle(values)
        return tuple(values)
    return ()


def random_turn(state: GameState, rng: random.Random | Draws) -> tuple[Event, GameState]:
    """A random legal event for the state (a structure must be dealt), and the state after it."""
    draws = as_draws(rng)
    pending = state.pending
    if pending is not None:
        if pending.kind is PendingKind.GREAT_LIBRARY:
            drawn = tuple(draws.sample(available_library_tokens(state), 3))
            event: Event = KeepLibraryToken(pending.player, drawn, draws.choice(drawn))
        elif pending.kind is PendingKind.GATE:
            event = random_gate(state, draws)
        else:
            event = draws.choice(legal_events(state))
        return event, apply(state, event)
    player = state.current
    if state.pantheon is not None and draws.uniform() < ACTIVATION_CHANCE:
        activations = legal_activations(state)
        if activations:
            event = draws.choice(activations)
            return event, apply(state, event)
    card = draws.choice(accessible_cards(state))
    city, opponent = state.city(player), state.city(opponent_of(player))
    catalog = state.catalog
    if city.wonders_unbuilt and draws.uniform() < WONDER_CHANCE:
        wonder = draws.choice(city.wonders_unbuilt)
        price = cheapest_payment(catalog, city, opponent, catalog.wonder(wonder)).total
        if price <= city.coins:
            event = BuildWonder(player, wonder, card)
            return event, apply(state, event)
    if cheapest_payment(catalog, city, opponent, catalog.card(card)).total <= city.coins:
        event = Build(player, card)
    else:
        event = Discard(player, card)
    return event, apply(state, event)


ACTIVATION_CHANCE: Final = 0.2
"""Pantheon: how often a random turn activates a divinity, when one can be paid for."""


def random_gate(state: GameState, draws: Draws) -> Event:
    """The Gate: the top card of each deck (the known one, else one drawn at random), and
    one of them activated."""
    pantheon = state.pantheon
    pending = state.pending
    assert pantheon is not None and pending is not None
    revealed = tuple(
        top if top is not None else draws.choice(cards)
        for top, cards in zip(pantheon.tops, pantheon.decks, strict=True)
        if cards
    )
    return GateActivation(pending.player, revealed, draws.choice(revealed))


def random_game(
    rng: random.Random,
    events: list[Event],
    states: list[GameState],
    *,
    after_event: Callable[[GameState, Event, GameState], None] | None = None,
    max_events: int = 400,
    history: bool = True,
) -> None:
    """Play a random game from `states[-1]` (a new game) until it ends or has more than
    `max_events` events, appending each event and the state after it (without `history`,
    the state after it replaces `states[-1]`: only the last state is kept, so each state is
    freed as soon as the next one is made, and the cyclic garbage collector, which runs as
    live objects pile up, has next to nothing to look at).

    A setup or deal is appended before it is applied, so that a refused one is in the
    record; `after_event(before, event, after)` runs after each (the simulator's checks).
    """
    state = states[-1]
    catalog = state.catalog
    draws = Draws(rng)
    scripted: Event | None = random_setup(catalog, draws)
    while True:
        if scripted is not None:  # a setup or a deal: in the record before it is applied
            event = scripted
            events.append(event)
            after = apply(state, event)
        else:
            event, after = random_turn(state, draws)
            events.append(event)
        if history:
            states.append(after)
        else:
            states[-1] = after
        if after_event is not None:
            after_event(state, event, after)
        state = after
        if state.finished or len(events) > max_events:
            return
        scripted = None
        if state.structure is None and state.pending is None:
            scripted = random_deal(catalog, draws, state.age)
