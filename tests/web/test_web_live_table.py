"""The live page at the table: the accessible cards priced for the player to move (the
words of the OLED's list), and what the box asks about the structure (the guided entry's
next card, a card to turn up), which the poll carries so that the page follows each scan."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CODE
from flask import Flask
from flask.testing import FlaskClient

from companion.config import Config
from companion.device.ui import Mode, UiState
from companion.engine.cards import Catalog
from companion.engine.events import event_to_record
from companion.records.game import SCREEN_KEY
from companion.records.journal import Journal
from companion.service.playback import read_record
from web import create_app

RECORD = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"


def table_journal(path: Path, *counts: int) -> Journal:
    """A journal with a game per count: the partial-deals record's first `count` events."""
    journal = Journal.create(path)
    events = read_record(RECORD)
    for count in counts:
        game = journal.new_game()
        for event in events[:count]:
            journal.append(game, event_to_record(event))
    return journal


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Journal]:
    """Three games: after the setup (1 event), after the deal of age 1 (2 events), after two
    cards taken (4 events: row 4's last card uncovered)."""
    with table_journal(tmp_path / "table.sqlite", 1, 2, 4) as journal:
        yield journal


@pytest.fixture
def client(table: Journal, catalog: Catalog) -> FlaskClient:
    app: Flask = create_app(Config.defaults(journal=table.path), TESTING=True,
                            PAIRING_CODE=CODE, CATALOG=catalog)  # fmt: skip
    return app.test_client()


def test_the_live_page_lists_the_accessible_cards_with_their_prices(client: FlaskClient) -> None:
    view = client.get("/games/2.json").get_json()
    assert view["turn_text"] == "Ben to play"  # Ben (p2) begins with 7 coins
    # the open row of age 1 (6 cards), priced as the OLED's list prices it; Garrison's clay
    # is bought at 2 (Ann produces none), Guard Tower costs nothing
    found = {o["name"]: (o["price"], o["how"]) for o in view["accessible"]}
    assert len(found) == 6 and found["Garrison"] == ("2 coins", "buys 1 clay")
    assert found["Guard Tower"] == ("free", "")
    assert all(o["affordable"] for o in view["accessible"])
    page = client.get("/games/2").get_data(as_text=True)
    assert "Ben: 6 cards to take" in page and "buys 1 clay" in page
    # before the deal the box does not know the table: no list
    assert client.get("/games/1.json").get_json()["accessible"] == []


def test_without_a_deal_the_live_page_says_the_cards_to_take_are_not_known(
    client: FlaskClient,
) -> None:
    # Table mode (no deal entered): six cards lie free at the table, the box knows none of
    # them. The page said "0 cards to take"; it says what it does not know.
    view = client.get("/games/1.json").get_json()
    assert view["phase"] == "playing" and view["accessible"] == []
    assert view["accessible_text"] == "cards to take not known (no deal entered)"
    dealt = client.get("/games/2.json").get_json()
    assert dealt["accessible_text"] == "6 cards to take"


def test_the_guided_entry_prompt_is_on_the_phone_as_on_the_oled(
    client: FlaskClient, table: Journal
) -> None:
    assert client.get("/games/1.json").get_json()["asked"] is None  # no screen saved yet
    screen = UiState(mode=Mode.GUIDED, dealt=("workshop", "apothecary"), events=1)
    table.set_meta(1, SCREEN_KEY, screen.to_json())
    # two of age 1's 12 face-up cards scanned: row 3 is next, its first of 4 cards
    asked = {"title": "Age 1: 2/12 cards", "text": "Scan row 3, card 1 of 4"}
    assert client.get("/games/1.json").get_json()["asked"] == asked
    assert client.get("/api/games/1/seq").get_json()["asked"] == "Scan row 3, card 1 of 4"
    page = client.get("/games/1").get_data(as_text=True)
    assert "Age 1: 2/12 cards</b> Scan row 3, card 1 of 4" in page
    # the button map over the entry: the entry is still what is asked
    over = UiState(mode=Mode.HELP, under=screen, events=1)
    table.set_meta(1, SCREEN_KEY, over.to_json())
    assert client.get("/games/1.json").get_json()["asked"] == asked


def test_a_card_uncovered_is_asked_for_on_the_phone(client: FlaskClient) -> None:
    # Garrison (row 5, card 5) and Clay Reserve (card 6) taken: row 4's 5th card is uncovered
    view = client.get("/games/3.json").get_json()
    assert view["asked"] == {
        "title": "Card uncovered",
        "text": "Turn up row 4, card 5 of 5 and scan it",
    }
    assert json.loads(client.get("/api/games/3/seq").data)["asked"] == view["asked"]["text"]
