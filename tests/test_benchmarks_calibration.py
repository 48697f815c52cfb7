"""The calibration benchmark reads match files with and without game numbers, and counts a
tenth's games and the margin of its share won with the games as clusters (worked by hand)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from win_calibration import answers, fitted, fitted_on, games_and_margin, judged_gap, table


def _file(path: Path, calibration: list[list[object]]) -> Path:
    path.write_text(json.dumps({"calibration": calibration}), encoding="utf-8")
    return path


def test_answers_keep_their_game_when_the_file_numbers_them(tmp_path: Path) -> None:
    old = _file(tmp_path / "old.json", [["5", 0.4, 1.0], ["4", 0.7, 0.0]])
    new = _file(tmp_path / "new.json", [["5", 0.6, 0.0, 0], ["5", 0.3, 1.0, 1]])
    found = answers([old, new], {"5"})
    assert found == {"5": [(0.4, 1.0, None), (0.6, 0.0, f"{new}#0"), (0.3, 1.0, f"{new}#1")]}


def test_the_margin_counts_a_game_once() -> None:
    # two games of two answers: 1, 1 and 0, 0, so won 0.5; each game's sum of (result -
    # 0.5) is +1 and -1: margin 1.96 * sqrt(1 + 1) / 4 = 0.693 (as four independent answers
    # it would be 1.96 * sqrt(4 * 0.25) / 4 = 0.49)
    inside = [(0.5, 1.0, "a#0"), (0.5, 1.0, "a#0"), (0.5, 0.0, "a#1"), (0.5, 0.0, "a#1")]
    assert games_and_margin(inside) == ("2", "69.3")
    # one answer whose game is not known: neither can be told
    assert games_and_margin([*inside, (0.5, 1.0, None)]) == ("?", "?")


def test_a_tenth_of_few_answers_is_not_judged() -> None:
    inside = [(0.45, 1.0, "a#0"), (0.45, 0.0, "a#1")]
    lines = table(inside)[0].splitlines()
    assert lines[6] == "| 0.4-0.5 | 2 (too few to judge) | 2 | 45.0% | 50.0% | +5.0 points | 69.3 |"
    assert lines[2] == "| 0.0-0.1 | 0 | 0 | | | | |"
    assert table(inside)[1] == pytest.approx((0.55**2 + 0.45**2) / 2)  # Brier
    assert judged_gap(inside) == "none judged"


def test_a_map_is_fitted_on_numbered_files(tmp_path: Path) -> None:
    played = {"a": "5", "b": "5", "games": 2, "seed": 7}
    path = tmp_path / "new.json"
    calibration = [["5", 0.2, 0.0, 0], ["5", 0.8, 1.0, 0], ["5", 0.3, 1.0, 1], ["5", 0.7, 0.0, 1]]
    path.write_text(json.dumps({**played, "calibration": calibration}), encoding="utf-8")
    found = answers([path])
    assert fitted_on([path], found) == {"5": ("4 answers", "5 against 5, 2 games (seed 7)")}
    # 0.2: 0, 0.3: 1, 0.7: 0, 0.8: 1; 1 then 0 pooled: 0.5 at 0.5
    assert fitted(found, min_answers=1) == {"5": ((0.2, 0.01), (0.5, 0.5), (0.8, 0.99))}
