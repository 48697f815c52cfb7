"""Whole Pantheon games: the golden record's worked-out score, and simulated games checked
after every event."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pantheon_positions import CATALOG

from companion.engine.scoring import score_sheet
from companion.engine.state import Player, Victory
from companion.play.simulate import play
from companion.records.replay import replay_record

GOLDEN = Path(__file__).parents[1] / "records" / "pantheon" / "civilian_win.jsonl"


def test_the_golden_pantheon_game_replays_to_its_worked_out_score() -> None:
    final = replay_record(GOLDEN.read_text(encoding="utf-8").splitlines())[-1]
    assert final.victory is Victory.CIVILIAN and final.winner is Player.P1
    sheet = score_sheet(final)
    rows = ("blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military",
            "divinities")  # fmt: skip
    # p1: blue Theater 3 + Altar 3 + Temple 4 + Town Hall 7 + Palace 7 = 24; green
    # Apothecary 1 + Library 2 = 3; Chamber of Commerce 3; wonders Sphinx 6 + Pyramids 9 +
    # Hanging Gardens 3 (+ the Sanctuary 0) = 18; Mysticism with no token left 0; 6 coins
    # = 2; the pawn at -2, on p1's side: 0; Aphrodite 9. Total 59.
    assert [sheet.p1.row(r) for r in rows] == [24, 3, 3, 0, 18, 0, 2, 0, 9]
    assert sheet.p1.total == 59
    # p2: blue Baths 3 + Pantheon 6 + Gardens 6 = 15; green Workshop 1 + Laboratory 1 +
    # Dispensary 2 + University 2 = 6; Port 3 + Lighthouse 3 = 6; 3 Grand Temples 21;
    # Divine Theater 2 + Mausoleum 2 = 4; 13 coins = 4; the pawn 2 spaces into p1's side: 2.
    assert [sheet.p2.row(r) for r in rows] == [15, 6, 6, 21, 4, 0, 4, 2, 0]
    assert sheet.p2.total == 58


@pytest.mark.parametrize("seed", range(8))
def test_simulated_pantheon_games_keep_every_invariant(seed: int) -> None:
    game = play(CATALOG, random.Random(seed))
    assert game.failure is None
    assert game.states[-1].finished
