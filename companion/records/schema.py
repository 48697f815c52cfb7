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


def readable(alias: str) -> str:
    """The SQL test of a seat row the statistics can count: its finishing date a real date
    (SQLite's `date` with a modifier gives it back unchanged) of the years 1970 to 2100. A row
    kept by an older program with "garbage" or "9999-99-99" is left out and counted
    (`seat_stats.unreadable_games`)."""
    day = f"substr({alias}.finished, 1, 10)"
    years = f"substr({alias}.finished, 1, 4) BETWEEN '1970' AND '2100'"
    return f"(date({day}, '+0 days') IS {day} AND {years})"  # "+0 days": Feb 30 is Mar 2


def mode_of(game_id: str) -> str:
    """The SQL mode of game `game_id` (an expression): "pantheon" when its summary (or for
    an imported play, -`game_id`, the play) names the expansion, else "base"
    (stats.GameFacts.mode)."""
    summary = (
        "EXISTS (SELECT 1 FROM game_summaries m, json_each(m.summary, '$.expansions') x "
        f"WHERE m.game_id = {game_id} AND x.value = 'pantheon')"
    )
    play = (
        f"EXISTS (SELECT 1 FROM logged_plays l, json_each(l.play, '$.expansions') x "
        f"WHERE l.id = -({game_id}) AND x.value = 'pantheon')"
    )
    pantheon = f"CASE WHEN {game_id} > 0 THEN {summary} ELSE {play} END"
    return f"(CASE WHEN {pantheon} THEN 'pantheon' ELSE 'base' END)"


def played_time(played: str) -> str:
    """The SQL finishing time of an imported play's `played` (logged.played_at)."""
    return (
        f"(CASE WHEN length({played}) = 10 THEN {played} || 'T00:00:00Z' "
        f"ELSE replace(substr({played}, 1, 19), ' ', 'T') || 'Z' END)"
    )


def _play_rows(row: str) -> str:
    """The SELECT of the seat rows of imported Duel play `row` (a logged_plays row; "l": every
    row of the table): game id the negative of the play's, `cards` 1 when every player has a
    score (else 0), no minutes, first player, victory, categories, wonders nor tokens."""
    players = f"json_each({row}.play, '$.players')"
    source = "logged_plays l, " if row == "l" else ""
    scored = (
        f"NOT EXISTS (SELECT 1 FROM {players} q "
        "WHERE json_type(q.value, '$.score') IS NOT 'integer')"
    )
    winners = f"(SELECT COUNT(*) FROM {players} q WHERE json_extract(q.value, '$.winner'))"
    return f"""SELECT -{row}.id, 'p' || (p.key + 1), json_extract(p.value, '$.name'), {row}.game,
            {played_time(f"{row}.played")}, NULL, {scored}, NULL, NULL,
            json_extract(p.value, '$.winner') IS 1, {winners} > 1, json_extract(p.value, '$.rank'),
            COALESCE(json_extract(p.value, '$.score'), 0), '[]',
            {", ".join(["NULL"] * STAT_COLUMNS)}, '[]', '[]'
        FROM {source}{players} p WHERE {row}.game = 'duel' AND json_valid({row}.play)"""


# The totals of every readable seat row, kept by triggers so that the statistics of every game
# (no filter: the default page) read a few hundred rows whatever the number of games
# (companion.records.seat_stats.TOTALS reads them; a test compares them with the statement
# over every seat). `stat_totals` holds counters by `tag`, each the sum of what the rows added:
#   p  a=name           games, outright wins, shared victories, sum of ranks (named seats)
#   h  a<b names        games, wins of a, wins of b, shared (each pair of named players met)
#   f                   seats of the first player: games, outright wins, shared
#   d  a=day            games, seats, then the sums of the total and of each category column
#   r  a=rows (JSON)    seats with these categories
#   o  a=kind, b=item   owned, owner won outright (wonders and progress tokens)
#   v  a=victory        games won by it ("shared" for a shared victory)
#   e  a=mode           games ("base", "pantheon")
#   i                   imported plays
# An imported Duel play (logged_plays) has seat rows too, game id the negative of its row's:
# it counts in p, h, i, the runs, and (its `cards` 1: every score known) the best scores and
# margins; not in f, d, r, o, v or e (docs/statistics.md, "Imported plays in the statistics").
# `stat_games` holds a row per game (its mode, minutes and margin of a victory on points, read
# through indexes for the longest, shortest and biggest margins); `stat_runs` a row per named
# seat in each player's order of games (`pos`) with `run`, the outright wins in a row ending
# there (0 for a game not won outright): a player's longest run is their highest `run`, their
# current one that of their latest game.
_SUM_COLUMNS = ["n0", "n1", "n2", "n3", "total", *(f"c{i}" for i in range(STAT_COLUMNS))]
_ADD = ", ".join(f"{c} = {c} + excluded.{c}" for c in _SUM_COLUMNS)


