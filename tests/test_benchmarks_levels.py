"""The levels benchmark plays a program that speaks the engine protocol (`cmd:`) among the
players, under a name of its own, so an outside engine can stand among the Elo anchors."""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from companion.search.mcts import PLAYOUTS
from companion.search.player import LEVELS
from tests.protocol.test_arena_programs import PALACE, minimal_engine, program

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from search_levels import VARIANTS, main, match, paired, table


def test_a_program_plays_whole_games_under_its_name(tmp_path: Path) -> None:
    legal = program(tmp_path, "legal", minimal_engine())
    result = match(legal, "random", 2, 4, names=("last-move", None))
    assert (result["a"], result["b"], result["games"], result["forfeits"]) == (
        "last-move", "random", 2, 0,
    )  # fmt: skip
    assert result["wins"] + result["losses"] + result["shared"] == 2  # type: ignore[operator]
    # each game's result, in order, for paired comparisons of two players on the same deals
    results: list[str] = result["results"]  # type: ignore[assignment]
    assert len(results) == 2
    assert results.count("win") == result["wins"] and results.count("loss") == result["losses"]
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


def _changes(name: str) -> tuple[int, dict[str, object]]:
    """A level-5 variant's iterations and the settings in which it differs from level 5's."""
    level = VARIANTS[name]
    changed = {
        field.name: getattr(level.settings, field.name)
        for field in fields(level.settings)
        if getattr(level.settings, field.name) != getattr(PLAYOUTS, field.name)
    }
    return level.iterations, changed


def test_the_cpp_engines_choices_are_variants_of_level_5_one_by_one() -> None:
    assert LEVELS["5"].settings == PLAYOUTS and LEVELS["5"].iterations == 3000
    assert _changes("5-mean") == (3000, {"by_mean": True})
    assert _changes("5-random-expansion") == (3000, {"scored_expansion": False})
    assert _changes("5-redraw") == (3000, {"redraw": True})
    assert _changes("5-cpplike-lean") == (3000, {"by_mean": True, "scored_expansion": False})
    assert _changes("5-cpplike") == (
        3000, {"exploration": 0.75, "by_mean": True, "scored_expansion": False, "redraw": True},
    )  # fmt: skip


def _played(a: str, results: list[str]) -> dict[str, object]:
    return {"a": a, "b": "C++ 3000", "seed": 5000, "games": len(results), "results": results}


def test_two_matches_on_the_same_deals_are_compared_game_by_game() -> None:
    x = _played("5-mean", ["win", "win", "loss", "shared", "win", "forfeit win"])
    y = _played("5", ["loss", "win", "loss", "loss", "loss", "win"])
    # X scored more in games 0, 3 (half against nothing) and 4: 3 differences, all X's,
    # two-sided p = 2 * (1/2)**3
    assert paired(x, y) == {
        "x": "5-mean", "y": "5", "games": 6, "x_more": 3, "y_more": 0, "p": 0.25,
    }  # fmt: skip
    # the first two games only: one difference, p = 2 * 1/2, at most 1
    assert paired(x, y, 2)["x_more"] == 1 and paired(x, y, 2)["p"] == 1.0


def test_an_older_file_gives_its_results_through_a_players_estimates() -> None:
    # no results recorded: game 1, where A had no real choice, is left out; B's estimates
    # say nothing of A
    older = {"a": "5", "b": "C++ 3000", "seed": 5000, "games": 3,
             "calibration": [["5", 0.4, 1.0, 0], ["5", 0.3, 1.0, 0], ["C++ 3000", 0.5, 1.0, 2],
                             ["5", 0.2, 0.0, 2]]}  # fmt: skip
    newer = _played("5-mean", ["loss", "win", "win"])
    assert paired(newer, older) == {
        "x": "5-mean", "y": "5", "games": 2, "x_more": 1, "y_more": 1, "p": 1.0,
    }  # fmt: skip


def test_matches_on_other_deals_are_not_paired() -> None:
    other = {**_played("5", ["win"]), "seed": 0}
    with pytest.raises(SystemExit, match="same seed and the same opponent"):
        paired(_played("5-mean", ["win"]), other)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "No such file"),
        ("{not json", "not a match file"),
        ('{"a": "5", "b": "4"}', "no seed, games"),
        ("[1, 2]", "no a, b, seed, games"),
    ],
)
def test_a_file_that_is_not_a_match_is_refused_in_one_line(
    tmp_path: Path, text: str | None, message: str
) -> None:
    path = tmp_path / "match.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    for argv in (["paired", str(path), str(path)], ["elo", str(path)]):
        with pytest.raises(SystemExit) as refused:
            main(argv)
        assert str(path) in str(refused.value) and message in str(refused.value)
        assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("match", "message"),
    [
        ({"results": ["win", "draw"]}, "a result not known: 'draw'"),
        (
            {"calibration": [["5", 0.4, 1.0]]},
            "no game-by-game results (written before they were recorded)",
        ),
    ],
)
def test_a_match_whose_games_cannot_be_told_apart_is_refused_in_one_line(
    tmp_path: Path, match: dict[str, object], message: str
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps({"a": "5", "b": "C++", "seed": 1, "games": 2, **match}))
    with pytest.raises(SystemExit) as refused:
        main(["paired", str(path), str(path)])
    assert str(refused.value) == f"{path}: {message}"
