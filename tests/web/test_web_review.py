"""Hostile and odd requests: always a clear 4xx, never a 500, and the journal unchanged."""

from __future__ import annotations

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
