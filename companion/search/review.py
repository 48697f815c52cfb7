"""The review of a game: the chance to win after every move, the moves that cost each player
most (with what the search preferred), and the turning point.

Each move is judged as the player could see it then: the search answers the state before the
move (public information only) and chooses the move it prefers. Both moves are then measured
as the chart measures every position (`chance`: the evaluation of the position, or 1 and 0
when the player who acts can force a win in their turn with cards known then): the chance
after the move
played is the number the chart shows after that event, which does not depend on how often
the search happened to try the move played.

An age played without its deal (table mode: the box knew the cards taken, not where they
lay) is reviewed on a layout drawn to fit the game: each card taken lies where it was free
when it was taken, placed in the order of play at a free place drawn at random, and the
places of cards never taken get cards nobody saw, drawn as the search draws them
(`determinize.sample`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine.cards import CardId
from companion.engine.events import (
    Build,
    BuildWonder,
    Deal,
    Discard,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Reveal,
    Setup,
)
from companion.engine.rules import apply
from companion.engine.state import GameState, Player

from .determinize import needs_deal, sample
from .forced import forced_win
from .player import Level, NoDecision, suggest
from .policy import acting_player, evaluate
from .view import known_cards, unseen_cards

__all__ = ["MoveReview", "Review", "chance", "fitting_layout", "review"]

COSTLIEST = 3


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move: its place in the game's events (0 is the setup), who played it, what the
    search preferred, the mover's chance after the move played (the chart's number after
    it) and after the preferred one (the same evaluation), and the cost (the chance lost, 0
    when the preferred move was played or measures no better)."""

    index: int
    player: Player
    event: Event
    best: Event
    chance: float
    best_chance: float

    @property
    def cost(self) -> float:
        """The chance to win the move gave away, against the search's best."""
        return max(0.0, self.best_chance - self.chance)


@dataclass(frozen=True, slots=True)
class Review:
    """p1's chance to win after each event (`chances[i]` after event i, by `chance`: the
    position as it stands, 1, 0.5 or 0 once the game is over), every move reviewed by the
    search, the costliest of each player, the index of the turning point (None for a
    shared victory or an unfinished game), and the ages reviewed on a layout drawn to fit
    the game (played without their deal)."""

    chances: tuple[float, ...]
    moves: tuple[MoveReview, ...]
    costliest: tuple[tuple[MoveReview, ...], tuple[MoveReview, ...]]
    turning_point: int | None
    fitted_ages: tuple[int, ...] = ()

    def costliest_of(self, player: Player) -> tuple[MoveReview, ...]:
        """The moves that cost `player` most, costliest first."""
        return self.costliest[0 if player is Player.P1 else 1]


def review(
    states: Sequence[GameState], events: Sequence[Event], level: Level, seed: int = 0
) -> Review:
    """Review a game: `states[i + 1]` is the state after `events[i]` (`states[0]` the new
    game), as `replay_record` gives them. A move the search cannot answer for (a card
    uncovered and not turned up yet, the only one that could be taken) is charted but not
    judged."""
    befores, fitted = _with_layouts(states, events, seed)
    afters = [*befores[1:], apply(befores[-1], events[-1])] if events else []
    chances = [chance(after) for after in afters]
    reviewed: list[MoveReview] = []
    for index, event in enumerate(events):
        if isinstance(event, Setup | Deal | Reveal):
            continue
        before = befores[index]
        drawn = event.drawn if isinstance(event, KeepLibraryToken) else None
        try:
            best = suggest(before, level, seed, drawn=drawn).moves[0].event
        except (NoDecision, IllegalEvent):
            continue
        mover = acting_player(before)
        ours = chances[index] if mover is Player.P1 else 1.0 - chances[index]
        if best == event:
            best_chance = ours
        else:
            after_best = chance(apply(before, best))
            best_chance = after_best if mover is Player.P1 else 1.0 - after_best
        reviewed.append(MoveReview(index, mover, event, best, ours, best_chance))
    final = states[len(events)]
    by_cost = sorted(reviewed, key=lambda m: (-m.cost, m.index))
    costliest = (
        tuple(m for m in by_cost if m.player is Player.P1 and m.cost > 0)[:COSTLIEST],
        tuple(m for m in by_cost if m.player is Player.P2 and m.cost > 0)[:COSTLIEST],
    )
    turning = _turning_point(final, chances)
    return Review(tuple(chances), tuple(reviewed), costliest, turning, fitted)


