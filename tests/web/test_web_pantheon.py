"""The phone pages of a Pantheon game: the live board shows the Pantheon board with each
space's activation price for both players, the score pad the divinities' row. The game is
the golden Pantheon record (tests/records/pantheon/civilian_win.jsonl)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CODE
from flask.testing import FlaskClient

from companion.config import Config
from companion.engine.catalog import default_catalog
from companion.engine.events import event_to_record
from companion.records.journal import Journal
from companion.service.playback import read_record
from web import create_app

RECORD = Path(__file__).parents[1] / "records" / "pantheon" / "civilian_win.jsonl"


def pantheon_journal(path: Path, *counts: int) -> Journal:
    """A journal with a game per count: the golden Pantheon record's first `count` events."""
    journal = Journal.create(path)
    events = read_record(RECORD)
    for count in counts:
        game = journal.new_game()
        for event in events[:count]:
            journal.append(game, event_to_record(event))
    return journal


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    """Game 1: after 46 events (age 2, Ann to activate Hades); game 2: after 13 (age 1);
    game 3: the whole game."""
    with pantheon_journal(tmp_path / "pantheon.sqlite", 46, 13, 10_000) as journal:
        app = create_app(Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE,
                         CATALOG=default_catalog(("pantheon",)))  # fmt: skip
        yield app.test_client()


def test_the_live_board_prices_each_space_for_both_players(client: FlaskClient) -> None:
    board = client.get("/games/1.json").get_json()["pantheon"]
    # Ann (p1) has the Sanctuary: space n costs her n + 2 - 2 = n, the Gate on space 2
    # 2 x 4 - 2 = 6. Ben (p2) pays 8, 7, 6, 5, 4, 3 from space 1; the Gate 2 x 7 = 14.
    spaces = [(s["name"], s["price"]["p1"], s["price"]["p2"]) for s in board["spaces"]]
    assert spaces == [
        ("Neptune", 1, 8),
        ("Gate", 6, 14),
        ("Ra", 3, 6),
        ("", None, None),
        ("Hades", 5, 4),
        ("Minerva", 6, 3),
    ]
    assert board["spaces"][0]["price_text"] == {"p1": "1 coin", "p2": "8 coins"}
    assert board["players"]["p1"]["offerings"] == [2, 4]
    assert board["players"]["p2"]["activated"] == ["Enki"]
    assert board["to_move"] == "p1"
    page = client.get("/games/1").get_data(as_text=True)
    assert 'id="pantheon"' in page and "Hades" in page and "14 coins" in page


def test_in_age_1_the_live_board_names_only_the_mythology(client: FlaskClient) -> None:
    spaces = client.get("/games/2.json").get_json()["pantheon"]["spaces"]
    assert [s["name"] for s in spaces[3:]] == [
        "Mesopotamian divinity, face down",
        "Greek divinity, face down",
        "Roman divinity, face down",
    ]
    assert all(s["card"] is None for s in spaces)  # the divinity itself stays hidden
    assert "Hades" not in client.get("/games/2").get_data(as_text=True)


def test_the_score_pad_has_the_divinities_row(client: FlaskClient) -> None:
    score = client.get("/games/3/score.json").get_json()
    rows = {r["row"]: r for r in score["rows"]}
    assert list(rows)[-1] == "divinities" and rows["divinities"]["label"] == "Divinities"
    # tests/pantheon: Aphrodite 9 for Ann; Ben's 3 Grand Temples 21 in the purple row
    assert rows["divinities"]["points"] == {"p1": 9, "p2": 0}
    assert [s["text"] for s in rows["divinities"]["sources"]["p1"]] == ["Aphrodite"]
    assert rows["purple"]["sources"]["p2"] == [
        {"id": "grand_temples", "text": "3 Grand Temples", "points": 21}
    ]
    assert rows["purple"]["label"] == "Grand Temples (purple)"
    assert score["total"] == {"p1": 59, "p2": 58}
    assert "Divinities" in client.get("/games/3/score").get_data(as_text=True)


def test_a_base_game_has_no_pantheon(tmp_path: Path) -> None:
    base = Path(__file__).parents[1] / "records" / "simulated_civilian_win.jsonl"
    with Journal.create(tmp_path / "base.sqlite") as journal:
        game = journal.new_game()
        for event in read_record(base):
            journal.append(game, event_to_record(event))
        app = create_app(Config.defaults(journal=journal.path), TESTING=True,
                         CATALOG=default_catalog(("pantheon",)))  # fmt: skip
        client = app.test_client()
        assert client.get("/games/1.json").get_json()["pantheon"] is None
        rows = [r["row"] for r in client.get("/games/1/score.json").get_json()["rows"]]
        assert "divinities" not in rows
