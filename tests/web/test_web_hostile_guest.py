"""A hostile guest on the home network: photos, hosts, costly pages and slow connections are
refused or bounded, and nothing is written."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import select
import socket
import sqlite3
import struct
import sys
import threading
import urllib.request
import zlib
from pathlib import Path
from typing import Any

import pytest
from conftest import CIVILIAN, CODE, MILITARY, SCIENCE
from flask import Flask
from flask.testing import FlaskClient

from companion.records.archive import export_history
from companion.records.journal import Journal
from companion.vision.photo import NotAPhoto, photo_size
from web import PER_ADDRESS, WebServer
from web import review as review_module
from web.downloads import downloads
from web.review import Reviews

OURS = {"Origin": "http://localhost"}


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares `width` x `height` grey pixels, with one small compressed row."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    head = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk
    head += struct.pack(">I", zlib.crc32(chunk))
    data = zlib.compress(b"\x00" * (width + 1))
    idat = b"IDAT" + data
    return head + struct.pack(">I", len(data)) + idat + struct.pack(">I", zlib.crc32(idat))


def jpeg_header(width: int, height: int) -> bytes:
    """The start of a baseline JPEG declaring `width` x `height` (SOF0 after an APP0)."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof0 + b"\xff\xd9"


def scan(client: FlaskClient, photo: bytes, headers: dict[str, str] | None = None) -> Any:
    return client.post(
        "/scorepad/scan.json",
        data={"photo": (io.BytesIO(photo), "city.png")},
        headers=OURS if headers is None else headers,
    )


# --- 1. photos ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("photo", "size"),
    [
        (png_header(4000, 3000), ("png", 4000, 3000)),
        (jpeg_header(640, 480), ("jpeg", 480 and 640, 480)),
    ],
)
def test_a_photo_is_measured_by_its_header(photo: bytes, size: tuple[str, int, int]) -> None:
    found = photo_size(photo)
    assert (found.kind, found.width, found.height) == size


@pytest.mark.parametrize("data", [b"II*\x00" + b"\x00" * 100, b"BM" + b"\x00" * 100, b""])
def test_other_formats_are_not_photos(data: bytes) -> None:
    with pytest.raises(NotAPhoto):
        photo_size(data)


@pytest.mark.parametrize(
    "photo", [png_header(5000, 5000), png_header(32000, 32000), jpeg_header(4001, 3000)]
)
def test_a_photo_over_12_megapixels_is_a_413_before_it_is_decoded(
    client: FlaskClient, photo: bytes
) -> None:
    answer = scan(client, photo)
    assert answer.status_code == 413
    assert "at most 12 megapixels" in answer.get_json()["error"]


def test_a_tiff_is_not_read(client: FlaskClient) -> None:
    tiff = b"II*\x00\x08\x00\x00\x00" + b"\x00" * 64  # OpenCV would decode TIFF
    answer = scan(client, tiff)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "The photo is not an image (JPEG or PNG)"


@pytest.mark.parametrize(
    "headers",
    [{}, {"Origin": "http://evil.example"}, {"Referer": "http://evil.example/page"},
     {"Origin": "null"}],
)  # fmt: skip
def test_a_photo_from_another_site_is_refused(client: FlaskClient, headers: dict[str, str]) -> None:
    answer = scan(client, png_header(100, 100), headers)
    assert answer.status_code == 403
    assert answer.get_json()["error"].startswith("Cross-site request refused")


# --- Host: DNS rebinding --------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "", "localhost.evil.com"])
def test_a_page_asked_by_another_host_name_is_refused(client: FlaskClient, host: str) -> None:
    answer = client.get("/history/import", headers={"Host": host})
    assert answer.status_code == 400
    assert b"csrf_token" not in answer.get_data()
    assert "open the companion by its address" in answer.get_data(as_text=True)


def test_a_write_through_a_rebound_name_is_refused_and_writes_nothing(
    client: FlaskClient, journal: Journal
) -> None:
    before = journal.game(CIVILIAN).players
    answer = client.post(
        f"/api/games/{CIVILIAN}/players",
        json={"p1": "Eve", "p2": "Mallory"},
        headers={"Host": "evil.example", "Origin": "http://evil.example",
                 "X-Pairing-Code": CODE},
    )  # fmt: skip
    assert answer.status_code == 400
    assert journal.game(CIVILIAN).players == before


