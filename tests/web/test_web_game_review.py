"""The review page: chances after every move as a chart, costliest moves, turning point."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import CIVILIAN, MILITARY, PLAYING
from flask import Flask
from flask.testing import FlaskClient

import web.review
from companion.engine.cards import Catalog
from companion.records.game import import_record
from companion.records.journal import Journal
from web.access import loaded_or_404
from web.review import reviews


@pytest.fixture(autouse=True)
def wait_for_the_worker(app: Flask) -> None:
    """These tests read the review itself: the pages wait until the worker is done."""
    app.config["REVIEW_WAIT_SECONDS"] = None


def test_the_review_json_follows_every_event_and_ends_with_the_result(
    client: FlaskClient, records: dict[str, list[dict[str, Any]]]
) -> None:
    answer = client.get(f"/games/{MILITARY}/review.json")
    assert answer.status_code == 200
    view = answer.get_json()
    assert len(view["chances"]) == len(records["military"])
    game = client.get(f"/api/games/{MILITARY}").get_json()
    winner = game["winner"]
    assert view["chances"][-1] == (1.0 if winner == "p1" else 0.0)
    for player in ("p1", "p2"):
        costs = [m["cost"] for m in view["costliest"][player]]
        assert len(costs) <= 3 and costs == sorted(costs, reverse=True)
        for move in view["costliest"][player]:
            # the chance lost is the best answer's chance less the move's (each rounded)
            assert abs(move["cost"] - (move["best_chance"] - move["chance"])) < 0.002
            assert move["played"] != move["preferred"]
    turn = view["turning_point"]
    ours = [c if winner == "p1" else 1 - c for c in view["chances"]]
    assert ours[turn["event"] - 1] <= 0.5 < ours[turn["event"]]


def test_the_review_page_shows_the_chart_the_costliest_moves_and_the_turning_point(
    client: FlaskClient,
) -> None:
    page = client.get(f"/games/{MILITARY}/review").get_data(as_text=True)
    assert f'src="/games/{MILITARY}/review.svg"' in page
    assert "Turning point" in page and "From here on the winner" in page
    assert page.count("the three costliest moves") == 2
    chart = client.get(f"/games/{MILITARY}/review.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    svg = chart.get_data(as_text=True)
    assert "<svg" in svg and "chance to win (%)" in svg
    assert "<script src" not in svg  # nothing fetched from the net


def test_a_game_being_played_has_no_turning_point_yet(client: FlaskClient) -> None:
    view = client.get(f"/games/{PLAYING}/review.json").get_json()
    assert view["turning_point"] is None
    page = client.get(f"/games/{PLAYING}/review").get_data(as_text=True)
    assert "None: the game is not over" in page


def test_an_unknown_game_has_no_review(client: FlaskClient) -> None:
    assert client.get("/games/99/review").status_code == 404
    assert client.get("/games/99/review.svg").status_code == 404


def test_the_page_says_the_review_is_being_prepared_until_the_worker_is_done(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.config["REVIEW_WAIT_SECONDS"] = 0  # never wait inside a request
    gate = threading.Event()  # the worker's search waits for it: no race with the requests
    searched = web.review.review

    def held(*args: Any, **kwargs: Any) -> Any:
        assert gate.wait(60)
        return searched(*args, **kwargs)

    monkeypatch.setattr(web.review, "review", held)
    answer = client.get(f"/games/{MILITARY}/review.json")
    assert answer.status_code == 202
    assert answer.get_json() == {"game": MILITARY, "status": "preparing"}
    page = client.get(f"/games/{MILITARY}/review").get_data(as_text=True)
    assert 'id="review-preparing"' in page and 'http-equiv="refresh"' in page
    gate.set()
    with app.test_request_context():
        assert reviews().get(loaded_or_404(MILITARY), wait=None) is not None  # the worker ends
    ready = client.get(f"/games/{MILITARY}/review.json")
    assert ready.status_code == 200 and ready.get_json()["status"] == "ready"
    assert "Turning point" in client.get(f"/games/{MILITARY}/review").get_data(as_text=True)


def test_the_score_page_of_a_finished_game_starts_its_review(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        assert not reviews().started(MILITARY) and not reviews().started(PLAYING)
        assert client.get(f"/games/{PLAYING}/score").status_code == 200  # still in play
        assert not reviews().started(PLAYING)
        assert client.get(f"/games/{MILITARY}/score").status_code == 200  # finished
        assert reviews().started(MILITARY)


def test_the_chart_s_words_are_readable_on_a_phone(client: FlaskClient) -> None:
    svg = client.get(f"/games/{MILITARY}/review.svg").get_data(as_text=True)
    box = re.search(r'<svg[^>]* viewBox="0 0 ([\d.]+) [\d.]+"', svg)
    assert box is not None
    width = float(box.group(1))
    # The page shows the chart as wide as a 360 px phone's column: 360 - 2 x 14.4 px margins.
    shown = (360 - 2 * 14.4) / width
    for part in (".axis text", ".axis text.major", ".legends .legend text"):
        size = re.search(re.escape(part) + r"\{[^}]*font-size:([\d.]+)px", svg)
        assert size is not None, part
        assert float(size.group(1)) * shown >= 11, (part, size.group(1), width)
    page = client.get(f"/games/{MILITARY}/review").get_data(as_text=True)
    assert f'width="{width:g}"' in page  # the page reserves the chart's own proportions


ROOT = Path(__file__).resolve().parents[2]
TABLE_GAME = ROOT / "companion" / "demo" / "game.jsonl"  # the demo game: table mode, no deal
GUIDED_GAME = ROOT / "tests" / "records" / "partial_deals_civilian_win.jsonl"  # and reveals


def imported(journal: Journal, catalog: Catalog, path: Path) -> int:
    return import_record(catalog, journal, path.read_text().splitlines())


def test_a_game_played_in_table_mode_is_reviewed(
    client: FlaskClient, journal: Journal, catalog: Catalog
) -> None:
    game = imported(journal, catalog, TABLE_GAME)
    answer = client.get(f"/games/{game}/review.json")
    assert answer.status_code == 200
    view = answer.get_json()
    assert view["status"] == "ready" and view["fitted_ages"] == [1, 2, 3]
    assert view["costliest"]["p1"] and view["costliest"]["p2"]
    page = client.get(f"/games/{game}/review")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Ages 1, 2 and 3 were played without the cards of the structure" in text
    assert client.get(f"/games/{game}/review.svg").status_code == 200


def test_a_guided_game_with_its_reveals_is_reviewed(
    client: FlaskClient, journal: Journal, catalog: Catalog
) -> None:
    game = imported(journal, catalog, GUIDED_GAME)
    for path in ("review", "review.json", "review.svg"):
        assert client.get(f"/games/{game}/{path}").status_code == 200
    view = client.get(f"/games/{game}/review.json").get_json()
    assert view["fitted_ages"] == [] and view["turning_point"] is not None
    assert "without the cards" not in client.get(f"/games/{game}/review").get_data(as_text=True)


def test_the_costliest_moves_use_the_charts_numbers(
    client: FlaskClient, journal: Journal, catalog: Catalog
) -> None:
    for game in (MILITARY, imported(journal, catalog, TABLE_GAME)):
        view = client.get(f"/games/{game}/review.json").get_json()
        points = view["points"]
        assert [p["event"] for p in points] == list(range(len(view["chances"])))
        for player in ("p1", "p2"):
            for move in view["costliest"][player]:
                shown = move["percent"]
                assert shown["chance"] == points[move["event"]][player]  # as the chart shows
                assert shown["cost"] == shown["best"] - shown["chance"] > 0
        page = client.get(f"/games/{game}/review").get_data(as_text=True)
        for move in view["costliest"]["p1"]:
            shown = move["percent"]
            assert (
                f"It gave away <b>{shown['cost']}&nbsp;%</b> of the chance to win "
                f"({shown['chance']}&nbsp;% after it)" in page
            )


def test_a_game_with_no_move_says_so_in_one_sentence(
    client: FlaskClient, journal: Journal, records: dict[str, list[dict[str, Any]]]
) -> None:
    game = journal.new_game()
    journal.append(game, records["civilian"][0])  # the setup alone
    page = client.get(f"/games/{game}/review")
    assert page.status_code == 200
    assert "Nothing to review yet: no move has been played." in page.get_data(as_text=True)
    answer = client.get(f"/games/{game}/review.json")
    assert answer.status_code == 200
    assert answer.get_json() == {
        "game": game,
        "status": "unavailable",
        "reason": "Nothing to review yet: no move has been played.",
    }
    assert client.get(f"/games/{game}/review.svg").status_code == 404


def test_a_review_that_fails_says_why_instead_of_an_error_page(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("no structure to search")

    monkeypatch.setattr(web.review, "review", broken)
    page = client.get(f"/games/{CIVILIAN}/review")
    assert page.status_code == 200
    reason = "The review could not be made: no structure to search."
    assert reason in page.get_data(as_text=True)
    assert client.get(f"/games/{CIVILIAN}/review.json").get_json()["reason"] == reason
    assert client.get(f"/games/{CIVILIAN}/review.svg").status_code == 404