def _count(tag: str, a: str, b: str, values: list[str], sign: int, where: str = "") -> str:
    """The statement adding (`sign` 1) or taking away (-1) `values` (n0, n1, ...) to counter
    `tag` (`a`, `b`) of the row's game, then dropping a counter left at nothing."""
    columns = _SUM_COLUMNS[: len(values)]
    signed = ", ".join(f"{sign} * ({v})" for v in values)
    row = "NEW" if sign > 0 else "OLD"
    source = f" FROM {where}" if where.startswith("stat_seats") else f" WHERE {where or 1}"
    insert = (
        f"INSERT INTO stat_totals (game, tag, a, b, {', '.join(columns)}) "
        f"SELECT {row}.game, '{tag}', {a}, {b}, {signed}{source} "
        f"ON CONFLICT (game, tag, a, b) DO UPDATE SET {_ADD};"
    )
    if sign > 0:
        return insert
    return insert + (
        f" DELETE FROM stat_totals WHERE game = OLD.game AND tag = '{tag}' AND n0 = 0 AND n1 = 0;"
    )


def _seat_counts(sign: int, names: bool = True) -> str:
    """What a seat row adds to the counters (`names`: only those that depend on its name)."""
    r = "NEW" if sign > 0 else "OLD"
    outright, shared = f"({r}.won AND NOT {r}.shared)", f"({r}.won AND {r}.shared)"
    other_won = f"y.won AND NOT {r}.won"
    pairs = _count(
        "h", f"min({r}.name, y.name)", f"max({r}.name, y.name)",
        ["1", f"CASE WHEN {r}.name < y.name THEN {r}.won AND NOT y.won ELSE {other_won} END",
         f"CASE WHEN {r}.name < y.name THEN {other_won} ELSE {r}.won AND NOT y.won END",
         f"{r}.won AND y.won"],
        sign,
        f"stat_seats y WHERE y.game_id = {r}.game_id AND y.seat != {r}.seat AND {r}.name != '' "
        f"AND y.name != '' AND y.name != {r}.name",
    )  # fmt: skip
    named = _count("p", f"{r}.name", "''", ["1", outright, shared, f"{r}.rank"], sign,
                   f"{r}.name != ''") + pairs  # fmt: skip
    if names:
        return named
    sums = [f"COALESCE({r}.c{i}, 0)" for i in range(STAT_COLUMNS)]
    return named + "".join([
        _count("f", "''", "''", ["1", outright, shared], sign, f"{r}.seat = {r}.first"),
        _count("d", f"substr({r}.finished, 1, 10)", "''", ["0", "1", "0", "0", f"{r}.total",
                                                            *sums], sign, f"{r}.game_id > 0"),
        _count("r", f"{r}.rows", "''", ["1"], sign, f"{r}.game_id > 0"),
    ])  # fmt: skip


_POS = "printf('%s %013d %s', {r}.finished, {r}.game_id + 1000000000000, {r}.seat)"
"""A seat's place in its player's order of games: by finishing time, then game id (an
imported play's is negative), then seat."""
_RUN = """CASE WHEN NOT stat_runs.w THEN 0 ELSE (SELECT COUNT(*) FROM stat_runs x
    WHERE x.game = stat_runs.game AND x.name = stat_runs.name AND x.pos <= stat_runs.pos
    AND x.pos > COALESCE((SELECT MAX(y.pos) FROM stat_runs y WHERE y.game = stat_runs.game
        AND y.name = stat_runs.name AND NOT y.w AND y.pos < stat_runs.pos), '')) END"""


