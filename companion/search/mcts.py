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

from companion.engine.events import (
    Build,
    BuildWonder,
    Discard,
    Event,
    GateActivation,
    KeepLibraryToken,
    PlaceDivinity,
    TakeEnkiToken,
)
from companion.engine.rules import apply
from companion.engine.scoring import civilian_ranks
from companion.engine.state import GameState, PendingKind, Player, Victory

from .determinize import Worlds, deal_if_needed
from .policy import (
    SCIENCE_MINDED,
    acting_player,
    evaluate,
    light_event,
    move_score,
    moves,
    policy_event,
    scored_options,
)
from .value import value as age_end_value

__all__ = [
    "EXPLORATION",
    "PLAYOUTS",
    "ROLLOUT_PLIES",
    "STOP_EVERY",
    "TRUNCATED",
    "Node",
    "Settings",
    "Stats",
    "Tree",
    "key_of",
    "search",
    "settled",
    "shaped_value",
]

EXPLORATION = 0.35
"""UCB's exploration constant (rewards lie in 0..1). The evaluation's chances of the moves of
a turn lie close together (a few hundredths), so 0.7 spread normal's 200 iterations almost
evenly over the moves; 0.35 lets the search follow the better ones. normal against greedy
on the same 80 deals (seeds 0 and 100, 40 games each, seats swapped): 76 wins at 0.35, 71
and a shared victory at 0.7 (on seed 0 alone, 39 of 40 at 0.2)."""
ROLLOUT_PLIES = 12
"""Events a rollout plays before the position is scored (or until the game ends)."""
PRIOR_VISITS = 0
"""Visits a new node starts with, valued by `evaluate` right after its move (0: none)."""
PRIOR_SPAN = 10.0
"""`move_score` (VP-like units) beyond which the progressive bias's prior stops growing."""
MARGIN_SPAN = 10.0
"""The VP margin of a win on points at which a shaped reward is whole (`Settings.shaped`)."""
WIDEN_BASE = 2.0
"""The children a node may have at its first visit under progressive widening."""
STOP_EVERY = 50
"""Iterations between two looks at whether a run may stop early (`Settings.stop_decided`,
`Settings.stop_least`): a count, not a clock, so a seeded search stays reproducible."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How a search searches: UCB's exploration constant, the rollout (`plies` events of the
    heuristic policy then `evaluate`, or with `plies` 0 a light playout to the end of the
    game, scored by its result), and whether the tree stops at the end of the age (the next
    age's deal is random: nodes beyond it would mix unrelated deals)."""

    exploration: float = EXPLORATION
    plies: int = ROLLOUT_PLIES
    age_bound: bool = False
    scored_expansion: bool = True
    """Which untried move a node adds: the one `move_score` likes most, else one drawn at
    random (no move is scored)."""
    by_mean: bool = False
    """Rank the root's moves by mean reward (among those with at least a tenth of the most
    visits) instead of by visits."""
    redraw: bool = False
    """A light playout's random build that cannot be paid for is drawn again (card and roll)
    instead of going to the discard pile (`policy.redrawn_move`)."""
    bias: float = 0.0
    """Progressive bias: UCB adds `bias * prior / (1 + visits)`, the prior being the move's
    `move_score` when its node was added (clamped to -PRIOR_SPAN..PRIOR_SPAN, over
    PRIOR_SPAN), so the heuristic steers the first visits and fades as results come in."""
    shaped: float = 0.0
    """A playout's win on points is worth 1 - shaped * (1 - m), its loss shaped * (1 - m),
    m the VP margin over MARGIN_SPAN (at most 1): a narrow win counts less than a wide one
    (supremacies 1 and 0, a shared victory 0.5)."""
    decisive: bool = False
    """A light playout's player who can win at once with a card or wonder it can pay for does
    (`policy.decisive_move`; Law as a 6th symbol when it may take a token)."""
    guard: bool = False
    """A light playout's player whose opponent could win at once with an accessible card
    takes that card: builds it, puts it under a wonder or discards it (`policy.guarding_move`)."""
    military: float = 0.0
    """The chance that a light playout's player who is not science-minded is military-minded
    (Strategy first, then red cards it can afford: `policy.light_event`)."""
    age_value: bool = False
    """A light playout (`plies` 0) stops at the end of the age, before who begins the next
    one is chosen (in age 3 it plays to the end of the game), and that position is scored by
    the learned `value.value` instead of by playing the later ages out."""
    stop_decided: bool = False
    """Time management: a run stops early once the root's most visited move leads the second
    by more visits than the run has iterations left, so that no other move could end with
    as many (looked at every STOP_EVERY iterations; the moves are ranked by visits)."""
    stop_least: int = 0
    """Time management: after this many iterations of a run (0: never), it also stops once
    the root's most visited move has at least `stop_ratio` times the second's visits (looked
    at every STOP_EVERY iterations), so an easy move leaves the CPU to a larger budget."""
    stop_ratio: float = 0.0
    rave: float = 0.0
    """RAVE's equivalence constant k (0: off): a tree move's value blends its mean with its
    all-moves-as-first mean (the iterations in which its mover made the same move later in
    the age, in the tree or the playout), the latter weighted sqrt(k / (3 n + k)) after n
    visits (Gelly and Silver 2007), so a move played well later in the age is tried sooner."""
    widening: float = 0.0
    """Progressive widening's exponent (0: off): a node visited n times adds an untried move
    only while it has fewer than WIDEN_BASE * (n + 1) ** widening children (or none of its
    children is legal in the world drawn), the one `move_score` likes most, so that a
    node's visits go to its best few moves and the tree grows deeper."""
    plain: bool = False
    """A light playout without a plan: no player science-minded, and no brown, grey or
    yellow card first in age 1 (`policy.light_event`'s `plain`): a random accessible card to
    a wonder, a build or the discard pile, as the C++ engine's playouts play."""


