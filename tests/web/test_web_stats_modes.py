"""Statistics, history and exports split by mode: a journal with a base game (the simulated
civilian win) and a Pantheon game (the golden record tests/records/pantheon/civilian_win.jsonl,
Ann 59 to Ben 58, Ann with 9 points of divinities), both imported through the journal API."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CODE
from flask.testing import FlaskClient

from companion.config import Config
from companion.engine.catalog import default_catalog
from companion.records.game import import_record
from companion.records.journal import Journal
from web import create_app

RECORDS = Path(__file__).parents[1] / "records"
BASE, PANTHEON = 1, 2  # game ids, in the order they are imported


def journal_with_both(path: Path) -> Journal:
    """A journal with the base game's record, then the Pantheon game's."""
    catalog = default_catalog(("pantheon",))
    journal = Journal.create(path)
    for record in (
        RECORDS / "simulated_civilian_win.jsonl",
        RECORDS / "pantheon/civilian_win.jsonl",
    ):
        import_record(catalog, journal, record.read_text().splitlines())
    return journal


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    with journal_with_both(tmp_path / "modes.sqlite") as journal:
        app = create_app(Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE,
                         CATALOG=default_catalog(("pantheon",)))  # fmt: skip
        yield app.test_client()


@pytest.mark.parametrize(
    ("mode", "games", "names"),
    [("", 2, {"Ann", "Ben"}), ("base", 1, set()), ("pantheon", 1, {"Ann", "Ben"})],
)
def test_stats_json_counts_the_games_of_each_mode(
    client: FlaskClient, mode: str, games: int, names: set[str]
) -> None:
    body = client.get(f"/stats.json?mode={mode}").get_json()
    assert body["filters"]["mode"] == (mode or None)
    assert body["games"] == games
    assert sum(body["victories"].values()) == games
    assert sum(body["modes"].values()) == games
    assert {p["name"] for p in body["players"]} >= names


def test_every_mode_counts_its_games(client: FlaskClient) -> None:
    assert client.get("/stats.json").get_json()["modes"] == {"base": 1, "pantheon": 1}


def test_the_pantheon_mode_averages_the_divinities_row(client: FlaskClient) -> None:
    body = client.get("/stats.json?mode=pantheon").get_json()
    assert body["categories"]["rows"][-1] == "divinities"
    # Ann 9 and Ben 0 divinity points: 4.5 a player; totals 59 and 58: 58.5
    assert body["categories"]["average"]["divinities"] == 4.5
    assert body["categories"]["average"]["total"] == 58.5
    ann = next(p for p in body["players"] if p["name"] == "Ann")
    assert (ann["games"], ann["wins"]) == (1, 1)


def test_the_base_mode_has_no_divinities_row(client: FlaskClient) -> None:
    body = client.get("/stats.json?mode=base").get_json()
    assert "divinities" not in body["categories"]["rows"]


def test_an_unknown_mode_is_404(client: FlaskClient) -> None:
    assert client.get("/stats.json?mode=cities").status_code == 404


def test_the_stats_page_offers_the_mode_filter(client: FlaskClient) -> None:
    page = client.get("/stats?mode=pantheon").get_data(as_text=True)
    assert '<option value="pantheon" selected>Pantheon</option>' in page
    assert '<b id="games-count">1</b> finished game (Pantheon)' in page
    everything = client.get("/stats").get_data(as_text=True)
    assert '(<span id="mode-counts">1 base, 1 Pantheon</span>)' in everything


def test_the_history_names_the_pantheon_game(client: FlaskClient) -> None:
    games = {g["id"]: g for g in client.get("/history.json").get_json()["games"]}
    assert (games[BASE]["mode"], games[PANTHEON]["mode"]) == ("", "Pantheon")
    assert games[PANTHEON]["expansions"] == ["pantheon"]
    page = client.get("/history").get_data(as_text=True)
    assert page.count('<span class="mode">Pantheon</span>') == 1


def test_each_csv_row_adds_up_to_its_total(client: FlaskClient) -> None:
    text = client.get("/export/games.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    head = next(csv.reader(io.StringIO(text)))
    categories = head[head.index("blue") : head.index("total")]
    assert categories[-1] == "divinities"
    pantheon = {r["player"]: r for r in rows if r["game_id"] == str(PANTHEON)}
    assert (pantheon["Ann"]["divinities"], pantheon["Ann"]["total"]) == ("9", "59")
    assert {r["divinities"] for r in rows if r["game_id"] == str(BASE)} == {""}
    for row in rows:
        assert sum(int(row[c] or 0) for c in categories) == int(row["total"])


def test_the_csv_of_base_games_only_has_no_divinities_column(client: FlaskClient) -> None:
    head = client.get("/export/games.csv?mode=base").get_data(as_text=True).splitlines()[0]
    assert "divinities" not in head


def test_a_summary_stored_before_modes_is_given_its_expansions(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    journal_with_both(path).close()
    with sqlite3.connect(path) as db:  # as an older program left them: no expansions, no row
        db.execute("DELETE FROM schema_steps WHERE step = 'summary-expansions-1'")
        for game_id, text in db.execute("SELECT game_id, summary FROM game_summaries").fetchall():
            summary = json.loads(text)
            del summary["expansions"]
            for seat in summary["seats"]:
                seat["scores"].pop("divinities", None)
            db.execute(
                "UPDATE game_summaries SET summary = ? WHERE game_id = ?",
                (json.dumps(summary), game_id),
            )
    Journal.open(path).close()  # the box opens its journal: the new step is applied
    app = create_app(Config.defaults(journal=path), TESTING=True, PAIRING_CODE=CODE,
                     CATALOG=default_catalog(("pantheon",)))  # fmt: skip
    body = app.test_client().get("/stats.json?mode=pantheon").get_json()
    assert (body["games"], body["categories"]["average"]["divinities"]) == (1, 4.5)
    assert app.test_client().get("/stats.json?mode=base").get_json()["games"] == 1
