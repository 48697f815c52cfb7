"""The review of a finished game: chances after every move, costliest moves, turning point."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.engine.cards import Catalog
from companion.engine.events import Build, BuildWonder, Deal, Discard, Event, Reveal, Setup
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, Player, Victory
from companion.play.arena import make_player, play_game
from companion.records.replay import read_events, replay_record
from companion.search.determinize import needs_deal
from companion.search.player import Level
from companion.search.policy import acting_player, evaluate
from companion.search.review import Review, chance, fitting_layout, review

RECORD = Path(__file__).resolve().parent.parent / "records" / "simulated_military_win.jsonl"


def test_a_review_follows_every_move_and_ends_with_the_result(catalog: Catalog) -> None:
    lines = RECORD.read_text().splitlines()
    states = replay_record(lines, catalog)
    events = [e for _, e in read_events(lines) if e is not None]
    result = review(states, events, Level("review", 12), seed=1)
    winner = states[-1].winner
    assert winner is not None
    assert len(result.chances) == len(events)
    assert result.chances[-1] == (1.0 if winner is Player.P1 else 0.0)
    played = [e for e in events if not isinstance(e, Setup | Deal)]
    assert [m.event for m in result.moves] == played
    for move in result.moves:
        assert 0.0 <= move.chance <= 1.0 and move.cost >= 0.0
        assert (move.cost == 0.0) == (move.chance >= move.best_chance)
    for player in Player:
        costliest = result.costliest_of(player)
        assert len(costliest) <= 3
        assert all(m.player is player and m.cost > 0 for m in costliest)
        assert [m.cost for m in costliest] == sorted((m.cost for m in costliest), reverse=True)
        worse = [m.cost for m in result.moves if m.player is player and m not in costliest]
        assert all(c <= costliest[-1].cost for c in worse) if costliest else True
    turn = result.turning_point
    assert turn is not None
    ours = [c if winner is Player.P1 else 1 - c for c in result.chances]
    # the last time the winner's chance went above one half (it starts at 0.5, after setup)
    assert ours[turn - 1] <= 0.5 < ours[turn]
    assert all(c > 0.5 for c in ours[turn:])


RECORDS = RECORD.parent
TABLE_GAME = RECORD.parents[2] / "companion" / "demo" / "game.jsonl"  # the demo: no deal
GUIDED_GAME = RECORDS / "partial_deals_civilian_win.jsonl"  # partial deals and reveals


def reviewed(path: Path, catalog: Catalog) -> tuple[list[GameState], list[Event], Review]:
    lines = path.read_text().splitlines()
    states = replay_record(lines, catalog)
    events = [e for _, e in read_events(lines) if e is not None]
    return states, events, review(states, events, Level("review", 12), seed=1)


def test_a_game_played_without_its_deals_is_reviewed_on_layouts_that_fit_it(
    catalog: Catalog,
) -> None:
    _, events, result = reviewed(TABLE_GAME, catalog)
    assert not any(isinstance(e, Deal) for e in events)  # table mode: the box knew no deal
    assert result.fitted_ages == (1, 2, 3)
    played = [e for e in events if not isinstance(e, Setup)]
    assert [m.event for m in result.moves] == played  # every move judged
    assert result.turning_point is not None


def test_a_guided_game_is_reviewed_its_reveals_charted_not_judged(catalog: Catalog) -> None:
    _, events, result = reviewed(GUIDED_GAME, catalog)
    assert any(isinstance(e, Reveal) for e in events)
    assert result.fitted_ages == ()
    assert len(result.chances) == len(events)
    judged = [m.event for m in result.moves]
    assert judged == [e for e in events if not isinstance(e, Setup | Deal | Reveal)]


def test_the_chance_after_a_move_is_the_one_the_chart_shows_after_it(catalog: Catalog) -> None:
    for path in (RECORD, TABLE_GAME, GUIDED_GAME):
        states, events, result = reviewed(path, catalog)
        for move in result.moves:
            chart = result.chances[move.index]
            assert move.chance == (chart if move.player is Player.P1 else 1.0 - chart)
            assert move.cost == max(0.0, move.best_chance - move.chance)
            if path != TABLE_GAME and move.best != move.event:  # measured as the chart measures
                after_best = chance(apply(states[move.index], move.best))
                ours = after_best if move.player is Player.P1 else 1.0 - after_best
                assert move.best_chance == ours
        # the move that ends the game leaves its player 100 % or 0 %, as the chart ends
        last = result.moves[-1]
        assert last.index == len(events) - 1
        assert last.chance == (1.0 if last.player is states[-1].winner else 0.0)


def test_a_player_who_can_win_at_once_is_charted_at_100_percent_the_other_at_0(
    catalog: Catalog,
) -> None:
    lines = (RECORDS / "simulated_science_win.jsonl").read_text().splitlines()
    states = replay_record(lines, catalog)
    assert states[-1].winner is Player.P2 and states[-1].victory is Victory.SCIENCE
    before_win = states[-2]  # p2 is about to build Study, a sixth science symbol
    assert acting_player(before_win) is Player.P2
    assert chance(before_win) == 0.0  # p1's chance: none against a player who sees it
    assert evaluate(before_win, Player.P1) > 0.4  # the position alone says much more
    assert chance(states[1]) == 0.5  # after the setup: nothing played, nobody ahead


def test_a_fitting_layout_holds_each_card_where_it_was_free_and_unseen_cards_elsewhere(
    catalog: Catalog,
) -> None:
    lines = TABLE_GAME.read_text().splitlines()
    states = replay_record(lines, catalog)
    events = [e for _, e in read_events(lines) if e is not None]
    # age 3 of the demo game: where it begins, and the cards taken in it (the game ends in it)
    start = next(i for i, s in enumerate(states) if s.age == 3 and needs_deal(s))
    taken = [e.card for e in events[start:] if isinstance(e, Build | Discard | BuildWonder)]
    layout = fitting_layout(states[start], events[start:], random.Random(5))
    assert len(set(layout)) == 20 and set(taken) <= set(layout)
    assert sum(catalog.card(c).is_guild for c in layout) == 3
    age_3 = {c.id for c in catalog.cards if c.age == 3} | {c.id for c in catalog.guilds}
    assert set(layout) <= age_3
    seen = {c for s in states[: start + 1] for city in s.cities for c in city.cards}
    assert not seen & set(layout)
    state = apply(states[start], Deal(3, layout))
    for event in events[start:]:  # the game replays on it: each card free when taken
        state = apply(state, event)
    assert state.finished == states[-1].finished and state.winner == states[-1].winner


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_game_played_without_its_deals_is_reviewed(catalog: Catalog, seed: int) -> None:
    """Random games with their deals taken out, as table mode records them (all three
    deals, or one of them): each is reviewed, every move judged, and so is the game while
    it was played (the places of the cards not taken yet drawn)."""
    players = (make_player("random", seed), make_player("random", seed + 100))
    _, played = play_game(catalog, players, seed)
    for dropped in ({1, 2, 3}, {seed}):
        events = [e for e in played if not (isinstance(e, Deal) and e.age in dropped)]
        states = [new_game(catalog)]
        for event in events:
            states.append(apply(states[-1], event))
        result = review(states, events, Level("review", 4), seed=seed)
        ages = sorted({s.age for s in states[1:]})
        assert result.fitted_ages == tuple(a for a in ages if a in dropped)
        judged = [m.event for m in result.moves]
        assert judged == [e for e in events if not isinstance(e, Setup | Deal)]
        playing = review(states[:31], events[:30], Level("review", 4), seed=seed)  # mid-game
        assert len(playing.chances) == 30 and playing.turning_point is None
