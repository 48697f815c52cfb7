"""The players the box remembers: named in games, or added before their first one.

A player is a name. The games a player sat in are the games whose `players` column names them
(set from the setup, the phone or the OLED), so every existing game counts without a link
table; `players` keeps the names added ahead of play. Renaming rewrites the name in every game
and in `players` in one transaction: every page, statistic and export then says the new name
(the setup rows stay as written; an exported record takes the names from the games). Renaming
onto a name that is already a player merges the two. Games with unnamed players stay
unnamed: they count in the totals, not for anyone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.engine.names import check_name
from companion.records.journal import GameSummary, Journal, JournalError, dumps
from companion.records.schema import played_time
from companion.records.tables import has_table, steps_applied

RECENT = 8  # names the OLED offers, most recent first


class PlayerRefused(JournalError):
    """A name that cannot be a player's, or an unknown player; the message is one line."""


@dataclass(frozen=True, slots=True)
class KnownPlayer:
    """A remembered player: games played and the time of the latest one (or when added)."""

    name: str
    games: int
    last: str

    def to_json(self) -> dict[str, object]:
        """The object `/players.json` lists."""
        return {"name": self.name, "games": self.games, "last": self.last}


def checked_name(raw: object, where: str = "name") -> str:
    """A player's name: 1 to 24 printable characters, spaces around it removed.

    Raises:
        PlayerRefused: not text, empty, too long or unprintable (names `where`).
    """
    try:
        return check_name(raw)  # the one rule of names (the record reader's)
    except ValueError as bad:
        raise PlayerRefused(f"{where}: {bad}") from None


# Each named seat of each game: (game id, started, name).
_SEATS = (
    "SELECT g.id, g.started, s.value FROM games g, json_each(g.players) s "
    "WHERE json_valid(g.players) AND s.type = 'text' AND s.value != ''"
)


# Each named player of each saved score pad (the Free City is not one) and of each imported
# play: (name, pad or play id, when) with the times written as the games' ("...T...Z"); a
# BoardGameGeek play keeps a day only, taken as its midnight.
_PAD_SEATS = (
    "SELECT n.value AS name, 'pad' || p.id AS what, p.saved AS at "
    "FROM pads p, json_each(p.players, '$.names') n "
    "WHERE json_valid(p.players) AND n.type = 'text' AND n.value != ''"
)
_PLAY_SEATS = (
    "SELECT json_extract(n.value, '$.name') AS name, 'play' || l.id AS what, "
    f"{played_time('l.played')} AS at "
    "FROM logged_plays l, json_each(l.play, '$.players') n WHERE json_valid(l.play) "
    "AND json_type(n.value, '$.name') = 'text' AND json_extract(n.value, '$.name') != ''"
)


def known_players(journal: Journal) -> list[KnownPlayer]:
    """Every remembered player, the most recently seen first (latest game, or when added):
    the players of the Duel games, of the saved score pads and of the imported plays."""
    found: dict[str, tuple[int, str]] = {}
    seats = [f"SELECT value AS name, 'game' || id AS what, started AS at FROM ({_SEATS})"]
    seats += [sql for table, sql in (("pads", _PAD_SEATS), ("logged_plays", _PLAY_SEATS))
              if has_table(journal, table)]  # fmt: skip
    rows = journal.query(
        f"SELECT name, COUNT(DISTINCT what), MAX(at) FROM ({' UNION ALL '.join(seats)}) "
        "GROUP BY name"
    )
    for name, games, last in rows:
        found[str(name)] = (int(games), str(last))
    if has_table(journal, "players"):
        for name, added in journal.query("SELECT name, added FROM players"):
            games, last = found.get(str(name), (0, ""))
            found[str(name)] = (games, max(last, str(added)))
    players = [KnownPlayer(name, games, last) for name, (games, last) in found.items()]
    return sorted(players, key=lambda p: (p.last, p.name), reverse=True)


def recent_names(journal: Journal, limit: int = RECENT) -> list[str]:
    """The names to offer first when naming the players of a new game (OLED and phone)."""
    return [player.name for player in known_players(journal)[:limit]]


def games_of(journal: Journal, name: str) -> list[GameSummary]:
    """The games `name` sat in, newest first."""
    ids = {int(row[0]) for row in journal.query(f"{_SEATS} AND s.value = ?", (name,))}
    return [summary for summary in journal.games() if summary.id in ids]


def add_player(journal: Journal, name: str) -> str:
    """Remember `name` as a player (nothing changes if they are already known); return it.

    Raises:
        PlayerRefused: not a valid name.
        JournalError: read-only or busy journal.
    """
    name = checked_name(name)
    added = journal.now()
    with journal.transaction() as db:
        steps_applied(db)
        db.execute("INSERT OR IGNORE INTO players (name, added) VALUES (?, ?)", (name, added))
    return name


def rename_player(journal: Journal, old: str, new: str) -> int:
    """Rename a player everywhere (every game naming them, and the list); return the number
    of games changed. A `new` name that is already a player merges the two.

    Raises:
        PlayerRefused: `new` is not a valid name, or nobody is called `old`.
        JournalError: read-only or busy journal.
    """
    new = checked_name(new, "new name")
    with journal.transaction() as db:
        steps_applied(db)
        games = db.execute(
            "SELECT id, players, started FROM games "
            f"WHERE id IN (SELECT id FROM ({_SEATS}) WHERE value = ?)",
            (old,),
        ).fetchall()
        listed = db.execute("SELECT added FROM players WHERE name = ?", (old,)).fetchone()
        plays = db.execute(
            f"SELECT DISTINCT CAST(substr(what, 5) AS INTEGER), at FROM ({_PLAY_SEATS}) "
            "WHERE name = ?",
            (old,),
        ).fetchall()
        if not games and listed is None and not plays:
            on_pads = db.execute(f"SELECT 1 FROM ({_PAD_SEATS}) WHERE name = ?", (old,))
            if on_pads.fetchone() is not None:
                raise PlayerRefused(f"{old!r} is only on score pads, which keep their names")
            raise PlayerRefused(f"No player called {old!r}")
        for game_id, players, _ in games:
            seats = json.loads(players).items()
            names = {seat: new if value == old else value for seat, value in seats}
            db.execute("UPDATE games SET players = ? WHERE id = ?", (dumps(names), game_id))
        for play_id, _ in plays:  # an imported play keeps its uuid: its exports stay one play
            row = db.execute("SELECT play FROM logged_plays WHERE id = ?", (play_id,)).fetchone()
            play = json.loads(row[0])
            for person in play["players"]:
                person["name"] = new if person["name"] == old else person["name"]
            db.execute("UPDATE logged_plays SET play = ? WHERE id = ?", (dumps(play), play_id))
        db.execute("DELETE FROM players WHERE name = ?", (old,))
        # Keep their place in the list: when added, else their latest game or play.
        times = [str(g[2]) for g in games] + [str(at) for _, at in plays]
        added = str(listed[0]) if listed is not None else max(times)
        db.execute("INSERT OR IGNORE INTO players (name, added) VALUES (?, ?)", (new, added))
    return len(games)
