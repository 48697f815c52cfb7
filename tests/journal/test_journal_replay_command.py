"""`duel-companion replay` reads through the one reader: a hostile record is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

RECORDS = Path(__file__).resolve().parents[1] / "records"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 200_000, "line 1: nested too deeply"),  # was a RecursionError traceback
        (
            b'{"type": "deal", "age": ' + b"7" * 5_000 + b"}",  # was a ValueError traceback
            "line 1: a number of 5000 characters (at most 20)",
        ),
        (b"", "the record holds no event"),  # was "Age 1, None to play"
        (b"\n \n", "the record holds no event"),
        (b'{"type": "undo"}\n', "line 1: Nothing to undo"),
        (b"\xff\xfe{}", "not UTF-8 text (a game record is JSON Lines)"),
        (b'{"type": "x"}\n' * 20_000, "the record is larger than 256 KB"),
    ],
)
def test_a_hostile_record_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == message + "\n"
    assert main(["replay", str(path), "--json"]) == 2
    answer = json.loads(capsys.readouterr().out)
    line = int(message.split(":")[0][5:]) if message.startswith("line ") else None
    reason = message.split(": ", 1)[1] if line is not None else message
    assert answer == {"error": reason, "line": line}


def test_a_record_with_an_undo_line_replays_without_the_undone_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (RECORDS / "simulated_civilian_win.jsonl").read_text().splitlines()
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join([*lines[:4], json.dumps({"type": "undo"})]) + "\n")
    assert main(["replay", str(path), "--json"]) == 0
    undone = json.loads(capsys.readouterr().out)
    path.write_text("\n".join(lines[:3]) + "\n")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == undone


@pytest.mark.parametrize(
    ("card", "meant"),
    [
        ("Lumber Yard", "lumber_yard"),  # its name, as printed on the card
        ("lumber yard", "lumber_yard"),
        ("Lumbr Yard", "lumber_yard"),  # a typo
        ("Steingruve", "stone_pit"),  # its Norwegian name
    ],
)
def test_a_card_named_instead_of_its_id_gets_the_id_to_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], card: str, meant: str
) -> None:
    lines = (RECORDS / "simulated_civilian_win.jsonl").read_text().splitlines()[:2]
    path = tmp_path / "game.jsonl"
    path.write_text(
        "\n".join([*lines, json.dumps({"type": "build", "player": "p2", "card": card})])
    )
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (f"line 3: Unknown card {card!r} (did you mean {meant!r}?)\n")


def test_a_refusal_without_a_misspelt_id_gets_no_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (RECORDS / "simulated_civilian_win.jsonl").read_text().splitlines()[:2]
    path = tmp_path / "game.jsonl"
    build = {"type": "build", "player": "p1", "card": "lumber_yard"}  # p2 is to play
    path.write_text("\n".join([*lines, json.dumps(build)]))
    assert main(["replay", str(path)]) == 2
    assert "did you mean" not in capsys.readouterr().err


def test_a_name_two_cards_share_suggests_neither(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the Norwegian rulebook names both Lumber Yard and Sawmill "Sagbruk"
    lines = (RECORDS / "simulated_civilian_win.jsonl").read_text().splitlines()[:2]
    path = tmp_path / "game.jsonl"
    build = {"type": "build", "player": "p2", "card": "Sagbruk"}
    path.write_text("\n".join([*lines, json.dumps(build)]))
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == "line 3: Unknown card 'Sagbruk'\n"
