"""Hostile and odd requests: always a clear 4xx, never a 500, and the journal unchanged."""

from __future__ import annotations

import gc
import json
import socket
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE, PLAYING
from flask import Flask
from flask.testing import FlaskClient

from companion.cli import main
from companion.config import Config
from companion.engine.cards import Catalog
from companion.records.journal import Journal
from web import WebServer, create_app

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


@pytest.mark.parametrize("odd", ["Ann\u2028Lee", "Ann\u2029Lee", "Ann\x85Lee", "A" * 25, "\x00"])
def test_a_name_against_the_rule_of_the_pages_is_refused_on_import(
    client: FlaskClient,
    journal: Journal,
    records: dict[str, list[dict[str, Any]]],
    odd: str,
) -> None:
    record = [*records["playing"]]
    record[0] = {**record[0], "players": {"p1": odd, "p2": "Ben"}}
    before = snapshot(journal.path)
    response = client.post(
        "/api/games",
        data="\n".join(json.dumps(r, ensure_ascii=False) for r in record).encode(),
        content_type="application/jsonl",
        headers=PAIRED,
    )
    assert response.status_code == 422
    message = "line 1: players.p1: a name is 1 to 24 printable characters"
    assert response.get_json()["error"] == message
    assert snapshot(journal.path) == before


def test_an_import_keeps_only_the_documented_keys_of_each_event(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    record = [*records["playing"]]
    record[0] = {**record[0], "note": "x\u2028" * 1000}  # unknown to the rules: not stored
    response = client.post(
        "/api/games",
        data="\n".join(json.dumps(r) for r in record).encode(),
        content_type="application/jsonl",
        headers=PAIRED,
    )
    assert response.status_code == 201
    assert effective(journal, response.get_json()["id"]) == records["playing"]


# --- duel-companion import ------------------------------------------------------------------


def run_import(record: Path, journal: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["import", str(record), "--journal", str(journal)])
    err = capsys.readouterr().err
    assert err.count("\n") == (status != 0)  # a refusal is one line, never a traceback
    return status, err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the record holds no event"),
        (b'{"type": "setup"}\n' * 6 + b"{oops\n", "line 7: not valid JSON"),
        (b'{"type": "build", "player": "p1", "card": "baths"}\n', "line 1: "),
        (b"\x00\xff" * 1000, "not UTF-8"),
        (b'{"type": "x"}\n' + b"x" * 10_000_000, "the record is larger than 256 KB"),
        (b"[" * 200_000, "line 1: nested too deeply"),
        (b'{"type": "deal", "age": ' + b"1" * 5_000 + b"}", "line 1: a number of 5000"),
    ],
)
def test_a_refused_record_neither_creates_nor_moves_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    record = tmp_path / "game.jsonl"
    record.write_bytes(content)
    missing = tmp_path / "new" / "j.sqlite"
    status, err = run_import(record, missing, capsys)
    assert status == 2 and message in err
    assert not missing.parent.exists()
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    status, err = run_import(record, damaged, capsys)
    assert status == 2 and message in err and "moved aside" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.sqlite", "game.jsonl"]


def test_import_into_a_journal_path_that_cannot_exist_is_one_line(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(json.dumps(r) for r in records["civilian"]), encoding="utf-8")
    status, err = run_import(record, record / "j.sqlite", capsys)
    assert status == 2 and "cannot create" in err


def test_a_refused_import_from_a_phone_creates_no_journal(tmp_path: Path, catalog: Catalog) -> None:
    missing = tmp_path / "var" / "j.sqlite"
    app = create_app(Config.defaults(journal=missing), PAIRING_CODE=CODE, CATALOG=catalog)
    response = app.test_client().post(
        "/api/games", data=b"{oops\n", content_type="application/jsonl", headers=PAIRED
    )
    assert response.status_code == 422
    assert response.get_json()["error"].startswith("line 1: not valid JSON")
    assert not missing.parent.exists()


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("POST", "/history", {"GET", "HEAD", "OPTIONS"}),
        ("DELETE", f"/games/{PLAYING}", {"GET", "HEAD", "OPTIONS"}),
        ("PUT", f"/games/{PLAYING}/undo", {"POST", "OPTIONS"}),
        ("POST", f"/api/games/{PLAYING}", {"GET", "HEAD", "OPTIONS"}),
        ("GET", f"/api/games/{PLAYING}/undo", {"POST", "OPTIONS"}),
    ],
)
def test_a_wrong_method_is_405_naming_the_allowed_ones_and_changes_nothing(
    client: FlaskClient, journal: Journal, method: str, path: str, allowed: set[str]
) -> None:
    before = snapshot(journal.path)
    response = client.open(path, method=method, headers=PAIRED)
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) == allowed
    assert snapshot(journal.path) == before


@pytest.mark.parametrize("name", ["style.css", "live.js"])
def test_static_files_are_cached_by_the_phone_for_an_hour(client: FlaskClient, name: str) -> None:
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert response.cache_control.max_age == 3600 and response.cache_control.public
    assert not response.cache_control.no_cache
    response.close()


# --- duel-companion web and the server ------------------------------------------------------


def test_web_refuses_a_host_that_is_no_address_in_one_line(
    journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["web", "--journal", str(journal.path), "--host", "999.1.1.1", "--port", "0"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert err.startswith("cannot listen on 999.1.1.1:0: ")


# waitress leaves its socket and trigger pipe unclosed when the bind fails (its own leak);
# collected inside the test so the warning is raised, and filtered, here.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_web_refuses_a_port_in_use_in_one_line(
    journal: Journal, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(
            ["web", "--journal", str(journal.path), "--host", "127.0.0.1", "--port", str(port)]
        )
    gc.collect()
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


def test_the_server_refuses_a_bad_host_with_an_os_error(app: Flask) -> None:
    with pytest.raises(OSError, match="not an address"):
        WebServer(app, "999.1.1.1", 0, threads=1)


def test_an_ipv6_server_gives_a_bracketed_url(app: Flask) -> None:
    try:
        server = WebServer(app, "::1", 0, threads=1)
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with server:
        assert server.url == f"http://[::1]:{server.port}"
        with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as answer:
            assert answer.status == 200


def test_an_empty_journal_file_is_an_empty_history_not_a_503(
    tmp_path: Path, catalog: Catalog
) -> None:
    empty = tmp_path / "j.sqlite"
    empty.write_bytes(b"")
    client = create_app(Config.defaults(journal=empty), CATALOG=catalog).test_client()
    assert client.get("/api/games").get_json() == []
    assert "No game yet" in client.get("/history").get_data(as_text=True)
    assert client.get("/api/games/1").status_code == 404
    assert empty.read_bytes() == b""


def test_the_api_takes_the_pairing_code_from_its_header_only(
    client: FlaskClient, journal: Journal
) -> None:
    before = snapshot(journal.path)
    response = client.post(f"/api/games/{PLAYING}/undo", data={"pairing_code": CODE})
    assert response.status_code == 403
    assert "pairing code" in response.get_json()["error"]
    assert snapshot(journal.path) == before


def test_a_correction_goes_through_the_reader_names_included(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    before = snapshot(journal.path)
    setup = {**records["playing"][0], "players": {"p1": "A" * 25, "p2": "Ben"}}
    response = client.post(f"/api/games/{PLAYING}/correct", json={"record": setup}, headers=PAIRED)
    assert response.status_code == 422
    message = "record: players.p1: a name is 1 to 24 printable characters"
    assert response.get_json()["error"] == message
    assert snapshot(journal.path) == before
