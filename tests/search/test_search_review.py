"""The review of a finished game: chances after every move, costliest moves, turning point."""

from __future__ import annotations

from pathlib import Path

from companion.engine.cards import Catalog
from companion.engine.events import Deal, Setup
from companion.engine.state import Player
from companion.records.replay import read_events, replay_record
from companion.search.player import Level
from companion.search.review import review

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
