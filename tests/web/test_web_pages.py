"""The pages and their JSON twins show what the engine says, in plain words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import markupsafe
import pytest
from conftest import CIVILIAN, CODE, MILITARY, PLAYING, SCIENCE
from flask.testing import FlaskClient

from companion.config import Config
from companion.engine.cards import Catalog
from companion.engine.scoring import ROWS, Score, ScoreSheet
from companion.records.journal import Journal
from companion.records.replay import replay
from web import create_app


def final_state(catalog: Catalog, records: list[dict[str, Any]]) -> Any:
    return replay(catalog, list(enumerate(records, 1))).state


@pytest.mark.parametrize(
    "path",
    [
        "/history", "/history.json", "/history/import",
        "/games/1", "/games/1.json", "/games/1/board", "/games/1/score", "/games/1/score.json",
        "/games/1/log", "/games/1/log.json", "/games/4", "/games/4/score",
        "/api/games", "/api/games/1/record", "/api/games/4/seq", "/static/style.css",
        "/static/live.js",
    ],
)  # fmt: skip
def test_every_page_answers(client: FlaskClient, path: str) -> None:
    with client.get(path) as response:  # closes the file of a static answer
        assert response.status_code == 200, response.data[:200]


@pytest.mark.parametrize(
    "path",
    [
        "/games/99/score", "/games/99/score.json", "/games/99", "/games/99.json",
        "/games/99/log", "/games/99/board", "/games/0/score", "/games/-1/score",
        "/games/abc/score", "/games/1/nope", "/games/99999999999999999999999999/score",
        "/api/games/99", "/api/games/99/record", "/api/games/99/seq", "/api/nope", "/nope",
    ],
)  # fmt: skip
def test_unknown_pages_and_games_are_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/") or path.endswith(".json"):
        assert response.get_json()["error"]


def test_score_pad_rows_are_the_engine_score_with_their_sources(
    client: FlaskClient, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> None:
    from companion.engine.scoring import score_sheet

    sheet = score_sheet(final_state(catalog, records["civilian"]))
    view = client.get(f"/games/{CIVILIAN}/score.json").get_json()
    assert [row["row"] for row in view["rows"]] == list(ROWS)
    for row in view["rows"]:
        for player in ("p1", "p2"):
            score = getattr(sheet, player)
            assert row["points"][player] == score.row(row["row"])
            assert sum(s["points"] for s in row["sources"][player]) == row["points"][player]
    assert view["total"] == {"p1": sheet.p1.total, "p2": sheet.p2.total}
    assert view["players"] == {"p1": "Ann", "p2": "Ben"}


def test_score_page_shows_the_pad_winner_and_names(
    client: FlaskClient, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> None:
    view = client.get(f"/games/{CIVILIAN}/score.json").get_json()
    page = client.get(f"/games/{CIVILIAN}/score").get_data(as_text=True)
    winner = view["players"][view["result"]["winner"]]
    assert f"{winner} wins: civilian victory" in page
    for label in ("Civilian buildings (blue)", "Guilds (purple)", "Military", "Total"):
        assert label in page
    assert f">{view['total']['p1']}<" in page and f">{view['total']['p2']}<" in page
    assert page.count("<details") == len(ROWS)
    card = next(s for r in view["rows"] for s in r["sources"]["p1"] if r["row"] == "blue")
    assert card["text"] in page


@pytest.mark.parametrize(
    ("game", "victory", "how"),
    [
        (MILITARY, "military", r"The conflict pawn reached Ben's capital"),
        (SCIENCE, "science", r"6 different"),
    ],
)
def test_supremacy_says_so_and_shows_the_moment(
    client: FlaskClient, game: int, victory: str, how: str
) -> None:
    view = client.get(f"/games/{game}/score.json").get_json()
    result = view["result"]
    assert result["victory"] == victory
    assert f"{victory if victory == 'military' else 'scientific'} supremacy" in result["text"]
    log = client.get(f"/games/{game}/log.json").get_json()["entries"]
    assert result["moment"]["seq"] == log[-1]["seq"]
    assert result["moment"]["text"] == log[-1]["text"]
    assert re.search(how, result["moment"]["how"])
    page = client.get(f"/games/{game}/score").get_data(as_text=True)
    assert f"Age {result['moment']['age']}, event {result['moment']['event']} of the age" in page
    assert str(markupsafe.escape(result["moment"]["how"])) in page


def test_a_civilian_tie_says_how_blue_cards_decided(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import web.present

    even = ScoreSheet(
        p1=Score(blue=12, green=0, yellow=0, purple=0, wonders=20, progress=0, coins=5, military=0),
        p2=Score(blue=9, green=3, yellow=0, purple=0, wonders=20, progress=0, coins=5, military=0),
    )
    monkeypatch.setattr(web.present, "score_sheet", lambda state: even)
    result = client.get(f"/games/{CIVILIAN}/score.json").get_json()["result"]
    assert result["tie_break"] == "Tie on 37: Ann wins on blue cards, 12 to 9"


def test_live_board_shows_the_state_of_the_game_being_played(
    client: FlaskClient, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> None:
    state = final_state(catalog, records["playing"])
    view = client.get(f"/games/{PLAYING}.json").get_json()
    assert (view["status"], view["age"], view["current_player"]) == (
        "in_progress", state.age, state.current.value,
    )  # fmt: skip
    for index, player in enumerate(("p1", "p2")):
        city = state.cities[index]
        shown = view["players"][player]
        assert shown["coins"] == city.coins
        assert shown["card_count"] == len(city.cards)
        assert sum(len(names) for names in shown["cards"].values()) == len(city.cards)
        assert len(shown["wonders_built"]) + len(shown["wonders_unbuilt"]) == len(
            city.wonders_built
        ) + len(city.wonders_unbuilt)
        assert set(shown["trade_prices"]) == {"wood", "clay", "stone", "glass", "papyrus"}
    assert [c["at"] for c in view["military"]["cells"] if c["pawn"]] == [state.position]
    assert view["players"]["p1"]["name"] == "Cleo"
    page = client.get(f"/games/{PLAYING}").get_data(as_text=True)
    assert view["turn_text"] in page
    assert f'data-seq="{view["seq"]}"' in page
    assert "live.js" in page


def test_log_tells_every_event_and_marks_undone_ones(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    journal.append_undo(PLAYING)
    entries = client.get(f"/games/{PLAYING}/log.json").get_json()["entries"]
    assert len(entries) == len(records["playing"]) + 1
    assert entries[0]["text"].startswith("Setup: ")
    assert entries[1]["text"] == "Age 1 dealt"
    assert entries[-2]["undone"] and not entries[-3]["undone"]
    assert entries[-1]["undo"] and entries[-1]["text"] == f"Undone: {entries[-2]['text']}"
    page = client.get(f"/games/{PLAYING}/log").get_data(as_text=True)
    assert 'class="undone"' in page


def test_log_undoes_in_turn_and_tells_an_event_played_again(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    n = len(records["playing"])  # rows 1..n; entries 0..n-1
    journal.append_undo(PLAYING)  # cancels row n (entry n-1)
    journal.append_undo(PLAYING)  # cancels row n-1 (entry n-2)
    journal.append(PLAYING, records["playing"][-2])  # row n-1's event, played again
    entries = client.get(f"/games/{PLAYING}/log.json").get_json()["entries"]
    assert len(entries) == n + 3
    assert [e["undone"] for e in entries[n - 3 : n]] == [False, True, True]
    assert entries[n]["text"] == f"Undone: {entries[n - 1]['text']}"
    assert entries[n + 1]["text"] == f"Undone: {entries[n - 2]['text']}"
    assert entries[n + 2]["text"] == entries[n - 2]["text"] and not entries[n + 2]["undone"]
    assert [e["seq"] for e in entries] == list(range(1, n + 4))


def test_the_undo_form_is_offered_only_while_a_game_is_open(client: FlaskClient) -> None:
    assert f'action="/games/{PLAYING}/undo"' in client.get(f"/games/{PLAYING}").get_data(True)
    finished = client.get(f"/games/{CIVILIAN}").get_data(as_text=True)
    assert "/undo" not in finished and "Save the names" in finished


def test_log_words_name_the_player_and_the_card(
    client: FlaskClient, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> None:
    entries = client.get(f"/games/{CIVILIAN}/log.json").get_json()["entries"]
    for record, entry in zip(records["civilian"], entries, strict=True):
        if record["type"] in ("build", "discard"):
            who = {"p1": "Ann", "p2": "Ben"}[record["player"]]
            verb = "builds" if record["type"] == "build" else "discards"
            assert entry["text"].startswith(f"{who} {verb} {catalog.name(record['card'])}")


def test_names_follow_the_configured_language(
    journal: Journal, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> None:
    app = create_app(Config.defaults(journal=journal.path, language="nb"), CATALOG=catalog)
    view = app.test_client().get(f"/games/{CIVILIAN}.json").get_json()
    built = [r["card"] for r in records["civilian"] if r["type"] == "build"]
    translated = [c for c in built if catalog.name(c, "nb") != catalog.name(c, "en")]
    assert translated, "the record should build a card with a Norwegian name"
    shown = {n for city in view["players"].values() for ns in city["cards"].values() for n in ns}
    assert catalog.name(translated[0], "nb") in shown


def test_history_lists_every_game_newest_first_with_results(client: FlaskClient) -> None:
    games = client.get("/history.json").get_json()["games"]
    assert [g["id"] for g in games] == [PLAYING, SCIENCE, MILITARY, CIVILIAN]
    assert games[0]["result"] == "In progress"
    assert "military supremacy" in games[2]["result"]
    page = client.get("/history").get_data(as_text=True)
    assert "Cleo vs Dag" in page and "/api/games/1/record" in page
    assert "Follow the game being played" in page


def test_root_goes_to_the_game_being_played(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 302 and response.location.endswith(f"/games/{PLAYING}")


def test_without_a_journal_the_history_is_empty(tmp_path: Path, catalog: Catalog) -> None:
    app = create_app(Config.defaults(journal=tmp_path / "none.sqlite"), CATALOG=catalog)
    client = app.test_client()
    assert client.get("/").location.endswith("/history")
    assert client.get("/history.json").get_json() == {
        "games": [],
        "page": 1,
        "pages": 1,
        "total": 0,
    }
    assert client.get("/api/games").get_json() == []
    assert client.get("/games/1/score").status_code == 404
    assert not (tmp_path / "none.sqlite").exists()  # reading never creates it


def test_a_foreign_journal_file_is_a_clear_503_and_left_alone(
    tmp_path: Path, catalog: Catalog
) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"not a journal" * 50)
    client = create_app(Config.defaults(journal=path), CATALOG=catalog).test_client()
    response = client.get("/api/games")
    assert response.status_code == 503
    assert "cannot be read (file is not a database)" in response.get_json()["error"]
    assert path.read_bytes() == b"not a journal" * 50


def test_pages_are_small_and_use_no_external_resource(client: FlaskClient) -> None:
    for path in (f"/games/{CIVILIAN}/score", f"/games/{PLAYING}", "/history"):
        page = client.get(path).get_data(as_text=True)
        # the one link out is "Send to BG Stats", tapped by the player: not a resource
        page = re.sub(
            r'<a class="button" id="bgstats" href="https://app\.bgstatsapp\.com/', "", page
        )
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), path
        assert 'name="viewport"' in page
    with client.get("/static/style.css") as response:
        css = response.get_data(as_text=True)
    assert "prefers-color-scheme:dark" in css


def test_every_response_forbids_framing_and_caching_of_pages(client: FlaskClient) -> None:
    response = client.get(f"/games/{CIVILIAN}/score")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Cache-Control"] == "no-store"
    assert CODE not in response.get_data(as_text=True)  # the code is on the OLED only
