"""The search player: levels, the ranked answer to any decision, and the one-move greedy
player it is measured against.

`suggest` answers for whoever acts after a state (a move, or the pending decision) using
public information only: every draw comes from a seed mixed with the public view
(`view.public_seed`), and every world is a determinization, so the answer is the same when
the face-down cards are swapped among themselves. Before searching it plays a forced win
(`forced.forced_win`: a win within the player's own turn chain) and sets aside the moves
after which the opponent has one (when a safe move exists).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine.cards import CardId, Catalog, TokenId, WonderId
from companion.engine.decisions import decision_events
from companion.engine.events import (
    Build,
    BuildWonder,
    Discard,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Reveal,
)
from companion.engine.rules import apply, unrevealed
from companion.engine.state import PANTHEON_DECISIONS, GameState, PendingKind, Player, Victory

from . import pantheon
from .calibration import Knots, calibrated, level_map
from .determinize import determinize, needs_deal
from .forced import forced_win, is_exposed
from .mcts import PLAYOUTS, TRUNCATED, Node, Settings, Stats, Tree, key_of
from .policy import (
    Reason,
    acting_player,
    evaluate,
    move_score,
    moves,
)
from .view import known_cards, public_seed

__all__ = [
    "LEVELS",
    "LEVEL_CHOICES",
    "NAMES",
    "Answer",
    "Keeper",
    "Level",
    "NoDecision",
    "Ponder",
    "Suggestion",
    "draft_ranking",
    "greedy_event",
    "level_named",
    "root_events",
    "suggest",
]


@dataclass(frozen=True, slots=True)
class Level:
    """A strength of the player: its search budget (iterations, and whether it goes on
    thinking while the human thinks), or no search at all (`casual`: level 1)."""

    name: str
    iterations: int
    ponder: bool = False
    casual: bool = False
    settings: Settings = TRUNCATED
    keep: bool = False
    """Within a game, each search goes on from the subtree of the level's previous one under
    the moves played since (`Keeper`), instead of starting afresh."""


CASUAL_NOISE = 4.0
"""Level 1 adds a uniform 0..CASUAL_NOISE to each move's worth at a glance (VP-like units):
it takes a win or a block it sees at once (worth 100 and 50), but between ordinary moves it
often takes one a little worse than the best, as a casual player does."""

LEVELS: dict[str, Level] = {
    "1": Level("1", 0, casual=True),
    "2": Level("2", 40),
    "3": Level("3", 200),
    "4": Level("4", 800, ponder=True),
    "5": Level("5", 3000, ponder=True, settings=PLAYOUTS),
}
"""The levels by number; `level_named` also takes the names of 2, 3 and 4."""

NAMES: dict[str, str] = {"easy": "2", "normal": "3", "hard": "4"}
"""The names the levels had before they were numbered: easy, normal, hard."""

LEVEL_CHOICES: tuple[str, ...] = (*LEVELS, *NAMES)
"""Every way to name a level: 1 to 5, easy, normal, hard."""


def level_named(name: str) -> Level:
    """The level called `name`: 1 to 5, or easy, normal, hard (2, 3, 4).

    Raises:
        KeyError: no level has that name.
    """
    return LEVELS[NAMES.get(name, name)]


class NoDecision(ValueError):
    """Nothing to answer now (game over, no deal known, a Great Library draw not given).
    The message is one line."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One answer: the event (exactly a record line), the estimated chance to win, how
    often the search tried it, the main reason, and for a forced win its line."""

    event: Event
    win: float
    visits: int
    reason: Reason | None
    line: tuple[Event, ...] = ()
    """A forced win: the events of the whole turn chain, this event first."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The ranked answers for `player`, best first, and what the search did."""

    player: Player
    moves: tuple[Suggestion, ...]
    stats: Stats


