"""The review of a game on the phone: the chance to win after every move as a chart, the
three moves that cost each player most with what the search preferred, the turning point.

The search reviews each move from the state before it, with public information only
(`companion.search.review`), with 20 iterations a move (half the easy level's budget: a
review searches every move of the game). A review of a whole game takes seconds (about 4 s for
60 moves on an idle core here, several times that on a Raspberry Pi), so it is searched by
one worker thread fed by a bounded queue, never inside a request: the score page of a finished
game starts it (the end screen's QR code leads there; beyond `QUEUE_SIZE` games waiting it
starts nothing), and the review page waits for it at most
`REVIEW_WAIT_SECONDS` (app config, default 1.5) before it shows that the review is being
prepared and reloads itself. Reviews are kept per game and journal position (the last 8).

No path answers 500: a game that cannot be reviewed (no move played yet, or a review that
failed) gets a page with one sentence saying why (`Unreviewable`), and its JSON twin says so.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
from collections import OrderedDict
from typing import Any

import pygal
from flask import Blueprint, Response, current_app, jsonify, render_template
from werkzeug.exceptions import ServiceUnavailable

from companion.engine.events import IllegalEvent, event_from_record, event_to_record
from companion.engine.rules import apply
from companion.search.player import Level
from companion.search.review import MoveReview, Review, review

from .access import catalog, language, loaded_or_404
from .present import Loaded, describe, player_names

# pygal appends an import hook for its optional map plugins to sys.meta_path when imported; it
# still uses the find_module protocol that Python 3.12 drops, warns on every later import and
# serves nothing here (no maps are drawn): take it out again.
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__ != "pygal"]

bp = Blueprint("review", __name__)

LEVEL = Level("review", 20)
CACHE_SIZE = 8
WAIT_SECONDS = 1.5
"""How long the review page waits for the worker before it shows "being prepared"."""


NO_MOVE = "Nothing to review yet: no move has been played."


class Unreviewable(Exception):
    """A game that has no review; the message is one sentence saying why."""


class ReviewsBusy(RuntimeError):
    """The review worker has `QUEUE_SIZE` games waiting already; ask again later."""


QUEUE_SIZE = 4
"""Games waiting for the one review worker; a score page asked beyond that starts nothing."""


class Reviews:
    """Reviews searched one at a time by one worker thread, kept per (game, seq), with the
    reason of each review that could not be made.

    The worker takes games from a bounded queue: opening the score pages of many finished
    games queues at most `QUEUE_SIZE` of them (the others are searched when asked again),
    so no request can start threads or searches without bound.
    """

    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self._lock = threading.Lock()
        self._done: OrderedDict[tuple[int, int], Review | Unreviewable] = OrderedDict()
        self._running: dict[tuple[int, int], threading.Event] = {}
        self._queue: queue.Queue[tuple[tuple[int, int], Loaded, threading.Event]] = queue.Queue(
            queue_size
        )
        self._worker: threading.Thread | None = None

    def start(self, loaded: Loaded) -> threading.Event:
        """Make sure the review of `loaded` is searched; the event is set once it is kept.

        Raises:
            ReviewsBusy: the worker's queue is full.
        """
        key = (loaded.summary.id, loaded.seq)
        with self._lock:
            running = self._running.get(key)
            if running is not None:
                return running
            finished = threading.Event()
            if key in self._done:
                finished.set()
                return finished
            try:
                self._queue.put_nowait((key, loaded, finished))
            except queue.Full:
                busy = "the box is reviewing other games; ask again in a minute"
                raise ReviewsBusy(busy) from None
            self._running[key] = finished
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="review", daemon=True)
                self._worker.start()
        return finished

    def workers(self) -> int:
        """The review threads running (0 or 1)."""
        with self._lock:
            return 0 if self._worker is None or not self._worker.is_alive() else 1

    def waiting(self) -> int:
        """The games queued for the worker, the one it searches apart."""
        return self._queue.qsize()

    def get(self, loaded: Loaded, wait: float | None) -> Review | None:
        """The review of `loaded`, waiting for the worker up to `wait` seconds (None: until
        it is done); None if it is not ready by then.

        Raises:
            Unreviewable: the game has no review (no move played, or the review failed).
            ReviewsBusy: not started, the worker's queue being full.
        """
        if not any(r.get("type") not in ("setup", "deal", "reveal") for r in loaded.records):
            raise Unreviewable(NO_MOVE)
        finished = self.start(loaded)
        finished.wait(wait)
        key = (loaded.summary.id, loaded.seq)
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
        if isinstance(found, Unreviewable):
            raise found
        return found

    def started(self, game_id: int) -> bool:
        """Whether a review of the game is being searched or kept (at any position)."""
        with self._lock:
            return any(key[0] == game_id for key in (*self._running, *self._done))

    def _work(self) -> None:
        while True:
            key, loaded, finished = self._queue.get()
            result: Review | Unreviewable
            try:
                events = [event_from_record(r) for r in loaded.records]
                result = review(loaded.states, events, LEVEL, seed=0)
            except Exception as failed:  # any fault of the search: one sentence, never a 500
                why = str(failed).rstrip(".")
                result = Unreviewable(f"The review could not be made: {why}.")
            try:
                with self._lock:
                    self._done[key] = result
                    while len(self._done) > CACHE_SIZE:
                        self._done.popitem(last=False)
            finally:
                with self._lock:
                    self._running.pop(key, None)
                finished.set()


def reviews() -> Reviews:
    """The app's reviews (made on first use)."""
    kept: Reviews = current_app.extensions["duel"].setdefault("reviews", Reviews())
    return kept


