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

from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.cards import Catalog
from companion.engine.events import Event, IllegalEvent, event_to_record
from companion.engine.rules import apply
from companion.engine.state import GameState
from companion.records.journal import Journal, JournalError, Outcome
from companion.records.reader import RecordRefused, read_records
from companion.records.replay import Replay, replay
from companion.records.summaries import keep_summary

SCREEN_KEY = "screen"
FINISHED = "The game is finished: only the box can reopen it, after asking"


def outcome_of(state: GameState) -> Outcome:
    """The journal's summary columns for a state: status, winner ("shared" too), victory."""
    if not state.finished:
        return Outcome()
    winner = "shared" if state.shared else (state.winner.value if state.winner else None)
    return Outcome("finished", winner, state.victory.value if state.victory else None)


def check_record(catalog: Catalog, lines: Iterable[str]) -> Replay:
    """A game record read and replayed, without touching any journal (so a command can refuse
    a record before it opens, creates or moves a journal file).

    Raises:
        RecordRefused: a line the reader or the rules refuse, named.
    """
    return replay(catalog, read_records(lines))


def import_record(
    catalog: Catalog, journal: Journal, lines: Iterable[str], *, again: bool = False
) -> int:
    """Add a game record (finished or not) to the journal as a new game; return its id.

    The events are stored as the rules read them (`event_to_record`: documented keys only).
    `again=True` adds a game whose events are already there (a history file's own twins,
    companion.records.archive); a record from a person never passes it.

    Raises:
        RecordRefused: a line that is not a JSON event or that the rules refuse; the
            message names the line, and the journal is left unchanged.
        AlreadyInHistory: the same events are already a game of the journal (named).
    """
    replayed = check_record(catalog, lines)
    game_id = journal.add_game(replayed.records, outcome_of(replayed.state), again=again)
    if replayed.state.finished:
        keep_summary(journal, game_id, replayed.state)  # for statistics
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
        rows = [(row.seq, row.record) for row in journal.rows(game_id)]
        try:
            self._states = list(replay(catalog, rows, label="row").states)
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

    def submit(self, event: Event, applied: tuple[GameState, GameState] | None = None) -> GameState:
        """Apply `event`, write it to the journal, and return the new state.

        `applied` is (before, after) where the caller already applied `event` to a state:
        when `before` is this game's state now, `after` is taken as is (states are immutable
        and `apply` is pure), so a confirmed event is applied once.

        Raises:
            IllegalEvent: the rules refuse it; nothing is written.
            JournalError: the journal cannot write (nothing changed), or another writer
                changed this game since it was loaded.
        """
        if applied is not None and applied[0] is self.state:
            after = applied[1]
        else:
            after = apply(self.state, event)  # refused: raises, nothing written
        self._seq = self._journal.append(
            self.game_id, event_to_record(event), outcome_of(after), after_seq=self._seq
        )  # committed (WAL, synchronous=FULL) before anyone is told
        self._states.append(after)
        if after.finished:
            keep_summary(self._journal, self.game_id, after)  # for statistics
        return after

    def undo(self, *, reopen: bool = False) -> GameState:
        """Cancel the latest effective event (an appended undo row); return the state before.

        A finished game is closed: only `reopen=True` undoes its last event, which the box
        passes once the players confirmed it; the phones never do.

        Raises:
            IllegalEvent: "Nothing to undo" at the start of the game, or `FINISHED`.
            JournalError: the journal cannot write, or another writer changed this game.
        """
        if len(self._states) == 1:
            raise IllegalEvent("Nothing to undo")
        if self.state.finished and not reopen:
            raise IllegalEvent(FINISHED)
        before = self._states[-2]
        self._seq = self._journal.append_undo(self.game_id, outcome_of(before), after_seq=self._seq)
        self._states.pop()
        return self.state

    def correct(self, event: Event, *, reopen: bool = False) -> GameState:
        """Replace the latest effective event with `event` (a mis-scan corrected), written as
        one journal transaction; return the new state. A finished game needs `reopen=True`,
        as for `undo`.

        Raises:
            IllegalEvent: nothing to correct, `FINISHED`, or the rules refuse `event` in
                place of the latest one; nothing is written.
            JournalError: the journal cannot write, or another writer changed this game.
        """
        if len(self._states) == 1:
            raise IllegalEvent("Nothing to correct")
        if self.state.finished and not reopen:
            raise IllegalEvent(FINISHED)
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
