"""Naming the sides on the OLED's ready screen: a list of the remembered players, the most
recent first, then "unnamed"; the names reach the journal through the run loop."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from companion.device import present
from companion.device.controller import (
    Context,
    Input,
    Mode,
    Press,
    Scan,
    Step,
    UiState,
    initial,
    options,
    resume,
    setup_screens,
    step,
)
from companion.device.views import ChoiceView
from companion.engine.cards import Catalog
from companion.engine.events import Setup
from companion.engine.rules import new_game
from companion.engine.state import GameState
from companion.records.journal import Journal, JournalError
from companion.records.players import add_player
from companion.service.loop import App, Call

TOKENS = ("economy", "law", "architecture", "agriculture", "theology")
KNOWN = ("Ben", "Ann", "Cleo")  # the remembered players, the most recent first


def run(ui: UiState, state: GameState, ctx: Context, *inputs: Input) -> Step:
    result = Step(ui, None)
    for given in inputs:
        result = step(result.ui, state, given, ctx)
    return result


def ready(state: GameState, ctx: Context) -> UiState:
    """The ready screen after Player 1 begins, the first-game sets and the five tokens."""
    ui = run(initial(state, ctx), state, ctx, Press("select"), Press("right"), Press("select")).ui
    ui = run(ui, state, ctx, *(Scan(t) for t in TOKENS)).ui
    assert ui.mode is Mode.START
    return ui


def labels(ui: UiState, state: GameState, ctx: Context) -> list[str]:
    return [choice.label for choice in options(ui, state, ctx)]


def test_the_ready_screen_offers_the_players_after_start(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = ready(state, ctx)
    assert labels(ui, state, ctx) == ["Start the game", "Players"]
    shown = present.view(ui, state, ctx)
    assert isinstance(shown, ChoiceView) and shown.subtitle == "Player 1 vs Player 2"


def test_two_names_picked_go_into_the_setup_and_to_the_run_loop(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select")).ui
    assert ui.mode is Mode.PLAYERS and ui.naming == 0
    # Player 1's list: the most recent first, then unnamed
    assert labels(ui, state, ctx) == ["Ben", "Ann", "Cleo", "unnamed"]
    ui = run(ui, state, ctx, Press("right"), Press("select")).ui  # Ann (second)
    assert ui.names == ("Ann", "") and ui.naming == 1
    # Player 2's list leaves out Ann, taken by Player 1
    assert labels(ui, state, ctx) == ["Ben", "Cleo", "unnamed"]
    shown = present.view(ui, state, ctx)
    assert isinstance(shown, ChoiceView) and shown.subtitle == "Who is Player 2?"
    ui = run(ui, state, ctx, Press("right"), Press("select")).ui  # Cleo (second)
    assert ui.mode is Mode.START and ui.names == ("Ann", "Cleo") and ui.cursor == 0
    shown = present.view(ui, state, ctx)
    assert isinstance(shown, ChoiceView) and shown.subtitle == "Ann vs Cleo"
    started = run(ui, state, ctx, Press("select"))
    assert isinstance(started.event, Setup) and started.event.players == ("Ann", "Cleo")
    assert started.names == {"p1": "Ann", "p2": "Cleo"}


def test_unnamed_keeps_a_side_without_a_name(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select")).ui
    # left from the first name wraps to the last option: unnamed
    ui = run(ui, state, ctx, Press("left"), Press("select"), Press("select")).ui
    assert ui.mode is Mode.START and ui.names == ("", "Ben")
    started = run(ui, state, ctx, Press("select"))
    assert isinstance(started.event, Setup) and started.event.players == ("", "Ben")
    assert started.names == {"p2": "Ben"}  # only the named side is named


def test_no_remembered_player_offers_only_unnamed_and_names_nobody(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context()
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select")).ui
    assert labels(ui, state, ctx) == ["unnamed"]
    ui = run(ui, state, ctx, Press("select"), Press("select")).ui
    started = run(ui, state, ctx, Press("select"))
    assert isinstance(started.event, Setup) and started.event.players == ("", "")
    assert started.names is None


def test_unnamed_says_where_new_names_are_typed(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context()
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select")).ui
    shown = present.view(ui, state, ctx)
    assert isinstance(shown, ChoiceView)
    assert [(o.label, o.note) for o in shown.options] == [("unnamed", "Add names: phone, Players")]


def test_a_player_added_on_the_phone_is_offered_at_once(catalog: Catalog, tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "journal.sqlite")
    app = App(catalog, journal, Frames())
    app.start(welcome=False)
    setup: list[Input] = [Press("select"), Press("right"), Press("select")]
    for given in (*setup, *(Scan(t) for t in TOKENS), Press("right"), Press("select")):
        app.handle(given)
    assert [c.label for c in options(app.ui, app.state, app.context())] == ["unnamed"]
    # the phone's Players page adds Dora through the loop (LoopControl.write)
    app.handle(Call(lambda a: add_player(a.journal, "Dora"), threading.Event(), []))
    assert [c.label for c in options(app.ui, app.state, app.context())] == ["Dora", "unnamed"]
    journal.close()


def test_long_left_goes_back_a_side_then_to_the_ready_screen(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select"), Press("select")).ui
    assert ui.naming == 1 and ui.names == ("Ben", "")
    back = run(ui, state, ctx, Press("left", long=True)).ui
    assert back.mode is Mode.PLAYERS and back.naming == 0
    back = run(back, state, ctx, Press("left", long=True)).ui
    assert back.mode is Mode.START and back.cursor == 1  # on "Players"


def test_a_scan_while_naming_is_refused_and_changes_nothing(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select")).ui
    scanned = run(ui, state, ctx, Scan("lumber_yard")).ui
    assert scanned.notice == "Finish the setup first"
    assert (scanned.mode, scanned.names, scanned.naming) == (Mode.PLAYERS, ("", ""), 0)


def test_the_naming_screen_survives_json_and_a_restart(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select"), Press("select")).ui
    saved = UiState.from_json(ui.to_json())
    assert saved == ui
    assert resume(saved, state, ctx) == ui


def test_an_undone_setup_comes_back_with_its_names(catalog: Catalog) -> None:
    state, ctx = new_game(catalog), Context(known=KNOWN)
    ui = run(ready(state, ctx), state, ctx, Press("right"), Press("select"), Press("select")).ui
    ui = run(ui, state, ctx, Press("left"), Press("select")).ui  # Player 2: unnamed
    event = run(ui, state, ctx, Press("select")).event
    assert isinstance(event, Setup)
    again = setup_screens(event, catalog)
    assert again is not None and again.names == ("Ben", "")


class Frames:
    def __init__(self) -> None:
        self.images: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.images.append(image)


def test_the_app_offers_the_journals_players_and_writes_the_names(
    catalog: Catalog, tmp_path: Path
) -> None:
    now = [datetime(2026, 3, 1, 20, 0, tzinfo=UTC)]
    journal = Journal.create(tmp_path / "journal.sqlite", clock=lambda: now[0])
    for name in ("Cleo", "Ann", "Ben"):  # added a minute apart: Ben is the most recent
        add_player(journal, name)
        now[0] += timedelta(minutes=1)
    app = App(catalog, journal, Frames())
    app.start(welcome=False)
    setup: list[Input] = [Press("select"), Press("right"), Press("select")]
    for given in (*setup, *(Scan(t) for t in TOKENS)):
        app.handle(given)
    app.handle(Press("right"))
    app.handle(Press("select"))  # Players
    assert [c.label for c in options(app.ui, app.state, app.context())] == [
        "Ben",
        "Ann",
        "Cleo",
        "unnamed",
    ]
    for given in (Press("right"), Press("select"), Press("select"), Press("select")):
        app.handle(given)  # Player 1: Ann; Player 2: Ben (first); start
    assert journal.game(app.game.game_id).players == {"p1": "Ann", "p2": "Ben"}
    assert app.state.names == ("Ann", "Ben")  # the OLED says their names during the game
    assert app.context().known == ()  # past the setup the list is not read
    journal.close()


def test_a_busy_journal_keeps_the_setup_and_says_the_names_were_not_saved(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal.create(tmp_path / "journal.sqlite")
    add_player(journal, "Ann")
    app = App(catalog, journal, Frames())
    app.start(welcome=False)
    setup: list[Input] = [Press("select"), Press("right"), Press("select")]
    for given in (*setup, *(Scan(t) for t in TOKENS), Press("right"), Press("select")):
        app.handle(given)

    def busy(self: Journal, game_id: int, players: object) -> None:
        raise JournalError("database is locked")

    monkeypatch.setattr(Journal, "set_players", busy)
    for given in (Press("select"), Press("select"), Press("select")):
        app.handle(given)  # Player 1: Ann; Player 2: unnamed; start
    assert app.ui.notice == "Journal error: not named"
    assert len(journal.effective_events(app.game.game_id)) == 1  # the setup is kept
    # the setup line named the game's sides when it was written (p2 unnamed)
    assert journal.game(app.game.game_id).players == {"p1": "Ann", "p2": ""}
    journal.close()