def prepare(loaded: Loaded) -> None:
    """Start searching the review of a finished game, so that it is ready when asked for
    (unless the worker has enough games waiting: the review page asks again)."""
    if loaded.summary.status == "finished":
        with contextlib.suppress(ReviewsBusy):
            reviews().start(loaded)


def _reviewed(game_id: int, wait: float | None) -> tuple[Loaded, Review | None]:
    """The game and its review (None while it is prepared).

    Raises:
        Unreviewable: the game has no review.
        ServiceUnavailable: the worker has enough games waiting (503).
    """
    loaded = loaded_or_404(game_id)
    try:
        return loaded, reviews().get(loaded, wait)
    except ReviewsBusy as busy:
        raise ServiceUnavailable(f"Not now: {busy}") from None


def _wait() -> float | None:
    """The page's wait for the worker (None in the config: until it is done)."""
    wait = current_app.config.get("REVIEW_WAIT_SECONDS", WAIT_SECONDS)
    return None if wait is None else float(wait)


def review_view(loaded: Loaded, result: Review) -> dict[str, Any]:
    """The review page's content (and its JSON twin)."""
    names = player_names(loaded.summary, loaded.state)
    lang = language()

    def told(move: MoveReview, best: bool = False) -> str:
        before = loaded.states[move.index]
        event = move.best if best else move.event
        record = event_to_record(event) if best else loaded.records[move.index]
        try:
            after = apply(before, event)
        except IllegalEvent:  # a move on a layout drawn to fit the game: told without its sums
            after = before
        return describe(catalog(), lang, names, record, before, after)

    def entry(move: MoveReview) -> dict[str, Any]:
        chance, best_chance = percent(move.chance), percent(move.best_chance)
        return {
            "event": move.index,
            "age": loaded.states[move.index].age,
            "played": told(move),
            "preferred": told(move, best=True),
            "chance": round(move.chance, 3),
            "best_chance": round(move.best_chance, 3),
            "cost": round(move.cost, 3),
            "percent": {"chance": chance, "best": best_chance, "cost": best_chance - chance},
        }

    turn = result.turning_point
    turning = None
    if turn is not None:
        move = next((m for m in result.moves if m.index == turn), None)
        turning = {
            "event": turn,
            "age": loaded.states[turn].age,
            "text": told(move) if move is not None else "",
            "chance": round(result.chances[turn], 3),
        }
    return {
        "game": loaded.summary.id,
        "players": names,
        "fitted_ages": list(result.fitted_ages),
        "chances": [round(c, 3) for c in result.chances],
        "points": [
            {"event": i, "age": loaded.states[i + 1].age, "p1": percent(c), "p2": percent(1.0 - c)}
            for i, c in enumerate(result.chances)
        ],
        "costliest": {  # a cost that shows as 0 % is no cost on the page
            player: [e for e in (entry(m) for m in moves) if e["percent"]["cost"] > 0]
            for player, moves in zip(("p1", "p2"), result.costliest, strict=True)
        },
        "turning_point": turning,
    }


