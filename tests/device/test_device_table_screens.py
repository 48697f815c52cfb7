"""At the table: the end screen asks before a new game, the idle screen says what to do
next, and the phone page's address and pairing code are shown at start and from the help."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.device.controller import Context, Mode, Press, Scan, UiState, step, welcome
from companion.device.present import idle_view, view
from companion.device.screens import price_label
from companion.device.views import HelpView, PhoneView
from companion.engine.cards import Catalog, TokenId, WonderId
from companion.engine.events import Setup
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, Phase, Player, Victory
from companion.service.loop import App
from companion.service.playback import FrameRecorder
from companion.service.root import open_journal

PHONE = Context(events=1, pairing="482193", phone_url="http://192.168.1.23:8000/")


def playing(catalog: Catalog) -> GameState:
    return apply(
        new_game(catalog),
        Setup(
            Player.P1,
            tuple(
                TokenId(t) for t in ("economy", "law", "architecture", "agriculture", "theology")
            ),
            (
                tuple(WonderId(w) for w in catalog.rules.first_game_wonders[0]),
                tuple(WonderId(w) for w in catalog.rules.first_game_wonders[1]),
            ),
            ("Ann", "Ben"),
        ),
    )


def finished(catalog: Catalog) -> GameState:
    return replace(
        playing(catalog), phase=Phase.FINISHED, winner=Player.P2, victory=Victory.CIVILIAN
    )


def test_a_select_on_the_end_screen_asks_before_leaving_the_result(catalog: Catalog) -> None:
    state = finished(catalog)
    end = UiState(mode=Mode.END, events=1)
    asked = step(end, state, Press("select"), Context(events=1))
    assert asked.ui.mode is Mode.NEW_GAME and not asked.new_game
    assert asked.view is not None and asked.view.title == "New game?"  # type: ignore[union-attr]
    kept = step(asked.ui, state, Press("left"), Context(events=1))
    assert kept.ui.mode is Mode.END and not kept.new_game
    confirmed = step(asked.ui, state, Press("select"), Context(events=1))
    assert confirmed.new_game


def test_the_idle_screen_says_what_to_do_next(catalog: Catalog) -> None:
    shown = idle_view(playing(catalog))
    assert (shown.player, shown.hint) == ("Ann", "scan a card")


def test_papyrus_prices_never_read_like_player_2() -> None:
    labels = [price_label(r) for r in ("wood", "clay", "stone", "glass", "papyrus")]
    assert labels == ["Wo", "Cl", "St", "Gl", "Pa"]  # "Pa2", not "P2" as the coins' label


def test_the_phone_page_is_shown_at_start_and_any_press_goes_on(catalog: Catalog) -> None:
    state = playing(catalog)
    idle = UiState(mode=Mode.IDLE, events=1)
    first = welcome(idle, PHONE)
    assert first.mode is Mode.PHONE
    assert view(first, state, PHONE) == PhoneView("http://192.168.1.23:8000/", "482193")
    assert step(first, state, Press("select"), PHONE).ui == idle


def test_a_scan_on_the_phone_page_is_used_for_the_game(catalog: Catalog) -> None:
    first = welcome(UiState(mode=Mode.IDLE, events=1), PHONE)
    scanned = step(first, playing(catalog), Scan("lumber_yard"), PHONE)
    assert scanned.ui.mode is Mode.CARD and scanned.ui.card == "lumber_yard"


def test_without_served_pages_the_start_shows_the_game(catalog: Catalog) -> None:
    idle = UiState(mode=Mode.IDLE, events=1)
    assert welcome(idle, Context(events=1)) == idle


def test_the_help_screen_leads_to_the_phone_page(catalog: Catalog) -> None:
    state = playing(catalog)
    idle = UiState(mode=Mode.IDLE, events=1)
    helped = step(idle, state, Press("right", long=True), PHONE)
    assert isinstance(helped.view, HelpView)
    # during a game the last line offers the coach too (left)
    assert (helped.view.pairing, helped.view.phone) == ("482193", "left: coach  right: phone")
    phone = step(helped.ui, state, Press("right"), PHONE)
    assert isinstance(phone.view, PhoneView)
    assert step(phone.ui, state, Press("right"), PHONE).ui.mode is Mode.IDLE
    renew = step(phone.ui, state, Press("left"), PHONE)  # the loop makes the new code
    assert renew.renew_pairing and renew.ui.mode is Mode.PHONE and renew.view is None


def test_the_device_starts_on_the_phone_page_when_the_pages_are_served(
    catalog: Catalog, tmp_path: Path
) -> None:
    recorder = FrameRecorder(None)
    with open_journal(tmp_path / "journal.sqlite") as journal:
        app = App(catalog, journal, recorder, phone_url="http://192.168.1.23:8000/")
        app.pairing = "482193"  # set when the pages start, before the first screen
        app.start()
        assert app.ui.mode is Mode.PHONE and isinstance(app.view, PhoneView)
        app.handle(Press("select"))
        assert app.ui.mode is Mode.FIRST_PLAYER and len(recorder.images) == 2
