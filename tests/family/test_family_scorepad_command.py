"""`duel-companion scorepad SHEET.json [--json]`: scores, winners, and one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from family_sheets import player, sheet

from companion.cli import main

# Ann: Babylon A, 2 stages (3 VP and a wildcard); Scriptorium (tablet), Workshop (gear),
# Scientists Guild; tokens 1 + 3 - 1 = 3; 5 coins = 1 VP.
# Science: tablet 1, gear 1, two wildcards. Best: compass + compass? (2,1,1): 4+1+1+7 = 13;
# compass + gear (1,2,1): 13; any split that keeps a set scores 13; (0,3,1) = 10. So 13.
ANN = player("Ann", "babylon", ["lumber_yard", "scriptorium", "workshop", "scientists_guild"],
             stages=2, coins=5, military=[1, 3, -1])  # fmt: skip
# Bob: Olympia B, 3 stages (5 VP); Palace 8; token 5; 4 coins = 1. Copies Cid's Workers
# Guild: brown in his neighbours Cid 0 + Ann 1 = 1 (the Scientists Guild would add a lone
# symbol: 1, the same; the left neighbour's guild is taken first).
BOB = player("Bob", "olympia", ["palace"], side="B", stages=3, coins=4, military=[5])
# Cid: Giza A, 3 stages = 15; Workers Guild: brown in Ann 1 + Bob 0 = 1; 9 coins = 3; -1.
CID = player("Cid", "giza", ["workers_guild"], stages=3, coins=9, military=[-1])


def _run(tmp_path: Path, content: Any, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "sheet.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return main(["scorepad", str(path), *options]), "", ""


def test_json_gives_every_category_the_total_and_the_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, _ = _run(tmp_path, sheet(ANN, BOB, CID), "--json")
    out = capsys.readouterr()
    assert status == 0
    assert out.err == ""
    # Ann 3 + 1 + 3 + 13 = 20 and Bob 5 + 1 + 5 + 8 + 1 = 20 tie; Ann has 5 coins to Bob's 4.
    assert json.loads(out.out) == {
        "game": "7wonders",
        "players": [
            {"name": "Ann", "scores": {"military": 3, "treasury": 1, "wonders": 3,
             "civilian": 0, "commercial": 0, "guilds": 0, "science": 13}, "total": 20},
            {"name": "Bob", "scores": {"military": 5, "treasury": 1, "wonders": 5,
             "civilian": 8, "commercial": 0, "guilds": 1, "science": 0}, "total": 20},
            {"name": "Cid", "scores": {"military": -1, "treasury": 3, "wonders": 15,
             "civilian": 0, "commercial": 0, "guilds": 1, "science": 0}, "total": 18},
        ],
        "winners": ["Ann"],
    }  # fmt: skip


def test_the_table_shows_totals_winner_and_where_points_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(tmp_path, sheet(ANN, BOB, CID))[0] == 0
    out = capsys.readouterr().out
    assert "Total        20   20   18" in out
    assert "Commercial    0    0    0" in out  # rows by their names
    assert "Tie on 20: Ann wins on coins, 5 to 4" in out  # a tie on points, Ann's 5 coins
    assert "Olympia copies Workers Guild from Cid: +1 VP" in out
    assert "Scientists Guild counted as a compass: 13 VP" in out


def test_the_free_city_is_not_in_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    free = {**CID, "name": "Free City", "free_city": True}
    _run(tmp_path, {**sheet(ANN, BOB, free), "variant": "two-player"}, "--json")
    found = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in found["players"]] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (sheet(ANN, BOB), "sheet.json: players: the base game is for 3 to 7 players, got 2"),
        (sheet(ANN, BOB, {**CID, "military": [2]}),
         "sheet.json: players[2] (Cid): military: 2 is not a conflict token (1, 3, 5 or -1)"),
        ("{\"game\": ", "sheet.json: not JSON: line 1 column 10: Expecting value"),
        ("[" * 100000 + "]" * 100000, "sheet.json: not a score sheet: nested too deeply"),
        ({"game": "duel"}, "sheet.json: game: expected '7wonders' or '7wonders-dice', got 'duel'"),
    ],
)  # fmt: skip
def test_refusals_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, expected: str
) -> None:
    status, _, _ = _run(tmp_path, content)
    out = capsys.readouterr()
    assert (status, out.out, out.err) == (2, "", expected + "\n")
    status, _, _ = _run(tmp_path, content, "--json")
    out = capsys.readouterr()
    assert (status, out.err) == (2, "")
    assert json.loads(out.out) == {"error": expected}


def test_a_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scorepad", str(tmp_path / "none.json"), "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "none.json: cannot read: No such file or directory"
    }


def test_a_dice_sheet_is_scored_with_its_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dice = {
        "game": "7wonders-dice",
        "players": [
            {"name": "Ann", "warehouse": 2, "wonder": 6, "barracks": [[3, 1]], "agora": 4,
             "agora_first": True, "bonuses": 3, "unused_coins": 1},
            {"name": "Bob", "market": 9, "guild_court": 4, "unused_coins": 2},
        ],
    }  # fmt: skip
    assert _run(tmp_path, dice, "--json")[0] == 0
    found = json.loads(capsys.readouterr().out)
    # Ann: 2 + 6 + (3 - 1) + 4 + 3 (first Agora) = 17; Bob: 9 + 4 = 13.
    assert [p["total"] for p in found["players"]] == [17, 13]
    assert found["winners"] == ["Ann"]
    assert found["warnings"] == ["Ann took a third bonus: the game ends"]

    # the table names the buildings as the sheet prints them
    assert _run(tmp_path, dice)[0] == 0
    table = capsys.readouterr().out.splitlines()
    assert table[:3] == [
        "              Ann  Bob",
        "Warehouse       2    0",
        "Gold reserve    0    0",
    ]
    assert "Guild court     0    4" in table and "guild_court" not in "\n".join(table)
