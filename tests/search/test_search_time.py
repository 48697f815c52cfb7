"""Time management: a search stops early when its choice is settled (`mcts.settled`), by
iterations counted, so a seeded search stays reproducible."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.engine.cards import Catalog
from companion.engine.state import GameState
from companion.play.simulate import play
from companion.search.mcts import PLAYOUTS, STOP_EVERY, Node, Tree, settled
from companion.search.player import Level, root_events, suggest

DECIDED = replace(PLAYOUTS, stop_decided=True)
"""Stops once the leader cannot be overtaken within the iterations left."""


def _root(*visits: int) -> Node:
    """A root whose children (keys "a", "b", ...) have these visits."""
    root = Node(None, None, visits=sum(visits))
    for index, count in enumerate(visits):
        root.children["abcdefgh"[index]] = Node(None, None, visits=count)
    return root


def test_a_leader_that_cannot_be_overtaken_is_settled_and_one_that_can_is_not() -> None:
    root = _root(60, 15, 5)  # a leads b by 45
    assert settled(root, None, 80, 44, DECIDED)  # b gains 44 at most: 59 < 60
    assert not settled(root, None, 80, 45, DECIDED)  # b could tie a at 60
    assert not settled(root, None, 80, 44, PLAYOUTS)  # no time management
    # among the root's allowed moves only (a kept subtree may hold others): b leads c by 10
    assert settled(root, ["b", "c"], 80, 9, DECIDED)
    assert not settled(root, ["b", "c"], 80, 10, DECIDED)
    assert not settled(root, ["b", "z"], 80, 15, DECIDED)  # z untried: 15 - 0 = 15
    assert settled(root, ["b", "z"], 80, 14, DECIDED)


def test_a_wide_lead_settles_a_search_only_after_the_least_iterations() -> None:
    wide = replace(PLAYOUTS, stop_least=500, stop_ratio=4.0)
    root = _root(60, 15, 5)  # a has 4 times b's visits
    assert not settled(root, None, 499, 1000, wide)
    assert settled(root, None, 500, 1000, wide)
    assert not settled(root, None, 500, 1000, replace(wide, stop_ratio=4.1))  # 60 < 61.5
    assert not settled(_root(0, 0), None, 500, 1000, wide)  # nothing visited yet


def _turns(catalog: Catalog, count: int) -> list[GameState]:
    """Turns with several moves from random games (every 7th state, a dealt structure)."""
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        states = play(catalog, random.Random(seed), check=False).states
        found += [
            s
            for s in states[3:-1:7]
            if s.structure is not None and s.pending is None and len(root_events(s)) > 2
        ]
        seed += 1
    return found[:count]


def test_a_search_with_one_move_stops_once_it_cannot_be_overtaken(catalog: Catalog) -> None:
    state = _turns(catalog, 1)[0]
    only = root_events(state)[:1]
    tree = Tree(state, random.Random(3), settings=DECIDED)
    # looked at every 50 of 300: at 150 the move leads by 150 with 150 left (a tie is
    # possible), at 200 by 200 with 100 left
    assert tree.run(300, root_events=only) == 200
    assert tree.root.visits == 200
    plain = Tree(state, random.Random(3), settings=PLAYOUTS)
    assert plain.run(300, root_events=only) == 300


def _best(tree: Tree) -> Node:
    """The root's most visited child."""
    return max(tree.root.children.values(), key=lambda child: child.visits)


def test_a_stopped_search_plays_the_move_of_the_whole_budget(catalog: Catalog) -> None:
    budget = 600
    stopped_any = False
    for index, state in enumerate(_turns(catalog, 6)):
        events = root_events(state)
        full = Tree(state, random.Random(index), settings=PLAYOUTS)
        full.run(budget, root_events=events)
        early = Tree(state, random.Random(index), settings=DECIDED)
        done = early.run(budget, root_events=events)
        # the same draws up to the stop: the stop comes at the first look where the
        # leader's lead exceeds the iterations left, and the leader is the whole run's
        check = Tree(state, random.Random(index), settings=PLAYOUTS)
        first = budget
        while check.iterations < budget:
            check.run(STOP_EVERY, root_events=events)
            visits = sorted((n.visits for n in check.root.children.values()), reverse=True)
            if visits[0] - visits[1] > budget - check.iterations:
                first = check.iterations
                break
        assert done == first
        stopped_any |= done < budget
        assert _best(early).event == _best(full).event
    assert stopped_any


def test_time_management_is_reproducible(catalog: Catalog) -> None:
    state = _turns(catalog, 2)[1]
    level = Level("tm", 2000, settings=replace(DECIDED, stop_least=300, stop_ratio=2.0))
    first = suggest(state, level, 5)
    again = suggest(state, level, 5)
    assert first.moves == again.moves
    assert first.stats.iterations == again.stats.iterations
    assert first.stats.iterations % STOP_EVERY == 0
    assert first.stats.iterations < 2000
