"""Looking back: the statistics page and its JSON twin, and the exports of every game.

`/stats` (and `/stats.json`) take the filters `player`, `since`, `until` (dates, both
included) and `game` ("duel" by default). The statistics come from the per-game summaries
(companion.records.summaries) through the pure `companion.records.stats`; the summaries of the
journal are read once per change of the journal (a cheap fingerprint query) and the results
kept per filter, so a phone that reloads the page costs a query and a render.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from datetime import date
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, NotFound

from companion.records.archive import export_history, games_csv, summarizer
from companion.records.journal import Journal
from companion.records.players import known_players
from companion.records.stats import GameFacts, select, statistics
from companion.records.summaries import DUEL, FactsCache, load_facts
from companion.records.tables import has_table

from .access import catalog, get_journal, language
from .charts import Bar, Part, bars, bars_over_time
from .present import ROW_LABELS

bp = Blueprint("stats", __name__)
GAMES = {DUEL: "7 Wonders Duel", "7wonders": "7 Wonders"}
RESULTS_KEPT = 16
ROW_CSS = {
    "blue": "c-blue", "green": "c-green", "yellow": "c-yellow", "purple": "c-purple",
    "wonders": "c-brown", "progress": "c-teal", "coins": "c-grey", "military": "c-red",
    "treasury": "c-grey", "civilian": "c-blue", "commercial": "c-yellow", "guilds": "c-purple",
    "science": "c-green",
}  # fmt: skip
VICTORY_LABELS = {"civilian": "Civilian", "military": "Military", "science": "Science",
                  "shared": "Shared"}  # fmt: skip


class StatsCache:
    """The facts of the journal for one fingerprint, and results per filter."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.fingerprint: object = None
        self.facts: list[GameFacts] = []
        self.results: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self.made = FactsCache()


def _cache() -> StatsCache:
    extensions = current_app.extensions["duel"]
    with extensions["lock"]:
        found = extensions.setdefault("stats", StatsCache())
    assert isinstance(found, StatsCache)
    return found


def fingerprint(journal: Journal) -> tuple[Any, ...]:
    """What changes whenever a statistic may: finished games, their names, their summaries."""
    games = journal.query(
        "SELECT COUNT(*), group_concat(id || players, '|') FROM games WHERE status = 'finished'"
    )[0]
    summaries = (
        journal.query("SELECT COUNT(*), total(seq) FROM game_summaries")[0]
        if has_table(journal, "game_summaries")
        else ()
    )
    return (games[0], hash(games[1]), *summaries)


def _facts(journal: Journal, cache: StatsCache) -> tuple[object, list[GameFacts]]:
    key = fingerprint(journal)
    with cache.lock:
        if key == cache.fingerprint:
            return key, cache.facts
    facts = load_facts(journal, summarizer(catalog(), journal), cache.made)
    with cache.lock:
        cache.fingerprint, cache.facts = key, facts
        cache.results.clear()
    return key, facts


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
    for key in ("since", "until"):
        value = request.args.get(key) or None
        if value is not None:
            try:
                date.fromisoformat(value)
            except ValueError:
                raise BadRequest(f"{key}: a date is YYYY-MM-DD, not {value!r}") from None
        filters[key] = value
    return filters


def stats_view() -> dict[str, Any]:
    """The statistics of the request's filters (the JSON of `/stats.json`)."""
    filters = _filters()
    journal = get_journal()
    if journal is None:
        return {"filters": filters, **statistics([], filters["player"])}
    cache = _cache()
    key, facts = _facts(journal, cache)
    wanted = (key, *sorted(filters.items()))
    with cache.lock:
        if wanted in cache.results:
            cache.results.move_to_end(wanted)
            return cache.results[wanted]
    result = {"filters": filters, **statistics(select(facts, **filters), filters["player"])}
    names = {"wonders": result["wonders"], "progress_tokens": result["progress_tokens"]}
    for rows in names.values():
        for row in rows:
            row["name"] = catalog().name(row["id"], language())
    with cache.lock:
        cache.results[wanted] = result
        while len(cache.results) > RESULTS_KEPT:
            cache.results.popitem(last=False)
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
    average = view["categories"]["average"]
    rows = view["categories"]["rows"]
    categories = [
        Bar(
            label(row),
            (Part(average[row], ROW_CSS.get(row, "c-accent"), "points"),),
            f"{average[row]:g}",
        )
        for row in rows
    ]
    over = view["over_time"]
    stacks = [
        [Part(p["average"][row], ROW_CSS.get(row, "c-accent"), row) for row in rows] for p in over
    ]
    return {
        "players": bars("Games and wins per player", players),
        "victories": bars("Victory types", victories),
        "first": bars("First player's results", [first_bar]),
        "categories": bars("Average points per category", categories),
        "over_time": bars_over_time(
            "Average points per game over time", [p["period"] for p in over], stacks
        ),
        "wonders": _owned_bars("Wonders", view["wonders"]),
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
    return ROW_LABELS.get(row, row.capitalize())


@bp.get("/stats")
def page() -> str:
    """Players, victories, points and wonders across the games, with filters."""
    view = stats_view()
    journal = get_journal()
    players = [p.name for p in known_players(journal)] if journal is not None else []
    return render_template(
        "stats/page.html", view=view, charts=charts(view), players=players, games=GAMES,
        label=label, css=ROW_CSS,
    )  # fmt: skip


@bp.get("/stats.json")
def page_json() -> Response:
    """The JSON twin of the statistics page."""
    return jsonify(stats_view())


@bp.get("/export/games.csv")
def games_export() -> Response:
    """Every finished game of the chosen game type (and filters): a row per player per game."""
    filters = _filters()
    journal = get_journal()
    facts = _facts(journal, _cache())[1] if journal is not None else []
    response = Response(games_csv(select(facts, **filters)), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filters["game"]}-games.csv"'
    return response


@bp.get("/export/history.json")
def history_export() -> Response:
    """The whole history as one JSON file that another box imports without duplicates."""
    journal = get_journal()
    history = export_history(journal) if journal is not None else {"games": []}
    response = Response(json.dumps(history, ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="duel-companion-history.json"'
    return response
