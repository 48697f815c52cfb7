"""Exports and filters against hostile names and dates: CSV cells never run as formulas,
dates are parsed, not compared as text."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
from conftest import CODE
from flask.testing import FlaskClient

from companion.records.archive import csv_cell
from companion.records.journal import Journal


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("Ann", "Ann"),
        (-3, -3),
        (12.5, 12.5),
        ("", ""),
    ],
)
def test_a_csv_cell_never_starts_a_formula(value: object, cell: object) -> None:
    assert csv_cell(value) == cell


def test_the_games_csv_escapes_a_formula_name(
    stats_client: FlaskClient, stats_journal: Journal
) -> None:
    game = stats_journal.games()[0]
    stats_journal.set_players(game.id, {"p1": '=HYPERLINK("x")', "p2": "@Bob"})
    text = stats_client.get("/export/games.csv").get_data(as_text=True)
    names = [row["player"] for row in csv.DictReader(io.StringIO(text))]
    assert '\'=HYPERLINK("x")' in names and "'@Bob" in names
    assert not any(name.startswith(("=", "@", "+")) for name in names)


def test_a_date_without_dashes_is_parsed_not_compared_as_text(stats_client: FlaskClient) -> None:
    # the five games finished on 2026-03-01, 03-02, 03-05, 03-10 and 04-02 (stats_games.py);
    # as text "2026-03-05" < "20260302", which left out every game
    plain = stats_client.get("/stats.json?since=20260302").get_json()
    assert plain["games"] == 4
    assert plain["filters"]["since"] == "2026-03-02"
    assert stats_client.get("/stats.json?until=20260302").get_json()["games"] == 2


@pytest.mark.parametrize("value", ["2026-13-01", "garbage", "2026-01-01T00:00:00", "9" * 500])
def test_a_date_filter_that_is_no_date_is_a_400(stats_client: FlaskClient, value: str) -> None:
    answer = stats_client.get(f"/stats.json?until={value}")
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith("until: a date is YYYY-MM-DD")


def test_statistics_answer_with_a_stored_row_they_cannot_read(
    stats_client: FlaskClient, stats_journal: Journal
) -> None:
    with sqlite3.connect(stats_journal.path) as db:  # as an older program might have kept them
        for game, finished in ((1, "garbage"), (2, "2026-02-30T20:00:00Z")):
            query = "SELECT summary FROM game_summaries WHERE game_id = ?"
            (text,) = db.execute(query, (game,)).fetchone()
            spoiled = {**json.loads(text), "finished": finished}
            update = "UPDATE game_summaries SET summary = ? WHERE game_id = ?"
            db.execute(update, (json.dumps(spoiled), game))
    for path in ("/stats.json", "/stats.json?since=2026-01-01", "/stats", "/export/games.csv"):
        assert stats_client.get(path).status_code == 200, path
    answer = stats_client.get("/stats.json").get_json()
    assert (answer["games"], answer["unreadable"]) == (3, 2)
    page = stats_client.get("/stats").get_data(as_text=True)
    assert "2 stored games could not be read and are left out." in page


def test_a_history_with_a_bad_name_is_refused_from_the_phone_and_writes_nothing(
    stats_client: FlaskClient, client: FlaskClient, journal: Journal
) -> None:
    history = json.loads(stats_client.get("/export/history.json").get_data())
    history["players"] = ["Ann", "Eve\u202egnp.exe"]
    page = client.get("/history/import").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    before = [g.id for g in journal.games()]
    answer = client.post(
        "/history/import",
        data={"csrf_token": token, "pairing_code": CODE, "text": json.dumps(history)},
        headers={"Origin": "http://localhost"},
    )
    assert answer.status_code == 422
    assert "players: a name is 1 to 24 printable characters" in answer.get_data(as_text=True)
    assert [g.id for g in journal.games()] == before
