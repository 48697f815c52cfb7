"""The review page: chances after every move as a chart, costliest moves, turning point."""

from __future__ import annotations

from typing import Any

from conftest import MILITARY, PLAYING
from flask.testing import FlaskClient


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