TRUNCATED = Settings()
"""The search of levels 2 to 4: 12 heuristic plies, then the evaluation."""
PLAYOUTS = Settings(exploration=0.7, plies=0, age_bound=True)
"""The search of level 5: light playouts to the end of the game, a tree bounded to the age,
and more exploration (the results' 0 and 1 spread the moves' means more than the
evaluation's chances do). At two thirds of the CPU, 3,000 iterations of it won 14 of 20
paired games against 6,000 of TRUNCATED (BENCHMARKS.md, "Search levels")."""


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
    prior: float = 0.0
    """The heuristic's worth of the move, in -1..1 (`Settings.bias`; 0 without it)."""
    amaf_visits: int = 0
    """Iterations in which the mover made this move at this node or later in the age
    (`Settings.rave`)."""
    amaf_reward: float = 0.0

    @property
    def mean(self) -> float:
        """The average reward for the mover (0.5 before any visit)."""
        return self.reward / self.visits if self.visits else 0.5


@dataclass(frozen=True, slots=True)
class Stats:
    """What a search did: iterations, rollout events played, seconds spent, and the
    iterations it kept from an earlier search (pondering: the subtree under the move played)."""

    iterations: int
    rollout_events: int
    seconds: float
    kept: int = 0


def key_of(event: Event) -> Hashable:
    """What identifies a move across determinizations: a turn's move by its kind, wonder and
    card (a plain tuple: quicker to hash than the event), a Great Library answer by the token
    kept (the draw is chance)."""
    if isinstance(event, Build):
        return ("build", event.card)
    if isinstance(event, Discard):
        return ("discard", event.card)
    if isinstance(event, BuildWonder):
        return ("wonder", event.wonder, event.card)
    if isinstance(event, KeepLibraryToken):
        return ("great_library", event.token)
    if isinstance(event, PlaceDivinity):  # Pantheon: the draw is chance, as the Library's
        return ("divinity", event.divinity, event.space)
    if isinstance(event, TakeEnkiToken):
        return ("enki", event.token)
    if isinstance(event, GateActivation):
        return ("gate", event.divinity)
    return event


def _keys(events: list[Event]) -> list[Hashable]:
    return [key_of(e) for e in events]


def step(state: GameState, event: Event, rng: random.Random) -> GameState:
    """Apply `event`, then deal the next age at random when it begins."""
    return deal_if_needed(apply(state, event), rng)


