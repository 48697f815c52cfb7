"""Edifice (seed 001): projects built or failed, participation pawns, the signed line."""

from __future__ import annotations

from typing import Any

import pytest
from family_sheets import player, points, score, sheet

from companion.family.catalog import default_family_catalog
from companion.family.sheet import SheetError, read_table

# Four players: 3 participation pawns per project (seed 001: 3->2, 4->3, 5->3, 6->4, 7->5).
PROJECTS = {
    "projects": [
        {"age": 1, "built": True, "reward_points": 2},  # Ann, Bob, Cid took the 3 pawns
        {"age": 2, "built": False, "penalty_points": 0},  # only Ann took part
        {"age": 3, "built": False, "penalty_points": 3},  # only Bob took part
    ]
}


def _players(**edifice: dict[str, list[int]]) -> list[dict[str, Any]]:
    wonders = {"Ann": "giza", "Bob": "rhodes", "Cid": "ephesus", "Dee": "babylon"}
    return [
        player(name, wonder, **({"edifice": edifice[name]} if name in edifice else {}))
        for name, wonder in wonders.items()
    ]


PLAYERS = _players(
    Ann={"pawns": [1, 2]},
    Bob={"pawns": [1, 3]},
    Cid={"pawns": [1], "debts": [2]},
    Dee={"debts": [2, 3]},
)


def test_the_edifice_line_is_signed_and_in_the_total() -> None:
    result = score(*PLAYERS, expansions=["edifice"], edifice=PROJECTS)
    # Ann: Age I reward 2; Age II failed but she took part; Age III failed, no pawn, no debt:
    # penalty 3 -> 2 - 3 = -1.
    assert points(result, "Ann", "edifice") == 2 - 3
    # Bob: reward 2; Age II failed without him and he paid its penalty (not in points): 0.
    assert points(result, "Bob", "edifice") == 2
    # Cid: reward 2; Age II debt token -3; Age III penalty 3 -> 2 - 3 - 3 = -4.
    assert points(result, "Cid", "edifice") == 2 - 3 - 3
    # Dee: Age II debt -3, Age III debt -5 = -8; her total is only that line.
    assert points(result, "Dee", "edifice") == -8
    assert next(p for p in result.players if p.name == "Dee").total == -8


def test_without_the_expansion_there_is_no_edifice_line() -> None:
    result = score(*_players())
    assert "edifice" not in result.players[0].lines


@pytest.mark.parametrize(
    ("players", "projects", "expected"),
    [
        (_players(Ann={"pawns": [1]}, Bob={"pawns": [1]}), PROJECTS,
         "edifice: the Age 1 project is built, but only 2 of its 3 participation pawns"),
        (PLAYERS, {"projects": PROJECTS["projects"][:2]},
         "edifice: projects: expected one project for each age 1, 2 and 3"),
        (_players(Ann={"pawns": [1], "debts": [1]}), PROJECTS,
         "players[0] (Ann): edifice: a pawn and a debt token of Age 1"),
        (_players(Ann={"pawns": [1, 2, 3]}, Bob={"pawns": [1, 2, 3]},
                  Cid={"pawns": [1, 2, 3]}), PROJECTS,
         "edifice: the Age 2 project failed, but all 3 participation pawns were taken"),
        (_players(Ann={"pawns": [1]}, Bob={"pawns": [1]}, Cid={"pawns": [1]},
                  Dee={"debts": [1]}), PROJECTS,
         "edifice: Dee has a debt token of Age 1, but that project was built"),
        (_players(Ann={"pawns": [4]}), PROJECTS,
         "players[0] (Ann): edifice: pawns: expected a list of ages (1, 2, 3)"),
    ],
)  # fmt: skip
def test_impossible_edifice_entries_are_refused(
    players: list[dict[str, Any]], projects: dict[str, Any], expected: str
) -> None:
    raw = sheet(*players, expansions=["edifice"], edifice=projects)
    with pytest.raises(SheetError) as refused:
        read_table(default_family_catalog(), raw)
    assert str(refused.value).startswith(expected)


def test_edifice_is_not_played_in_the_two_player_variant() -> None:
    players = [
        player("Ann", "giza"),
        player("Bob", "rhodes"),
        player("Free City", "ephesus", free_city=True),
    ]
    raw = sheet(*players, variant="two-player", expansions=["edifice"], edifice=PROJECTS)
    with pytest.raises(SheetError, match="edifice: played by 3 to 7 players"):
        read_table(default_family_catalog(), raw)
