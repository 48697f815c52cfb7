"""Per-game summaries for statistics, written when a game finishes, read in one query.

Statistics over 10,000 games cannot replay them per request, so each finished game leaves a
small JSON summary (companion.records.stats describes it) in `game_summaries`, written by
`Game` when its last event is confirmed and by the import of a finished record. A summary is
valid for the journal seq it was made at: an undo or a correction after the end makes it stale,
and `load_facts` then makes it again from the events (and keeps it in memory), as it does for
games finished before summaries existed.

Another game type plugs in by writing a summary of the same shape with its own `game` and
score keys (`store_summary`): the base game's score pad, for instance, would write its
seven categories.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from companion.engine.scoring import PANTHEON_ROWS, ROWS, score_sheet
from companion.engine.state import GameState, Player
from companion.records.journal import (
    Journal,
    JournalError,
    Record,
    Row,
    dumps,
    effective_records,
)
from companion.records.stats import GameFacts, facts_from_summary
from companion.records.tables import has_table, steps_applied

DUEL = "duel"
TURNS = ("build", "discard", "wonder")  # the events that take a card from the structure
HISTORY_KEY = "history"  # meta: the times of a game imported from another box's history


def duel_summary(
    state: GameState, records: Sequence[Record], finished: str, minutes: float | None
) -> dict[str, Any]:
    """The summary of a finished Duel game from its final state and effective records: with
    the expansions of its setup, and a Pantheon game's `divinities` row among its scores."""
    sheet = score_sheet(state)
    setup = next((r for r in records if r.get("type") == "setup"), {})
    expansions = sorted(str(e) for e in setup.get("expansions", ()))
    rows = PANTHEON_ROWS if "pantheon" in expansions else ROWS
    if state.shared:
        winners = [player.value for player in Player]
    else:
        winners = [state.winner.value] if state.winner is not None else []
    seats = []
    for player in Player:
        score, city = sheet.of(player), state.city(player)
        seats.append(
            {
                "seat": player.value,
                "scores": {row: score.row(row) for row in rows},
                "total": score.total,
                "wonders": list(city.wonders_built),
                "tokens": sorted(city.tokens),
            }
        )
    return {
        "game": DUEL,
        "expansions": expansions,
        "finished": finished,
        "minutes": minutes,
        "cards": sum(1 for r in records if r.get("type") in TURNS),
        "first": setup.get("first_player"),
        "winners": winners,
        "victory": state.victory.value if state.victory is not None else None,
        "seats": seats,
    }


def game_expansions(journal: Journal, game_ids: Sequence[int]) -> dict[int, list[str]]:
    """The expansions of each game's setup record (the games with none left out)."""
    rows = journal.query(
        "SELECT e.game_id, json_extract(e.record, '$.expansions') FROM events e "
        "WHERE e.game_id IN (SELECT value FROM json_each(?)) "
        "AND json_extract(e.record, '$.type') = 'setup' ORDER BY e.seq DESC",
        (json.dumps(sorted(game_ids)),),
    )
    found: dict[int, list[str]] = {}
    for game_id, text in rows:  # the first setup of a game last, so that it wins
        names = json.loads(text) if isinstance(text, str) else []
        found[int(game_id)] = sorted(str(n) for n in names) if isinstance(names, list) else []
    return {game_id: names for game_id, names in found.items() if names}


def minutes_between(first: str, last: str) -> float:
    """Minutes from one journal stamp to another, to a tenth."""
    start = datetime.fromisoformat(first.replace("Z", "+00:00"))
    end = datetime.fromisoformat(last.replace("Z", "+00:00"))
    return round((end - start).total_seconds() / 60, 1)


def game_times(journal: Journal, game_id: int, rows: Sequence[Row]) -> tuple[str, float | None]:
    """When a finished game ended and how many minutes it lasted (None when its rows were not
    written as it was played: an import). A game imported from another box's history keeps
    the times it had there."""
    kept = journal.meta(game_id, HISTORY_KEY)
    if isinstance(kept, dict) and isinstance(kept.get("finished"), str):
        minutes = kept.get("minutes")
        if not isinstance(minutes, int | float) or not math.isfinite(minutes):
            return kept["finished"], None  # never NaN out
        return kept["finished"], float(minutes)
    summary = journal.game(game_id)
    finished = summary.finished or (rows[-1].written_at if rows else summary.started)
    if summary.origin != "play" or not rows:
        return finished, None
    return finished, minutes_between(rows[0].written_at, rows[-1].written_at)


