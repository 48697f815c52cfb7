"""Level 5's search plays as main's build at 968db17 played: the same seeded trees, playouts
and answer (values recorded from that build). A change made only for speed must leave every
one of them as it is: any difference in a playout would show in the events counted."""

from __future__ import annotations

import random

from companion.engine.cards import Catalog
from companion.engine.events import event_to_record
from companion.engine.state import GameState
from companion.play.simulate import play
from companion.search.determinize import determinize
from companion.search.mcts import PLAYOUTS, Tree, _playout
from companion.search.player import LEVELS, suggest

TREES = [
    (17457, {"type": "build", "player": "p1", "card": "logging_camp"}, 115),
    (13699, {"type": "discard", "player": "p2", "card": "pharmacist"}, 120),
    (
        10453,
        {
            "type": "wonder",
            "player": "p1",
            "wonder": "the_great_lighthouse",
            "card": "parade_ground",
        },
        91,
    ),
    (6726, {"type": "build", "player": "p2", "card": "shelf_quarry"}, 108),
    (
        3923,
        {"type": "wonder", "player": "p1", "wonder": "the_great_lighthouse", "card": "observatory"},
        33,
    ),
    (8, {"type": "build", "player": "p2", "card": "academy"}, 75),
    (18063, {"type": "build", "player": "p2", "card": "lumber_yard"}, 59),
    (13969, {"type": "build", "player": "p1", "card": "wood_reserve"}, 85),
    (10545, {"type": "build", "player": "p1", "card": "drying_room"}, 109),
    (
        6672,
        {"type": "wonder", "player": "p2", "wonder": "the_statue_of_zeus", "card": "customs_house"},
        39,
    ),
    (2161, {"type": "discard", "player": "p1", "card": "lighthouse"}, 213),
]
"""Per position: the playout events of a 300-iteration level-5 tree (seeded by the position's
index), its most visited move and that move's visits."""

PLAYOUT_RESULTS = [
    ("p2", "civilian", 65),
    ("p1", "science", 45),
    ("p2", "civilian", 41),
    ("p2", "science", 25),
    ("p2", "civilian", 16),
    ("p1", "civilian", 3),
]
"""One light playout from a world of each of the first 6 positions (one generator, seed 7):
the winner, the victory and the events played."""


def positions(catalog: Catalog) -> list[GameState]:
    """Every 13th state of two random games from the 4th, with a structure and no draw."""
    return [
        state
        for seed in range(2)
        for state in play(catalog, random.Random(seed), check=False).states[3::13]
        if state.structure is not None
        and not state.finished
        and (state.pending is None or state.pending.kind.value != "great_library")
    ]


def test_level_5_trees_are_those_of_the_recorded_build(catalog: Catalog) -> None:
    found = []
    for index, state in enumerate(positions(catalog)):
        tree = Tree(state, random.Random(index), settings=PLAYOUTS)
        tree.run(300)
        best = max(tree.root.children.values(), key=lambda node: node.visits)
        assert best.event is not None
        found.append((tree.rollout_events, event_to_record(best.event), best.visits))
    assert found == TREES


def test_light_playouts_end_as_in_the_recorded_build(catalog: Catalog) -> None:
    rng = random.Random(7)
    found = []
    for state in positions(catalog)[:6]:
        end, played = _playout(determinize(state, rng), rng)
        assert end.victory is not None
        found.append((end.winner.value if end.winner else None, end.victory.value, played))
    assert found == PLAYOUT_RESULTS


def test_a_level_5_answer_is_that_of_the_recorded_build(catalog: Catalog) -> None:
    answer = suggest(positions(catalog)[4], LEVELS["5"], 3)
    assert [event_to_record(m.event) for m in answer.moves[:3]] == [
        {"type": "wonder", "player": "p1", "wonder": "the_hanging_gardens", "card": "observatory"},
        {
            "type": "wonder",
            "player": "p1",
            "wonder": "the_great_lighthouse",
            "card": "merchants_guild",
        },
        {
            "type": "wonder",
            "player": "p1",
            "wonder": "the_hanging_gardens",
            "card": "shipowners_guild",
        },
    ]
    assert answer.stats.rollout_events == 35907