def _runs_from(r: str, name: str) -> str:
    """The statement that counts again the runs of player `name` from the position of row
    `r` up to their next game not won outright (the runs after it do not change). A game that
    finishes last recounts its own run only; each recount reads the run it ends (the wins in
    a row are few)."""
    pos = _POS.format(r=r)
    return f"""UPDATE stat_runs SET run = {_RUN}
        WHERE game = {r}.game AND name = {name} AND pos >= {pos}
        AND pos < COALESCE((SELECT MIN(z.pos) FROM stat_runs z WHERE z.game = {r}.game
            AND z.name = {name} AND NOT z.w AND z.pos > {pos}), '~');"""


def _run_added(r: str) -> str:
    return f"""INSERT INTO stat_runs (game, name, pos, game_id, seat, w, run)
        SELECT {r}.game, {r}.name, {_POS.format(r=r)}, {r}.game_id, {r}.seat,
            {r}.won AND NOT {r}.shared, 0 WHERE {r}.name != '';
        {_runs_from(r, f"{r}.name")}"""


def _run_removed(r: str, name: str) -> str:
    return f"""DELETE FROM stat_runs WHERE game_id = {r}.game_id AND seat = {r}.seat;
        {_runs_from(r, name)}"""


_MARGIN = """UPDATE stat_games SET
        margin = (SELECT CASE WHEN SUM(s.won) = 1 AND MAX(CASE WHEN NOT s.won THEN 1 END)
            AND (stat_games.victory IS NULL OR stat_games.victory = 'civilian')
            AND (stat_games.game_id > 0 OR MIN(s.cards) = 1)
            THEN MAX(CASE WHEN s.won THEN s.total END) - MAX(CASE WHEN NOT s.won THEN s.total END)
            END FROM stat_seats s WHERE s.game_id = stat_games.game_id),
        winner = (SELECT s.name FROM stat_seats s WHERE s.game_id = stat_games.game_id
            AND s.won ORDER BY s.seat LIMIT 1)
    WHERE game_id = {r}.game_id;"""


def _game_counts(sign: int) -> str:
    r = "NEW" if sign > 0 else "OLD"
    return "".join([
        _count("v", f"CASE WHEN {r}.shared THEN 'shared' ELSE {r}.victory END", "''", ["1"],
               sign, f"{r}.game_id > 0 AND ({r}.shared OR {r}.victory IS NOT NULL)"),
        _count("e", f"{r}.mode", "''", ["1"], sign, f"{r}.game_id > 0"),
        _count("d", f"substr({r}.finished, 1, 10)", "''", ["1"], sign, f"{r}.game_id > 0"),
        _count("i", "''", "''", ["1"], sign, f"{r}.game_id < 0"),
    ])  # fmt: skip