def root_events(state: GameState, drawn: Sequence[TokenId] | None = None) -> list[Event]:
    """Every legal answer now, for a state whose age is dealt (or a pending decision).

    Raises:
        NoDecision: the game is over, the age has no deal, a Great Library draw (or a
            Pantheon draw: a Mythology deck's cards, Enki's tokens, the Gate's cards) is
            pending and `drawn` is not given, or every card that could be taken is an
            uncovered card not turned up yet.
        IllegalEvent: `drawn` is not a legal draw.
    """
    if state.finished:
        raise NoDecision("The game is over")
    pending = state.pending
    if pending is not None:
        if pending.kind is PendingKind.GREAT_LIBRARY:
            if not drawn:
                raise NoDecision("The Great Library draw is needed: the 3 tokens drawn")
            events: list[Event] = [KeepLibraryToken(pending.player, tuple(drawn), t) for t in drawn]
            apply(state, events[0])  # refuses an illegal draw
            return events
        if pending.kind in PANTHEON_DECISIONS:
            try:
                return pantheon.answers_drawn(state, pending, drawn)
            except IllegalEvent:
                raise
            except ValueError as needed:  # the draw is chance: it must be given
                raise NoDecision(str(needed)) from None
        return decision_events(state, pending)
    if state.structure is None or needs_deal(state):
        raise NoDecision(f"The deal of age {state.age} is needed (the table is not known)")
    found = moves(state)
    if not found and unrevealed(state):  # every card that could be taken is still face down
        raise NoDecision("Turn up the uncovered cards first")
    return found


def suggest(
    state: GameState,
    level: Level,
    seed: int = 0,
    *,
    seconds: float | None = None,
    drawn: Sequence[TokenId] | None = None,
    tree: Tree | None = None,
    raw: bool = False,
) -> Answer:
    """The ranked answers for whoever acts after `state`, from public information only;
    with `tree` (a search of `state` already under way: pondering), its statistics are kept
    and the level's budget is added to them. Each chance to win is the level's calibrated
    one (`calibration`; with `raw`, the search's own estimate, as the map is fitted on),
    except the certain ones: 1 for a forced win, 0 for a move that lets the opponent force
    one, and the result of a move that ends the game.

    Raises:
        NoDecision: nothing to answer (see `root_events`).
        IllegalEvent: `drawn` is not a legal Great Library draw.
    """
    events = root_events(state, drawn)
    player = acting_player(state)
    rng = tree.rng if tree is not None else random.Random(public_seed(state, seed))
    world = determinize(state, rng)
    known = known_cards(state)
    knots = () if raw else level_map(level.name)
    if level.casual:
        return Answer(player, _casual(world, events, player, rng, knots), Stats(0, 0, 0.0))
    if drawn:  # a Great Library token may be the 6th symbol
        win = next((e for e in events if apply(world, e).winner is player), None)
        line: tuple[Event, ...] = (win,) if win is not None else ()
    else:
        line = forced_win(world, known) or ()
    if line:
        win = line[0]
        rest = [e for e in events if e != win]
        first = Suggestion(win, 1.0, 0, _win_reason(world, line), line)
        return Answer(player, (first, *_static(world, rest, player, knots)), Stats(0, 0, 0.0))
    safe, unsafe = _split_safe(world, events, player, known)
    if len(safe) == 1 and not unsafe:
        only = _static(world, safe, player, knots)
        return Answer(player, only, Stats(0, 0, 0.0))
    if tree is None:
        tree = Tree(state, rng, settings=level.settings)
    tree.run(level.iterations, seconds=seconds, root_events=safe)
    root, stats = tree.root, tree.stats()
    ranked: list[Suggestion] = []
    allowed = {key_of(e) for e in safe}  # a kept subtree may hold other moves
    tried = sorted(
        (n for k, n in root.children.items() if k in allowed and n.visits),
        key=lambda n: (-n.visits, -n.mean),
    )
    if level.settings.by_mean and tried:  # the best mean among the well visited first
        enough = tried[0].visits / 10
        tried.sort(key=lambda n: (n.visits < enough, -n.mean if n.visits >= enough else 0.0))
    for node in tried:
        assert node.event is not None
        event = node.event
        if pantheon.chance_draw(event) is not None:  # the known draw (Great Library, Pantheon)
            event = next(e for e in safe if key_of(e) == key_of(event))
        ranked.append(
            Suggestion(event, _chance(knots, node.mean), node.visits, move_score(world, event)[1])
        )
    seen = {s.event for s in ranked}
    ranked += _static(world, [e for e in safe if e not in seen], player, knots)
    ranked += [Suggestion(e, 0.0, 0, Reason.LOSES) for e in unsafe]
    return Answer(player, tuple(ranked), stats)


def _split_safe(
    world: GameState, events: list[Event], player: Player, known: frozenset[CardId]
) -> tuple[list[Event], list[Event]]:
    """The events after which the opponent has no forced line with cards known now
    (`forced.is_exposed`: after a play-again move, whatever the rest of the chain), and the
    others (all events count as safe when none is)."""
    safe: list[Event] = []
    unsafe: list[Event] = []
    for event in events:
        exposed = is_exposed(apply(world, event), player, known)
        (unsafe if exposed else safe).append(event)
    if not safe:
        return events, []
    return safe, unsafe


