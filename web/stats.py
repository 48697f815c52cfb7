"""Looking back: the statistics page and its JSON twin, and the exports of every game.

`/stats` (and `/stats.json`) take the filters `player`, `since`, `until` (dates, both
included), `game` ("duel" by default; "7wonders", "7wonders-two-player", "7wonders-dice"
for the score pads) and, for the Duel, `mode` ("base" or "pantheon"; every game without it).
The Duel's statistics are counted by SQLite over the seats kept beside the per-game summaries
(companion.records.seat_stats) into the running tally of the pure `companion.records.stats`;
the score pads' from their sheets. The results are kept per filter
until the journal changes (a cheap fingerprint query), a newly finished game being added to
them, so a phone that reloads the page costs a query and a render.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, NotFound

from companion.family.catalog import default_family_catalog
from companion.family.pad import CATEGORY_LABELS
from companion.records.archive import export_history_text, games_csv, summarizer
from companion.records.exchange import journal_facts
from companion.records.journal import Journal
from companion.records.logged import play_facts
from companion.records.pad_stats import pad_facts, statistics_fingerprint
from companion.records.results import STATS_GAMES
from companion.records.seat_stats import (
    can_count,
    last_finished,
    latest_games,
    newly_finished,
    seat_tally,
    unreadable_games,
)
from companion.records.stats import GameFacts, Tally, matches, select, statistics
from companion.records.summaries import DUEL, FactsCache, load_facts
from companion.records.tables import changed_since, journal_state

from .access import catalog, get_journal, language
from .charts import Bar, Part, bars, bars_over_time
from .downloads import downloads, send_gzipped
from .present import ROW_LABELS
from .security import require_not_cross_site

bp = Blueprint("stats", __name__)
GAMES = STATS_GAMES
RESULTS_KEPT = 16
MODES = {"base": "Base game", "pantheon": "Pantheon"}  # a Duel's modes; none: all of them
ROW_CSS = {
    "blue": "c-blue", "green": "c-green", "yellow": "c-yellow", "purple": "c-purple",
    "wonders": "c-brown", "progress": "c-teal", "coins": "c-grey", "military": "c-red",
    "treasury": "c-grey", "civilian": "c-blue", "commercial": "c-yellow", "guilds": "c-purple",
    "science": "c-green",
}  # fmt: skip
VICTORY_LABELS = {"civilian": "Civilian", "military": "Military", "science": "Science",
                  "shared": "Shared"}  # fmt: skip


@dataclass
class Counted:
    """The statistics of one filter: its tally, and the JSON made from it."""

    filters: dict[str, Any]
    tally: Tally
    result: dict[str, Any] | None = None


class StatsCache:
    """The statistics of recent filters at one fingerprint of the journal; a change of the
    journal drops them, and each is counted again when next asked for.

    No game is kept in memory: the Duel's statistics are counted by SQLite over the seats
    table (companion.records.seat_stats). Only the saved score pads (scored once each: they
    never change) are kept, and, for a journal whose tables are not upgraded yet (read-only,
    written by an older program), the facts of its games as before.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loading = threading.Lock()  # one reader of the journal's changes at a time
        self.fingerprint: object = None
        self.counted: OrderedDict[tuple[Any, ...], Counted] = OrderedDict()
        self.made = FactsCache()  # an older journal's games (without the seats table)
        self.pads: dict[int, GameFacts] = {}  # saved score pads, scored once each
        self.unreadable_pads: set[int] = set()  # saved pads that no longer score
        self.players: list[str] | None = None
        self.charts: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.top = 0  # the highest id of a finished game when the kept tallies were counted

    def unreadable(self) -> int:
        """Finished games and saved pads whose stored rows cannot be read: left out."""
        return len(self.made.unreadable) + len(self.unreadable_pads)

    def forget(self, key: object, top: int) -> None:
        """Drop what was counted: the journal is now at fingerprint `key`."""
        self.counted.clear()
        self.charts.clear()
        self.players = None
        self.fingerprint, self.top = key, top

    def add(self, key: object, games: list[GameFacts]) -> None:
        """Add newly finished games to every kept tally: the journal is now at `key`."""
        for entry in self.counted.values():
            for facts in games:
                if matches(facts, **entry.filters):
                    entry.tally.add(facts)
            entry.result = None
        self.charts.clear()
        self.players = None
        self.fingerprint = key
        self.top = max([self.top, *(facts.id for facts in games)])