def percent(chance: float) -> int:
    """A chance in whole percent, as the chart draws it and the page writes it."""
    return round(100 * chance)


@bp.get("/games/<game:game_id>/review")
def page(game_id: int) -> str:
    """The review page (or, while the worker searches, a page that says so and reloads; or
    the sentence that says why the game has no review)."""
    try:
        loaded, result = _reviewed(game_id, _wait())
    except Unreviewable as none:
        loaded = loaded_or_404(game_id)
        names = player_names(loaded.summary, loaded.state)
        return render_template("review/none.html", game=game_id, names=names, reason=str(none))
    if result is None:
        names = player_names(loaded.summary, loaded.state)
        return render_template("review/preparing.html", game=game_id, names=names)
    view = review_view(loaded, result)
    return render_template("review/review.html", view=view, chart=CHART_SIZE)


@bp.get("/games/<game:game_id>/review.json")
def page_json(game_id: int) -> tuple[Response, int]:
    """The JSON twin of the review page: 202 with `{"game": id, "status": "preparing"}`
    while the worker searches, then 200 with the review and `"status": "ready"`; 200 with
    `"status": "unavailable"` and the `reason` (one sentence) for a game without a review."""
    try:
        loaded, result = _reviewed(game_id, _wait())
    except Unreviewable as none:
        return jsonify({"game": game_id, "status": "unavailable", "reason": str(none)}), 200
    if result is None:
        return jsonify({"game": game_id, "status": "preparing"}), 202
    return jsonify({**review_view(loaded, result), "status": "ready"}), 200


CHART_SIZE = {"width": 400, "height": 300}
"""The chart's drawing size: near a phone's width, so its text is shown near its own size."""
CHART_STYLE = pygal.style.DefaultStyle(
    label_font_size=14, major_label_font_size=14, legend_font_size=15, title_font_size=15
)
"""Its text, in the drawing's pixels: 14 px shown about 12 px wide on a 360 px phone."""


@bp.get("/games/<game:game_id>/review.svg")
def chart(game_id: int) -> Response:
    """p1's chance to win after every event (in %), drawn by pygal, as an SVG image (the
    page links it once the review is ready; asked before, it waits no longer than the page
    does, so that requests for charts cannot hold the server's threads: 503 then); 404 with
    the sentence for a game without a review."""
    try:
        loaded, result = _reviewed(game_id, _wait())
    except Unreviewable as none:
        return Response(str(none), status=404, mimetype="text/plain")
    if result is None:
        raise ServiceUnavailable("The review of this game is being prepared; ask again soon")
    names = player_names(loaded.summary, loaded.state)
    line = pygal.Line(
        js=[],  # no script from the net: the page shows the chart as an image
        disable_xml_declaration=False,
        show_legend=True,
        legend_at_bottom=True,
        show_dots=False,
        range=(0, 100),
        y_labels=[0, 25, 50, 75, 100],
        style=CHART_STYLE,
        **CHART_SIZE,
        x_title="event",
        y_title="chance to win (%)",
        show_minor_x_labels=False,
        x_labels_major_every=10,
        truncate_label=-1,
    )
    line.x_labels = [str(i) for i in range(len(result.chances))]
    line.add(names["p1"], [percent(c) for c in result.chances])
    line.add(names["p2"], [percent(1.0 - c) for c in result.chances])
    svg = line.render(is_unicode=True)
    return Response(svg, mimetype="image/svg+xml")
