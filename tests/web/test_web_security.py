"""Form posts need our origin, our form token and the pairing code; guessing is throttled."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from conftest import CIVILIAN, CODE, PLAYING, lines
from flask import Flask
from flask.testing import FlaskClient

from companion.records.journal import Journal

OURS = {"Origin": "http://localhost"}


def token(client: FlaskClient, path: str = f"/games/{PLAYING}") -> str:
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page)
    assert found is not None
    return found.group(1)


def test_undo_form_with_origin_token_and_code_undoes(client: FlaskClient, journal: Journal) -> None:
    form = {"csrf_token": token(client), "pairing_code": CODE}
    response = client.post(f"/games/{PLAYING}/undo", data=form, headers=OURS)
    assert response.status_code == 303
    assert response.location.endswith(f"/games/{PLAYING}")
    assert journal.rows(PLAYING)[-1].is_undo


def test_a_referer_from_our_pages_stands_for_the_origin(
    client: FlaskClient, journal: Journal
) -> None:
    form = {"csrf_token": token(client), "pairing_code": CODE}
    headers = {"Referer": f"http://localhost/games/{PLAYING}"}
    assert client.post(f"/games/{PLAYING}/undo", data=form, headers=headers).status_code == 303


@pytest.mark.parametrize(
    ("form", "headers", "reason"),
    [
        ({"pairing_code": CODE}, OURS, "form token"),
        ({"pairing_code": CODE, "csrf_token": "0" * 32}, OURS, "form token"),
        ({"pairing_code": CODE, "csrf_token": None}, {"Origin": "http://evil.example"}, "evil"),
        ({"pairing_code": CODE, "csrf_token": None}, {"Referer": "http://evil.example/x"}, "evil"),
        ({"pairing_code": CODE, "csrf_token": None}, {}, "no Origin or Referer"),
        ({"csrf_token": None}, OURS, "pairing code"),
        ({"pairing_code": "654321", "csrf_token": None}, OURS, "Wrong pairing code"),
    ],
)
def test_a_form_post_missing_anything_is_403_and_changes_nothing(
    client: FlaskClient,
    journal: Journal,
    form: dict[str, Any],
    headers: dict[str, str],
    reason: str,
) -> None:
    if "csrf_token" in form and form["csrf_token"] is None:
        form = {**form, "csrf_token": token(client)}
    response = client.post(f"/games/{PLAYING}/undo", data=form, headers=headers)
    assert response.status_code == 403
    assert reason in response.get_data(as_text=True)
    assert journal.last_seq(PLAYING) == 25


def test_names_form_names_the_players(client: FlaskClient, journal: Journal) -> None:
    form = {"csrf_token": token(client), "pairing_code": CODE, "p1": "Cleopatra", "p2": ""}
    response = client.post(f"/games/{PLAYING}/players", data=form, headers=OURS)
    assert response.status_code == 303
    assert journal.game(PLAYING).players == {"p1": "Cleopatra", "p2": "Dag"}
    assert "Cleopatra" in client.get(f"/games/{PLAYING}").get_data(as_text=True)


def test_names_form_refuses_a_bad_name(client: FlaskClient, journal: Journal) -> None:
    form = {"csrf_token": token(client), "pairing_code": CODE, "p1": "x" * 40}
    response = client.post(f"/games/{PLAYING}/players", data=form, headers=OURS)
    assert response.status_code == 400
    assert "1 to 24 printable characters" in response.get_data(as_text=True)
    assert journal.game(PLAYING).players == {"p1": "Cleo", "p2": "Dag"}


def test_undo_form_on_an_unknown_game_is_404(client: FlaskClient) -> None:
    form = {"csrf_token": token(client), "pairing_code": CODE}
    assert client.post("/games/99/undo", data=form, headers=OURS).status_code == 404


def test_import_form_adds_an_uploaded_record(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    data = "\n".join(lines(records["playing"])).encode()  # played here, still in progress
    form = {
        "csrf_token": token(client, "/history/import"),
        "pairing_code": CODE,
        "record": (io.BytesIO(data), "game.jsonl"),
    }
    response = client.post("/history/import", data=form, headers=OURS)
    assert response.status_code == 303 and response.location.endswith("/games/5/score")
    assert journal.effective_events(5) == records["playing"]


def test_import_form_names_a_record_already_in_the_history(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    data = "\n".join(lines(records["military"])).encode()  # game 2 of the journal
    form = {
        "csrf_token": token(client, "/history/import"),
        "pairing_code": CODE,
        "record": (io.BytesIO(data), "game.jsonl"),
    }
    response = client.post("/history/import", data=form, headers=OURS)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "already in the history as game 2" in page and 'href="/games/2/score"' in page
    assert len(journal.games()) == 4


def test_import_form_shows_the_refused_line(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    text = lines(records["civilian"])
    text[4] = json.dumps({"type": "build", "player": "p1", "card": "nope"})
    form = {
        "csrf_token": token(client, "/history/import"),
        "pairing_code": CODE,
        "text": "\n".join(text),
    }
    response = client.post("/history/import", data=form, headers=OURS)
    assert response.status_code == 422
    assert "line 5: " in response.get_data(as_text=True)
    assert len(journal.games()) == 4


def test_import_form_without_a_record_is_400(client: FlaskClient, journal: Journal) -> None:
    form = {"csrf_token": token(client, "/history/import"), "pairing_code": CODE}
    assert client.post("/history/import", data=form, headers=OURS).status_code == 400
    assert len(journal.games()) == 4


def test_an_oversized_form_is_413(client: FlaskClient, journal: Journal) -> None:
    form = {"csrf_token": token(client, "/players"), "name": "x" * (300 * 1024)}
    response = client.post("/players", data=form, headers=OURS)
    assert response.status_code == 413  # over the pages' 256 KB
    assert "larger than 256 KB" in response.get_data(as_text=True)
    # The import form takes a whole history file (16 MB), but a pasted record is still one
    # record: over 256 KB the reader refuses it.
    form = {"csrf_token": token(client, "/history/import"), "pairing_code": CODE}
    form["text"] = "x" * (300 * 1024)
    response = client.post("/history/import", data=form, headers=OURS)
    assert response.status_code == 422
    assert "the record is larger than 256 KB" in response.get_data(as_text=True)
    assert len(journal.games()) == 4


def test_wrong_codes_lock_changes_out_for_a_minute(app: Flask, journal: Journal) -> None:
    app.config["PAIRING_FAILURES_PER_MINUTE"] = 3
    client = app.test_client()
    for _ in range(3):
        response = client.post(f"/api/games/{PLAYING}/undo", headers={"X-Pairing-Code": "1"})
        assert response.status_code == 403
    response = client.post(f"/api/games/{PLAYING}/undo", headers={"X-Pairing-Code": CODE})
    assert response.status_code == 429
    assert journal.last_seq(PLAYING) == 25


def test_the_lockout_slows_the_guessing_address_not_the_players(
    app: Flask, journal: Journal
) -> None:
    app.config["PAIRING_FAILURES_PER_MINUTE"] = 3
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    player = app.test_client()
    player.environ_base["REMOTE_ADDR"] = "192.168.1.20"
    for _ in range(3):
        wrong = guesser.post(f"/api/games/{PLAYING}/undo", headers={"X-Pairing-Code": "1"})
        assert wrong.status_code == 403
    right = guesser.post(f"/api/games/{PLAYING}/undo", headers={"X-Pairing-Code": CODE})
    assert right.status_code == 429  # the guesser waits, even with the right code
    assert journal.last_seq(PLAYING) == 25
    response = player.post(f"/api/games/{PLAYING}/undo", headers={"X-Pairing-Code": CODE})
    assert response.status_code == 200  # another phone's right code still works
    assert journal.last_seq(PLAYING) == 26  # 25 rows + the undo


def test_the_pairing_code_has_40_bits_and_is_new_at_each_start(journal: Journal) -> None:
    from companion.config import Config
    from web import create_app

    codes = {create_app(Config.defaults(journal=journal.path)).config["PAIRING_CODE"]
             for _ in range(5)}  # fmt: skip
    # 8 characters of 32 (no 0, 1, I, O to mistake): 32**8 = 2**40
    assert all(re.fullmatch(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", code) for code in codes)
    assert len(codes) > 1


def test_reading_needs_no_code(client: FlaskClient) -> None:
    assert client.get(f"/games/{CIVILIAN}/score").status_code == 200
    assert client.get(f"/api/games/{CIVILIAN}/record").status_code == 200
