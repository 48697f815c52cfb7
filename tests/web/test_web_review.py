"""Hostile and odd requests: always a clear 4xx, never a 500, and the journal unchanged."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE, PLAYING
from flask.testing import FlaskClient

from companion.journal import Journal

PAIRED = {"X-Pairing-Code": CODE}


def snapshot(path: Path) -> tuple[list[Any], ...]:
    """Every row of every table, read beside the app's own connections."""
    with sqlite3.connect(path) as db:
        tables = ("games", "events", "meta")
        return tuple(db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables)


@pytest.mark.parametrize(
    ("path", "body", "mimetype"),
    [
        (f"/api/games/{PLAYING}/players", b"[" * 100_000, "application/json"),
        (f"/api/games/{PLAYING}/correct", b'{"record": ' * 20_000, "application/json"),
        ("/api/games", b"[" * 100_000, "application/jsonl"),
        (
            "/api/games",
            b'{"type": "setup", "x": ' + b"[" * 2_000 + b"]" * 2_000 + b"}",
            "application/jsonl",
        ),
    ],
)
def test_deeply_nested_json_is_a_4xx_and_changes_nothing(
    client: FlaskClient, journal: Journal, path: str, body: bytes, mimetype: str
) -> None:
    before = snapshot(journal.path)
    response = client.post(path, data=body, content_type=mimetype, headers=PAIRED)
    assert response.status_code in (400, 422)
    assert response.get_json()["status"] == response.status_code
    if path == "/api/games":
        assert response.get_json()["error"] == "line 1: nested too deeply"
    assert snapshot(journal.path) == before


def replayed(client: FlaskClient, game: int) -> Any:
    return client.get(f"/api/games/{game}").get_json()


def effective(journal: Journal, game: int) -> list[dict[str, Any]]:
    return journal.effective_events(game)


@pytest.mark.parametrize("odd", ["Ann\u2028Lee", "Ann\u2029", "\x85Ann"])
def test_export_then_import_gives_the_same_game_with_line_separators_in_strings(
    client: FlaskClient,
    journal: Journal,
    records: dict[str, list[dict[str, Any]]],
    odd: str,
) -> None:
    record = [*records["military"]]
    record[0] = {**record[0], "players": {"p1": odd, "p2": "Ben"}, "note": f"kept {odd}"}
    first = client.post(
        "/api/games",
        data="\n".join(json.dumps(r, ensure_ascii=False) for r in record).encode(),
        content_type="application/jsonl",
        headers=PAIRED,
    )
    assert first.status_code == 201
    game = first.get_json()["id"]
    exported = client.get(f"/api/games/{game}/record").get_data()
    again = client.post(
        "/api/games", data=exported, content_type="application/jsonl", headers=PAIRED
    )
    assert again.status_code == 201, again.get_json()
    copy = again.get_json()["id"]
    assert effective(journal, copy) == effective(journal, game) == record
    assert replayed(client, copy) == replayed(client, game)
    assert replayed(client, copy)["players"]["p1"]["name"] == odd
    assert exported.decode().splitlines() == exported.decode().split("\n")[:-1]
