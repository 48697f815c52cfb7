"""The running game: the journal's only writer.

`Game` holds the list of states of one game, derived from the journal by replay, and writes
each confirmed event before anyone is told (STYLE.md, section 3):

    journal = Journal.open(config.journal)
    game = Game.resume_or_start(catalog, journal)  # the latest game, or a new one
    game.submit(Build(Player.P1, CardId("lumber_yard")))  # refused: IllegalEvent, no row
    game.undo()  # an appended undo row; IllegalEvent("Nothing to undo") at the start

Only the run loop holds a `Game` while a game is played; pages read the journal read-only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.engine.cards import Catalog
from companion.engine.events import Event, IllegalEvent, event_from_record, event_to_record
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState
from companion.records.journal import (
    Journal,
    JournalError,
    Outcome,
    Record,
    RecordRefused,
    parse_record_lines,
)
from companion.records.summaries import keep_summary

SCREEN_KEY = "screen"


def outcome_of(state: GameState) -> Outcome:
    """The journal's summary columns for a state: status, winner ("shared" too), victory."""
    if not state.finished:
        return Outcome()
    winner = "shared" if state.shared else (state.winner.value if state.winner else None)
    return Outcome("finished", winner, state.victory.value if state.victory else None)


def replay_records(
    catalog: Catalog, records: Iterable[Record], *, numbers: Sequence[int] | None = None
) -> list[GameState]:
    """Every state of a game, the first before any event, by applying its records in turn.

    Raises:
        RecordRefused: a record the rules refuse, named by its line (`numbers`, else its
            position from 1), with the rules' reason.
    """
    states = [new_game(catalog)]
    for index, record in enumerate(records):
        line = numbers[index] if numbers is not None else index + 1
        try:
            states.append(apply(states[-1], event_from_record(record)))
        except IllegalEvent as refused:
            raise RecordRefused(f"line {line}: {refused}", line) from None
    return states


def check_record(catalog: Catalog, lines: Iterable[str]) -> Outcome:
    """The outcome of a game record if it were imported, without touching any journal (so a
    command can refuse a record before it opens, creates or moves a journal file).

    Raises:
        RecordRefused: a line that is not a JSON event or that the rules refuse.
    """
    return outcome_of(_replayed(catalog, parse_record_lines(lines))[-1])


def _replayed(catalog: Catalog, numbered: Sequence[tuple[int, Record]]) -> list[GameState]:
    return replay_records(catalog, [r for _, r in numbered], numbers=[n for n, _ in numbered])


def import_record(catalog: Catalog, journal: Journal, lines: Iterable[str]) -> int:
    """Add a game record (finished or not) to the journal as a new game; return its id.

    Raises:
        RecordRefused: a line that is not a JSON event or that the rules refuse; the
            message names the line, and the journal is left unchanged.
    """

    final: list[GameState] = []

    def check(numbered: Sequence[tuple[int, Record]]) -> Outcome:
        states = _replayed(catalog, numbered)
        final.append(states[-1])
        return outcome_of(states[-1])

    game_id = journal.import_record(lines, check)
    if final and final[-1].finished:
        keep_summary(journal, game_id, final[-1])  # for statistics
    return game_id


class Game:
    """One game of the journal, its states derived by replay; the journal's only writer."""

    def __init__(self, catalog: Catalog, journal: Journal, game_id: int) -> None:
        """Load game `game_id` by replaying its effective events (recovery is replay).

        Raises:
            UnknownGame: no such game.
            JournalError: the game no longer replays under these rules (the journal is
                left as it is; the message names the event and the reason).
        """
        self._catalog = catalog
        self._journal = journal
        self.game_id = game_id
        self._seq = journal.last_seq(game_id)
        try:
            self._states = replay_records(catalog, journal.effective_events(game_id))
        except RecordRefused as refused:
            raise JournalError(f"game {game_id} no longer replays: {refused}") from None

    @classmethod
    def start(cls, catalog: Catalog, journal: Journal) -> Game:
        """A new game in the journal, waiting for its setup event."""
        return cls(catalog, journal, journal.new_game())

    @classmethod
    def resume_or_start(cls, catalog: Catalog, journal: Journal) -> Game:
        """The newest game played here at its exact state, or a new game when there is none.

        A finished game comes back too, so that a restart after the last card still shows the
        winner and the score page's QR code; the players start the next game from there.
        """
        latest = journal.latest_played()
        return cls.start(catalog, journal) if latest is None else cls(catalog, journal, latest)

    @property
    def state(self) -> GameState:
        """The state after the latest effective event."""
        return self._states[-1]

    @property
    def states(self) -> tuple[GameState, ...]:
        """Every state from before the first event to now."""
        return tuple(self._states)

    @property
    def seq(self) -> int:
        """The journal seq of the latest row this game wrote or read."""
        return self._seq

    def submit(self, event: Event) -> GameState:
        """Apply `event`, write it to the journal, and return the new state.

        Raises:
            IllegalEvent: the rules refuse it; nothing is written.
            JournalError: the journal cannot write (nothing changed), or another writer
                changed this game since it was loaded.
        """
        after = apply(self.state, event)  # refused: raises, nothing written
        self._seq = self._journal.append(
            self.game_id, event_to_record(event), outcome_of(after), after_seq=self._seq
        )  # committed (WAL, synchronous=FULL) before anyone is told
        self._states.append(after)
        if after.finished:
            keep_summary(self._journal, self.game_id, after)  # for statistics
        return after

    def undo(self) -> GameState:
        """Cancel the latest effective event (an appended undo row); return the state before.

        Raises:
            IllegalEvent: "Nothing to undo" at the start of the game.
            JournalError: the journal cannot write, or another writer changed this game.
        """
        if len(self._states) == 1:
            raise IllegalEvent("Nothing to undo")
        before = self._states[-2]
        self._seq = self._journal.append_undo(self.game_id, outcome_of(before), after_seq=self._seq)
        self._states.pop()
        return self.state

    def correct(self, event: Event) -> GameState:
        """Replace the latest effective event with `event` (a mis-scan corrected), written as
        one journal transaction; return the new state.

        Raises:
            IllegalEvent: nothing to correct, or the rules refuse `event` in place of the
                latest one; nothing is written.
            JournalError: the journal cannot write, or another writer changed this game.
        """
        if len(self._states) == 1:
            raise IllegalEvent("Nothing to correct")
        after = apply(self._states[-2], event)  # refused: raises, nothing written
        self._seq = self._journal.append_correction(
            self.game_id, event_to_record(event), outcome_of(after), after_seq=self._seq
        )
        self._states[-1] = after
        if after.finished:
            keep_summary(self._journal, self.game_id, after)
        return after

    def name_players(self, names: Mapping[str, str]) -> None:
        """Set the players' names shown on pages and written into the exported setup line."""
        self._journal.set_players(self.game_id, names)

    def remember(self, key: str, value: Any) -> None:
        """Keep a small JSON value with this game (e.g. the device's screen, `SCREEN_KEY`)."""
        self._journal.set_meta(self.game_id, key, value)

    def recall(self, key: str, default: Any = None) -> Any:
        """A value kept with `remember`, or `default`."""
        return self._journal.meta(self.game_id, key, default)
