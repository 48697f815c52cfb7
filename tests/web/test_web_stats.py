"""The statistics page, its JSON twin, the players page and the exports, over the five
hand-counted games of tests/journal/stats_games.py."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from flask import Flask
from flask.testing import FlaskClient

from companion.config import Config
from companion.engine.cards import Catalog
from companion.family.catalog import default_family_catalog
from companion.records.game import Game, import_record
from companion.records.journal import Journal
from companion.records.pads import save_pad
from web import MAX_BODY, create_app
from web.history import HISTORY_MAX_BYTES

ORIGIN = {"Origin": "http://localhost"}


def form(client: FlaskClient, path: str, **fields: str) -> tuple[int, str]:
    page = client.get("/players").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    data = {"csrf_token": token, "pairing_code": CODE, **fields}
    response = client.post(path, data=data, headers=ORIGIN)
    return response.status_code, response.get_data(as_text=True)


def test_stats_json_holds_the_issue_keys(stats_client: FlaskClient) -> None:
    body = stats_client.get("/stats.json").get_json()
    # Hand-counted in stats_games.py: a shared victory in `shared`, not in `civilian`.
    assert body["victories"] == {"civilian": 2, "military": 1, "science": 1, "shared": 1}
    ann = body["players"][0]
    assert {k: ann[k] for k in ("name", "games", "wins", "shared")} == {
        "name": "Ann", "games": 3, "wins": 1, "shared": 1,
    }  # fmt: skip
    assert body["filters"] == {
        "game": "duel", "player": None, "since": None, "until": None, "mode": None,
    }  # fmt: skip
    wonders = {w["id"]: w for w in body["wonders"]}
    assert wonders["the_hanging_gardens"]["name"] == "The Hanging Gardens"


def test_filters_choose_player_period_and_game(stats_client: FlaskClient) -> None:
    assert stats_client.get("/stats.json?player=Cleo").get_json()["games"] == 2
    period = stats_client.get("/stats.json?since=2026-03-04&until=2026-03-31").get_json()
    assert period["games"] == 2
    base = stats_client.get("/stats.json?game=7wonders").get_json()
    assert base["games"] == 0 and "victories" not in base  # won on points: no victory types


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("game=chess", 404, "No statistics for game 'chess'"),
        ("since=yesterday", 400, "since: a date is YYYY-MM-DD"),
    ],
)
def test_bad_filters_are_refused_in_one_line(
    stats_client: FlaskClient, query: str, status: int, message: str
) -> None:
    response = stats_client.get(f"/stats.json?{query}")
    assert response.status_code == status
    assert message in response.get_json()["error"]


def test_the_page_shows_each_chart_with_its_numbers(stats_client: FlaskClient) -> None:
    page = stats_client.get("/stats").get_data(as_text=True)
    assert page.count("<svg") == 7  # players, victories, first, categories, time, wonders, tokens
    assert page.count('<details class="numbers">') == 7
    assert '<rect class="v-shared"' in page and 'data-label="Shared"' in page
    assert 'data-name="shared" data-value="1"' in page  # the shared victory of game 4
    main = page.split("<main>")[1].split("</main>")[0]
    assert "<script" not in main and "http" not in main  # drawn on the box, nothing fetched


def test_the_stats_cache_follows_a_rename(stats_client: FlaskClient) -> None:
    assert stats_client.get("/stats.json").get_json()["players"][0]["name"] == "Ann"
    status, _ = form(stats_client, "/players/rename", old="Ann", new="Anna")
    assert status == 303
    assert stats_client.get("/stats.json").get_json()["players"][0]["name"] == "Anna"
    names = [p["name"] for p in stats_client.get("/players.json").get_json()["players"]]
    assert names == ["Ben", "Anna", "Cleo"]


def test_adding_a_player_needs_the_pairing_code_and_a_good_name(stats_client: FlaskClient) -> None:
    page = stats_client.get("/players").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    data = {"csrf_token": token, "name": "Dora"}
    refused = stats_client.post("/players", data=data, headers=ORIGIN)
    assert refused.status_code == 403
    assert "pairing code" in refused.get_data(as_text=True)
    status, body = form(stats_client, "/players", name="x" * 30)
    assert status == 422 and "a name is 1 to 24 printable characters" in body
    assert form(stats_client, "/players", name="Dora")[0] == 303
    assert stats_client.get("/players.json").get_json()["players"][0]["name"] == "Dora"


def test_csv_export_of_the_chosen_games(stats_client: FlaskClient) -> None:
    response = stats_client.get("/export/games.csv?player=Cleo")
    assert response.headers["Content-Disposition"] == 'attachment; filename="duel-games.csv"'
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["game_id"], r["player"], r["result"]) for r in rows] == [
        ("2", "Ben", "win"), ("2", "Cleo", "loss"), ("3", "Ann", "loss"), ("3", "Cleo", "win"),
    ]  # fmt: skip


def test_history_export_imports_into_another_box_from_the_phone(
    stats_client: FlaskClient, app: Flask, client: FlaskClient
) -> None:
    history = stats_client.get("/export/history.json").get_data()
    assert json.loads(history)["format"] == "duel-companion-history"
    page = client.get("/history/import").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]

    def upload() -> str:
        data = {
            "csrf_token": token,
            "pairing_code": CODE,
            "record": (io.BytesIO(history), "h.json"),
        }
        response = client.post(
            "/history/import", data=data, content_type="multipart/form-data", headers=ORIGIN
        )
        assert response.status_code == 200
        return response.get_data(as_text=True)

    # The other box already holds 4 games of its own (tests/web/conftest.py).
    assert "Added 5 games" in upload()
    again = upload()
    assert "Added 0 games; 5 already here (game 5, 6, 7, 8, 5)" in again
    assert client.get("/stats.json").get_json()["victories"]["shared"] == 1


@pytest.mark.parametrize(
    ("text", "told"),
    [
        (json.dumps({"game": "7wonders-dice", "players": []}, indent=2),
         "a 7 Wonders Dice score sheet, not a game record: add it with Import a score sheet, "
         "under Score pads"),
        (json.dumps({"games": [], "players": [], "plays": []}, indent=2),
         "a BG Stats backup, not a game record: the box imports it with duel-companion import "
         "--bgstats FILE"),
        ('<?xml version="1.0" encoding="utf-8"?>\n<plays total="0" page="1"></plays>\n',
         "BoardGameGeek plays, not a game record: the box imports them with duel-companion "
         "import --bgg-xml FILE"),
    ],
)  # fmt: skip
def test_the_phone_says_what_a_file_that_is_no_record_is(
    client: FlaskClient, text: str, told: str
) -> None:
    page = client.get("/history/import").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    data = {"csrf_token": token, "pairing_code": CODE, "record": (io.BytesIO(text.encode()), "f")}
    response = client.post(
        "/history/import", data=data, content_type="multipart/form-data", headers=ORIGIN
    )
    assert response.status_code == 422
    assert told in response.get_data(as_text=True)


def test_the_live_page_offers_the_known_players_most_recent_first(
    stats_client: FlaskClient, stats_journal: Journal
) -> None:
    game = stats_journal.new_game()
    page = stats_client.get(f"/games/{game}").get_data(as_text=True)
    options = page.split('<datalist id="known-players">')[1].split("</datalist>")[0]
    # Ann and Ben played last (game 4, 2026-03-10), Cleo before (game 3).
    assert options == '<option value="Ben"><option value="Ann"><option value="Cleo">'
    assert page.count('list="known-players"') == 2


def test_a_game_finished_after_a_visit_is_counted_at_the_next(
    stats_client: FlaskClient, stats_journal: Journal, catalog: Catalog
) -> None:
    assert stats_client.get("/stats.json").get_json()["games"] == 5
    assert stats_client.get("/stats.json?player=Ann").get_json()["games"] == 3
    before = stats_client.get("/stats.json").get_json()["victories"]
    counted = stats_client.application.extensions["duel"]["stats"].counted
    everyone = next(e.tally for e in counted.values() if e.filters["player"] is None)
    # A game not in the journal yet (the same record again would be named, not added):
    # the partial-deal golden game, a civilian victory, between Ann and Ben.
    path = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    records[0]["players"] = {"p1": "Ann", "p2": "Ben"}
    import_record(catalog, stats_journal, [json.dumps(r) for r in records])
    after = stats_client.get("/stats.json").get_json()
    assert after["games"] == 6
    assert after["victories"] == {**before, "civilian": before["civilian"] + 1}
    assert any(e.tally is everyone for e in counted.values())  # added to, not counted again
    # The new game was added to the kept tallies: the same as counting all again.
    fresh = create_app(Config.defaults(journal=stats_journal.path), CATALOG=catalog, TESTING=True)
    for query in ("", "?player=Ann", "?player=Cleo"):
        kept = stats_client.get(f"/stats.json{query}").get_json()
        assert kept == fresh.test_client().get(f"/stats.json{query}").get_json()
    assert stats_client.get("/stats.json?player=Ann").get_json()["games"] == 4


def test_an_undo_after_the_end_is_seen_at_the_next_visit(
    stats_client: FlaskClient, stats_journal: Journal, catalog: Catalog
) -> None:
    assert stats_client.get("/stats.json").get_json()["victories"]["civilian"] == 2
    Game(catalog, stats_journal, 5).undo(reopen=True)  # the box reopens game 5: not counted
    kept = stats_client.get("/stats.json").get_json()
    assert kept["victories"]["civilian"] == 1 and kept["games"] == 4
    fresh = create_app(Config.defaults(journal=stats_journal.path), CATALOG=catalog, TESTING=True)
    assert kept == fresh.test_client().get("/stats.json").get_json()


def test_saved_score_pads_are_the_statistics_of_their_game(
    stats_client: FlaskClient, stats_journal: Journal
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
    from family_sheets import player, sheet

    assert stats_client.get("/stats.json?game=7wonders").get_json()["games"] == 0
    # Ann: Palace 8 + 7 coins (2) = 10; Bob: Temple 3 + tokens 5 + 1 = 9; Cid: 0 (as in
    # test_web_scorepad.py).
    pad = sheet(
        player("Ann", "giza", ["palace"], coins=7),
        player("Bob", "rhodes", ["temple"], military=[5, 1]),
        player("Cid", "ephesus"),
    )
    save_pad(stats_journal, default_family_catalog(), pad)
    base = stats_client.get("/stats.json?game=7wonders").get_json()
    assert base["games"] == 1
    assert [(p["name"], p["wins"]) for p in base["players"]] == [("Ann", 1), ("Bob", 0), ("Cid", 0)]
    assert base["categories"]["average"]["total"] == round((10 + 9 + 0) / 3, 1)  # 6.3
    assert "victories" not in base and "first_player" not in base  # the Duel's ideas
    giza = next(w for w in base["wonders"] if w["id"] == "giza")
    assert (giza["name"], giza["owned"], giza["won"]) == ("The Pyramids of Giza", 1, 1)  # Ann
    assert [p["average_rank"] for p in base["players"]] == [1, 2, 3]
    assert stats_client.get("/stats.json").get_json()["games"] == 5  # Duel unchanged


def test_a_history_larger_than_a_record_imports_from_the_phone_up_to_its_own_limit(
    stats_client: FlaskClient, app: Flask, client: FlaskClient
) -> None:
    history = json.loads(stats_client.get("/export/history.json").get_data())
    history["games"] = history["games"] * 12  # 60 games; twins within one file are all kept
    body = json.dumps(history).encode()
    assert len(body) > MAX_BODY  # more than the pages' own limit (one record's)
    page = client.get("/history/import").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]

    def upload(data: bytes) -> Any:
        form = {"csrf_token": token, "pairing_code": CODE, "record": (io.BytesIO(data), "h.json")}
        return client.post(
            "/history/import", data=form, content_type="multipart/form-data", headers=ORIGIN
        )

    answer = upload(body)
    assert answer.status_code == 200 and "Added 60 games" in answer.get_data(as_text=True)
    too_big = client.post(  # a raw body: refused by its length, before any parsing
        "/history/import",
        data=b" " * (HISTORY_MAX_BYTES + 1),
        content_type="multipart/form-data; boundary=x",
        headers=ORIGIN,
    )
    assert too_big.status_code == 413
    assert "The request body is larger than 16 MB" in too_big.get_data(as_text=True)
    assert client.get("/stats.json").get_json()["games"] == 60 + 3  # nothing more was added


def test_the_dice_statistics_name_the_buildings_as_the_pad_does(
    stats_client: FlaskClient, stats_journal: Journal
) -> None:
    def dice_player(name: str, warehouse: int) -> dict[str, Any]:
        return {"name": name, "warehouse": warehouse, "gold_reserve": 1, "wonder": 2,
                "barracks": [], "agora": 0, "agora_first": False, "market": 0,
                "university": 0, "guild_court": 3, "unused_coins": 0, "bonuses": 0}  # fmt: skip

    pad = {"game": "7wonders-dice", "players": [dice_player("Ann", 5), dice_player("Bob", 1)]}
    save_pad(stats_journal, default_family_catalog(), pad)
    page = stats_client.get("/stats?game=7wonders-dice").get_data(as_text=True)
    # what a reader sees: the text between the tags (the attributes keep the JSON's keys)
    shown = " ".join(part.split(">", 1)[-1] for part in page.split("<"))
    assert "Gold reserve" in shown and "Guild court" in shown
    assert "gold_reserve" not in shown and "Gold_reserve" not in shown
    assert "guild_court" not in shown and "Guild_court" not in shown


def test_nobody_is_named_for_the_most_guild_points_when_no_guild_scored(
    stats_client: FlaskClient, stats_journal: Journal
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
    from family_sheets import player, sheet

    pad = sheet(
        player("Ann", "giza", ["palace"], coins=7),
        player("Bob", "rhodes", ["temple"]),
        player("Cid", "ephesus"),
    )
    save_pad(stats_journal, default_family_catalog(), pad)
    page = stats_client.get("/stats?game=7wonders").get_data(as_text=True)
    table = page.split('id="science-guilds"')[1].split("</table>")[0]
    guilds = table.split('data-label="Guilds">')[1].split("</tr>")[0]
    cells = [cell.split("</td>")[0] for cell in guilds.split("<td")[1:]]
    # the last cell, "By": an en dash, nobody
    assert [cell.split(">", 1)[1] for cell in cells] == ["Guilds", "0.0", "0", "\u2013"]