def keep_summary(journal: Journal, game_id: int, state: GameState) -> None:
    """Write the summary of a game that has just finished in `state`, at its latest seq.

    Best effort: the game's events are already committed, and a summary that cannot be
    written now is made from them when statistics are next asked for.
    """
    try:
        rows = journal.rows(game_id)
        finished, minutes = game_times(journal, game_id, rows)
        summary = duel_summary(state, effective_records(rows), finished, minutes)
        store_summary(journal, game_id, rows[-1].seq if rows else 0, summary)
    except JournalError:
        return


def store_summary(journal: Journal, game_id: int, seq: int, summary: Mapping[str, Any]) -> None:
    """Keep the summary of a finished game, valid at journal seq `seq`.

    Raises:
        JournalError: read-only or busy journal.
    """
    with journal.transaction() as db:
        steps_applied(db)
        db.execute(
            "INSERT INTO game_summaries (game_id, seq, summary) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, summary = excluded.summary",
            (game_id, seq, dumps(summary)),
        )


Summarize = Callable[[int], dict[str, Any]]


class FactsCache:
    """The facts of every finished game, each kept with what it was made from (the game's
    names and latest seq), so that after a change only the changed games are read again."""

    def __init__(self) -> None:
        self.facts: dict[int, tuple[tuple[str, int], GameFacts]] = {}
        self.unreadable: dict[int, tuple[str, int]] = {}
        """Finished games whose stored rows cannot be read (left out, counted), with what
        they were read at."""

    def made_from(self, game_id: int) -> tuple[str, int] | None:
        """The names and seq the kept facts of a game were made from, if any."""
        found = self.facts.get(game_id)
        return found[0] if found is not None else self.unreadable.get(game_id)

    def keep(self, game_id: int, made_from: tuple[str, int], make: Callable[[], GameFacts]) -> None:
        """Keep the facts `make` gives, or count the game as unreadable when they cannot be
        made or are not sane (`sane_facts`): one bad row never stops the statistics."""
        self.facts.pop(game_id, None)
        self.unreadable.pop(game_id, None)
        try:
            facts = make()
            sane = sane_facts(facts)
        except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError, JournalError):
            sane = False
        if sane:
            self.facts[game_id] = (made_from, facts)
        else:
            self.unreadable[game_id] = made_from


_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?")
MAX_POINTS = 10**6  # no score of a real game comes near


FIRST_YEAR, LAST_YEAR = 1970, 2100  # a box without a clock may say 1970; later is garbage


def parse_stamp(text: object) -> datetime | None:
    """A time as the journal writes it ("2026-05-01T20:15:00Z"; seconds, fractions and an
    offset optional) in UTC without a zone, or None for anything else (a date alone, a week
    date, "9999-99-99", a year before 1970 or after 2100)."""
    if not isinstance(text, str) or len(text) > 40 or not _STAMP.fullmatch(text):
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when if FIRST_YEAR <= when.year <= LAST_YEAR else None


def sane_facts(facts: GameFacts) -> bool:
    """Whether a game's facts can be counted: a real finishing time (`parse_stamp`), minutes
    absent or a finite number from 0, every score an integer of sane size."""
    if parse_stamp(facts.finished) is None:
        return False
    minutes = facts.minutes
    if minutes is not None and not (
        isinstance(minutes, int | float) and not isinstance(minutes, bool)
        and math.isfinite(minutes) and minutes >= 0
    ):  # fmt: skip
        return False
    numbers = [seat.total for seat in facts.seats]
    numbers += [v for seat in facts.seats for v in seat.scores.values()]
    return all(
        isinstance(n, int) and not isinstance(n, bool) and abs(n) < MAX_POINTS for n in numbers
    )