def _follow(journal: Journal, cache: StatsCache, key: tuple[Any, ...]) -> None:
    """Bring the kept statistics to fingerprint `key`: when the only change is games that
    finished since (the usual one: a game ends), they are added to each kept tally; any other
    change (a rename, an undo, a pad) drops them, to be counted again when asked for."""
    with cache.lock:
        seen = cache.fingerprint
        top = cache.top
    if key == seen:
        return
    added = None
    same_pads = isinstance(seen, tuple) and seen[0] == key[0] == "log" and seen[2] == key[2]
    if same_pads and can_count(journal):
        assert isinstance(seen, tuple)
        changed, _players = changed_since(journal, int(seen[1]))
        new = newly_finished(journal, changed, top)
        if new is not None:
            summarize = summarizer(catalog(), journal)
            found = load_facts(journal, summarize, FactsCache(), set(new)) if new else []
            added = sorted(found, key=lambda facts: (facts.finished, facts.id))
    with cache.lock:
        if cache.fingerprint != seen:  # another request followed the change first
            return
        if added is None:
            cache.forget(key, last_finished(journal))
        else:
            cache.add(key, added)


def _cache() -> StatsCache:
    extensions = current_app.extensions["duel"]
    with extensions["lock"]:
        found = extensions.setdefault("stats", StatsCache())
    assert isinstance(found, StatsCache)
    return found


def _tally(journal: Journal, cache: StatsCache, filters: dict[str, Any]) -> Tally:
    """The tally of one filter: counted by SQLite for the Duel, from the pads for the other
    games, from every game's facts for a journal without the seats table."""
    if filters["game"] == DUEL and can_count(journal):
        return seat_tally(journal, summarizer(catalog(), journal), filters)
    tally = Tally(filters["player"], filters["game"])
    for chosen in select(_facts(journal, cache, filters["game"]), **filters):
        tally.add(chosen)
    return tally


def _facts(journal: Journal, cache: StatsCache, game: str) -> list[GameFacts]:
    """The facts of the saved pads and imported plays, and of the Duel's games for a journal
    without the seats table (read again where they changed)."""
    with cache.loading:
        facts = pad_facts(journal, default_family_catalog(), cache.pads, cache.unreadable_pads)
        facts += play_facts(journal)  # imported plays: what they tell (Tally.add)
        if game == DUEL:
            facts += load_facts(journal, summarizer(catalog(), journal), cache.made)
    return facts


def recent_players(journal: Journal, cache: StatsCache) -> list[str]:
    """The named players of the finished games, the one who finished a game last first."""
    latest: dict[str, str] = {}
    if can_count(journal):
        latest = latest_games(journal)
        games = _facts(journal, cache, "pads")
    else:
        games = _facts(journal, cache, DUEL)
    for game in games:
        for seat in game.seats:
            if seat.name and latest.get(seat.name, "") < game.finished:
                latest[seat.name] = game.finished
    return sorted(latest, key=lambda name: (latest[name], name), reverse=True)


def _filters() -> dict[str, Any]:
    """The filters of the request, checked.

    Raises:
        BadRequest: a date that is not YYYY-MM-DD.
        NotFound: a game the companion does not score.
    """
    game = request.args.get("game") or DUEL
    if game not in GAMES:
        raise NotFound(f"No statistics for game {game!r} (known: {', '.join(GAMES)})")
    filters: dict[str, Any] = {"game": game, "player": request.args.get("player") or None}
    mode = request.args.get("mode") or None
    if mode is not None and mode not in MODES:
        raise NotFound(f"No statistics for mode {mode[:20]!r} (known: {', '.join(MODES)})")
    filters["mode"] = mode if game == DUEL else None  # a score pad has no Duel expansion
    for key in ("since", "until"):
        value = request.args.get(key) or None
        filters[key] = None if value is None else filter_date(key, value)
    return filters


