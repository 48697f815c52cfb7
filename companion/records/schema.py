"""The journal's schema in one place: the base tables, and the named steps that add tables.

Version 1 (`PRAGMA user_version = 1`, `application_id` "DUEE") is the base: `games`, `events`,
`meta` and the triggers that keep events append-only (`BASE`). Everything added since is a
named step in `STEPS`, applied once by `steps_applied` inside a write transaction and recorded
in `schema_steps`. A step only creates (`CREATE ... IF NOT EXISTS`), so it is idempotent, and
the journal's `user_version` stays 1: a journal written by an older program opens unchanged,
and an older program still opens a journal that has the new tables (it ignores them; the
program before these steps moved a journal of another version aside, so the version is never
raised for an addition). A writable `Journal.open` applies every step, so a writer always
finds its tables; a read-only reader (the pages) may find one missing and treats it as empty.

To add a table: add a step under a new name ("<table>-1"); to change one later, a new step
("<table>-2") that creates what it needs. Steps never drop or rewrite what a game holds.
"""

from __future__ import annotations

import sqlite3

APPLICATION_ID = 0x44554545  # "DUEE": marks the file as a Duel Companion journal
SCHEMA_VERSION = 1

BASE = (
    """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'finished')),
    winner TEXT,
    victory TEXT,
    players TEXT NOT NULL DEFAULT '{}',
    origin TEXT NOT NULL DEFAULT 'play' CHECK (origin IN ('play', 'import'))
)""",
    """CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    written_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS meta (
    game_id INTEGER NOT NULL REFERENCES games(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID""",
    """CREATE TRIGGER IF NOT EXISTS events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS games_are_kept BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'journal games are kept'); END""",
)
TABLES = {  # the base columns every journal has
    "games": {"id", "started", "finished", "status", "winner", "victory", "players", "origin"},
    "events": {"game_id", "seq", "record", "written_at"},
    "meta": {"game_id", "key", "value"},
}

STEPS: dict[str, str] = {
    # Players the box remembers, also before their first game (renames rewrite games.players).
    "players-1": """
        CREATE TABLE IF NOT EXISTS players (
            name TEXT PRIMARY KEY,
            added TEXT NOT NULL
        ) WITHOUT ROWID;
    """,
    # What statistics need of a finished game, written when it finishes; valid for `seq`.
    "summaries-1": """
        CREATE TABLE IF NOT EXISTS game_summaries (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            seq INTEGER NOT NULL,
            summary TEXT NOT NULL
        );
    """,
    # A log of the changes statistics depend on, written by triggers (so that the journal's own
    # writes count too): a page reads the games changed since the last entry it saw instead
    # of every game. `game_id` is NULL for a change of the remembered players.
    "change-log-1": """
        CREATE TABLE IF NOT EXISTS change_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER
        );
        CREATE TRIGGER IF NOT EXISTS change_log_game_added AFTER INSERT ON games
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_game_changed AFTER UPDATE ON games
        WHEN OLD.status IS NOT NEW.status OR OLD.players IS NOT NEW.players
            OR OLD.winner IS NOT NEW.winner OR OLD.victory IS NOT NEW.victory
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_summary_added AFTER INSERT ON game_summaries
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.game_id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_summary_changed AFTER UPDATE ON game_summaries
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.game_id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_summary_removed AFTER DELETE ON game_summaries
        BEGIN INSERT INTO change_log (game_id) VALUES (OLD.game_id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_player_added AFTER INSERT ON players
        BEGIN INSERT INTO change_log (game_id) VALUES (NULL); END;
        CREATE TRIGGER IF NOT EXISTS change_log_player_removed AFTER DELETE ON players
        BEGIN INSERT INTO change_log (game_id) VALUES (NULL); END;
    """,
    # Finished score pads of the other 7 Wonders games (companion.records.pads): the sheet as
    # entered, and what the history lists of it.
    "pads-1": """
        CREATE TABLE IF NOT EXISTS pads (
            id INTEGER PRIMARY KEY,
            saved TEXT NOT NULL,
            game TEXT NOT NULL,
            players TEXT NOT NULL,
            winners TEXT NOT NULL,
            sheet TEXT NOT NULL
        );
    """,
    # `reader.fingerprint` of an imported game's events, or of a played game once finished:
    # an import of the same events is named, not added again (Journal.add_game). The journal
    # fills it for the games already there when the step is applied.
    "fingerprints-1": """
        CREATE TABLE IF NOT EXISTS game_fingerprints (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            fingerprint TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS game_fingerprints_by_value
            ON game_fingerprints (fingerprint);
    """,
    # Plays imported from BG Stats or BoardGameGeek (companion.records.logged): a result
    # without events or sheet, kept as read (`play` is the JSON of a `plays.Play`).
    "plays-1": """
        CREATE TABLE IF NOT EXISTS logged_plays (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            played TEXT NOT NULL,
            play TEXT NOT NULL
        );
    """,
}


