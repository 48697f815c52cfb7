"""The JSON API: reads for scripts, and changes that need the pairing code."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import CIVILIAN, CODE, PLAYING, lines
from flask.testing import FlaskClient

from companion.engine.cards import Catalog
from companion.records.game import Game
from companion.records.journal import Journal, Outcome
from companion.records.replay import replay

PAIRED = {"X-Pairing-Code": CODE}


def test_games_lists_the_summary_fields(client: FlaskClient) -> None:
    games = client.get("/api/games").get_json()
    assert [g["id"] for g in games] == [4, 3, 2, 1]
    for game in games:
        assert {"id", "status", "winner", "victory", "started", "finished"} <= set(game)
    assert games[-1]["status"] == "finished" and games[-1]["victory"] == "civilian"
    assert games[0]["status"] == "in_progress" and games[0]["winner"] is None


def test_game_is_the_replay_json_object(
    client: FlaskClient, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> None:
    from companion.records.replay import state_to_json

    expected = state_to_json(replay(catalog, list(enumerate(records["civilian"], 1))).state)
    assert client.get(f"/api/games/{CIVILIAN}").get_json() == json.loads(json.dumps(expected))


def test_record_downloads_the_effective_events_as_json_lines(
    client: FlaskClient, records: dict[str, list[dict[str, Any]]]
) -> None:
    response = client.get(f"/api/games/{CIVILIAN}/record")
    assert response.mimetype == "application/jsonl"
    assert 'filename="game-1.jsonl"' in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    assert [json.loads(line) for line in text.splitlines()] == records["civilian"]


def test_a_downloaded_record_imports_as_the_same_game(
    client: FlaskClient, journal: Journal
) -> None:
    text = client.get(f"/api/games/{PLAYING}/record").get_data()  # played here, unfinished
    response = client.post(
        "/api/games", data=text, headers={**PAIRED, "Content-Type": "application/jsonl"}
    )
    assert response.status_code == 201
    new = response.get_json()
    assert (new["id"], new["status"]) == (5, "in_progress")
    assert client.get(f"/api/games/{new['id']}/record").get_data() == text
    assert (
        client.get("/games/5/score.json").get_json()["total"]
        == client.get(f"/games/{PLAYING}/score.json").get_json()["total"]
    )


@pytest.mark.parametrize("game", [CIVILIAN, 5])
def test_a_record_already_in_the_history_is_named_not_added_again(
    client: FlaskClient, journal: Journal, game: int
) -> None:
    if game == 5:  # a game played here to its end, then exported
        records = [json.loads(line) for line in journal.export_record(CIVILIAN).splitlines()]
        played = journal.new_game()
        for record in records[:-1]:
            journal.append(played, record)
        journal.append(played, records[-1], Outcome("finished", "p1", "civilian"))
    text = client.get(f"/api/games/{game}/record").get_data()
    headers = {**PAIRED, "Content-Type": "application/jsonl"}
    before = len(journal.games())
    response = client.post("/api/games", data=text, headers=headers)
    assert response.status_code == 409
    assert response.get_json() == {
        "error": f"already in the history as game {min(game, CIVILIAN)}",
        "status": 409,
        "game": min(game, CIVILIAN),  # the first game holding these events
    }
    assert len(journal.games()) == before


def test_seq_moves_with_every_change(client: FlaskClient, journal: Journal) -> None:
    before = client.get(f"/api/games/{PLAYING}/seq").get_json()
    assert before == {"game": 4, "seq": 25, "status": "in_progress",
                      "players": before["players"], "asked": ""}  # fmt: skip
    journal.append_undo(PLAYING)
    assert client.get(f"/api/games/{PLAYING}/seq").get_json()["seq"] == 26


def test_undo_with_the_code_undoes_the_last_event(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    response = client.post(f"/api/games/{PLAYING}/undo", headers=PAIRED)
    assert response.status_code == 200
    assert response.get_json()["seq"] == 26
    assert journal.effective_events(PLAYING) == records["playing"][:-1]


def test_a_phone_cannot_reopen_a_finished_game(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    seq = journal.last_seq(CIVILIAN)
    response = client.post(f"/api/games/{CIVILIAN}/undo", headers=PAIRED)
    assert response.status_code == 409
    assert response.get_json()["error"].startswith("The game is finished")
    last = {"record": records["civilian"][-1]}  # the same event again: still refused
    response = client.post(f"/api/games/{CIVILIAN}/correct", json=last, headers=PAIRED)
    assert response.status_code == 409
    assert journal.game(CIVILIAN).status == "finished"
    assert journal.last_seq(CIVILIAN) == seq


@pytest.mark.parametrize("headers", [{}, {"X-Pairing-Code": "000000"}, {"X-Pairing-Code": ""}])
def test_undo_without_the_right_code_is_403_and_changes_nothing(
    client: FlaskClient, journal: Journal, headers: dict[str, str]
) -> None:
    response = client.post(f"/api/games/{PLAYING}/undo", headers=headers)
    assert response.status_code == 403
    assert "pairing code" in response.get_json()["error"]
    assert journal.last_seq(PLAYING) == 25


def test_undo_with_nothing_to_undo_is_409(client: FlaskClient, journal: Journal) -> None:
    empty = journal.new_game()
    response = client.post(f"/api/games/{empty}/undo", headers=PAIRED)
    assert response.status_code == 409
    assert response.get_json()["error"] == "Nothing to undo"
    assert journal.last_seq(empty) == 0


def test_undo_of_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.post("/api/games/99/undo", headers=PAIRED).status_code == 404


def test_undo_refuses_get(client: FlaskClient) -> None:
    response = client.get(f"/api/games/{PLAYING}/undo")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]


def test_players_can_be_named_and_the_pages_follow(client: FlaskClient, journal: Journal) -> None:
    response = client.post(f"/api/games/{PLAYING}/players", json={"p2": "Dagny"}, headers=PAIRED)
    assert response.status_code == 200
    assert journal.game(PLAYING).players == {"p1": "Cleo", "p2": "Dagny"}
    assert client.get(f"/games/{PLAYING}.json").get_json()["players"]["p2"]["name"] == "Dagny"
    exported = json.loads(client.get(f"/api/games/{PLAYING}/record").get_data().splitlines()[0])
    assert exported["players"] == {"p1": "Cleo", "p2": "Dagny"}


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b'{"p1": "Ann"', "application/json", 400),
        (b"[1, 2]", "application/json", 400),
        (b'{"p1": 3}', "application/json", 400),
        (b'{"p1": "' + b"x" * 25 + b'"}', "application/json", 400),
        (b'{"p1": "a\\u0000b"}', "application/json", 400),
        (b"{}", "application/json", 400),
        (b"p1=Ann", "application/x-www-form-urlencoded", 415),
    ],
)
def test_malformed_player_names_are_4xx_and_change_nothing(
    client: FlaskClient, journal: Journal, body: bytes, content_type: str, status: int
) -> None:
    response = client.post(
        f"/api/games/{PLAYING}/players",
        data=body,
        headers={**PAIRED, "Content-Type": content_type},
    )
    assert response.status_code == status
    assert response.get_json()["error"]
    assert journal.game(PLAYING).players == {"p1": "Cleo", "p2": "Dag"}


def test_a_mis_scan_is_corrected_by_replacing_the_last_event(
    client: FlaskClient,
    journal: Journal,
    catalog: Catalog,
    records: dict[str, list[dict[str, Any]]],
) -> None:
    from companion.engine.events import event_to_record
    from companion.engine.rules import legal_events

    before = replay(catalog, list(enumerate(records["playing"][:-1], 1))).state
    options = [event_to_record(e) for e in legal_events(before)]
    other = next(r for r in options if r != records["playing"][-1])
    response = client.post(f"/api/games/{PLAYING}/correct", json={"record": other}, headers=PAIRED)
    assert response.status_code == 200, response.get_json()
    assert journal.effective_events(PLAYING) == [*records["playing"][:-1], other]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"record": {"type": "build", "player": "p1", "card": "no_such_card"}}, 409),
        ({"record": {"type": "fly"}}, 409),
        ({"record": "build"}, 400),
        ({"event": {}}, 400),
    ],
)
def test_a_refused_correction_changes_nothing(
    client: FlaskClient, journal: Journal, body: dict[str, Any], status: int
) -> None:
    response = client.post(f"/api/games/{PLAYING}/correct", json=body, headers=PAIRED)
    assert response.status_code == status
    assert journal.last_seq(PLAYING) == 25


def test_import_refusal_names_the_line_and_adds_nothing(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    text = lines(records["civilian"])
    text[7] = text[6]  # the same card twice
    response = client.post(
        "/api/games",
        data="\n".join(text),
        headers={**PAIRED, "Content-Type": "application/jsonl"},
    )
    assert response.status_code == 422
    assert response.get_json()["error"].startswith("line 8: ")
    assert len(journal.games()) == 4


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        (b'{"type":"setup"', "application/jsonl", 422),
        (b"\xff\xfe\x00junk", "application/jsonl", 422),
        (b"", "application/jsonl", 422),
        (b'{"type":"setup"}', "application/json", 415),
        (b'{"type":"setup"}\n' * 20000, "application/jsonl", 413),
    ],
)
def test_bad_imports_are_4xx_and_add_nothing(
    client: FlaskClient, journal: Journal, data: bytes, content_type: str, status: int
) -> None:
    response = client.post(
        "/api/games", data=data, headers={**PAIRED, "Content-Type": content_type}
    )
    assert response.status_code == status
    assert response.get_json()["error"]
    assert len(journal.games()) == 4


def test_import_needs_the_code(client: FlaskClient, journal: Journal) -> None:
    response = client.post(
        "/api/games", data=b'{"type":"setup"}', headers={"Content-Type": "application/jsonl"}
    )
    assert response.status_code == 403
    assert len(journal.games()) == 4


def test_an_api_call_from_another_site_is_refused(client: FlaskClient, journal: Journal) -> None:
    response = client.post(
        f"/api/games/{PLAYING}/undo", headers={**PAIRED, "Origin": "http://evil.example"}
    )
    assert response.status_code == 403
    assert journal.last_seq(PLAYING) == 25


def test_an_api_call_from_our_own_page_is_accepted(client: FlaskClient) -> None:
    response = client.post(
        f"/api/games/{PLAYING}/undo", headers={**PAIRED, "Origin": "http://localhost"}
    )
    assert response.status_code == 200


def test_a_stale_writer_is_refused_after_a_phone_undo(
    client: FlaskClient, journal: Journal, catalog: Catalog
) -> None:
    game = Game(catalog, journal, PLAYING)
    assert client.post(f"/api/games/{PLAYING}/undo", headers=PAIRED).status_code == 200
    with pytest.raises(Exception, match="changed elsewhere"):
        game.undo()
