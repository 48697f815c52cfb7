"""7 Wonders Dice (seed 003): buildings added up, barracks and Agora worked out, ties broken."""

from __future__ import annotations

from typing import Any

import pytest

from companion.family.dice import score_dice
from companion.family.sheet import SheetError


def _sheet(*players: dict[str, Any]) -> dict[str, Any]:
    return {"game": "7wonders-dice", "players": list(players)}


def test_every_building_adds_up_with_barracks_and_the_agora_bonus() -> None:
    ann = {"name": "Ann", "warehouse": 1, "gold_reserve": 2, "wonder": 3, "agora": 4,
           "market": 5, "university": 6, "guild_court": 7, "agora_first": True,
           # Seed 003: no defence: the printed points; 1 defence: 1 less; 2: 2 less.
           "barracks": [[3, 0], [3, 1], [3, 2], [1, 2]]}  # fmt: skip
    result = score_dice(_sheet(ann, {"name": "Bob"})).result
    lines = result.players[0].lines
    assert lines["barracks"].points == 3 + 2 + 1 + 0  # 1 - 2 gives nothing, never less
    assert lines["agora"].points == 4 + 3
    assert result.players[0].total == 1 + 2 + 3 + 6 + 7 + 5 + 6 + 7
    assert list(lines) == ["warehouse", "gold_reserve", "wonder", "barracks", "agora",
                           "market", "university", "guild_court"]  # fmt: skip


def test_a_tie_goes_to_most_unused_circled_coins_then_is_shared() -> None:
    ann = {"name": "Ann", "wonder": 10, "unused_coins": 2}
    bob = {"name": "Bob", "market": 10, "unused_coins": 3}
    cid = {"name": "Cid", "guild_court": 10, "unused_coins": 3}
    assert score_dice(_sheet(ann, bob)).result.winners == ("Bob",)
    assert score_dice(_sheet(ann, bob, cid)).result.winners == ("Bob", "Cid")


def test_a_third_bonus_warns_that_the_game_ends() -> None:
    found = score_dice(_sheet({"name": "Ann", "bonuses": 2}, {"name": "Bob", "bonuses": 3}))
    assert found.warnings == ("Bob took a third bonus: the game ends",)
    assert score_dice(_sheet({"name": "Ann", "bonuses": 2}, {"name": "Bob"})).warnings == ()


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        ([{"name": "Ann"}], "players: Dice is scored for 2 to 7 players, got 1"),
        ([{"name": "Ann", "agora_first": True}, {"name": "Bob", "agora_first": True}],
         "players: only one player completes the Agora first"),
        ([{"name": "Ann", "barracks": [[3, 3]]}, {"name": "Bob"}],
         "players[0] (Ann): barracks: attack 1: defence 3 (at most 2)"),
        ([{"name": "Ann", "barracks": [3]}, {"name": "Bob"}],
         "players[0] (Ann): barracks: attack 1: expected [printed points, defence]"),
        ([{"name": "Ann", "market": -1}, {"name": "Bob"}],
         "players[0] (Ann): market: expected a whole number from 0, got -1"),
        ([{"name": "Ann", "armada": 1}, {"name": "Bob"}], "players[0] (Ann): unknown key 'armada'"),
        ([{"name": "Ann"}, {"name": "Ann"}], "players: name 'Ann' is used by 2 players"),
    ],
)  # fmt: skip
def test_impossible_dice_sheets_are_refused(players: list[dict[str, Any]], expected: str) -> None:
    with pytest.raises(SheetError) as refused:
        score_dice(_sheet(*players))
    assert str(refused.value).startswith(expected)
