"""How the pages change a game: undo, naming the players, correcting a mis-scan, importing.

`Control` is what the app calls; `JournalControl` does it by opening the journal for writing
and using `companion.records.game.Game`, which suits `duel-companion web` alone over a journal. The
run loop, which holds the one live `Game`, passes its own Control so that every change goes
through its queue and the `Game` it holds stays the journal's only writer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from companion.engine.cards import Catalog
from companion.engine.events import event_from_record
from companion.records.game import Game, check_record, import_record
from companion.records.journal import Journal, JournalError

T = TypeVar("T")


class Control(Protocol):
    """The changes a phone may ask for (after the pairing code was checked).

    Each raises `UnknownGame` for an unknown id, `IllegalEvent` when the rules refuse (one
    line), `RecordRefused` for a bad record, and changes nothing then.
    """

    def undo(self, game_id: int) -> None:
        """Undo the latest effective event of the game."""

    def name_players(self, game_id: int, names: Mapping[str, str]) -> None:
        """Name the players of the game."""

    def correct(self, game_id: int, record: Mapping[str, Any]) -> None:
        """Replace the latest effective event with `record` (a mis-scan corrected)."""

    def import_record(self, lines: Sequence[str]) -> int:
        """Add a game record as a new game; return its id."""

    def write(self, change: Callable[[Journal], T]) -> T:
        """Run `change` on the journal as its writer (players, a history import)."""


class JournalControl:
    """Changes made directly in the journal file through `Game` (one at a time)."""

    def __init__(self, path: str | Path, catalog: Catalog) -> None:
        self._path = Path(path)
        self._catalog = catalog
        self._lock = threading.Lock()

    def undo(self, game_id: int) -> None:
        """Undo the latest effective event of the game."""
        with self._lock, Journal.open(self._path) as journal:
            Game(self._catalog, journal, game_id).undo()

    def name_players(self, game_id: int, names: Mapping[str, str]) -> None:
        """Name the players of the game."""
        with self._lock, Journal.open(self._path) as journal:
            Game(self._catalog, journal, game_id).name_players(names)

    def correct(self, game_id: int, record: Mapping[str, Any]) -> None:
        """Replace the latest effective event with `record`; refused: nothing changes."""
        event = event_from_record(dict(record))
        with self._lock, Journal.open(self._path) as journal:
            Game(self._catalog, journal, game_id).correct(event)

    def import_record(self, lines: Sequence[str]) -> int:
        """Add a game record as a new game; return its id (refused: a record already there)."""
        check_record(self._catalog, lines)  # refused before the journal is opened or created
        with self._lock, Journal.open(self._path) as journal:
            return import_record(self._catalog, journal, lines)

    def write(self, change: Callable[[Journal], T]) -> T:
        """Run `change` on the journal opened for writing (one change at a time)."""
        with self._lock, Journal.open(self._path) as journal:
            return change(journal)


class ReadOnlyControl:
    """No changes: every one is refused with `reason` (a journal served read-only)."""

    def __init__(self, reason: str) -> None:
        self._reason = reason

    def _refuse(self) -> Any:
        raise JournalError(f"This journal is {self._reason}: no changes")

    def undo(self, game_id: int) -> None:
        """Refused."""
        self._refuse()

    def name_players(self, game_id: int, names: Mapping[str, str]) -> None:
        """Refused."""
        self._refuse()

    def correct(self, game_id: int, record: Mapping[str, Any]) -> None:
        """Refused."""
        self._refuse()

    def import_record(self, lines: Sequence[str]) -> int:
        """Refused."""
        result: int = self._refuse()
        return result

    def write(self, change: Callable[[Journal], T]) -> T:
        """Refused."""
        result: T = self._refuse()
        return result