_TOTAL_TRIGGERS = (
    "seat_added",
    "seat_removed",
    "seat_renamed",
    "game_added",
    "game_removed",
    "item_added",
    "item_removed",
    "play_added",
    "play_removed",
    "play_changed",
)
STEPS["stat-totals-1"] = f"""
    CREATE TABLE IF NOT EXISTS stat_totals (
        game TEXT NOT NULL, tag TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL,
        {", ".join(f"{c} INTEGER NOT NULL DEFAULT 0" for c in _SUM_COLUMNS)},
        PRIMARY KEY (game, tag, a, b)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS stat_games (
        game_id INTEGER PRIMARY KEY, game TEXT NOT NULL, finished TEXT NOT NULL,
        minutes REAL, victory TEXT, shared INTEGER NOT NULL, mode TEXT NOT NULL,
        margin INTEGER, winner TEXT
    );
    CREATE INDEX IF NOT EXISTS stat_games_by_minutes ON stat_games (game, minutes, game_id)
        WHERE minutes IS NOT NULL;
    CREATE INDEX IF NOT EXISTS stat_games_by_margin ON stat_games (game, margin DESC, game_id)
        WHERE margin IS NOT NULL;
    CREATE TABLE IF NOT EXISTS stat_runs (
        game_id INTEGER NOT NULL, seat TEXT NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL,
        pos TEXT NOT NULL, w INTEGER NOT NULL, run INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS stat_runs_by_pos ON stat_runs (game, name, pos);
    CREATE INDEX IF NOT EXISTS stat_runs_by_loss ON stat_runs (game, name, w, pos);
    CREATE INDEX IF NOT EXISTS stat_runs_by_run ON stat_runs (game, name, run);
    CREATE INDEX IF NOT EXISTS stat_seats_by_total
        ON stat_seats (game, total DESC, game_id, name DESC);
    CREATE TEMP TABLE stat_seats_kept AS SELECT * FROM stat_seats WHERE game_id > 0;
    {"".join(f"DROP TRIGGER IF EXISTS stat_totals_{name};" for name in _TOTAL_TRIGGERS)}
    DELETE FROM stat_seats;
    DROP TRIGGER IF EXISTS stat_seats_summary_added;
    CREATE TRIGGER stat_seats_summary_added AFTER INSERT ON game_summaries
    BEGIN
        DELETE FROM stat_seats WHERE game_id = NEW.game_id;
        INSERT INTO stat_seats {_seat_rows("NEW.summary", "NEW.game_id", "")};
    END;
    CREATE TRIGGER stat_totals_seat_added AFTER INSERT ON stat_seats
    WHEN {readable("NEW")}
    BEGIN
        INSERT INTO stat_games (game_id, game, finished, minutes, victory, shared, mode)
            SELECT NEW.game_id, NEW.game, NEW.finished, NEW.minutes, NEW.victory, NEW.shared,
                {mode_of("NEW.game_id")}
            WHERE NOT EXISTS (SELECT 1 FROM stat_games g WHERE g.game_id = NEW.game_id);
        {_seat_counts(1, names=False)}
        {_MARGIN.format(r="NEW")}
        {_run_added("NEW")}
    END;
    CREATE TRIGGER stat_totals_seat_removed AFTER DELETE ON stat_seats
    WHEN {readable("OLD")}
    BEGIN
        {_seat_counts(-1, names=False)}
        DELETE FROM stat_games WHERE game_id = OLD.game_id
            AND NOT EXISTS (SELECT 1 FROM stat_seats s WHERE s.game_id = OLD.game_id);
        {_MARGIN.format(r="OLD")}
        {_run_removed("OLD", "OLD.name")}
    END;
    CREATE TRIGGER stat_totals_seat_renamed AFTER UPDATE OF name ON stat_seats
    WHEN {readable("NEW")} AND OLD.name IS NOT NEW.name
    BEGIN
        {_seat_counts(-1)}
        {_seat_counts(1)}
        {_MARGIN.format(r="NEW")}
        {_run_removed("OLD", "OLD.name")}
        {_run_added("NEW")}
    END;
    CREATE TRIGGER stat_totals_game_added AFTER INSERT ON stat_games
    BEGIN {_game_counts(1)} END;
    CREATE TRIGGER stat_totals_game_removed AFTER DELETE ON stat_games
    BEGIN {_game_counts(-1)} END;
    CREATE TRIGGER stat_totals_item_added AFTER INSERT ON stat_items
    WHEN {readable("NEW")}
    BEGIN {_count("o", "NEW.kind", "NEW.item", ["1", "NEW.won"], 1)} END;
    CREATE TRIGGER stat_totals_item_removed AFTER DELETE ON stat_items
    WHEN {readable("OLD")}
    BEGIN {_count("o", "OLD.kind", "OLD.item", ["1", "OLD.won"], -1)} END;
    CREATE TRIGGER stat_totals_play_added AFTER INSERT ON logged_plays
    BEGIN
        INSERT INTO stat_seats {_play_rows("NEW")};
        INSERT INTO change_log (game_id) VALUES (-NEW.id);
    END;
    CREATE TRIGGER stat_totals_play_removed AFTER DELETE ON logged_plays
    BEGIN
        DELETE FROM stat_seats WHERE game_id = -OLD.id;
        INSERT INTO change_log (game_id) VALUES (-OLD.id);
    END;
    CREATE TRIGGER stat_totals_play_changed AFTER UPDATE OF play ON logged_plays
    BEGIN
        DELETE FROM stat_seats WHERE game_id = -OLD.id;
        INSERT INTO stat_seats {_play_rows("NEW")};
        INSERT INTO change_log (game_id) VALUES (-NEW.id);
    END;
    INSERT INTO stat_seats {_play_rows("l")};
    INSERT INTO stat_seats SELECT * FROM temp.stat_seats_kept;
    DROP TABLE temp.stat_seats_kept;
"""
"""The rows already kept are taken out and put back once the triggers exist: the totals are
made by the same triggers as later (the summary trigger is made again so that a summary written
again takes out the old rows first, through the triggers, instead of replacing them)."""
