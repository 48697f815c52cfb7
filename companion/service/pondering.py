"""The hard box thinks while the human thinks: on the human's turn in a solo game, a thread
runs the search of the position (`companion.search.player.Ponder`) in short slices until the
box's turn comes; the box's answer then keeps what it found under the human's move
(docs/device.md).

The thread stops between two slices when asked (`stop` waits for it: at most one slice, a few
milliseconds), and on its own after `LIMIT` iterations, so that a human who walks away leaves
neither a core busy nor a tree growing.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from companion.engine.events import Event
from companion.engine.state import GameState
from companion.search.mcts import TRUNCATED, Settings
from companion.search.player import Ponder

__all__ = ["LIMIT", "SLICE", "Pondering"]

SLICE = 16
"""Iterations between two looks at the stop flag."""
LIMIT = 20_000
"""Iterations at most per human turn (a tree of at most this many nodes)."""


class Pondering:
    """A `Ponder` of `state` (the game after `events`, in the game `game_id`) on a thread
    of its own, from `start` until `stop`."""

    def __init__(
        self,
        state: GameState,
        events: Sequence[Event],
        game_id: int,
        seed: int = 0,
        settings: Settings = TRUNCATED,
    ) -> None:
        self.ponder = Ponder(state, seed, settings)
        self.events = tuple(events)
        self.game_id = game_id
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ponder", daemon=True)

    def start(self) -> Pondering:
        """Start thinking; returns self."""
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set() and self.ponder.iterations < LIMIT:
            if not self.ponder.think(SLICE):
                return  # nothing to search

    def follows(self, events: Sequence[Event], game_id: int) -> bool:
        """Whether the game (`game_id` after `events`) went on from the pondered position
        (not undone below it, not another game)."""
        size = len(self.events)
        return game_id == self.game_id and tuple(events[:size]) == self.events

    @property
    def thinking(self) -> bool:
        """Whether the thread still runs."""
        return self._thread.is_alive()

    def stop(self) -> Ponder:
        """Stop the thread and wait for it (one slice at most); the search, for its answer."""
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()
        return self.ponder

    def cancel(self) -> None:
        """Ask the thread to stop without waiting (the position is gone: an undo, a new
        game)."""
        self._stop.set()
