"""The learned value at the end of an age, and light playouts cut there."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine.cards import CardId, Catalog, Resource, Science, WonderId
from companion.engine.scoring import civilian_ranks
from companion.engine.state import COLORS, City, GameState, Pending, PendingKind, Player, evolve
from companion.play.simulate import play
from companion.search.mcts import PLAYOUTS, Node, Tree, _playout
from companion.search.value import FEATURES, WEIGHTS, features, value


def _colors(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(str(color), 0) for color in COLORS)


def _cards(*names: str) -> tuple[CardId, ...]:
    return tuple(CardId(n) for n in names)


def _wonders(*names: str) -> tuple[WonderId, ...]:
    return tuple(WonderId(n) for n in names)


ONE = City(
    coins=6,
    cards=_cards("theater", "workshop", "apothecary", "lumber_yard", "glassworks"),
    wonders_built=_wonders("the_pyramids"),
    wonders_unbuilt=_wonders("the_sphinx", "circus_maximus", "piraeus"),
    produces=(1, 0, 0, 1, 0),
    fixed_price=frozenset({Resource.STONE}),
    chain_symbols=frozenset({"mask"}),
    colors=_colors(blue=1, green=2, brown=1, grey=1),
    symbols=frozenset({Science.PLUMB_BOB, Science.WHEEL}),
    tucked=_cards("stone_reserve"),
)
"""p1 at the end of age 1: 3 VP of blue, 2 of green, the Pyramids' 9, 6 coins (2 VP)."""
TWO = City(
    coins=3,
    cards=_cards("scriptorium", "clay_pool", "press"),
    wonders_unbuilt=_wonders(
        "the_appian_way", "the_colossus", "the_hanging_gardens", "the_statue_of_zeus"
    ),
    produces=(0, 1, 0, 0, 1),
    chain_symbols=frozenset({"book"}),
    colors=_colors(green=1, brown=1, grey=1),
    symbols=frozenset({Science.QUILL}),
)
"""p2: 3 coins (1 VP), one science symbol, 4 wonders unbuilt."""


def age_end(catalog: Catalog, age: int = 1) -> GameState:
    """The end of age `age` of a random game, with ONE and TWO as the cities, the pawn 4
    toward p2's capital (5 VP for p1) and p2 choosing who begins the next age."""
    game = play(catalog, random.Random(0), check=False)
    state = next(
        s
        for s in game.states
        if s.age == age and s.pending is not None and s.pending.kind is PendingKind.NEXT_AGE
    )
    return evolve(
        state,
        cities=(ONE, TWO),
        position=4,
        current=Player.P2,
        pending=Pending(PendingKind.NEXT_AGE, Player.P2, False),
    )


def swapped(state: GameState) -> GameState:
    """`state` with the players' cities, the pawn and the chooser swapped."""
    assert state.pending is not None
    chooser = Player.P2 if state.pending.player is Player.P1 else Player.P1
    return evolve(
        state,
        cities=(state.cities[1], state.cities[0]),
        position=-state.position,
        current=chooser,
        pending=Pending(PendingKind.NEXT_AGE, chooser, False),
    )


def test_the_features_of_a_position_worked_out_by_hand(catalog: Catalog) -> None:
    state = age_end(catalog)
    # VP: p1 3 (theater) + 1 + 1 (workshop, apothecary) + 9 (Pyramids) + 2 (6 coins)
    # + 5 (the pawn at 4: the second zone) = 21; p2 1 (3 coins)
    assert civilian_ranks(state)[0][0] == 21 and civilian_ranks(state)[1][0] == 1
    expected = {
        "vp": 20,
        "coins": 3,
        "symbols": 1,  # 2 against 1
        "military": 4,
        "military_over_2": 2,
        "wonders_built": 1,
        "wonders_unbuilt": -1,  # 3 against 4
        "unbuilt_extra_turns": 0,  # the Sphinx and Piraeus against the Appian Way and Gardens
        "brown": 0,  # wood against clay
        "grey": 0,  # glass against papyrus
        "trade": 1,  # stone for 1 coin
        "chains": 0,  # a mask against a book
        "starter": -1,  # p2 chooses, and a light playout's chooser begins
    }
    assert features(state) == [float(expected.get(name, 0)) for name in FEATURES]


def test_the_value_is_the_logistic_of_the_weighted_features(catalog: Catalog) -> None:
    for age in (1, 2):
        state = age_end(catalog, age)
        z = sum(w * x for w, x in zip(WEIGHTS[age], features(state), strict=True))
        assert value(state, Player.P1) == pytest.approx(1 / (1 + 2.718281828459045**-z))


def test_the_value_rises_with_a_vp_lead(catalog: Catalog) -> None:
    for age in (1, 2):
        state = age_end(catalog, age)
        more = evolve(ONE, cards=(*ONE.cards, CardId("baths")), colors=_colors(blue=2, green=2,
                      brown=1, grey=1))  # fmt: skip
        richer = evolve(state, cities=(more, TWO))
        assert civilian_ranks(richer)[0][0] == 24
        assert value(richer, Player.P1) > value(state, Player.P1) > 0.5


def test_the_value_is_symmetric_when_the_players_swap(catalog: Catalog) -> None:
    for age in (1, 2):
        state = age_end(catalog, age)
        mirror = swapped(state)
        assert features(mirror) == [-x for x in features(state)]
        assert value(mirror, Player.P2) == pytest.approx(value(state, Player.P1))
        assert value(state, Player.P2) == pytest.approx(1 - value(state, Player.P1))


def test_a_cut_playout_stops_at_the_end_of_the_age(catalog: Catalog) -> None:
    game = play(catalog, random.Random(1), check=False)
    rng = random.Random(2)
    for age in (1, 2):
        start = next(s for s in game.states if s.age == age and s.structure is not None)
        end, played = _playout(start, rng, age_end=True)
        assert end.age == age and not end.finished and played > 0
        assert end.pending is not None and end.pending.kind is PendingKind.NEXT_AGE
        full, _ = _playout(start, rng)
        assert full.finished
    late = next(s for s in game.states if s.age == 3 and s.structure is not None)
    end, _ = _playout(late, rng, age_end=True)
    assert end.finished


def test_a_search_with_the_value_backs_up_chances_before_age_3(catalog: Catalog) -> None:
    game = play(catalog, random.Random(3), check=False)
    for age in (1, 3):
        state = next(
            s for s in game.states if s.age == age and s.structure is not None and s.taken == 4
        )
        tree = Tree(state, random.Random(0), settings=replace(PLAYOUTS, age_value=True))
        tree.run(200)
        rewards = [r for child in tree.root.children.values() for r in _rewards(child)]
        halves = all((2 * r).is_integer() for r in rewards)
        # results of whole games are 0, 0.5 or 1: only age 3's playouts end there
        assert halves is (age == 3)


def _rewards(node: Node) -> list[float]:
    found = [node.reward]
    for child in node.children.values():
        found += _rewards(child)
    return found