class Tree:
    """A search in progress from `state`: its tree and counters, run on in slices (`run`).
    Given `root` (the node of `state` in an earlier search: pondering), its statistics are
    kept and the new iterations add to them."""

    def __init__(
        self,
        state: GameState,
        rng: random.Random,
        root: Node | None = None,
        settings: Settings = TRUNCATED,
    ) -> None:
        self.state = state
        self.settings = settings
        self.rng = rng
        self.root = root if root is not None else Node(None, None)
        self.kept = self.root.visits
        """Iterations behind the root before this tree's own runs (kept from a subtree)."""
        self.iterations = 0
        self.rollout_events = 0
        self.seconds = 0.0
        self._worlds = Worlds(state)

    def stats(self) -> Stats:
        """What this tree's runs did so far (and what it kept)."""
        return Stats(self.iterations, self.rollout_events, self.seconds, self.kept)

    def run(
        self,
        iterations: int,
        *,
        seconds: float | None = None,
        root_events: list[Event] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> int:
        """Run `iterations` more (fewer once `seconds` have passed, when given, or once the
        settings' time management finds the root's choice settled: `settled`); with
        `root_events`, only those moves are tried at the root. The iterations done."""
        root = self.root
        rng = self.rng
        worlds = self._worlds
        root_keys = _keys(root_events) if root_events is not None else None
        settings = self.settings
        managed = settings.stop_decided or settings.stop_least > 0
        start = clock()
        done = 0
        while done < iterations:
            done += 1
            world = worlds.draw(rng)
            self.rollout_events += _iterate(root, world, rng, root_events, root_keys, settings)
            if seconds is not None and clock() - start >= seconds:
                break
            if (
                managed
                and done % STOP_EVERY == 0
                and settled(root, root_keys, done, iterations - done, settings)
            ):
                break
        self.iterations += done
        self.seconds += clock() - start
        return done


def settled(
    root: Node, keys: list[Hashable] | None, done: int, left: int, settings: Settings
) -> bool:
    """Whether a run that has done `done` iterations, with `left` to go, may stop now
    (`Settings.stop_decided`, `stop_least`, `stop_ratio`): the root's most visited move
    (among `keys` when given) leads the second by more than `left` visits, or, after
    `stop_least` iterations, has at least `stop_ratio` times its visits."""
    children = root.children
    if keys is None:
        counts = [child.visits for child in children.values()]
    else:
        counts = [children[key].visits for key in keys if key in children]
    first = second = 0
    for count in counts:
        if count > first:
            first, second = count, first
        elif count > second:
            second = count
    if settings.stop_decided and first - second > left:
        return True
    return 0 < settings.stop_least <= done and first > 0 and first >= settings.stop_ratio * second


def _iterate(
    root: Node,
    world: GameState,
    rng: random.Random,
    root_events: list[Event] | None,
    root_keys: list[Hashable] | None,
    settings: Settings,
) -> int:
    """One iteration on the determinization `world`: descend, expand one node, roll
    out, back up. The rollout events played."""
    path = [root]
    node = root
    age = world.age if settings.age_bound else 0
    rave = settings.rave
    # with `rave`: each move of the iteration in the root's age, by its mover
    made: list[tuple[Player, Hashable]] | None = [] if rave else None
    while not world.finished and (not age or world.age == age):
        scored: list[tuple[Event, float]] | None = None
        if node is root and root_events is not None:
            legal = root_events  # scored below only while some are untried
        elif world.pending is None:
            legal = moves(world)  # likewise
        else:
            scored = scored_options(world, rng)
            legal = [e for e, _ in scored]
        if not legal:
            break
        keys = root_keys if node is root and root_keys is not None else _keys(legal)
        children = node.children
        untried = -1  # the untried move the heuristic likes most (the first of equals)
        best = -math.inf
        fresh = 0
        for index, key in enumerate(keys):
            known = children.get(key)
            if known is not None:
                known.available += 1
                continue
            if not settings.scored_expansion:  # a random one (reservoir sampling)
                fresh += 1
                if rng.random() * fresh < 1.0:
                    untried = index
                continue
            score = scored[index][1] if scored is not None else move_score(world, legal[index])[0]
            if score > best:
                best, untried = score, index
        mover = acting_player(world)
        if (
            untried >= 0
            and settings.widening
            and len(children) >= WIDEN_BASE * (node.visits + 1) ** settings.widening
            and any(key in children for key in keys)  # a move tried is legal in this world
        ):
            untried = -1  # widened enough for now: choose among the moves tried
        if untried >= 0:
            event = legal[untried]
            child = Node(event, mover, available=1)
            if settings.bias and settings.scored_expansion:
                child.prior = max(-PRIOR_SPAN, min(best, PRIOR_SPAN)) / PRIOR_SPAN
            children[keys[untried]] = child
            if made is not None:
                made.append((mover, keys[untried]))
            world = step(world, event, rng)
            if PRIOR_VISITS:  # the evaluation right after the move, as a few visits
                child.visits = PRIOR_VISITS
                child.reward = PRIOR_VISITS * evaluate(world, mover)
            path.append(child)
            break
        event, child = _select(children, legal, keys, settings.exploration, settings.bias, rave)
        if made is not None:
            made.append((mover, key_of(event)))
        world = step(world, event, rng)
        path.append(child)
        node = child
    if not settings.plies:
        world, plies = _playout(
            world,
            rng,
            settings.redraw,
            settings.decisive,
            settings.guard,
            settings.military,
            settings.age_value,
            settings.plain,
            made,
        )
    else:
        world, plies = _rollout(world, rng, settings.plies)
    if settings.age_value and not world.finished:
        value = age_end_value(world, Player.P1)
    else:
        value = evaluate(world, Player.P1)
    if settings.shaped and world.victory is Victory.CIVILIAN and not world.shared:
        value = shaped_value(world, value, settings.shaped)
    root.visits += 1
    for visited in path[1:]:
        visited.visits += 1
        visited.reward += value if visited.player is Player.P1 else 1.0 - value
    if made is not None:
        _amaf(path, made, value)
    return plies


def _amaf(path: list[Node], made: list[tuple[Player, Hashable]], value: float) -> None:
    """RAVE's back-up: each node on `path` credits its children whose move its mover made
    then or later in the iteration (in the tree or the playout, in the root's age) with the
    result. `made` lists the tree's moves first (path[1:]'s, in order), then the playout's."""
    later: dict[Player, set[Hashable]] = {Player.P1: set(), Player.P2: set()}
    tree_moves = len(path) - 1
    for mover, key in made[tree_moves:]:
        later[mover].add(key)
    for index in range(tree_moves, 0, -1):
        mover, key = made[index - 1]
        keys = later[mover]
        keys.add(key)
        result = value if mover is Player.P1 else 1.0 - value
        children = path[index - 1].children
        for seen in keys:
            child = children.get(seen)
            if child is not None:
                child.amaf_visits += 1
                child.amaf_reward += result


def shaped_value(world: GameState, value: float, share: float) -> float:
    """A win on points for p1 (`value` 1) or p2 (0), worth less the narrower its margin."""
    ranks = civilian_ranks(world)
    margin = min(abs(ranks[0][0] - ranks[1][0]) / MARGIN_SPAN, 1.0)
    cut = share * (1.0 - margin)
    return value - cut if value > 0.5 else value + cut


def _rollout(world: GameState, rng: random.Random, plies: int) -> tuple[GameState, int]:
    """Up to `plies` events of the heuristic policy (fewer when the game ends); the
    position reached and the events played."""
    played = 0
    while not world.finished and played < plies:
        chosen = policy_event(world, rng)
        if chosen is None:
            break
        world = step(world, chosen, rng)
        played += 1
    return world, played


def _playout(
    world: GameState,
    rng: random.Random,
    redraw: bool = False,
    decisive: bool = False,
    guard: bool = False,
    military: float = 0.0,
    age_end: bool = False,
    plain: bool = False,
    made: list[tuple[Player, Hashable]] | None = None,
) -> tuple[GameState, int]:
    """A light playout to the end of the game, each player science-minded or not at
    random (`policy.SCIENCE_MINDED`), and one who is not military-minded with the chance
    `military`; the final position and the events played. With `age_end`, it stops at the
    end of the age instead (a next-age decision pending): in age 3 that is the end of the
    game. With `plain`, no player is science-minded and none follows age 1's plan. With
    `made`, each build, discard and wonder of the playout's first age is added to it (its
    mover, its key: `Settings.rave`)."""
    science = (
        (False, False) if plain else (rng.random() < SCIENCE_MINDED, rng.random() < SCIENCE_MINDED)
    )
    warlike = (False, False)
    if military:
        warlike = (
            not science[0] and rng.random() < military,
            not science[1] and rng.random() < military,
        )
    played = 0
    age = world.age
    while not world.finished:
        if age_end and world.pending is not None and world.pending.kind is PendingKind.NEXT_AGE:
            break
        event = light_event(world, rng, science, redraw, decisive, guard, warlike, plain)
        if (
            made is not None
            and world.age == age
            and isinstance(event, (Build, Discard, BuildWonder))
        ):
            made.append((event.player, key_of(event)))
        world = step(world, event, rng)
        played += 1
    return world, played


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
    tree = Tree(root_state, rng)
    tree.run(iterations, seconds=seconds, root_events=root_events, clock=clock)
    return tree.root, tree.stats()


def _select(
    children: dict[Hashable, Node],
    legal: list[Event],
    keys: list[Hashable],
    exploration: float,
    bias: float = 0.0,
    rave: float = 0.0,
) -> tuple[Event, Node]:
    """UCB among the legal children (`keys[i]` is `legal[i]`'s), with availability counts
    (ISMCTS), plus the progressive bias when `bias` is given; with `rave`, the mean is
    blended with the all-moves-as-first mean (`Settings.rave`)."""
    best_index = -1
    best_child: Node | None = None
    best = -math.inf
    for index, key in enumerate(keys):
        child = children.get(key)
        if child is None:  # not tried yet (progressive widening)
            continue
        mean = child.mean
        if rave and child.amaf_visits:
            weight = math.sqrt(rave / (3 * child.visits + rave))
            mean += weight * (child.amaf_reward / child.amaf_visits - mean)
        score = mean + exploration * math.sqrt(math.log(child.available) / child.visits)
        if bias:
            score += bias * child.prior / (1 + child.visits)
        if score > best:
            best, best_index, best_child = score, index, child
    assert best_child is not None
    return legal[best_index], best_child