def filter_date(key: str, value: str) -> str:
    """A date filter as the statistics compare it: "YYYY-MM-DD", parsed (never a text that
    compares by chance: "20260101" is 2026-01-01, "2026-13-01" is refused).

    Raises:
        BadRequest: not a date.
    """
    try:
        if len(value) > 10:
            raise ValueError(value)
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise BadRequest(f"{key}: a date is YYYY-MM-DD, not {value[:20]!r}") from None


def stats_view() -> dict[str, Any]:
    """The statistics of the request's filters (the JSON of `/stats.json`)."""
    return _stats()[1]


def _stats() -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The statistics of the request's filters, with the key they are kept under."""
    filters = _filters()
    journal = get_journal()
    if journal is None:
        empty = statistics([], filters["player"], filters["game"])
        return (), _named({"filters": filters, **empty, "unreadable": 0})
    cache = _cache()
    key = statistics_fingerprint(journal)
    wanted = tuple(sorted(filters.items()))
    _follow(journal, cache, key)
    with cache.lock:
        entry = cache.counted.get(wanted)
    if entry is None:
        entry = Counted(filters, _tally(journal, cache, filters))
        counted_at = statistics_fingerprint(journal)  # a game that ended meanwhile: not kept
    else:
        counted_at = key
    with cache.lock:
        if cache.fingerprint == key == counted_at:
            cache.counted[wanted] = entry
            cache.counted.move_to_end(wanted)
            while len(cache.counted) > RESULTS_KEPT:
                gone, _ = cache.counted.popitem(last=False)
                cache.charts.pop(gone, None)
        if entry.result is None:
            entry.result = _named({"filters": filters, **entry.tally.result()})
        left_out = cache.unreadable() + len(unreadable_games(journal))
        return wanted, {**entry.result, "unreadable": left_out}


def _named(result: dict[str, Any]) -> dict[str, Any]:
    """The statistics with the names of the wonders, their sides and the progress tokens (in
    the page's language for the Duel's)."""
    if result["filters"]["game"] != DUEL:
        return _family_named(result)
    for rows in (result["wonders"], result["progress_tokens"]):
        for row in rows:
            row["name"] = catalog().name(row["id"], language())
    return result


def _family_named(result: dict[str, Any]) -> dict[str, Any]:
    """The family game's boards by name, and each side as "Babylon (A)"."""
    boards = default_family_catalog().wonders
    for row in result["wonders"]:
        row["name"] = boards[row["id"]].name if row["id"] in boards else row["id"]
    for row in result.get("sides", []):
        board, _, side = row["id"].partition(":")
        row["name"] = f"{boards[board].name if board in boards else board} ({side})"
    return result


def charts(view: dict[str, Any]) -> dict[str, Any]:
    """The SVG charts of a statistics view."""
    players = [
        Bar(
            p["name"],
            (Part(p["wins"], "c-win", "wins"), Part(p["shared"], "c-accent", "shared"),
             Part(p["losses"], "c-line", "losses")),
            f"{p['wins']}/{p['games']}",
        )
        for p in view["players"]
    ]  # fmt: skip
    average = view["categories"]["average"]
    rows = view["categories"]["rows"]
    categories = [
        Bar(
            short_label(row),  # short beside the bar; the table has the score pad's words
            (Part(average[row], ROW_CSS.get(row, "c-accent"), "points"),),
            f"{average[row]:g}",
        )
        for row in rows
    ]
    over = view["over_time"]
    stacks = [
        [Part(p["average"][row], ROW_CSS.get(row, "c-accent"), row) for row in rows] for p in over
    ]
    drawn = {
        "players": bars("Games and wins per player", players),
        "categories": bars("Average points per category", categories),
        "over_time": bars_over_time(
            "Average points per game over time", [p["period"] for p in over], stacks
        ),
        "wonders": _owned_bars("Wonders", view["wonders"]),
    }
    if "victories" in view:
        drawn.update(_duel_charts(view))
    if "sides" in view:
        drawn["sides"] = _owned_bars("Wonder sides", view["sides"])
    return drawn


