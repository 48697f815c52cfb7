"""The time to a hint at the table: the coach asked on the box while its camera loop and its
web server run, for `benchmarks/search_player.py table`.

The device is wired as `duel-companion run` wires it (`companion.service`): the run loop
(`run_loop` over an `App` whose coach searches on a worker thread and posts its answer), the
camera thread (`start_scanner`: the real decoder and tracker at the configured 15 fps, on
generated frames of the empty table from `companion.vision.synth`), the phone pages served
by waitress (`_start_web`), and a few phones polling the live page as `web/static/live.js`
does (the seq every `poll` seconds, the board when it moved). The screen is the emulated
OLED (each frame written as a PNG, as on a machine without the display).

Positions come from random games (`companion.play.simulate.play`, with their deals): their events
are submitted through the loop as the phone's import does, and at every 5th state where a
hint can be given, a person asks the coach: a long right (the button map), then left. The
time is from that left press reaching the loop's queue to the coach's answer handed to the
display. At the same position a phone asks the live page's coach (`/games/<id>/coach.json`),
timed from request to answer. The coach searches with the device's clock limit (`seconds`);
each search's iterations are counted to say how many the clock cut short.
"""

from __future__ import annotations

import os
import queue
import random
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

TICK = 0.5


class TimedDisplay:
    """The emulated OLED, noting when a wanted view (`waiting_for`) is handed to it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.app: Any = None
        self.waiting_for: Callable[[Any], bool] | None = None
        self.shown_at = 0.0
        self.seen = threading.Event()

    def show(self, image: Image.Image) -> None:
        self.inner.show(image)
        wanted = self.waiting_for
        if wanted is not None and self.app is not None and wanted(self.app.view):
            self.shown_at = time.perf_counter()
            self.waiting_for = None
            self.seen.set()

    def expect(self, wanted: Callable[[Any], bool]) -> None:
        self.seen.clear()
        self.waiting_for = wanted


def empty_table_frames(folder: Path, count: int = 4) -> None:
    """A few generated frames of the table with nothing in the scan zone (the camera's idle
    view while people think), as PNG files for a looping folder source."""
    import cv2

    from companion.vision import synth

    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        cv2.imwrite(str(folder / f"table-{number}.png"), synth.frame_with_cards([], seed=number))


def positions(catalog: Any, count: int, seed: int) -> list[tuple[list[Any], list[int]]]:
    """Random games and, in each, the event counts after which a hint is asked (every 5th
    state with a dealt age or a decision, not a Great Library draw, not the end)."""
    from companion.engine.state import PendingKind
    from companion.play.simulate import play
    from companion.search.determinize import needs_deal

    games: list[tuple[list[Any], list[int]]] = []
    total, number = 0, 0
    while total < count:
        game = play(catalog, random.Random(seed + number), check=False)
        number += 1
        marks = []
        for index in range(2, len(game.states) - 1, 5):
            state = game.states[index]
            if state.finished or (state.pending is None and needs_deal(state)):
                continue
            if state.pending is not None and state.pending.kind is PendingKind.GREAT_LIBRARY:
                continue
            marks.append(index)
        marks = marks[: count - total]
        games.append((game.events, marks))
        total += len(marks)
    return games


class Phones:
    """`clients` phones with the live page open: each loads the page, then polls the seq
    every `poll` seconds and fetches the board when it moved."""

    def __init__(self, url: str, game_id: Callable[[], int], clients: int, poll: float) -> None:
        self._url, self._game_id, self._poll = url, game_id, poll
        self._stop = threading.Event()
        self.requests = 0
        self.failures = 0
        self._threads = [
            threading.Thread(target=self._run, name=f"phone-{n}", daemon=True)
            for n in range(clients)
        ]

    def _get(self, path: str) -> bytes:
        try:
            with urllib.request.urlopen(self._url + path, timeout=30) as answer:
                body: bytes = answer.read()
                self.requests += 1
                return body
        except OSError:
            self.failures += 1
            return b""

    def _run(self) -> None:
        seen: tuple[int, bytes] | None = None
        while not self._stop.is_set():
            game = self._game_id()
            if seen is None or seen[0] != game:
                self._get(f"/games/{game}")  # the page, opened on this game
            seq = self._get(f"/api/games/{game}/seq")
            if seen is not None and seen != (game, seq):
                self._get(f"/games/{game}/board")
            seen = (game, seq)
            self._stop.wait(self._poll)

    def __enter__(self) -> Phones:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)


def run_table(
    count: int, seed: int, clients: int, level_name: str, seconds: float | None
) -> dict[str, object]:
    """Hints at `count` positions with the camera loop and the web server running."""
    from companion.config import Config
    from companion.device import coach
    from companion.device.views import ChoiceView, HelpView
    from companion.engine.catalog import default_catalog
    from companion.inputs import Press
    from companion.search import player
    from companion.service import root as device
    from companion.service.loop import App, Call, run_loop
    from hardware.oled import EmulatedOled
    from web import live

    level = player.level_named(level_name)
    phone_seconds = live.COACH_SECONDS
    catalog = default_catalog()
    games = positions(catalog, count, seed)
    searched: list[tuple[str, int]] = []  # (thread, iterations) of every coach search
    plain_suggest = player.suggest

    def counted(*args: Any, **kwargs: Any) -> Any:
        answer = plain_suggest(*args, **kwargs)
        searched.append((threading.current_thread().name, answer.stats.iterations))
        return answer

    coach.suggest = counted  # type: ignore[assignment]  # both coaches search through it
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        empty_table_frames(scratch / "camera")
        config = Config.defaults(
            journal=scratch / "journal.sqlite",
            web={"host": "127.0.0.1", "port": free_port(), "threads": 4},
            display={"driver": "emulated", "emulated_dir": scratch / "oled"},
            camera={"source": f"folder:{scratch / 'camera'}", "image_seconds": 0.0,
                    "loop": True, "fps": 15},
            coach_level=level_name,
        )  # fmt: skip
        inbox: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()
        display = TimedDisplay(EmulatedOled(config.display.emulated_dir))
        journal = device.open_journal(config.journal)
        app = App(catalog, journal, display, post=inbox.put, coach=(level, seconds))
        display.app = app
        server = device._start_web(config, catalog, inbox, app, device.OverheadPicture())
        assert server is not None, "the web server did not start"
        scanner = device.start_scanner(config, inbox)
        assert scanner is not None, "the camera thread did not start"
        app.start(welcome=False)
        loop = threading.Thread(target=run_loop, args=(app, inbox, stop), name="loop")
        loop.start()
        warm_up = time.perf_counter() + 30
        while scanner.frames == 0 and time.perf_counter() < warm_up:
            time.sleep(0.01)  # the camera decoding before anything is measured

        def is_coach(view: Any) -> bool:
            """The coach's answer (its "Thinking..." is a message, not a choice)."""
            return isinstance(view, ChoiceView) and view.title == "Coach"

        def on_loop(action: Callable[[Any], Any]) -> None:
            done = threading.Event()
            inbox.put(Call(action, done, []))
            if not done.wait(120):
                raise RuntimeError("the run loop did not answer")

        def until(wanted: Callable[[Any], bool], then: Any) -> float:
            display.expect(wanted)
            start = time.perf_counter()
            inbox.put(then)
            if not display.seen.wait(120):
                raise RuntimeError(f"no {then} answer on the screen")
            return display.shown_at - start

        box: list[float] = []
        phone: list[float] = []
        box_searches: list[int] = []
        load_before = os.getloadavg()
        cpu_before, wall_before = time.process_time(), time.perf_counter()
        frames_before = scanner.frames
        try:
            with Phones(server.url, lambda: app.game.game_id, clients, 1.0) as phones:
                for events, marks in games:
                    on_loop(lambda a: a.new_game())
                    done = 0
                    for mark in marks:
                        batch = events[done:mark]
                        on_loop(lambda a, b=batch: [a.game.submit(e) for e in b])
                        done = mark
                        until(lambda v: isinstance(v, HelpView), Press("right", long=True))
                        asked = len(searched)
                        box.append(until(is_coach, Press("left")))
                        box_searches += [n for who, n in searched[asked:] if who == "coach"]
                        until(lambda v: not (is_coach(v) or isinstance(v, HelpView)),
                              Press("select"))  # fmt: skip
                        start = time.perf_counter()
                        url = f"{server.url}/games/{app.game.game_id}/coach.json"
                        with urllib.request.urlopen(url, timeout=120) as answer:
                            answer.read()
                        phone.append(time.perf_counter() - start)
                requests, failures = phones.requests, phones.failures
        finally:
            wall = time.perf_counter() - wall_before
            cpu = time.process_time() - cpu_before
            load_after = os.getloadavg()
            frames = scanner.frames - frames_before
            stop.set()
            inbox.put(None)
            loop.join(timeout=30)
            scanner.stop()
            server.close()
            journal.close()
            coach.suggest = plain_suggest  # type: ignore[assignment]
    cut = sum(1 for n in box_searches if 0 < n < level.iterations)
    return {
        "kind": "table",
        "level": level_name,
        "iterations": level.iterations,
        "seconds_limit": seconds,
        "phone_seconds_limit": phone_seconds,
        "positions": len(box),
        "clients": clients,
        "box": summary(box),
        "phone": summary(phone),
        "cut_by_clock": cut,
        "searches": len(box_searches),
        "phone_requests": requests,
        "phone_failures": failures,
        "process_cpu_percent": 100.0 * cpu / wall if wall else 0.0,
        "camera_fps": frames / wall if wall else 0.0,
        "camera_frames": scanner.frames,
        "load_before": list(load_before),
        "load_after": list(load_after),
        "cores": os.cpu_count(),
    }


def free_port() -> int:
    """A TCP port free on this machine now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def summary(times: list[float]) -> dict[str, float]:
    """p50, p95 (nearest rank) and max of `times`, in seconds."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": statistics.median(ordered), "p95": p95, "max": ordered[-1]}
