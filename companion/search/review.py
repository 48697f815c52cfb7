"""The review of a game: the chance to win after every move, the moves that cost each player
most (with what the search preferred), and the turning point.

Each move is judged as the player could see it then: the search answers the state before the
move (public information only) and the move played is compared with its best answer. The
chart follows the evaluation of the position after each event (`policy.evaluate`), which does
not depend on how often the search happened to try the move played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine.events import Deal, Event, KeepLibraryToken, Setup
from companion.engine.state import GameState, Player

from .player import Level, suggest
from .policy import acting_player, evaluate

__all__ = ["MoveReview", "Review", "review"]

COSTLIEST = 3


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move: its place in the game's events (0 is the setup), who played it, what the
    search preferred, the mover's chance after the move played and after the best one, and
    the cost (the chance lost, 0 when the best move was played)."""

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
    """p1's chance to win after each event (`chances[i]` after event i, by `evaluate`: the
    position as it stands, 1, 0.5 or 0 once the game is over), every move reviewed by the
    search, the costliest of each player, and the index of the turning point (None for a
    shared victory or an unfinished game)."""

    chances: tuple[float, ...]
    moves: tuple[MoveReview, ...]
    costliest: tuple[tuple[MoveReview, ...], tuple[MoveReview, ...]]
    turning_point: int | None

    def costliest_of(self, player: Player) -> tuple[MoveReview, ...]:
        """The moves that cost `player` most, costliest first."""
        return self.costliest[0 if player is Player.P1 else 1]


def review(
    states: Sequence[GameState], events: Sequence[Event], level: Level, seed: int = 0
) -> Review:
    """Review a game: `states[i + 1]` is the state after `events[i]` (`states[0]` the new
    game), as `replay_record` gives them."""
    chances = [evaluate(after, Player.P1) for after in states[1 : len(events) + 1]]
    reviewed: list[MoveReview] = []
    for index, event in enumerate(events):
        before = states[index]
        if isinstance(event, Setup | Deal):
            continue
        drawn = event.drawn if isinstance(event, KeepLibraryToken) else None
        answer = suggest(before, level, seed, drawn=drawn)
        mover = acting_player(before)
        played = next(m for m in answer.moves if m.event == event)
        best = answer.moves[0]
        reviewed.append(MoveReview(index, mover, event, best.event, played.win, best.win))
    final = states[len(events)]
    by_cost = sorted(reviewed, key=lambda m: (-m.cost, m.index))
    costliest = (
        tuple(m for m in by_cost if m.player is Player.P1 and m.cost > 0)[:COSTLIEST],
        tuple(m for m in by_cost if m.player is Player.P2 and m.cost > 0)[:COSTLIEST],
    )
    return Review(tuple(chances), tuple(reviewed), costliest, _turning_point(final, chances))


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