def _win_reason(world: GameState, line: tuple[Event, ...]) -> Reason | None:
    """The reason of a forced line: its first move's own reason when the line is that move,
    else the kind of supremacy it ends with (an extra turn first)."""
    if len(line) == 1:
        return move_score(world, line[0])[1]
    end = world
    for event in line:
        end = apply(end, event)
    if end.victory is Victory.MILITARY:
        return Reason.WINS_MILITARY
    if end.victory is Victory.SCIENCE:
        return Reason.WINS_SCIENCE
    return Reason.EXTRA_TURN


def _chance(knots: Knots, estimate: float) -> float:
    """A raw estimate as the answer gives it: mapped by `knots`, rounded to 3 decimals
    (the map reads the estimate rounded so, as the benchmark that fits it records it)."""
    return round(calibrated(knots, round(estimate, 3)), 3)


def _evaluated(world: GameState, event: Event, player: Player, knots: Knots) -> tuple[float, float]:
    """The evaluation right after `event`, and the chance to win the answer gives for it:
    calibrated, unless the game is over then (1, 0.5 or 0: certain)."""
    after = apply(world, event)
    value = evaluate(after, player)
    return value, round(value, 3) if after.finished else _chance(knots, value)


def _static(
    world: GameState, events: list[Event], player: Player, knots: Knots
) -> tuple[Suggestion, ...]:
    """Answers the search did not try, ranked by the evaluation right after them (the raw
    one: a flat stretch of the map must not reorder them)."""
    scored = []
    for event in events:
        value, win = _evaluated(world, event, player, knots)
        scored.append((value, Suggestion(event, win, 0, move_score(world, event)[1])))
    scored.sort(key=lambda pair: -round(pair[0], 3))
    return tuple(suggestion for _, suggestion in scored)


def _casual(
    world: GameState, events: list[Event], player: Player, rng: random.Random, knots: Knots
) -> tuple[Suggestion, ...]:
    """Level 1: the answers ranked by their worth at a glance plus noise (no search, no
    look at the turn chain), each with the evaluation right after it."""
    noisy = []
    for event in events:
        score, why = move_score(world, event)
        win = _evaluated(world, event, player, knots)[1]
        noisy.append((score + rng.random() * CASUAL_NOISE, Suggestion(event, win, 0, why)))
    noisy.sort(key=lambda pair: -pair[0])
    return tuple(suggestion for _, suggestion in noisy)


class Ponder:
    """Thinking while the opponent thinks (the hard level): a search of the position where
    the opponent acts, run on in slices (`think`) by whoever owns the thread, then the
    answer once the opponent has played (`answer`), from the subtree under their move.

    Not thread-safe by itself: one thread at a time calls `think` or `answer` (the device
    stops its pondering thread before it asks for the answer)."""

    def __init__(self, state: GameState, seed: int = 0, settings: Settings = TRUNCATED) -> None:
        self.state = state
        self.tree: Tree | None = None
        """None when there is nothing to search (game over, no deal, a Great Library draw)."""
        try:
            events = root_events(state)
        except NoDecision:
            return
        if events:
            rng = random.Random(public_seed(state, seed, "ponder"))
            self.tree = Tree(state, rng, settings=settings)

    @property
    def iterations(self) -> int:
        """Iterations done so far."""
        return self.tree.iterations if self.tree is not None else 0

    def think(self, iterations: int) -> int:
        """Search `iterations` more; the number done (0: nothing to search)."""
        if self.tree is None:
            return 0
        return self.tree.run(iterations)

    def answer(
        self,
        played: Sequence[Event],
        state: GameState,
        level: Level,
        seed: int = 0,
        *,
        seconds: float | None = None,
        drawn: Sequence[TokenId] | None = None,
    ) -> Answer:
        """`suggest` for `state`, reached from the pondered position by `played` (the
        opponent's events; reveals of face-down cards are skipped), keeping what the
        pondering found under those moves. A deal or a move the search never tried keeps
        nothing (the answer is then `suggest`'s, from the same seed).

        Raises:
            NoDecision: nothing to answer (see `root_events`).
            IllegalEvent: `drawn` is not a legal Great Library draw.
        """
        kept: Tree | None = None
        if self.tree is not None:
            node: Node | None = self.tree.root
            for event in played:
                if node is not None and not isinstance(event, Reveal):
                    node = node.children.get(key_of(event))
            if node is not None and node.visits:
                kept = Tree(state, self.tree.rng, node, self.tree.settings)
        return suggest(state, level, seed, seconds=seconds, drawn=drawn, tree=kept)


