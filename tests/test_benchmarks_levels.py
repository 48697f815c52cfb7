"""The levels benchmark plays a program that speaks the engine protocol (`cmd:`) among the
players, under a name of its own, so an outside engine can stand among the Elo anchors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.protocol.test_arena_programs import PALACE, minimal_engine, program

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from search_levels import match, table


def test_a_program_plays_whole_games_under_its_name(tmp_path: Path) -> None:
    legal = program(tmp_path, "legal", minimal_engine())
    result = match(legal, "random", 2, 4, names=("last-move", None))
    assert (result["a"], result["b"], result["games"], result["forfeits"]) == (
        "last-move", "random", 2, 0,
    )  # fmt: skip
    assert result["wins"] + result["losses"] + result["shared"] == 2  # type: ignore[operator]
    # the program's CPU is its own process's: only random's is measured
    assert set(result["cpu_per_move"]) == {"random"}  # type: ignore[arg-type]
    row = table([result]).splitlines()[2]
    assert row.startswith("| last-move | random | 2 | ")
    cells = row.strip("| ").split(" | ")
    assert cells[-2] == "-" and float(cells[-1]) >= 0.0  # A's CPU not measured, B's is


def test_a_program_refused_loses_the_game_by_forfeit(tmp_path: Path) -> None:
    palace = program(tmp_path, "palace", PALACE)  # an age 3 card at its first move
    result = match("1", palace, 2, 0, names=(None, "palace"))
    assert (result["wins"], result["losses"], result["shared"], result["forfeits"]) == (2, 0, 0, 2)
    assert result["score"] == 1.0
    assert result["calibration"] == []  # no game reached its end: no answer is judged


def test_two_players_of_one_name_are_refused(tmp_path: Path) -> None:
    legal = program(tmp_path, "legal", minimal_engine())
    with pytest.raises(SystemExit, match="different names"):
        match(legal, "random", 2, 0, names=("random", None))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("cmd:", "'cmd:' names no program"),
        ("cmd:'unclosed", '"cmd:\'unclosed": No closing quotation'),
        ("cmd:/nonexistent/engine", "cannot start /nonexistent/engine: No such file or directory"),
    ],
)
def test_a_program_that_cannot_start_is_refused_in_one_line(name: str, message: str) -> None:
    with pytest.raises(SystemExit) as refused:
        match("random", name, 2, 0, names=(None, "engine"))
    assert str(refused.value) == message
