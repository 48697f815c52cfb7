"""Full games between two players, seats swapped on paired deals, and the tally with a 95 %
interval.

Players: a search level (1 to 5, or easy, normal, hard), `greedy` (the best evaluation one
move ahead), `random` (a uniform random legal answer), or an `Outside` program that speaks
the engine protocol (docs/engine-protocol.md): it is shown the public record only, and a
refused answer loses it the game (a forfeit). Randomness lives here as in `simulate.py`:
each pair of games draws one setup and the three deals from `seed + pair` before play, and
the Great Library draws from its own generator of the same seed, so both games of a pair see
the same cards with the players in swapped seats. A Pantheon catalog deals Pantheon games
(`random_setup` and `random_deal` lay its tokens); its draws (a Mythology deck's cards,
Enki's tokens, the Gate's cards) come from the Great Library's generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.cards import Catalog, TokenId
from companion.engine.events import Event
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, PendingKind, Player
from companion.play.playout import random_deal, random_setup
from companion.play.referee import Refused, accepted_event, request
from companion.play.simulate import MAX_EVENTS
from companion.search.determinize import needs_deal
from companion.search.pantheon import CHANCE_DECISIONS, chance_draw, pantheon_decisions
from companion.search.player import (
    LEVEL_CHOICES,
    Keeper,
    greedy_event,
    level_named,
    root_events,
    suggest,
)
from companion.search.policy import acting_player, library_draw

PLAYERS: tuple[str, ...] = (*LEVEL_CHOICES, "greedy", "random")

Chooser = Callable[[GameState, Sequence[TokenId] | None], Event]


@dataclass(frozen=True, slots=True)
class Outside:
    """A program that speaks the engine protocol: `ask` sends it one request and returns its
    answer (the parsed line), or raises `Refused` (no answer in time, not JSON, it ended);
    `seconds` is the time to think sent with each request."""

    name: str
    ask: Callable[[dict[str, Any]], object]
    seconds: float | None = None

    def choose(
        self, state: GameState, drawn: Sequence[TokenId] | None, events: Sequence[Event]
    ) -> Event:
        """Its answer after `events` (which led to `state`), checked by the referee.

        Raises:
            Refused: no answer, or one the referee does not accept.
        """
        player = acting_player(state)
        asked = request(events, state, player, seconds=self.seconds, drawn=drawn)
        return accepted_event(self.ask(asked), state, player, drawn)


Seat = Chooser | Outside


class Forfeit(Exception):
    """A player lost the game by a refused answer: who, and why (one line)."""

    def __init__(self, player: Player, reason: str, state: GameState) -> None:
        super().__init__(f"{player.value}: {reason}")
        self.player = player
        self.reason = reason
        self.state = state


def make_player(name: str, seed: int) -> Chooser:
    """The player called `name` (one of `PLAYERS`), drawing from `seed`, for one game (a
    level that keeps its tree between its answers, `Level.keep`, keeps it through the game).

    Raises:
        KeyError: an unknown name.
    """
    if name in LEVEL_CHOICES:
        level = level_named(name)
        if level.keep:  # one game's answers, each search going on from the last
            keeper = Keeper(level, seed)
            return lambda state, drawn: keeper.answer(state, drawn).moves[0].event
        return lambda state, drawn: suggest(state, level, seed, drawn=drawn).moves[0].event
    rng = random.Random(seed)
    if name == "greedy":
        return lambda state, drawn: greedy_event(state, rng, drawn)
    if name == "random":
        return lambda state, drawn: rng.choice(root_events(state, drawn))
    raise KeyError(name)


def play_game(
    catalog: Catalog, players: tuple[Seat, Seat], seed: int
) -> tuple[GameState, list[Event]]:
    """One game from `seed` between `players` (p1, p2); the final state and the events.

    Raises:
        Forfeit: an outside player's answer was refused (the game is lost for it).
    """
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
            pending = state.pending
            if pending is not None and pending.kind is PendingKind.GREAT_LIBRARY:
                drawn = library_draw(state, library)
            elif pending is not None and pending.kind in CHANCE_DECISIONS:  # Pantheon's draws
                draw = chance_draw(pantheon_decisions(state, pending, library)[0]) or ()
                drawn = tuple(TokenId(d) for d in draw)
            actor = acting_player(state)
            seat = players[0 if actor is Player.P1 else 1]
            if isinstance(seat, Outside):
                try:
                    event = seat.choose(state, drawn, events)
                except Refused as refused:
                    raise Forfeit(actor, str(refused), state) from None
            else:
                event = seat(state, drawn)
        state = apply(state, event)
        events.append(event)
        if len(events) > MAX_EVENTS:
            raise RuntimeError(f"no end after {MAX_EVENTS} events")
    return state, events


@dataclass(frozen=True, slots=True)
class Forfeited:
    """A game lost by a refused answer: its number, the side ("a" or "b"), the reason."""

    game: int
    side: str
    reason: str


@dataclass(frozen=True, slots=True)
class Tally:
    """Results for player A: wins, losses, shared victories, and the 95 % Wilson interval
    of A's score rate (a shared victory counts half); `victories` by kind (a forfeit is a
    victory of the other side), and each forfeit."""

    games: int
    wins: int
    losses: int
    shared: int
    victories: dict[str, int]
    forfeits: tuple[Forfeited, ...] = field(default=())

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
    a: str | Outside,
    b: str | Outside,
    games: int,
    seed: int,
    on_game: Callable[[int, GameState], None] | None = None,
) -> Tally:
    """Play `games` games of `a` against `b` (a name of `PLAYERS` or an outside program):
    game 2k has A as p1 on the deals of `seed + k`, game 2k + 1 the same deals with A as p2.
    A game with a refused answer is lost by the side that gave it."""
    wins = losses = shared = 0
    victories: dict[str, int] = {"military": 0, "science": 0, "civilian": 0, "forfeit": 0}
    forfeits: list[Forfeited] = []
    for number in range(games):
        pair_seed = seed + number // 2
        a_seat = Player.P1 if number % 2 == 0 else Player.P2
        one = _seat(a, pair_seed * 2 + 1)
        two = _seat(b, pair_seed * 2 + 2)
        players = (one, two) if a_seat is Player.P1 else (two, one)
        try:
            final, _ = play_game(catalog, players, pair_seed)
        except Forfeit as lost:
            final = lost.state
            victories["forfeit"] += 1
            side = "a" if lost.player is a_seat else "b"
            forfeits.append(Forfeited(number, side, lost.reason))
            if side == "a":
                losses += 1
            else:
                wins += 1
        else:
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
    return Tally(games, wins, losses, shared, victories, tuple(forfeits))


def _seat(player: str | Outside, seed: int) -> Seat:
    return player if isinstance(player, Outside) else make_player(player, seed)
