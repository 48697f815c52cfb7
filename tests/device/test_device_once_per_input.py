"""Each confirmed event is applied once (the controller checks it, the journal's game takes
that state), and each press computes the screen's options once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.device import controller, present
from companion.device.controller import Mode, Press
from companion.engine.cards import Catalog
from companion.engine.events import Build
from companion.records import game as game_module
from companion.service.loop import App
from companion.service.playback import TablePlayer, read_record
from companion.service.root import open_journal


class Frames:
    def show(self, image: Any) -> None:
        pass


def counting(calls: list[str], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return function(*args, **kwargs)

    return counted


def on_card_screen(catalog: Catalog, tmp_path: Path) -> App:
    """The demo game up to the first build of a card: scanned, its options on the screen."""
    events = read_record()
    first_build = next(i for i, e in enumerate(events) if isinstance(e, Build))
    app = App(catalog, open_journal(tmp_path / "journal.sqlite"), Frames())
    player = TablePlayer(events[: first_build + 1])
    while not (app.ui.mode is Mode.CARD and app.context().events == first_build):
        given = player.next_input(app.ui, app.state, app.context())
        assert given is not None, "the record ended before its first build"
        app.handle(given)
    return app


def test_a_confirmed_build_is_applied_once(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = on_card_screen(catalog, tmp_path)
    calls: list[str] = []
    monkeypatch.setattr(controller, "apply", counting(calls, "controller", controller.apply))
    monkeypatch.setattr(game_module, "apply", counting(calls, "game", game_module.apply))
    before = app.context().events
    app.handle(Press("select"))  # the first option of a card: build it
    assert app.context().events == before + 1
    assert calls == ["controller"]  # the journal's game took the controller's state


def test_a_press_computes_the_options_once(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = on_card_screen(catalog, tmp_path)
    calls: list[str] = []
    for module in (controller, present):
        monkeypatch.setattr(module, "options", counting(calls, module.__name__, module.options))
    cursor = app.ui.cursor
    app.handle(Press("right"))
    assert app.ui.cursor != cursor
    assert len(calls) == 1