def _seat_rows(summary: str, game_id: str, source: str) -> str:
    """The SELECT that turns summaries into `stat_seats` rows: `summary` and `game_id` are the
    expressions of the summary's JSON and its game, `source` what they come from."""
    winners = f"json_each({summary}, '$.winners')"
    seat = "json_extract(seat.value, '$.seat')"
    won = f"EXISTS (SELECT 1 FROM {winners} w WHERE w.value = {seat})"
    total = "json_extract(seat.value, '$.total')"
    other_won = (
        f"EXISTS (SELECT 1 FROM {winners} w WHERE w.value = json_extract(o.value, '$.seat'))"
    )
    better = (
        f"(SELECT COUNT(*) FROM json_each({summary}, '$.seats') o "
        f"WHERE {other_won} OR json_extract(o.value, '$.total') > {total})"
    )
    columns = ", ".join(
        f"(SELECT value FROM json_each(seat.value, '$.scores') LIMIT 1 OFFSET {i})"
        for i in range(STAT_COLUMNS)
    )
    return f"""
        SELECT {game_id}, {seat},
            COALESCE(json_extract((SELECT players FROM games WHERE id = {game_id}),
                                  '$.' || {seat}), ''),
            json_extract({summary}, '$.game'),
            json_extract({summary}, '$.finished'), json_extract({summary}, '$.minutes'),
            COALESCE(json_extract({summary}, '$.cards'), 0), json_extract({summary}, '$.first'),
            json_extract({summary}, '$.victory'),
            {won}, json_array_length({summary}, '$.winners') > 1,
            CASE WHEN {won} THEN 1 ELSE 1 + {better} END, {total},
            (SELECT json_group_array(key) FROM json_each(seat.value, '$.scores')),
            {columns},
            COALESCE(json_extract(seat.value, '$.wonders'), '[]'),
            COALESCE(json_extract(seat.value, '$.tokens'), '[]')
        FROM {source}json_each({summary}, '$.seats') seat"""


