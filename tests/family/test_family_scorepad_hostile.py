"""Hostile score sheets: numbers in the game's real ranges, names by the players' rule, files
read with a cap. Every refusal is exit 2 and one line; nothing is written."""

from __future__ import annotations

import json
import os
import random
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest
from family_sheets import player, sheet

from companion.cli import main
from companion.commands import scorepad
from companion.family.catalog import default_family_catalog
from companion.family.pad import score_sheet
from companion.family.sheet import SheetError

ANN = player("Ann", "babylon", ["lumber_yard"], stages=2, coins=5, military=[1, 3, -1])
BOB = player("Bob", "olympia", ["palace"], side="B", stages=3, coins=4, military=[5])
CID = player("Cid", "giza", ["workers_guild"], stages=3, coins=9, military=[-1])
BASE = sheet(ANN, BOB, CID)
DICE = {
    "game": "7wonders-dice",
    "players": [
        {"name": "Ann", "warehouse": 3, "wonder": 5, "barracks": [[3, 1]], "unused_coins": 2},
        {"name": "Bob", "market": 4, "agora": 2, "agora_first": True, "bonuses": 1},
    ],
}


def with_value(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(base))
    node: Any = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (with_value(BASE, ("players", 0, "coins"), 10**5000),
         "players[0] (Ann): coins: at most 200 in a real game, got a number of more than 12"),
        (with_value(BASE, ("players", 0, "coins"), 201),
         "players[0] (Ann): coins: at most 200 in a real game, got 201"),
        (with_value(BASE, ("players", 0, "coins"), 1.0),
         "players[0] (Ann): coins: expected a whole number from 0, got 1.0"),
        (with_value(BASE, ("players", 0, "military"), [[1], 3]),
         "players[0] (Ann): military: [1] is not a conflict token (1, 3, 5 or -1)"),
        (with_value(BASE, ("players", 0, "military"), [1.0]),
         "players[0] (Ann): military: 1.0 is not a conflict token (1, 3, 5 or -1)"),
        (with_value(BASE, ("players", 0, "military"), [True]),
         "players[0] (Ann): military: True is not a conflict token (1, 3, 5 or -1)"),
        (with_value(BASE, ("players", 0, "name"), "Ann\ud800"),
         "players[0]: name: a name is 1 to 24 printable characters"),
        (with_value(BASE, ("players", 0, "name"), "\u202eAnn"),
         "players[0]: name: a name is 1 to 24 printable characters"),
        (with_value(BASE, ("players", 0, "name"), "A\x00nn"),
         "players[0]: name: a name is 1 to 24 printable characters"),
        (with_value(BASE, ("players", 0, "name"), "A" * 5000),
         "players[0]: name: a name is 1 to 24 printable characters"),
        (with_value(DICE, ("players", 0, "warehouse"), 10**4000),
         "players[0] (Ann): warehouse: at most 200 in a real game"),
        (with_value(DICE, ("players", 0, "barracks"), [[10**30, 1]]),
         "players[0] (Ann): barracks: attack 1: expected [printed points, defence]"),
        (with_value(DICE, ("players", 1, "bonuses"), 4),
         "players[1] (Bob): bonuses: at most 3 in a real game, got 4"),
        (with_value(DICE, ("players", 1, "name"), "\u202eBob"),
         "players[1]: name: a name is 1 to 24 printable characters"),
    ],
)  # fmt: skip
def test_a_number_or_name_out_of_the_game_is_refused_in_one_line(raw: Any, message: str) -> None:
    with pytest.raises(SheetError) as refused:
        score_sheet(default_family_catalog(), raw)
    assert str(refused.value).startswith(message)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


def test_a_name_is_kept_as_the_players_rule_keeps_it() -> None:
    pad = score_sheet(default_family_catalog(), with_value(BASE, ("players", 0, "name"), " Ann "))
    assert "Ann" in pad.result.winners or "Ann" in [p.name for p in pad.result.ranked]


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder"])
def test_the_command_refuses_a_special_file_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], special: str
) -> None:
    path = Path(special) if special.startswith("/") else tmp_path / special
    if special == "fifo":
        os.mkfifo(path)  # nobody writes: a plain read would wait for ever
    elif special == "folder":
        path.mkdir()
    assert main(["scorepad", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"{path.name}: not a regular file (a pipe, a device or a folder); name a file\n"


def test_the_command_refuses_a_file_over_its_cap_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(1024 * 1024 + 1)  # sparse: costs no disk
    assert main(["scorepad", str(path)]) == 2
    assert capsys.readouterr().err == "huge.json: larger than 1 MB; not read\n"


def test_a_number_of_thousands_of_digits_in_the_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(BASE).replace('"coins": 5', '"coins": ' + "9" * 5000))
    assert main(["scorepad", str(path)]) == 2
    assert capsys.readouterr().err == (
        "sheet.json: not a score sheet: a number of thousands of digits\n"
    )


# --- fuzz: hundreds of generated hostile sheets --------------------------------------------

HOSTILE: list[Any] = [10**30, 2**70, -1, 1.0, 1.5, 1e308, None, {}, [[1]], [None], "", "\x00",
                      "\ud800", "\u202eA", "x" * 5000, float("nan"), float("inf"), "NaN",
                      {"deep": [[[[[]]]]]}]  # fmt: skip
RAW_HOSTILE = ["9" * 5000, "NaN", "-Infinity", "[" * 5000, "1e99999"]


def places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and list position of a sheet, and a new key in every object."""
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        found.append((*path, "unknown_key"))
        for key, value in node.items():
            found.append((*path, key))
            found.extend(places(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.append((*path, index))
            found.extend(places(value, (*path, index)))
    return found


def hostile_sheets(count: int, seed: int) -> list[str]:
    """`count` sheet files: one value of a valid sheet replaced by a hostile one, or a raw
    hostile number written into the text."""
    rng = random.Random(seed)
    files = []
    for _ in range(count):
        base = rng.choice([BASE, DICE])
        where = rng.choice(places(base))
        if rng.random() < 0.2:
            text = json.dumps(with_value(base, where, "@RAW@")).replace(
                '"@RAW@"', rng.choice(RAW_HOSTILE)
            )
        else:
            text = json.dumps(with_value(base, where, rng.choice(HOSTILE)))
        files.append(text)
    return files


def test_hundreds_of_hostile_sheets_are_each_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sheet.json"
    refused = 0
    for number, text in enumerate(hostile_sheets(400, seed=25)):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for options in ([], ["--json"]):
            status = scorepad.main(Namespace(sheet=path, json=bool(options)))  # the command
            out = capsys.readouterr()
            assert status in (0, 2), (number, text[:200])
            if status == 2 and options:
                assert out.err == "" and out.out.count("\n") == 1, (number, text[:200])
                assert set(json.loads(out.out)) == {"error"}
            elif status == 2:
                assert out.out == "" and out.err.count("\n") == 1, (number, text[:200])
                assert out.err.startswith("sheet.json: ")
        refused += status == 2
    assert refused >= 380  # a few mutations stay a real game (a hostile value of a free key)
