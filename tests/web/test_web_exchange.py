"""The phone's exports hold the score pads; the phone's import of a history adds them, and the
BG Stats link's JSON twin (journal of tests/journal/exchange_games.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from conftest import CODE
from exchange_games import build
from flask.testing import FlaskClient

from companion.config import Config
from companion.engine.cards import Catalog
from web import create_app

ORIGIN = {"Origin": "http://localhost"}


def test_the_history_file_of_the_phone_carries_the_pads_to_another_box(
    catalog: Catalog, tmp_path: Path, client: FlaskClient
) -> None:
    build(catalog, tmp_path / "source.sqlite").close()
    source = create_app(Config.defaults(journal=tmp_path / "source.sqlite"), TESTING=True)
    history = source.test_client().get("/export/history.json").get_data()
    assert [p["saved"][:10] for p in json.loads(history)["pads"]] == ["2026-04-03", "2026-04-04"]
    page = client.get("/history/import").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    form = {"csrf_token": token, "pairing_code": CODE, "record": (io.BytesIO(history), "h.json")}
    answer = client.post(
        "/history/import", data=form, content_type="multipart/form-data", headers=ORIGIN
    )
    assert answer.status_code == 200
    assert "Added 5 games; 2 score pads." in answer.get_data(as_text=True)
    assert [p["players"] for p in client.get("/api/pads").get_json()] == [
        ["Ann", "Bob"], ["Ann", "Bob", "Cid"],
    ]  # fmt: skip


def test_the_csv_of_the_phone_has_the_pads_rows(catalog: Catalog, tmp_path: Path) -> None:
    build(catalog, tmp_path / "j.sqlite").close()
    app = create_app(Config.defaults(journal=tmp_path / "j.sqlite"), TESTING=True)
    rows = app.test_client().get("/export/games.csv?game=7wonders").get_data(as_text=True)
    expected = Path(__file__).parents[1] / "journal" / "exports" / "7wonders.expected.csv"
    assert rows == expected.read_text()


def test_the_bg_stats_twin_of_an_unknown_game_is_404(catalog: Catalog, tmp_path: Path) -> None:
    build(catalog, tmp_path / "j.sqlite").close()
    app = create_app(Config.defaults(journal=tmp_path / "j.sqlite"), TESTING=True)
    client = app.test_client()
    assert client.get("/games/99/bgstats.json").status_code == 404
    assert client.get("/scorepad/9/bgstats.json").status_code == 404
    data = client.get("/scorepad/2/bgstats.json").get_json()["data"]
    assert data["comments"].startswith("Two-player variant with the Free City.")


def test_a_journal_without_the_seats_table_is_counted_from_its_summaries(
    catalog: Catalog, tmp_path: Path
) -> None:
    build(catalog, tmp_path / "new.sqlite").close()
    new = create_app(Config.defaults(journal=tmp_path / "new.sqlite"), TESTING=True)
    expected = new.test_client().get("/stats.json?player=Ann").get_json()
    with build(catalog, tmp_path / "old.sqlite") as old, old.transaction() as db:
        db.execute("DROP TABLE stat_items")  # as a journal written by an older program
        db.execute("DROP TABLE stat_seats")
    old_app = create_app(Config.defaults(journal=tmp_path / "old.sqlite"), TESTING=True)
    assert old_app.test_client().get("/stats.json?player=Ann").get_json() == expected
