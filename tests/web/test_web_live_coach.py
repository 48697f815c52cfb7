"""The coach on the phone's live page: a JSON answer with the top three moves, worded like
the box's coach, and the page's Coach section that asks for it."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

import web.live
from companion.engine.cards import Catalog
from companion.engine.events import event_from_record
from companion.engine.rules import apply
from companion.records.journal import Journal
from companion.records.replay import replay_record
from companion.search.player import root_events
from tests.web.conftest import CIVILIAN, PLAYING


@pytest.fixture
def quick(app: Flask, monkeypatch: pytest.MonkeyPatch) -> FlaskClient:
    app.config["COACH_LEVEL"] = "easy"  # 40 iterations
    monkeypatch.setattr(web.live, "COACH_SECONDS", None)  # iterations only: the same answer
    return app.test_client()


def test_the_coach_answers_the_best_moves_for_whoever_acts(
    quick: FlaskClient, journal: Journal, catalog: Catalog
) -> None:
    answer = quick.get(f"/games/{PLAYING}/coach.json").get_json()
    records = journal.effective_events(PLAYING)
    state = replay_record([json.dumps(r) for r in records], catalog)[-1]
    acting = state.pending.player if state.pending is not None else state.current
    assert answer["player"] == acting.value
    assert answer["name"] == ("Cleo" if acting.value == "p1" else "Dag")  # the setup's names
    legal = root_events(state)  # two legal answers at this point of the game
    assert answer["message"] == "" and len(answer["moves"]) == min(3, len(legal))
    wins = [move["win"] for move in answer["moves"]]
    assert all(0 <= win <= 1 for win in wins)
    for move in answer["moves"]:
        event = event_from_record(move["event"])
        apply(state, event)  # the engine accepts every move advised
        card = move["event"].get("card") or move["event"].get("token")
        assert catalog.name(card) in move["label"]  # full names on the pages
    assert quick.get(f"/games/{PLAYING}/coach.json").get_json() == answer  # same seed, same


def test_a_finished_game_has_nothing_to_advise(quick: FlaskClient) -> None:
    answer = quick.get(f"/games/{CIVILIAN}/coach.json").get_json()
    assert answer == {"player": "", "name": "", "moves": [], "message": "The game is over"}


def test_the_live_board_offers_the_coach(quick: FlaskClient) -> None:
    page = quick.get(f"/games/{PLAYING}").get_data(as_text=True)
    assert (
        f'data-url="/games/{PLAYING}/coach.json"' in page
        and "<summary>Coach: the best three moves</summary>" in page
    )
    assert quick.get("/games/99/coach.json").status_code == 404
