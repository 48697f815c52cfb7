"""The hard box thinks while the human thinks: on the human's turn a pondering thread searches
the position; when the human has played, the box's answer comes from it (stopped first), and
a new game (or an undo below the pondered position) stops it."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.device.controller import Mode, Press, Scan
from companion.engine.cards import Catalog
from companion.engine.events import Discard, Event, event_from_record
from companion.engine.state import Player
from companion.search.mcts import PLAYOUTS
from companion.search.player import Level, root_events
from companion.search.policy import acting_player
from companion.service.loop import App, BoxMoved
from companion.service.playback import read_record
from companion.service.root import open_journal
from tests.device.tables import play_with_deals, solo_after

RECORDS = Path(__file__).resolve().parents[1] / "records"
RECORD = read_record(RECORDS / "simulated_civilian_win.jsonl")  # p2 begins: the box, here
PONDERING = Level("quick", 30, ponder=True)
WAIT = 60.0  # seconds at most for a worker (blocking waits, not sleeps)


class _Frames:
    def show(self, image: Any) -> None:
        self.last = image


def effective(app: App) -> list[Event]:
    return [event_from_record(r) for r in app.journal.effective_events(app.game.game_id)]


def box_plays(app: App, inbox: queue.Queue[Any]) -> None:
    """The box's move arrives from its worker and the human scans its card."""
    answer = inbox.get(timeout=WAIT)
    assert isinstance(answer, BoxMoved) and answer.event is not None
    app.handle(answer)
    app.handle(Scan(answer.event.card))  # type: ignore[attr-defined]
    while app.ui.mode is Mode.FEEDBACK:
        app.handle(Press("left"))


def soon(check: Callable[[], bool]) -> bool:
    """Whether `check()` holds within WAIT seconds (checked each 10 ms)."""
    waiting = threading.Event()
    for _ in range(int(WAIT * 100)):
        if check():
            return True
        waiting.wait(0.01)
    return False


def test_the_box_ponders_on_the_humans_turn_and_answers_from_it(
    catalog: Catalog, tmp_path: Path
) -> None:
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    app = solo_after(catalog, journal, RECORD[:2],
                     lambda: App(catalog, journal, _Frames(), post=inbox.put,
                                 solo=(Player.P2, PONDERING)))  # fmt: skip
    assert acting_player(app.state) is Player.P2 and app.pondering is None  # the box's turn
    box_plays(app, inbox)
    assert acting_player(app.state) is Player.P1  # the human's turn: the box ponders
    pondering = app.pondering
    assert pondering is not None and pondering.thinking
    assert soon(lambda: pondering.ponder.iterations >= 64)
    move = next(e for e in root_events(app.state) if isinstance(e, Discard))
    before = app.context().events
    play_with_deals(app, [*effective(app), move])  # the human discards
    assert app.pondering is None  # handed to the box's search, which stops it first
    answer = inbox.get(timeout=WAIT)
    assert isinstance(answer, BoxMoved) and answer.want.events == before + 1
    assert not pondering.thinking  # stopped, and no longer searching
    iterations = pondering.ponder.iterations
    assert iterations >= 64
    assert answer.event in root_events(app.state)  # the box's move, legal now
    app.handle(answer)
    assert pondering.ponder.iterations == iterations


def test_a_new_game_stops_the_pondering(catalog: Catalog, tmp_path: Path) -> None:
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    app = solo_after(catalog, journal, RECORD[:2],
                     lambda: App(catalog, journal, _Frames(), post=inbox.put,
                                 solo=(Player.P2, PONDERING)))  # fmt: skip
    box_plays(app, inbox)
    pondering = app.pondering
    assert pondering is not None and soon(lambda: pondering.ponder.iterations >= 16)
    app.new_game()  # the position is gone
    assert app.pondering is None
    assert soon(lambda: not pondering.thinking)  # asked to stop, it ends by itself after its slice


def test_a_level_without_pondering_never_ponders(catalog: Catalog, tmp_path: Path) -> None:
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    app = solo_after(catalog, journal, RECORD[:2],
                     lambda: App(catalog, journal, _Frames(), post=inbox.put,
                                 solo=(Player.P2, Level("quick", 30))))  # fmt: skip
    box_plays(app, inbox)
    assert acting_player(app.state) is Player.P1 and app.pondering is None


def test_the_pondering_searches_as_the_boxs_level_does(catalog: Catalog, tmp_path: Path) -> None:
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    playing_out = Level("quick playouts", 30, ponder=True, settings=PLAYOUTS)
    app = solo_after(catalog, journal, RECORD[:2],
                     lambda: App(catalog, journal, _Frames(), post=inbox.put,
                                 solo=(Player.P2, playing_out)))  # fmt: skip
    box_plays(app, inbox)
    pondering = app.pondering
    assert pondering is not None and pondering.ponder.tree is not None
    assert pondering.ponder.tree.settings is PLAYOUTS
    app.new_game()
    assert soon(lambda: not pondering.thinking)
