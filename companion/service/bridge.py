"""The bridge between the phone pages and the run loop: each change a page asks for runs on
the loop's thread, so that the loop's `Game` stays the journal's only writer."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from companion.engine.events import event_from_record
from companion.records.game import Game
from companion.records.journal import Journal, JournalError
from companion.service.loop import App, Call

T = TypeVar("T")


class LoopControl:
    """The phone pages' changes, run on the loop thread so that its `Game` stays the writer."""

    def __init__(self, inbox: queue.Queue[Any], timeout: float = 10.0) -> None:
        self._inbox = inbox
        self._timeout = timeout

    def _call(self, action: Callable[[App], Any], *, reload: bool = True) -> Any:
        done = threading.Event()
        result: list[Any] = []
        self._inbox.put(Call(action, done, result, reload))
        if not done.wait(self._timeout):
            raise JournalError("the device is busy; try again")
        if isinstance(result[0], Exception):
            raise result[0]
        return result[0]

    def undo(self, game_id: int) -> None:
        """Undo the latest effective event of the game."""
        self._call(lambda app: _writer(app, game_id).undo())

    def name_players(self, game_id: int, names: Mapping[str, str]) -> None:
        """Name the players of the game."""
        self._call(lambda app: _writer(app, game_id).name_players(names))

    def correct(self, game_id: int, record: Mapping[str, Any]) -> None:
        """Replace the latest effective event with `record`; refused: nothing changes."""

        def action(app: App) -> None:
            _writer(app, game_id).correct(event_from_record(dict(record)))

        self._call(action)

    def import_record(self, lines: Sequence[str]) -> int:
        """Add a game record as a new game; return its id."""
        from companion.records.game import import_record

        result: int = self._call(lambda app: import_record(app.catalog, app.journal, lines))
        return result

    def write(self, change: Callable[[Journal], T]) -> T:
        """Run `change` on the loop's journal, on the loop thread (players, history import)."""
        result: T = self._call(lambda app: change(app.journal))
        return result

    def start_reading(self, names: Sequence[str]) -> dict[str, Any]:
        """Read the cities of these players (seating order) with the box's camera."""
        result: dict[str, Any] = self._call(lambda app: app.start_reading(names), reload=False)
        return result

    def reading(self) -> dict[str, Any]:
        """The cities read so far (`family_scan.to_page`)."""
        result: dict[str, Any] = self._call(lambda app: app.reading_now(), reload=False)
        return result

    def stop_reading(self) -> dict[str, Any]:
        """End the reading; return the cities as they were."""
        result: dict[str, Any] = self._call(lambda app: app.stop_reading(), reload=False)
        return result


def _writer(app: App, game_id: int) -> Game:
    """The loop's own Game for the live game, else one opened for `game_id`."""
    if game_id == app.game.game_id:
        return app.game
    return Game(app.catalog, app.journal, game_id)
