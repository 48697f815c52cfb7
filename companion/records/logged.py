"""Plays imported from BG Stats or BoardGameGeek, kept in the journal as results.

Such a play has no events and no score sheet: only what the other logger kept (the game,
when, where, the players' scores, ranks, wins and start). It is kept as read, in the table
`logged_plays` (schema step "plays-1"), listed in the history and written again by every
export. Its uuid (BG Stats' own, or one derived from the BoardGameGeek play) is unique in
the table, so a play is never added twice.
"""

from __future__ import annotations

import json

from companion.records.journal import Journal, dumps
from companion.records.results import Play
from companion.records.stats import GameFacts, Seat
from companion.records.tables import has_table, steps_applied


def logged_plays(journal: Journal) -> list[Play]:
    """Every imported play, in the order they were added (none before the table exists).

    A row that no longer reads as a play (written by hand) is left out, never an error.
    """
    if not has_table(journal, "logged_plays"):
        return []
    found = []
    for (text,) in journal.query("SELECT play FROM logged_plays ORDER BY id"):
        try:
            found.append(Play.from_json(json.loads(text)))
        except ValueError:
            continue
    return found


def add_plays(journal: Journal, plays: list[Play]) -> int:
    """Keep `plays` (already checked) in one transaction; return how many were added (a uuid
    already there is skipped).

    Raises:
        JournalError: read-only or busy journal.
    """
    added = 0
    with journal.transaction() as db:
        steps_applied(db)
        for play in plays:
            cursor = db.execute(
                "INSERT INTO logged_plays (uuid, game, played, play) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (uuid) DO NOTHING",
                (play.uuid, play.game, play.played, dumps(play.to_json())),
            )
            added += cursor.rowcount
    return added


def played_at(played: str) -> str:
    """A play's `played` as a game's finishing time, "YYYY-MM-DDThh:mm:ssZ" (a BoardGameGeek
    play keeps a day only: its midnight). The SQL twin is `schema.played_time`."""
    return f"{played}T00:00:00Z" if len(played) == 10 else f"{played[:19].replace(' ', 'T')}Z"


def play_facts(journal: Journal) -> list[GameFacts]:
    """Every imported play as statistics see it (`GameFacts.imported`), its id the negative
    of its row's, as the seat rows of an imported Duel play (schema step "stat-totals-1")."""
    if not has_table(journal, "logged_plays"):
        return []
    found = []
    for row_id, text in journal.query("SELECT id, play FROM logged_plays ORDER BY id"):
        try:
            play = Play.from_json(json.loads(text))
        except ValueError:
            continue
        found.append(facts_of_play(-int(row_id), play))
    return found


def facts_of_play(play_id: int, play: Play) -> GameFacts:
    """One imported play as `GameFacts`: names, wins, ranks and scores (0 where none)."""
    winners = sum(p.winner for p in play.players)
    seats = tuple(
        Seat(seat=f"p{index}", name=p.name, scores={}, total=p.score or 0, wonders=(),
             tokens=(), won=p.winner, rank=p.rank)
        for index, p in enumerate(play.players, start=1)
    )  # fmt: skip
    return GameFacts(
        id=play_id,
        game=play.game,
        finished=played_at(play.played),
        minutes=None,
        cards=0,
        first=None,
        victory=None,
        seats=seats,
        shared=winners > 1,
        variant=play.variant,
        expansions=play.expansions,
        imported=True,
        scored=all(p.score is not None for p in play.players),
    )