def chance(state: GameState) -> float:
    """p1's chance to win in `state`, as the review measures every position: the result
    once the game is over; 1 or 0 when the player who acts can force a win within their
    own turn chain with what is known (`forced.forced_win`: cards face up now), as a player
    who sees it would; else the evaluation of the position (`policy.evaluate`)."""
    if forced_win(state, known_cards(state)) is not None:  # None once over, or not dealt
        return 1.0 if acting_player(state) is Player.P1 else 0.0
    return evaluate(state, Player.P1)


def _with_layouts(
    states: Sequence[GameState], events: Sequence[Event], seed: int
) -> tuple[list[GameState], tuple[int, ...]]:
    """The state before each event, each age with a structure: an age begun without a
    deal gets one drawn by `fitting_layout` (the game's states themselves when every age
    was dealt); and the ages so fitted."""
    if not any(
        needs_deal(s) and not isinstance(e, Deal) for s, e in zip(states, events, strict=False)
    ):
        return list(states[: len(events)]), ()
    rng = random.Random(seed)
    befores: list[GameState] = []
    fitted: list[int] = []
    state = states[0]
    for index, event in enumerate(events):
        if needs_deal(state) and not isinstance(event, Deal):
            layout = fitting_layout(state, events[index:], rng)
            state = apply(state, Deal(state.age, layout))
            fitted.append(state.age)
        befores.append(state)
        state = apply(state, event)
    return befores, tuple(fitted)


def fitting_layout(
    state: GameState, coming: Sequence[Event], rng: random.Random
) -> tuple[CardId, ...]:
    """A deal for the age `state` begins, fit for the cards taken in `coming` (the events
    from the age's first card on): in the order they are taken, each card goes to a place
    drawn at random among those free at that moment (no card left on it); the places left
    get cards of the age nobody has seen, drawn as the search draws them (age 3: 3 guilds
    in all)."""
    catalog = state.catalog
    layout = catalog.layout(state.age)
    taken: list[CardId] = []
    for event in coming:
        if len(taken) == len(layout.positions):
            break
        if isinstance(event, Build | Discard | BuildWonder):
            taken.append(event.card)
    cards: list[CardId | None] = [None] * len(layout.positions)
    for card in taken:
        free = [
            p.index
            for p in layout.positions
            if cards[p.index] is None and all(cards[c] is not None for c in p.covered_by)
        ]
        cards[rng.choice(free)] = card
    others, guilds = unseen_cards(state, state.age)
    others = tuple(c for c in others if c not in taken)
    guilds = tuple(c for c in guilds if c not in taken)
    wanted_guilds = 0
    if state.age == 3:
        wanted_guilds = catalog.rules.guilds_in_age_3 - sum(catalog.card(c).is_guild for c in taken)
    empty = [i for i, c in enumerate(cards) if c is None]
    drawn = sample(rng, guilds, wanted_guilds) + sample(rng, others, len(empty) - wanted_guilds)
    for index, card in zip(empty, sample(rng, drawn, len(drawn)), strict=True):
        cards[index] = card
    return tuple(c for c in cards if c is not None)


def _turning_point(final: GameState, chances: list[float]) -> int | None:
    """The event after which the winner's chance went above one half for the last time
    (the winner's biggest gain when it never was at or below one half)."""
    if not final.finished or final.shared or final.winner is None:
        return None
    ours = [c if final.winner is Player.P1 else 1.0 - c for c in chances]
    for index in range(len(ours) - 1, 0, -1):
        if ours[index] > 0.5 >= ours[index - 1]:
            return index
    gains = [ours[i] - ours[i - 1] for i in range(1, len(ours))]
    return 1 + gains.index(max(gains)) if gains else None
