"""Pondering (the hard level thinks while the human thinks): the answer after the human's move
has the same form as `suggest`'s, more iterations behind it, and a move the pondering never
tried falls back to `suggest` itself."""

from __future__ import annotations

import random

from companion.engine.cards import Catalog
from companion.engine.events import Event, event_from_record, event_to_record
from companion.engine.rules import apply, legal_events
from companion.engine.state import GameState
from companion.play.simulate import play
from companion.search.mcts import key_of
from companion.search.player import LEVELS, Keeper, Level, Ponder, suggest
from companion.search.policy import acting_player

QUICK = Level("quick", 30)


def mid_age_state(catalog: Catalog) -> GameState:
    """A turn in the middle of age 1 of a random game, whose next move keeps the age going
    and hands the turn to the other player."""
    states = play(catalog, random.Random(4), check=False).states
    for state in states[6:]:
        if state.structure is not None and state.pending is None and state.taken < 15:
            return state
    raise AssertionError("no such state")


def pondered_move(ponder: Ponder) -> Event:
    """The move the pondering tried most (the human plays it)."""
    assert ponder.tree is not None
    node = max(ponder.tree.root.children.values(), key=lambda n: n.visits)
    assert node.event is not None
    return node.event


def test_a_pondered_answer_has_the_same_form_and_more_iterations_behind_it(
    catalog: Catalog,
) -> None:
    state = mid_age_state(catalog)
    ponder = Ponder(state, seed=3)
    assert ponder.think(100) == 100 and ponder.think(100) == 100  # two slices go on
    assert ponder.iterations == 200
    human = pondered_move(ponder)
    after = apply(state, human)
    assert acting_player(after) is not acting_player(state)  # the box's turn now
    answer = ponder.answer([human], after, QUICK, 3)
    plain = suggest(after, QUICK, 3)
    # the same interface: the player, every legal move ranked, each a record line accepted
    assert answer.player is plain.player is acting_player(after)
    assert {m.event for m in answer.moves} == {m.event for m in plain.moves}
    assert {m.event for m in answer.moves} == set(legal_events(after))
    for move in answer.moves:
        apply(after, event_from_record(event_to_record(move.event)))
        assert 0.0 <= move.win <= 1.0
    # the level's 30 iterations on top of what the pondering found under the human's move
    assert answer.stats.iterations == plain.stats.iterations == 30
    assert plain.stats.kept == 0 and answer.stats.kept > 0
    assert sum(m.visits for m in answer.moves) > sum(m.visits for m in plain.moves) == 30


def test_a_move_the_pondering_never_tried_keeps_nothing(catalog: Catalog) -> None:
    state = mid_age_state(catalog)
    ponder = Ponder(state, seed=3)
    ponder.think(5)  # the 5 best-scored moves only: most moves were never tried
    assert ponder.tree is not None
    tried = set(ponder.tree.root.children)
    human = next(e for e in legal_events(state) if key_of(e) not in tried)
    after = apply(state, human)
    answer = ponder.answer([human], after, QUICK, 3)
    assert answer.stats.kept == 0
    assert answer.moves == suggest(after, QUICK, 3).moves  # the same seed, the same answer


def test_nothing_to_ponder_after_the_game(catalog: Catalog) -> None:
    final = play(catalog, random.Random(4), check=False).states[-1]
    assert final.finished
    ponder = Ponder(final)
    assert ponder.tree is None and ponder.think(10) == 0 and ponder.iterations == 0


def test_only_levels_4_and_5_ponder() -> None:
    assert [name for name, level in LEVELS.items() if level.ponder] == ["4", "5"]


KEEPING = Level("keeping", 200, keep=True)


def test_a_keeper_goes_on_from_the_subtree_under_the_moves_played_since(
    catalog: Catalog,
) -> None:
    state = mid_age_state(catalog)
    keeper = Keeper(KEEPING, seed=3)
    first = keeper.answer(state)
    assert first.stats.kept == 0 and first.stats.iterations == 200
    assert first.moves == suggest(state, KEEPING, 3).moves  # a fresh search is suggest's
    assert keeper.tree is not None
    mine = keeper.tree.root.children[key_of(first.moves[0].event)]
    reply = max(mine.children.values(), key=lambda n: n.visits)  # the opponent plays it
    assert reply.event is not None and reply.visits > 0
    visits = reply.visits
    grandchildren = {k: (n.visits, n.reward) for k, n in reply.children.items()}
    now = apply(apply(state, first.moves[0].event), reply.event)
    assert acting_player(now) is acting_player(state)
    second = keeper.answer(now)
    # the node under both moves is the new root: its statistics kept, 200 more on top
    assert keeper.tree.root is reply
    assert second.stats.kept == visits and second.stats.iterations == 200
    assert reply.visits == visits + 200
    for key, (before, reward) in grandchildren.items():
        assert reply.children[key].visits >= before
        if reply.children[key].visits == before:
            assert reply.children[key].reward == reward
    # every new iteration went under one of its moves
    after = sum(n.visits for n in reply.children.values())
    assert after == sum(v for v, _ in grandchildren.values()) + 200


def test_a_keeper_starts_afresh_after_a_move_its_search_never_tried(catalog: Catalog) -> None:
    state = mid_age_state(catalog)
    keeper = Keeper(Level("few", 12, keep=True), seed=3)
    first = keeper.answer(state)
    assert keeper.tree is not None
    after = apply(state, first.moves[0].event)
    tried = set(keeper.tree.root.children[key_of(first.moves[0].event)].children)
    reply = next(e for e in legal_events(after) if key_of(e) not in tried)
    now = apply(after, reply)
    second = keeper.answer(now)
    assert second.stats.kept == 0
    assert second.moves == suggest(now, Level("few", 12), 3).moves