def load_facts(
    journal: Journal, summarize: Summarize, cache: FactsCache, changed: set[int] | None = None
) -> list[GameFacts]:
    """Every finished game as `GameFacts`, from stored summaries where they are valid.

    Only the games in `changed` are read again (every game when None) and only those whose
    names or latest seq differ from `cache`. `summarize(game_id)` makes a missing or stale
    summary from the events (the caller passes a replay with its catalog).
    """
    last = "(SELECT MAX(seq) FROM events e WHERE e.game_id = g.id)"
    finished = (
        "FROM games g LEFT JOIN game_summaries s ON s.game_id = g.id WHERE g.status = 'finished'"
    )
    if not has_table(journal, "game_summaries"):  # a journal no summary was written to yet
        finished = (
            "FROM games g, (SELECT NULL AS seq, NULL AS summary) s WHERE g.status = 'finished'"
        )
    among: str = ""
    params: tuple[str, ...] = ()
    if changed is not None:
        among, params = (
            " AND g.id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(changed)),),
        )
    rows = journal.query(f"SELECT g.id, g.players, s.seq, {last} {finished}{among}", params)
    now = {int(gid): (str(players), int(top or 0), seq == top) for gid, players, seq, top in rows}
    for gone in (
        cache.facts.keys() | cache.unreadable.keys() if changed is None else changed
    ) - now.keys():
        cache.facts.pop(gone, None)  # no longer finished (an undo after the end)
        cache.unreadable.pop(gone, None)
    missing = {gid: row for gid, row in now.items() if cache.made_from(gid) != row[:2]}
    valid = [gid for gid, (_, _, ok) in missing.items() if ok]
    if valid:  # their summaries and names as one JSON array: one parse for all of them
        (text,) = journal.query(
            "SELECT json_group_array(json_array(g.id, json(g.players), json(s.summary))) "
            f"{finished} AND json_valid(s.summary) AND g.id IN (SELECT value FROM json_each(?))",
            (json.dumps(valid),),
        )[0]
        for gid, names, summary in json.loads(text):
            players, top, _ = missing.pop(gid)
            cache.keep(gid, (players, top), partial(facts_from_summary, gid, summary, names))
    for gid, (players, top, _) in missing.items():  # no summary, a stale or unreadable one
        cache.keep(gid, (players, top), partial(_made_facts, gid, summarize, players))
    return [facts for _, facts in cache.facts.values()]


def _made_facts(game_id: int, summarize: Summarize, players: str) -> GameFacts:
    return facts_from_summary(game_id, summarize(game_id), json.loads(players))


def pad_summary(saved: str, scored: Mapping[str, Any], sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The summary of a saved score pad of another 7 Wonders game, from its `scorepad --json`
    object and its sheet: seats "1", "2"... in sheet order (named as the sheet names them),
    each player's board as their "wonder" with its side and the stages built, the variant and
    the expansions; no victory type (a family game is won on points) and no first player.
    """
    boards = {
        p.get("name"): p
        for p in sheet.get("players", [])
        if isinstance(p, dict) and isinstance(p.get("wonder"), str)
    }
    winners = set(scored["winners"])
    seats = []
    for index, player in enumerate(scored["players"], start=1):
        seat: dict[str, Any] = {
            "seat": str(index),
            "scores": dict(player["scores"]),
            "total": player["total"],
            "wonders": [],
            "tokens": [],
        }
        board = boards.get(player["name"])
        if board is not None:
            seat.update(
                wonders=[board["wonder"]],
                side=str(board.get("side", "A")),
                stages=int(board.get("stages", 0)),
            )
        seats.append(seat)
    return {
        "game": scored["game"],
        "variant": str(sheet.get("variant", "base")) if scored["game"] == "7wonders" else "",
        "expansions": sorted(e for e in sheet.get("expansions", []) if isinstance(e, str)),
        "finished": saved,
        "minutes": None,
        "cards": 0,
        "first": None,
        "winners": [
            s["seat"] for s, p in zip(seats, scored["players"], strict=True) if p["name"] in winners
        ],
        "victory": None,
        "seats": seats,
    }
