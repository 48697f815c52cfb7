"""Statistics of the Duel counted by SQLite: one statement over `stat_seats`, no game in memory.

`stat_seats` (schema step "stat-seats-1") holds a row per seat of every stored summary, kept by
triggers when a summary is written, changed or a game renamed: the seat's name, result, rank,
total, categories as columns, wonders and tokens. `seat_tally` fills a `stats.Tally` with what
one statement over it returns (a few rows per player, day, pair, wonder and token: nothing
grows with the games), then adds in Python the few finished games whose summary is missing or
stale (an undo after the end), as `summaries.load_facts` does. The result is the same JSON as
`statistics` over every game's facts (a test compares them); only a stale game's place in the
streaks may differ, since it is counted last.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.records.journal import Journal
from companion.records.schema import STAT_COLUMNS, readable
from companion.records.schema import mode_of as game_mode
from companion.records.stats import RECORDS, GameFacts, Tally, facts_from_summary, matches
from companion.records.summaries import DUEL, sane_facts
from companion.records.tables import has_table


def mode_of(alias: str) -> str:
    """The SQL mode of the game of a row: "pantheon" when its summary names the expansion,
    else "base" (stats.GameFacts.mode). A Duel game whose summary does not hold the word
    "pantheon" at all is "base" without its summary being parsed (most games)."""
    quick = (
        f"{alias}.game_id > 0 AND NOT EXISTS (SELECT 1 FROM game_summaries q "
        f"WHERE q.game_id = {alias}.game_id AND instr(q.summary, 'pantheon'))"
    )
    return f"(CASE WHEN {quick} THEN 'base' ELSE {game_mode(f'{alias}.game_id')} END)"


def in_mode(alias: str) -> str:
    """The SQL test of a row of the chosen `:mode` (any when NULL)."""
    return f"(:mode IS NULL OR {mode_of(alias)} = :mode)"


STALE = """SELECT id FROM games WHERE status = 'finished'
    AND NOT EXISTS (SELECT 1 FROM stat_seats s WHERE s.game_id = games.id)"""
SUMS = ", ".join(f"SUM(c{i})" for i in range(STAT_COLUMNS))
WIDTH = 4 + STAT_COLUMNS  # the values of a row, after its tag and two keys
SEAT_COLUMNS = "game_id, seat, name, game, finished, minutes, cards, first, victory, won, " + (
    "shared, rank, total, rows, " + ", ".join(f"c{i}" for i in range(STAT_COLUMNS))
)
"""The columns the statement reads of a seat (wonders and tokens are counted from `stat_items`)."""

_PARTS = {
    "g": "SELECT COUNT(*) FROM per_game WHERE game_id > 0",
    "i": "SELECT COUNT(*) FROM per_game WHERE game_id < 0",
    "p": "SELECT name, NULL, COUNT(*), SUM(won AND NOT shared), SUM(won AND shared), SUM(rank) "
    "FROM seats WHERE name != '' GROUP BY name",
    "h": "SELECT a.name, b.name, COUNT(*), SUM(a.won AND NOT b.won), SUM(b.won AND NOT a.won), "
    "SUM(a.won AND b.won) FROM seats a JOIN seats b ON a.game_id = b.game_id "
    "AND a.name < b.name WHERE a.name != '' GROUP BY a.name, b.name",
    "v": "SELECT CASE WHEN shared THEN 'shared' ELSE victory END, NULL, COUNT(*) "
    "FROM per_game WHERE game_id > 0 GROUP BY 1",
    "e": "SELECT mode, NULL, COUNT(*) FROM "
    f"(SELECT {mode_of('p')} AS mode FROM per_game p WHERE game_id > 0) GROUP BY mode",
    "f": "SELECT NULL, NULL, COUNT(*), SUM(won AND NOT shared), SUM(won AND shared) "
    "FROM seats WHERE seat = first",
    "d": "SELECT day, NULL, COUNT(*) FROM per_game WHERE game_id > 0 GROUP BY day",
    "c": f"SELECT substr(finished, 1, 10), NULL, COUNT(*), SUM(total), {SUMS} "
    "FROM counted GROUP BY 1",
    # the longest: a Pantheon game's rows are a base game's and `divinities` after them
    "r": "SELECT rows, NULL FROM (SELECT rows FROM counted "
    "ORDER BY json_array_length(rows) DESC LIMIT 1)",
    "o": "SELECT kind, item, COUNT(*), SUM(won) FROM stat_items i WHERE i.game = :game "
    "AND (:since IS NULL OR substr(i.finished, 1, 10) >= :since) "
    "AND (:until IS NULL OR substr(i.finished, 1, 10) <= :until) "
    f"AND (:player IS NULL OR i.name = :player) AND {readable('i')} "
    f"AND {in_mode('i')} GROUP BY kind, item",
    "b": "SELECT name, finished, total, game_id FROM (SELECT * FROM scored "
    f"ORDER BY total DESC, game_id, name DESC LIMIT {RECORDS})",
    "m": "SELECT name, finished, margin, game_id FROM (SELECT w.name, w.finished, w.game_id, "
    "w.total - p.runner_up AS margin FROM per_game p JOIN seats w ON w.game_id = p.game_id "
    "AND w.won WHERE p.winners = 1 AND p.runner_up IS NOT NULL "
    "AND (p.victory IS NULL OR p.victory = 'civilian') AND (p.game_id > 0 OR p.cards = 1) "
    f"ORDER BY margin DESC, w.game_id LIMIT {RECORDS})",
    "s": "SELECT name, NULL, MAX(run), (SELECT r.run FROM runs r WHERE r.name = runs.name "
    "ORDER BY r.grp DESC LIMIT 1) FROM runs GROUP BY name",
    "t": "SELECT game_id, NULL, minutes FROM (SELECT * FROM per_game "
    f"WHERE minutes IS NOT NULL ORDER BY minutes DESC, game_id DESC LIMIT {RECORDS}) "
    "UNION ALL SELECT game_id, NULL, minutes FROM (SELECT * FROM per_game "
    f"WHERE minutes IS NOT NULL ORDER BY minutes, game_id LIMIT {RECORDS})",
}


CHOSEN = f"""ss.game = :game AND {readable("ss")}
    AND (:since IS NULL OR substr(ss.finished, 1, 10) >= :since)
    AND (:until IS NULL OR substr(ss.finished, 1, 10) <= :until)
    AND (:player IS NULL OR ss.game_id IN (
        SELECT game_id FROM stat_seats WHERE game = :game AND name = :player))
    AND {in_mode("ss")}"""


def _padded(tag: str, sql: str) -> str:
    """Part `sql` as rows of its tag, two keys and `WIDTH` values (NULL where it has none)."""
    columns = len(_split(sql.split(" FROM ", 1)[0].removeprefix("SELECT ")))
    return f"SELECT '{tag}', *{', NULL' * (2 + WIDTH - columns)} FROM ({sql})"


def _statement(player: bool) -> str:
    """One statement for every part: each row is a tag, two keys and up to `WIDTH` values
    (with a player chosen, the seats counted are theirs only)."""
    parts = [_padded(tag, sql) for tag, sql in _PARTS.items()]
    scored = (
        "scored AS MATERIALIZED (SELECT * FROM seats WHERE name = :player "
        "AND (game_id > 0 OR cards = 1))"
        if player
        else "scored AS (SELECT * FROM seats WHERE game_id > 0 OR cards = 1)"
    )
    counted = "counted AS (SELECT * FROM scored WHERE game_id > 0)"
    # "+" keeps the game's index out: the chosen seats are read in the table's own order,
    # faster than through an index when they are most of it (measured: 10-35 % less CPU)
    return f"""WITH seats AS MATERIALIZED (
        SELECT {SEAT_COLUMNS} FROM stat_seats ss WHERE +{CHOSEN}),
    {scored}, {counted},
    per_game AS MATERIALIZED (SELECT game_id, MIN(finished) AS finished, MIN(cards) AS cards,
        substr(MIN(finished), 1, 10) AS day, MAX(shared) AS shared, MIN(victory) AS victory,
        MIN(minutes) AS minutes, SUM(won) AS winners,
        MAX(CASE WHEN NOT won THEN total END) AS runner_up FROM seats GROUP BY game_id),
    marks AS (SELECT name, won AND NOT shared AS w, SUM(NOT (won AND NOT shared)) OVER (
        PARTITION BY name ORDER BY finished, game_id ROWS UNBOUNDED PRECEDING) AS grp
        FROM seats WHERE name != ''),
    runs AS (SELECT name, grp, SUM(w) AS run FROM marks GROUP BY name, grp)
    {" UNION ALL ".join(parts)}"""


def _split(columns: str) -> list[str]:
    """The columns of a SELECT list (commas inside parentheses kept)."""
    found, depth, current = [], 0, ""
    for char in columns:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            found.append(current)
            current = ""
        else:
            current += char
    return [*found, current]


STATEMENTS = {player: _statement(player) for player in (False, True)}

_TOTAL_PARTS = {
    "g": "SELECT SUM(n0) FROM stat_totals WHERE game = :game AND tag = 'd'",
    "i": "SELECT n0 FROM stat_totals WHERE game = :game AND tag = 'i'",
    "p": "SELECT a, NULL, n0, n1, n2, n3 FROM stat_totals WHERE game = :game AND tag = 'p'",
    "h": "SELECT a, b, n0, n1, n2, n3 FROM stat_totals WHERE game = :game AND tag = 'h'",
    "v": "SELECT a, NULL, n0 FROM stat_totals WHERE game = :game AND tag = 'v'",
    "e": "SELECT a, NULL, n0 FROM stat_totals WHERE game = :game AND tag = 'e'",
    "f": "SELECT NULL, NULL, n0, n1, n2 FROM stat_totals WHERE game = :game AND tag = 'f'",
    "d": "SELECT a, NULL, n0 FROM stat_totals WHERE game = :game AND tag = 'd' AND n0",
    "c": f"SELECT a, NULL, n1, total, {', '.join(f'c{i}' for i in range(STAT_COLUMNS))} "
    "FROM stat_totals WHERE game = :game AND tag = 'd' AND n1",
    "r": "SELECT a, NULL FROM (SELECT a FROM stat_totals WHERE game = :game AND tag = 'r' "
    "ORDER BY json_array_length(a) DESC LIMIT 1)",
    "o": "SELECT a, b, n0, n1 FROM stat_totals WHERE game = :game AND tag = 'o'",
    "b": "SELECT name, finished, total, game_id FROM (SELECT * FROM stat_seats ss "
    f"WHERE ss.game = :game AND (ss.game_id > 0 OR ss.cards = 1) AND {readable('ss')} "
    f"ORDER BY total DESC, game_id, name DESC LIMIT {RECORDS})",
    "m": "SELECT winner, finished, margin, game_id FROM (SELECT * FROM stat_games "
    f"WHERE game = :game AND margin IS NOT NULL ORDER BY margin DESC, game_id LIMIT {RECORDS})",
    "s": "SELECT a, NULL, longest, current FROM (SELECT a, (SELECT MAX(run) FROM stat_runs r "
    "WHERE r.game = :game AND r.name = a) AS longest, (SELECT run FROM stat_runs r "
    "WHERE r.game = :game AND r.name = a ORDER BY pos DESC LIMIT 1) AS current "
    "FROM stat_totals WHERE game = :game AND tag = 'p')",
    "t": "SELECT game_id, NULL, minutes FROM (SELECT * FROM stat_games WHERE game = :game "
    f"AND minutes IS NOT NULL ORDER BY minutes DESC, game_id DESC LIMIT {RECORDS}) "
    "UNION ALL SELECT game_id, NULL, minutes FROM (SELECT * FROM stat_games WHERE game = :game "
    f"AND minutes IS NOT NULL ORDER BY minutes, game_id LIMIT {RECORDS})",
}
TOTALS = " UNION ALL ".join(_padded(tag, sql) for tag, sql in _TOTAL_PARTS.items())
"""The statistics of every game of one type (no other filter) from the totals kept by
triggers (schema step "stat-totals-1"): a few rows per player, pair, day, wonder and token,
and a few through indexes (best scores, margins, runs, longest and shortest games), whatever
the number of games. The same rows, tag by tag, as the statement over every seat."""


def unreadable_games(journal: Journal) -> set[int]:
    """The Duel games whose seat rows the statistics leave out (`readable`)."""
    if not can_count(journal):
        return set()
    rows = journal.query(f"SELECT DISTINCT game_id FROM stat_seats ss WHERE NOT {readable('ss')}")
    return {int(game_id) for (game_id,) in rows}


def can_count(journal: Journal) -> bool:
    """Whether the journal keeps `stat_seats` (a journal not written since may not yet)."""
    return has_table(journal, "stat_seats")


def last_finished(journal: Journal) -> int:
    """The highest id of a finished game (0 for none): the games counted so far are at most
    this one, so a game that finishes later with a higher id is new to the statistics."""
    return int(
        journal.query("SELECT COALESCE(MAX(id), 0) FROM games WHERE status = 'finished'")[0][0]
    )


def newly_finished(journal: Journal, changed: Iterable[int], top: int) -> list[int] | None:
    """The changed games that finished after the statistics counted up to game `top`, or
    None when a game already counted (or that could have been) changed: count again."""
    if any(game_id <= top for game_id in changed):
        return None
    ids = sorted(set(changed))
    rows = journal.query(
        "SELECT id FROM games WHERE status = 'finished' AND id IN (SELECT value FROM json_each(?))",
        (json.dumps(ids),),
    )
    return sorted(int(game_id) for (game_id,) in rows)


def latest_games(journal: Journal) -> dict[str, str]:
    """Each named player of the Duel's counted games -> when they last finished one."""
    rows = journal.query(
        "SELECT name, MAX(finished) FROM stat_seats WHERE name != '' GROUP BY name"
    )
    return {str(name): str(last) for name, last in rows}


