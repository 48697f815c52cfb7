"""Exports and filters against hostile names and dates: CSV cells never run as formulas,
dates are parsed, not compared as text."""

from __future__ import annotations

import csv
import io

import pytest
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
    stats_journal.set_players(game.id, {"p1": "=HYPERLINK(\"x\")", "p2": "@Bob"})
    text = stats_client.get("/export/games.csv").get_data(as_text=True)
    names = [row["player"] for row in csv.DictReader(io.StringIO(text))]
    assert "'=HYPERLINK(\"x\")" in names and "'@Bob" in names
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