@pytest.mark.parametrize(
    "host", ["localhost", "127.0.0.1:8080", "192.168.1.20", "[::1]:8080", "[fe80::1]",
             f"{socket.gethostname()}.local:8080", socket.gethostname().upper()],
)  # fmt: skip
def test_the_box_answers_to_its_addresses_and_names(client: FlaskClient, host: str) -> None:
    assert client.get(f"/games/{CIVILIAN}/score", headers={"Host": host}).status_code == 200


# --- 2. costly pages ------------------------------------------------------------------------


def test_score_pages_of_many_games_start_one_review_worker_with_a_bounded_queue(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, release = threading.Event(), threading.Event()

    def slow_review(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(10)
        raise RuntimeError("not searched in this test")

    monkeypatch.setattr(review_module, "review", slow_review)
    before = set(threading.enumerate())
    kept = app.extensions["duel"]["reviews"] = Reviews(queue_size=1)
    try:
        assert client.get(f"/games/{CIVILIAN}/score").status_code == 200
        assert entered.wait(10)  # the worker searches the first game
        for game in (MILITARY, SCIENCE, MILITARY, SCIENCE):
            assert client.get(f"/games/{game}/score").status_code == 200
        workers = [t for t in set(threading.enumerate()) - before if t.name == "review"]
        assert kept.workers() == 1 and len(workers) == 1
        assert kept.waiting() == 1  # MILITARY waits; SCIENCE was not queued
        assert kept.started(MILITARY) and not kept.started(SCIENCE)
        answer = client.get(f"/games/{SCIENCE}/review.json")
        assert answer.status_code == 503
        assert "reviewing other games" in answer.get_json()["error"]
        app.config["REVIEW_WAIT_SECONDS"] = 0  # a chart asked early holds no thread
        assert client.get(f"/games/{MILITARY}/review.svg").status_code == 503
    finally:
        release.set()


def test_the_history_export_is_made_once_per_journal_state_and_streamed(
    app: Flask, client: FlaskClient, journal: Journal
) -> None:
    answers = [client.get("/export/history.json") for _ in range(20)]
    assert all(a.is_streamed and a.status_code == 200 for a in answers)
    texts = {a.get_data() for a in answers}
    assert len(texts) == 1
    expected = json.dumps(export_history(journal), ensure_ascii=False).encode()
    assert texts == {expected}
    with app.app_context():
        assert downloads().made == 1
    zipped = client.get("/export/history.json", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.get_data()) == expected
    journal.set_players(CIVILIAN, {"p1": "Zoe", "p2": "Yan"})  # the journal changes
    again = json.loads(client.get("/export/history.json").get_data())
    assert again["games"][0]["players"] == {"p1": "Zoe", "p2": "Yan"}
    with app.app_context():
        assert downloads().made == 2


@pytest.mark.parametrize("path", ["/export/history.json", "/export/games.csv"])
@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_costly_export_started_by_another_site_is_refused(
    client: FlaskClient, path: str, site: str
) -> None:
    assert client.get(path, headers={"Sec-Fetch-Site": site}).status_code == 403
    assert client.get(path, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


def half_sent(port: int, source: str) -> socket.socket:
    """A connection from `source` that sends half a request and then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(b"GET /history HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    return sock


def test_a_hundred_half_sent_requests_leave_the_pages_answering(app: Flask) -> None:
    with WebServer(app, "127.0.0.1", 0, threads=2) as server:
        slow = [half_sent(server.port, f"127.0.0.{2 + i // 25}") for i in range(100)]
        try:
            url = f"{server.url}/games/{CIVILIAN}/score"
            with urllib.request.urlopen(url, timeout=15) as answer:
                assert answer.status == 200
        finally:
            for sock in slow:
                sock.close()


def test_one_address_holds_at_most_32_connections(app: Flask) -> None:
    with WebServer(app, "127.0.0.1", 0, threads=2) as server:
        slow = [half_sent(server.port, "127.0.0.9") for _ in range(PER_ADDRESS + 8)]
        try:
            refused = slow[PER_ADDRESS:]
            for sock in refused:  # closed by the server at once (unread data: a reset)
                with contextlib.suppress(ConnectionResetError):
                    assert sock.recv(1) == b""
            ready, _, _ = select.select(slow[:PER_ADDRESS], [], [], 0)
            assert ready == []  # the first 32 are still open, waiting for their requests
        finally:
            for sock in slow:
                sock.close()


# --- every write behind the code or our own origin --------------------------------------------

WRITES = [
    ("POST", f"/games/{CIVILIAN}/undo"), ("POST", f"/games/{CIVILIAN}/players"),
    ("POST", "/history/import"), ("POST", "/players"), ("POST", "/players/rename"),
    ("POST", "/scorepad/score.json"), ("POST", "/scorepad/scores"), ("POST", "/api/pads"),
    ("POST", "/scorepad/import"),
    ("POST", "/scorepad/scan.json"), ("POST", "/scorepad/box.json"),
    ("DELETE", "/scorepad/box.json"), ("POST", f"/api/games/{CIVILIAN}/undo"),
    ("POST", f"/api/games/{CIVILIAN}/players"), ("POST", f"/api/games/{CIVILIAN}/correct"),
    ("POST", "/api/games"),
]  # fmt: skip


def test_the_list_of_writes_is_every_route_that_is_not_a_read(app: Flask) -> None:
    found = {
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        for method in (rule.methods or set()) - {"GET", "HEAD", "OPTIONS"}
    }
    assert len(found) == len(WRITES)


@pytest.mark.parametrize(("method", "path"), WRITES)
def test_every_write_from_another_site_is_refused_and_changes_nothing(
    client: FlaskClient, journal: Journal, method: str, path: str
) -> None:
    before = export_history(journal)
    answer = client.open(
        path,
        method=method,
        data=json.dumps({"p1": "Eve", "players": ["Eve"]}),
        content_type="application/json",
        headers={"Origin": "http://evil.example"},
    )
    assert answer.status_code == 403
    assert export_history(journal) == before


def test_hostile_sheets_to_the_score_route_are_a_422_never_a_500(client: FlaskClient) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
    from test_family_scorepad_hostile import hostile_sheets  # the family fuzz's sheets

    statuses = []
    for text in hostile_sheets(200, seed=2025):
        answer = client.post(
            "/scorepad/score.json",
            data=text.encode("utf-8", "surrogatepass"),
            content_type="application/json",
            headers=OURS,
        )
        assert answer.status_code in (200, 400, 422), text[:200]
        statuses.append(answer.status_code)
    assert statuses.count(422) + statuses.count(400) >= 190


def test_a_saved_pad_that_no_longer_scores_is_a_409_and_left_out_of_the_statistics(
    client: FlaskClient, journal: Journal
) -> None:
    dice = {"game": "7wonders-dice", "players": [{"name": "Ann", "wonder": 10},
                                                 {"name": "Bob", "market": 4}]}  # fmt: skip
    saved = client.post("/api/pads", json=dice, headers={"X-Pairing-Code": CODE})
    assert saved.status_code == 201
    overflowing = {**dice, "players": [{"name": "Ann", "wonder": 10**4000}, {"name": "Bob"}]}
    with sqlite3.connect(journal.path) as db:  # kept by a version that did not bound numbers
        db.execute(
            "INSERT INTO pads (saved, game, players, winners, sheet) VALUES (?, ?, ?, ?, ?)",
            ("2026-03-01T20:00:00Z", "7wonders-dice", '{"names": ["Ann", "Bob"]}',
             '{"names": ["Ann"]}', json.dumps(overflowing)),
        )  # fmt: skip
    bad = saved.get_json()["id"] + 1
    answer = client.get(f"/scorepad/{bad}.json")
    assert answer.status_code == 409
    assert answer.get_json()["error"].startswith(f"Score pad {bad} no longer scores: ")
    assert client.get(f"/scorepad/{bad}").status_code == 409
    assert client.get(f"/scorepad/{bad}/sheet").status_code == 200  # the sheet still downloads
    stats = client.get("/stats.json?game=7wonders-dice")
    assert stats.status_code == 200
    assert (stats.get_json()["games"], stats.get_json()["unreadable"]) == (1, 1)
    csv_text = client.get("/export/games.csv?game=7wonders-dice").get_data(as_text=True)
    assert csv_text.count("\n") == 1 + 2  # the head, and the two seats of the pad that scores
    assert client.get("/export/history.json").status_code == 200
    history = client.get("/history")  # lists it, saying it no longer scores
    assert history.status_code == 200
    assert "No longer scores" in history.get_data(as_text=True)


def test_a_name_that_only_begins_with_the_box_name_is_another_site(client: FlaskClient) -> None:
    box = socket.gethostname().lower().split(".")[0]
    assert client.get("/history", headers={"Host": f"{box}.lan"}).status_code == 200
    assert client.get("/history", headers={"Host": f"{box}.evil.example"}).status_code == 400
