"""Full games between two players, seats swapped on paired deals, and the tally with a 95 %
interval.

Players: a search level (`easy`, `normal`, `hard`), `greedy` (the best evaluation one move
ahead) or `random` (a uniform random legal answer). Randomness lives here as in
`simulate.py`: each pair of games draws one setup and the three deals from `seed + pair`
before play, and the Great Library draws from its own generator of the same seed, so both
games of a pair see the same cards with the players in swapped seats.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.engine.cards import Catalog, TokenId
from companion.engine.events import Event
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, PendingKind, Player
from companion.play.playout import random_deal, random_setup
from companion.play.simulate import MAX_EVENTS
from companion.search.determinize import needs_deal
from companion.search.player import (
    LEVEL_CHOICES,
    greedy_event,
    level_named,
    root_events,
    suggest,
)
from companion.search.policy import acting_player, library_draw

PLAYERS: tuple[str, ...] = (*LEVEL_CHOICES, "greedy", "random")

Chooser = Callable[[GameState, Sequence[TokenId] | None], Event]


def make_player(name: str, seed: int) -> Chooser:
    """The player called `name` (one of `PLAYERS`), drawing from `seed`.

    Raises:
        KeyError: an unknown name.
    """
    if name in LEVEL_CHOICES:
        level = level_named(name)
        return lambda state, drawn: suggest(state, level, seed, drawn=drawn).moves[0].event
    rng = random.Random(seed)
    if name == "greedy":
        return lambda state, drawn: greedy_event(state, rng, drawn)
    if name == "random":
        return lambda state, drawn: rng.choice(root_events(state, drawn))
    raise KeyError(name)


def play_game(
    catalog: Catalog, players: tuple[Chooser, Chooser], seed: int
) -> tuple[GameState, list[Event]]:
    """One game from `seed` between `players` (p1, p2); the final state and the events."""
    rng = random.Random(seed)
    setup = random_setup(catalog, rng)
    deals = {age: random_deal(catalog, rng, age) for age in (1, 2, 3)}
    library = random.Random(seed + 1_000_003)
    state = apply(new_game(catalog), setup)
    events: list[Event] = [setup]
    while not state.finished:
        if needs_deal(state):
            event: Event = deals[state.age]
        else:
            drawn = None
            if state.pending is not None and state.pending.kind is PendingKind.GREAT_LIBRARY:
                drawn = library_draw(state, library)
            actor = acting_player(state)
            event = players[0 if actor is Player.P1 else 1](state, drawn)
        state = apply(state, event)
        events.append(event)
        if len(events) > MAX_EVENTS:
            raise RuntimeError(f"no end after {MAX_EVENTS} events")
    return state, events


@dataclass(frozen=True, slots=True)
class Tally:
    """Results for player A: wins, losses, shared victories, and the 95 % Wilson interval
    of A's score rate (a shared victory counts half)."""

    games: int
    wins: int
    losses: int
    shared: int
    victories: dict[str, int]

    @property
    def score(self) -> float:
        """A's score rate: (wins + shared / 2) / games."""
        return (self.wins + self.shared / 2) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of `score`."""
        return wilson(self.score, self.games)


def wilson(rate: float, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a rate observed over `games` (z = 1.96: 95 %)."""
    if games == 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def arena(
    catalog: Catalog,
    a: str,
    b: str,
    games: int,
    seed: int,
    on_game: Callable[[int, GameState], None] | None = None,
) -> Tally:
    """Play `games` games of `a` against `b`: game 2k has A as p1 on the deals of `seed + k`,
    game 2k + 1 the same deals with A as p2."""
    wins = losses = shared = 0
    victories: dict[str, int] = {"military": 0, "science": 0, "civilian": 0}
    for number in range(games):
        pair_seed = seed + number // 2
        a_seat = Player.P1 if number % 2 == 0 else Player.P2
        one = make_player(a, pair_seed * 2 + 1)
        two = make_player(b, pair_seed * 2 + 2)
        players = (one, two) if a_seat is Player.P1 else (two, one)
        final, _ = play_game(catalog, players, pair_seed)
        if final.victory is not None:
            victories[final.victory.value] += 1
        if final.shared:
            shared += 1
        elif final.winner is a_seat:
            wins += 1
        else:
            losses += 1
        if on_game is not None:
            on_game(number, final)
    return Tally(games, wins, losses, shared, victories)
