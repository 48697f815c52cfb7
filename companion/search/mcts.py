"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling et al. 2012).

One tree over the moves of both players, keyed by what a player sees of a move (a Great
Library answer by the token kept, since the draw is chance). Each iteration draws a
determinization of the root (`determinize`), descends the tree with UCB among the moves legal
in that world (counting how often each was available), adds one node, plays a short rollout
with the heuristic policy and scores the position with `policy.evaluate`. Every draw comes from
one `random.Random`, so a search with the same seed and budget gives the same answer.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from companion.engine.events import Event, KeepLibraryToken
from companion.engine.rules import apply
from companion.engine.state import GameState, Player

from .determinize import deal_if_needed, determinize
from .policy import acting_player, evaluate, move_score, policy_event, scored_options

__all__ = ["EXPLORATION", "ROLLOUT_PLIES", "Node", "Stats", "search"]

EXPLORATION = 0.7
"""UCB's exploration constant (rewards lie in 0..1)."""
ROLLOUT_PLIES = 12
"""Events a rollout plays before the position is scored (or until the game ends)."""
PRIOR_VISITS = 0
"""Visits a new node starts with, valued by `evaluate` right after its move (0: none)."""


@dataclass(slots=True, eq=False)
class Node:
    """A node of the tree: the move that led to it, who made it, and its statistics
    (`reward` summed from the mover's point of view)."""

    event: Event | None
    player: Player | None
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[Hashable, Node] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        """The average reward for the mover (0.5 before any visit)."""
        return self.reward / self.visits if self.visits else 0.5


@dataclass(frozen=True, slots=True)
class Stats:
    """What a search did: iterations, rollout events played, seconds spent."""

    iterations: int
    rollout_events: int
    seconds: float


def key_of(event: Event) -> Hashable:
    """What identifies a move across determinizations."""
    if isinstance(event, KeepLibraryToken):
        return ("great_library", event.token)
    return event


def step(state: GameState, event: Event, rng: random.Random) -> GameState:
    """Apply `event`, then deal the next age at random when it begins."""
    return deal_if_needed(apply(state, event), rng)


def search(
    root_state: GameState,
    rng: random.Random,
    *,
    iterations: int,
    seconds: float | None = None,
    root_events: list[Event] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Node, Stats]:
    """Search from `root_state` (which must not be over) for `iterations`, or until
    `seconds` have passed when given (whichever comes first); `root_events` restricts the
    moves at the root (the safe ones, or a Great Library answer from a known draw)."""
    root = Node(None, None)
    start = clock()
    rollout_events = 0
    done = 0
    for done in range(1, iterations + 1):  # noqa: B007 (the count is reported)
        world = determinize(root_state, rng)
        path = [root]
        node = root
        while not world.finished:
            if node is root and root_events is not None:
                scored = [(e, move_score(world, e)[0]) for e in root_events]
            else:
                scored = scored_options(world, rng)
            if not scored:
                break
            legal = [e for e, _ in scored]
            for event in legal:
                child = node.children.get(key_of(event))
                if child is not None:
                    child.available += 1
            untried = [e for e in legal if key_of(e) not in node.children]
            mover = acting_player(world)
            if untried:
                score_of = dict(scored)
                event = max(untried, key=lambda e: score_of[e])
                child = Node(event, mover, available=1)
                node.children[key_of(event)] = child
                world = step(world, event, rng)
                if PRIOR_VISITS:  # the evaluation right after the move, as a few visits
                    child.visits = PRIOR_VISITS
                    child.reward = PRIOR_VISITS * evaluate(world, mover)
                path.append(child)
                break
            event, child = _select(node, legal)
            world = step(world, event, rng)
            path.append(child)
            node = child
        plies = 0
        while not world.finished and plies < ROLLOUT_PLIES:
            chosen = policy_event(world, rng)
            if chosen is None:
                break
            world = step(world, chosen, rng)
            plies += 1
        rollout_events += plies
        value = evaluate(world, Player.P1)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += value if visited.player is Player.P1 else 1.0 - value
        if seconds is not None and clock() - start >= seconds:
            break
    return root, Stats(done, rollout_events, clock() - start)


def _select(node: Node, legal: list[Event]) -> tuple[Event, Node]:
    """UCB among the legal children, with availability counts (ISMCTS)."""
    best_event = legal[0]
    best_child = node.children[key_of(best_event)]
    best = -math.inf
    for event in legal:
        child = node.children[key_of(event)]
        score = child.mean + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if score > best:
            best, best_event, best_child = score, event, child
    return best_event, best_child