def _duel_charts(view: dict[str, Any]) -> dict[str, Any]:
    """The charts only a Duel has: victory types, the first player, progress tokens."""
    victories = [
        Bar(VICTORY_LABELS.get(kind, kind), (Part(count, f"v-{kind}", "games"),), str(count))
        for kind, count in view["victories"].items()
    ]
    first = view["first_player"]
    first_bar = Bar(
        "First player",
        (Part(first["wins"], "c-win", "wins"), Part(first["shared"], "c-accent", "shared"),
         Part(first["games"] - first["wins"] - first["shared"], "c-line", "losses")),
        f"{round(100 * first['rate'])} %",
    )  # fmt: skip
    return {
        "victories": bars("Victory types", victories),
        "first": bars("First player's results", [first_bar]),
        "tokens": _owned_bars("Progress tokens", view["progress_tokens"]),
    }


def _owned_bars(title: str, rows: list[dict[str, Any]]) -> Any:
    return bars(
        f"{title}: how often their owner won",
        [
            Bar(row["name"], (Part(row["won"], "c-win", "won"),
                              Part(row["owned"] - row["won"], "c-line", "not won")),
                f"{row['won']}/{row['owned']}")
            for row in rows
        ],
    )  # fmt: skip


def label(row: str) -> str:
    """The name of a score category in the tables (the score pad's), the charts say `row`."""
    return ROW_LABELS.get(row) or CATEGORY_LABELS.get(row) or short_label(row)


def short_label(row: str) -> str:
    """A score category beside a chart's bar: "Blue", "Gold reserve" (never the JSON's key)."""
    return row.replace("_", " ").capitalize()


@bp.get("/stats")
def page() -> str:
    """Players, victories, points and wonders across the games, with filters."""
    wanted, view = _stats()
    cache = _cache()
    with cache.lock:
        drawn = cache.charts.get(wanted)
    if drawn is None:
        drawn = charts(view)
        with cache.lock:
            cache.charts[wanted] = drawn
    journal = get_journal()
    if journal is None:
        players: list[str] = []
    else:
        with cache.lock:
            found = cache.players
        players = found if found is not None else recent_players(journal, cache)
        with cache.lock:
            cache.players = players
    return render_template(
        "stats/page.html", view=view, charts=drawn, players=players, games=GAMES, modes=MODES,
        label=label, short_label=short_label, css=ROW_CSS,
    )  # fmt: skip


@bp.get("/stats.json")
def page_json() -> Response:
    """The JSON twin of the statistics page."""
    return jsonify(stats_view())


@bp.get("/export/games.csv")
def games_export() -> Response:
    """Every finished game of the chosen game type (and filters): a row per player per game;
    made once per state of the journal and filters (web/downloads.py)."""
    require_not_cross_site()
    filters = _filters()
    journal = get_journal()
    name = f"{filters['game']}-games.csv"

    def made() -> list[str]:
        facts = journal_facts(journal, catalog(), default_family_catalog()) if journal else []
        return [games_csv(select(facts, **filters), filters["game"])]

    state = journal_state(journal) if journal is not None else None
    data = downloads().gzipped(f"csv {sorted(filters.items())}", state, made)
    return send_gzipped(data, "text/csv", name)


@bp.get("/export/history.json")
def history_export() -> Response:
    """The whole history as one JSON file that another box imports without duplicates: made
    once per state of the journal and sent in pieces (web/downloads.py)."""
    require_not_cross_site()
    journal = get_journal()
    if journal is None:
        data = gzip.compress(json.dumps({"games": []}).encode(), mtime=0)
    else:
        data = downloads().gzipped(
            "history", journal_state(journal), lambda: export_history_text(journal)
        )
    return send_gzipped(data, "application/json", "duel-companion-history.json")


def warm_up(app: Flask) -> threading.Thread:
    """Read the summaries and count the default statistics in a background thread, so that
    the first phone to open `/stats` after a start finds them ready; return the thread."""

    def run() -> None:
        with app.test_request_context("/stats"), contextlib.suppress(Exception):
            stats_view()  # a journal not readable yet: the first request will say why

    thread = threading.Thread(target=run, name="stats-warm-up", daemon=True)
    thread.start()
    return thread