# The seats of every finished game whose summary is up to date (`stat_seats`, read by
# companion.records.seat_stats): added with its summary, dropped when an event is appended to
# the game (an undo or a correction after the end; the next summary adds them again), renamed
# with the game.
STAT_COLUMNS = 10  # categories kept as columns of `stat_seats` (a Duel has 8)
_SEAT_COLUMNS = ", ".join(f"c{i} INTEGER" for i in range(STAT_COLUMNS))
STEPS["stat-seats-1"] = f"""
    CREATE TABLE IF NOT EXISTS stat_seats (
        game_id INTEGER NOT NULL, seat TEXT NOT NULL, name TEXT NOT NULL, game TEXT NOT NULL,
        finished TEXT NOT NULL, minutes REAL, cards INTEGER NOT NULL, first TEXT, victory TEXT,
        won INTEGER NOT NULL, shared INTEGER NOT NULL, rank INTEGER NOT NULL,
        total INTEGER NOT NULL, rows TEXT NOT NULL, {_SEAT_COLUMNS},
        wonders TEXT NOT NULL, tokens TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS stat_seats_by_game ON stat_seats (game, finished);
    CREATE INDEX IF NOT EXISTS stat_seats_by_name
        ON stat_seats (game, name, finished, game_id, won, shared);
    CREATE TABLE IF NOT EXISTS stat_items (
        game_id INTEGER NOT NULL, seat TEXT NOT NULL, kind TEXT NOT NULL, item TEXT NOT NULL,
        game TEXT NOT NULL, finished TEXT NOT NULL, name TEXT NOT NULL, won INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat, kind, item)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS stat_items_by_item
        ON stat_items (game, kind, item, finished, name, won);
    CREATE TRIGGER IF NOT EXISTS stat_items_added AFTER INSERT ON stat_seats
    BEGIN
        INSERT OR REPLACE INTO stat_items
        SELECT NEW.game_id, NEW.seat, 'wonders', w.value, NEW.game, NEW.finished, NEW.name,
            NEW.won AND NOT NEW.shared FROM json_each(NEW.wonders) w
        UNION ALL
        SELECT NEW.game_id, NEW.seat, 'tokens', t.value, NEW.game, NEW.finished, NEW.name,
            NEW.won AND NOT NEW.shared FROM json_each(NEW.tokens) t;
    END;
    CREATE TRIGGER IF NOT EXISTS stat_items_removed AFTER DELETE ON stat_seats
    BEGIN DELETE FROM stat_items WHERE game_id = OLD.game_id AND seat = OLD.seat; END;
    CREATE TRIGGER IF NOT EXISTS stat_items_renamed AFTER UPDATE OF name ON stat_seats
    BEGIN
        UPDATE stat_items SET name = NEW.name WHERE game_id = NEW.game_id AND seat = NEW.seat;
    END;
    CREATE TRIGGER IF NOT EXISTS stat_seats_summary_added AFTER INSERT ON game_summaries
    BEGIN INSERT OR REPLACE INTO stat_seats {_seat_rows("NEW.summary", "NEW.game_id", "")}; END;
    CREATE TRIGGER IF NOT EXISTS stat_seats_summary_changed AFTER UPDATE ON game_summaries
    BEGIN
        DELETE FROM stat_seats WHERE game_id = OLD.game_id;
        INSERT INTO stat_seats {_seat_rows("NEW.summary", "NEW.game_id", "")};
    END;
    CREATE TRIGGER IF NOT EXISTS stat_seats_summary_removed AFTER DELETE ON game_summaries
    BEGIN DELETE FROM stat_seats WHERE game_id = OLD.game_id; END;
    CREATE TRIGGER IF NOT EXISTS stat_seats_game_changed AFTER INSERT ON events
    BEGIN DELETE FROM stat_seats WHERE game_id = NEW.game_id; END;
    CREATE TRIGGER IF NOT EXISTS stat_seats_renamed AFTER UPDATE OF players ON games
    BEGIN
        UPDATE stat_seats SET name = COALESCE(json_extract(NEW.players, '$.' || seat), '')
        WHERE game_id = NEW.id;
    END;
    INSERT OR REPLACE INTO stat_seats {_seat_rows("s.summary", "s.game_id", "game_summaries s, ")}
        WHERE s.seq = (SELECT MAX(seq) FROM events e WHERE e.game_id = s.game_id)
        AND (SELECT status FROM games WHERE id = s.game_id) = 'finished';
"""

# A Duel summary names its game's expansions (the statistics split base and Pantheon games by
# them): the summaries written before are given those of the game's setup record; those of a
# Pantheon game lack its `divinities` row and are dropped, to be made again from the events.
_SETUP_EXPANSIONS = """COALESCE((SELECT json_extract(e.record, '$.expansions') FROM events e
    WHERE e.game_id = game_summaries.game_id AND json_extract(e.record, '$.type') = 'setup'
    ORDER BY e.seq LIMIT 1), '[]')"""
STEPS["summary-expansions-1"] = f"""
    DELETE FROM game_summaries WHERE json_valid(summary)
        AND json_extract(summary, '$.game') = 'duel'
        AND json_extract(summary, '$.expansions') IS NULL
        AND EXISTS (SELECT 1 FROM json_each({_SETUP_EXPANSIONS}) x WHERE x.value = 'pantheon');
    UPDATE game_summaries SET summary = json_set(summary, '$.expansions', json({_SETUP_EXPANSIONS}))
        WHERE json_valid(summary) AND json_extract(summary, '$.game') = 'duel'
        AND json_extract(summary, '$.expansions') IS NULL;
"""


def steps_applied(db: sqlite3.Connection) -> list[str]:
    """Apply every step not applied yet, inside the caller's write transaction; return the
    names of the steps applied now (none when all were there)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_steps (step TEXT PRIMARY KEY, applied TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT step FROM schema_steps")}
    applied = []
    for step, sql in STEPS.items():
        if step not in done:
            for statement in _statements(sql):
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_steps (step, applied) VALUES (?, datetime('now'))", (step,)
            )
            applied.append(step)
    return applied


def _statements(sql: str) -> list[str]:
    """The statements of a script, each whole (a trigger's body holds semicolons); run one
    by one inside the caller's transaction (`executescript` would commit it)."""
    statements, current = [], ""
    for piece in sql.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                statements.append(current.strip())
            current = ""
    return statements
