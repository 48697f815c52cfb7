"""A device app driven through a record, deals included: the moves through the buttons and
the camera (`TablePlayer`), each deal through the loop as the phone or the overhead reading
would give it (a `Call` on the loop's thread)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from companion.device.app import App, Call
from companion.device.playback import TablePlayer
from companion.engine.events import Deal, Event


def play_with_deals(app: App, events: Sequence[Event]) -> None:
    """Play `events` on `app` from where its game is."""
    player = TablePlayer(list(events), mistakes=False)
    for _ in range(20_000):
        index = app.context().events
        if index >= len(events) and app.ui.mode.value != "feedback":
            return
        target = events[index] if index < len(events) else None
        if isinstance(target, Deal):
            app.handle(Call(lambda a, deal=target: a.game.submit(deal), threading.Event(), []))
            continue
        given = player.next_input(app.ui, app.state, app.context())
        if given is None:
            return
        app.handle(given)
    raise AssertionError("the record did not play to its end")  # pragma: no cover