def seat_tally(
    journal: Journal, summarize: Callable[[int], dict[str, Any]], filters: Mapping[str, Any]
) -> Tally:
    """The tally of the Duel games chosen by `filters` (game, player, since, until, mode)."""
    player, game = filters.get("player"), filters.get("game", DUEL)
    tally = Tally(player, game)
    params = {"game": game, "player": player, "since": filters.get("since"),
              "until": filters.get("until"), "mode": filters.get("mode")}  # fmt: skip
    everything = all(params[key] is None for key in ("player", "since", "until", "mode"))
    if everything and has_table(journal, "stat_totals"):
        statement = TOTALS
    else:
        statement = STATEMENTS[player is not None]
    rows = journal.query(statement, params) if game == DUEL else []  # type: ignore[arg-type]
    timed = _fill(tally, rows)
    for facts in _facts(journal, timed):
        if facts.minutes is not None:
            tally.time(facts)
    for game_id in (int(gid) for (gid,) in journal.query(STALE)):
        facts = facts_from_summary(game_id, summarize(game_id), _names(journal, game_id))
        if matches(facts, **filters) and sane_facts(facts):  # else left out, as above
            tally.add(facts)
    return tally


def _fill(tally: Tally, rows: Iterable[tuple[Any, ...]]) -> list[int]:
    """Put the statement's rows in `tally`; return the ids of the longest and shortest."""
    timed: list[int] = []
    for tag, a, b, *v in rows:
        if tag == "g":
            tally.games = int(a or 0)
        elif tag == "i":
            tally.imported = int(a or 0)
        elif tag == "p":
            tally.players[a] = [int(v[0]), int(v[1]), int(v[2]), int(v[3])]
        elif tag == "h":
            tally.pairs[(a, b)] = [int(v[0]), int(v[1]), int(v[2]), int(v[3])]
        elif tag == "v" and a is not None:
            tally.victories[a] = int(v[0])
        elif tag == "e":
            tally.modes[a] = int(v[0])
        elif tag == "f":
            tally.first = [int(v[0]), int(v[1] or 0), int(v[2] or 0)]
        elif tag == "d":
            tally.days.setdefault(a, [0, 0, []])[0] = int(v[0])
        elif tag == "c":
            day = tally.days.setdefault(a, [0, 0, []])
            day[1] = int(v[0])
            day[2] = [int(x or 0) for x in v[2 : 2 + STAT_COLUMNS]] + [int(v[1])]
        elif tag == "r":
            tally.rows = json.loads(a)
        elif tag == "o":
            tally.owned[a][b] = [int(v[0]), int(v[1])]
        elif tag == "b":
            tally.best.append((int(v[0]), -int(v[1]), a, b))
        elif tag == "m":
            tally.margins.append((int(v[0]), -int(v[1]), a, b))
        elif tag == "s":
            tally.streaks[a] = [int(v[1]), int(v[0])]
        elif tag == "t":
            timed.append(int(a))
    width = len(tally.rows)
    for day in tally.days.values():  # the categories this game has, then the total
        sums = day[2] or [0] * (STAT_COLUMNS + 1)
        day[2] = [*sums[:width], sums[-1]]
    return timed


def _facts(journal: Journal, ids: list[int]) -> list[GameFacts]:
    """The facts of a few games (the longest and shortest), from their summaries."""
    if not ids:
        return []
    rows = journal.query(
        "SELECT g.id, g.players, s.summary FROM games g JOIN game_summaries s "
        "ON s.game_id = g.id WHERE g.id IN (SELECT value FROM json_each(?))",
        (json.dumps(sorted(set(ids))),),
    )
    return [facts_from_summary(int(gid), json.loads(summary), json.loads(players))
            for gid, players, summary in rows]  # fmt: skip


def _names(journal: Journal, game_id: int) -> dict[str, str]:
    found = json.loads(journal.query("SELECT players FROM games WHERE id = ?", (game_id,))[0][0])
    return found if isinstance(found, dict) else {}
