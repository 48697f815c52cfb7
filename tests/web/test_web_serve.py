"""The app under waitress: several phones polling at once never starve a plain request."""

from __future__ import annotations

import http.client
import threading
import urllib.request

import pytest
from conftest import CIVILIAN, PLAYING
from flask import Flask

from web import WebServer


def test_many_polling_phones_leave_room_for_plain_requests(app: Flask) -> None:
    stop = threading.Event()
    polls = [0] * 12  # three times the threads of the pool
    failures: list[BaseException] = []

    def phone(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            while not stop.is_set():
                for path in (f"/api/games/{PLAYING}/seq", f"/games/{PLAYING}/board"):
                    connection.request("GET", path)
                    answer = connection.getresponse()
                    answer.read()
                    assert answer.status == 200
                polls[index] += 1
        except BaseException as failed:  # reported by the main thread
            failures.append(failed)
        finally:
            connection.close()

    with WebServer(app, "127.0.0.1", 0, threads=4) as server:
        phones = [threading.Thread(target=phone, args=(i,)) for i in range(len(polls))]
        for thread in phones:
            thread.start()
        try:
            for _ in range(20):
                url = f"{server.url}/games/{CIVILIAN}/score"
                with urllib.request.urlopen(url, timeout=10) as answer:
                    assert answer.status == 200
                    assert b"Total" in answer.read()
        finally:
            stop.set()
            for thread in phones:
                thread.join(timeout=20)
    assert failures == []
    assert all(polls), "every phone was answered"


def test_closing_the_server_stops_listening(app: Flask) -> None:
    server = WebServer(app, "127.0.0.1", 0, threads=2)
    with urllib.request.urlopen(f"{server.url}/api/games", timeout=10) as answer:
        assert answer.status == 200
    server.close()
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{server.url}/api/games", timeout=5)