class Keeper:
    """A level's answers through one game, each search going on from the last one: the
    subtree under the moves played since the level last answered (its own move, then the
    opponent's) is kept, with its visits and rewards, and the level's budget runs on top of
    it, as `Ponder` keeps the subtree under the human's move. The moves since are found
    among the kept tree's children (the true state after them must be the state asked
    about); a new age, or a move the search never tried, starts a fresh search, seeded as
    `suggest`'s."""

    DEPTH = 8
    """Events between two answers looked for, at most (a chain of extra turns and decisions)."""

    def __init__(self, level: Level, seed: int = 0, *, raw: bool = False) -> None:
        self.level = level
        self.seed = seed
        self.raw = raw
        """Give the search's own estimates (`suggest`'s `raw`)."""
        self.tree: Tree | None = None
        """The last answer's search."""
        self._after: GameState | None = None
        """The state after the level's last answer (its move played)."""
        self._node: Node | None = None
        """The node of that move in `tree`."""

    def answer(self, state: GameState, drawn: Sequence[TokenId] | None = None) -> Answer:
        """`suggest(state, level, seed, drawn=drawn)`, going on from the subtree kept.

        Raises:
            NoDecision: nothing to answer (see `root_events`).
            IllegalEvent: `drawn` is not a legal Great Library draw.
        """
        node = None
        if self._after is not None and self._node is not None:
            node = _reached(self._node, self._after, state, self.DEPTH)
        if node is not None and node.visits and self.tree is not None:
            tree = Tree(state, self.tree.rng, node, self.level.settings)
        else:
            rng = random.Random(public_seed(state, self.seed))
            tree = Tree(state, rng, settings=self.level.settings)
        answer = suggest(state, self.level, self.seed, drawn=drawn, tree=tree, raw=self.raw)
        played = answer.moves[0].event
        self.tree = tree
        self._after = apply(state, played)
        self._node = tree.root.children.get(key_of(played))
        return answer


def _reached(node: Node, state: GameState, target: GameState, depth: int) -> Node | None:
    """The node under `node` (whose position is `state`) whose moves lead to `target`, found
    among the children the search tried, `depth` events at most; None when there is none."""
    if state == target:
        return node
    if depth == 0 or state.finished or state.age != target.age:
        return None
    left = target.structure.cards if target.structure is not None else ()
    for child in node.children.values():
        event = child.event
        if not child.visits or event is None:
            continue
        if isinstance(event, (Build, Discard, BuildWonder)) and event.card in left:
            continue  # a card still in the structure then was not taken on the way
        try:
            after = apply(state, event)
        except IllegalEvent:  # a move of another world
            continue
        if after.taken > target.taken:
            continue
        found = _reached(child, after, target, depth - 1)
        if found is not None:
            return found
    return None


def greedy_event(
    state: GameState, rng: random.Random, drawn: Sequence[TokenId] | None = None
) -> Event:
    """The one-move greedy player: the answer with the best evaluation right after it
    (ties broken at random)."""
    player = acting_player(state)
    best: Event | None = None
    best_value = -1.0
    for event in root_events(state, drawn):
        value = evaluate(apply(state, event), player) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = event, value
    assert best is not None
    return best


def draft_ranking(catalog: Catalog, offered: Sequence[WonderId]) -> list[WonderId]:
    """The wonders of a draft round still offered, best pick first: the heuristic's worth
    of each wonder (points, extra turn, shields, coins, production, its effect) less a part
    of its cost."""

    def worth(wonder_id: WonderId) -> float:
        wonder = catalog.wonder(wonder_id)
        value = 0.8 * wonder.points + 0.25 * wonder.coins + 0.15 * wonder.opponent_loses
        value += 2.5 * wonder.extra_turn + 1.2 * wonder.shields
        value += 1.2 * (wonder.destroys is not None) + 1.5 * bool(wonder.produces_one_of)
        value += 1.5 * wonder.builds_from_discard + 2.0 * bool(wonder.draws_tokens)
        cost = wonder.cost.coins + sum(wonder.cost.resources)
        return value - 0.2 * cost

    return sorted(offered, key=lambda w: (-worth(w), w))
