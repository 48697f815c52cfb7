"""The whole history out and in: every game as CSV, and one JSON file that another box imports.

The JSON history holds each game's effective events (the game record, names in its setup line),
its times and result, and the remembered players. Importing it adds each game through the same
import as a single record (the rules check every line) unless the journal already holds a game
with the same content hash: the hash of the effective events without the players' names, so a
game exported, renamed and imported back is still recognised. Only games already in the journal
before the import are skipped: two identical games within one file (a record imported twice on
the exporting box) are both kept, so that the copy has the same statistics as its source. A
history that is not one, or holds a game the rules refuse, is refused whole (the message names
the game and line) before anything is written.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.cards import Catalog
from companion.engine.names import check_name
from companion.engine.scoring import PANTHEON_ROWS, ROWS
from companion.family import dice
from companion.family.cards import FamilyCatalog
from companion.family.catalog import default_family_catalog
from companion.family.pad import score_sheet
from companion.family.scoring import CATEGORIES, EDIFICE
from companion.family.sheet import GAME as FAMILY_SHEET
from companion.family.sheet import SheetError
from companion.records.game import check_record, import_record
from companion.records.journal import Journal, Record, RecordRefused, dumps, effective_records
from companion.records.logged import add_plays, logged_plays
from companion.records.pad_stats import PAD_IDS
from companion.records.pads import save_pad, saved_pads
from companion.records.players import add_player, known_players
from companion.records.reader import fingerprint
from companion.records.replay import replay
from companion.records.results import Play, pad_identity
from companion.records.stats import GameFacts
from companion.records.summaries import (
    DUEL,
    FIRST_YEAR,
    HISTORY_KEY,
    LAST_YEAR,
    Summarize,
    duel_summary,
    game_times,
    keep_summary,
    parse_stamp,
)

FORMAT = "duel-companion-history"
VERSION = 1


def summarizer(catalog: Catalog, journal: Journal) -> Summarize:
    """A function making the summary of a finished Duel game of `journal` from its events."""

    def summarize(game_id: int) -> dict[str, Any]:
        rows = journal.rows(game_id)
        records = effective_records(rows)
        finished, minutes = game_times(journal, game_id, rows)
        state = replay(catalog, list(enumerate(records, start=1)), label="row").state
        return duel_summary(state, records, finished, minutes)

    return summarize


def content_hash(records: Sequence[Record]) -> str:
    """The hash naming a game's content: its effective events, players' names left out (the
    journal's own fingerprint, `reader.fingerprint`, which also refuses a twin import)."""
    return fingerprint(records)


def export_history(journal: Journal) -> dict[str, Any]:
    """The whole journal as one JSON object (docs/statistics.md, "History file")."""
    return {
        **_history_head(journal),
        "games": list(history_entries(journal)),
        **export_pads_and_plays(journal),
    }


def export_history_text(journal: Journal) -> Iterator[str]:
    """`json.dumps(export_history(journal), ensure_ascii=False)` in pieces, one game at a
    time, so that a history of thousands of games is never held whole."""
    head = json.dumps({**_history_head(journal), "games": []}, ensure_ascii=False)
    yield head[: -len("[]}")] + "["
    for number, entry in enumerate(history_entries(journal)):
        yield (", " if number else "") + json.dumps(entry, ensure_ascii=False)
    tail = json.dumps(export_pads_and_plays(journal), ensure_ascii=False)
    yield "]" + (f", {tail[1:]}" if tail != "{}" else "}")


def _history_head(journal: Journal) -> dict[str, Any]:
    players = sorted(player.name for player in known_players(journal))
    return {"format": FORMAT, "version": VERSION, "players": players}


def history_entries(journal: Journal) -> Iterator[dict[str, Any]]:
    """The games of the history file, oldest first."""
    for summary in reversed(journal.games()):
        records = journal.effective_events(summary.id)
        finished, minutes = game_times(journal, summary.id, journal.rows(summary.id))
        kept = journal.meta(summary.id, HISTORY_KEY)
        started = kept.get("started") if isinstance(kept, dict) else None
        names = dict(summary.players)
        lines = [
            {**r, "players": names} if r.get("type") == "setup" and names else r for r in records
        ]
        yield {
            "id": summary.id,
            "game": DUEL,
            "hash": content_hash(records),
            "status": summary.status,
            "started": started if isinstance(started, str) else summary.started,
            "finished": finished if summary.status == "finished" else None,
            "minutes": minutes if summary.status == "finished" else None,
            "players": names,
            "record": lines,
        }


def export_pads_and_plays(journal: Journal) -> dict[str, Any]:
    """The history's other games: every saved score pad (when, which game, its sheet), oldest
    first, and every play imported from BG Stats or BoardGameGeek."""
    return {
        "pads": [
            {"saved": pad.saved, "game": pad.game, "sheet": pad.sheet}
            for pad in reversed(saved_pads(journal))
        ],
        "plays": [play.to_json() for play in logged_plays(journal)],
    }


def check_pads_and_plays(family: FamilyCatalog, data: Mapping[str, Any]) -> tuple[
    list[tuple[str, Any]], list[Play]
]:  # fmt: skip
    """The pads (saved, sheet) and imported plays of a history file, every sheet scored.

    Raises:
        RecordRefused: a pad whose sheet cannot be a real game, or a play that cannot be read
            (named by its index in the file).
    """
    pads = []
    for index, entry in enumerate(_list(data, "pads"), start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("saved"), str):
            raise RecordRefused(f'pad {index}: expected an object with "saved" and "sheet"')
        try:
            saved = _stamp("saved", entry["saved"])  # a real time, as the journal writes it
            score_sheet(family, entry.get("sheet"))
        except (SheetError, ValueError) as refused:
            raise RecordRefused(f"pad {index}: {refused}") from None
        pads.append((saved, entry["sheet"]))
    plays = []
    for index, entry in enumerate(_list(data, "plays"), start=1):
        try:
            plays.append(Play.from_json(entry))
        except ValueError as refused:
            raise RecordRefused(f"play {index}: {refused}") from None
    return pads, plays


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    found = data.get(key, [])
    if not isinstance(found, list):
        raise RecordRefused(f'a history file lists its {key} in a list "{key}"')
    return found


def import_pads_and_plays(
    family: FamilyCatalog, journal: Journal, data: Mapping[str, Any]
) -> tuple[int, int]:
    """Add the pads and plays of a history file that the journal does not hold yet (a pad
    with the same saving time and sheet, a play with the same uuid); return how many of each.

    Raises:
        RecordRefused: as `check_pads_and_plays`; nothing is written then.
        JournalError: read-only or busy journal.
    """
    pads, plays = check_pads_and_plays(family, data)
    held = {pad_identity(pad.saved, pad.sheet) for pad in saved_pads(journal)}
    added = 0
    for saved, sheet in pads:
        if pad_identity(saved, sheet) not in held:
            save_pad(journal, family, sheet, saved=saved)
            held.add(pad_identity(saved, sheet))
            added += 1
    return added, add_plays(journal, plays) if plays else 0


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import of a history did: the new game ids, and the games already there
    (index in the file -> id in this journal)."""

    added: list[int] = field(default_factory=list)
    already: dict[int, int] = field(default_factory=dict)
    players: int = 0
    pads: int = 0
    """Score pads added."""
    plays: int = 0
    """Plays (imported from BG Stats or BoardGameGeek on the other box) added."""

    def to_json(self) -> dict[str, Any]:
        """The answer of the import (page and command)."""
        return {
            "added": self.added,
            "already": [{"game": index, "id": gid} for index, gid in self.already.items()],
            "players": self.players,
            "pads": self.pads,
            "plays": self.plays,
        }


def existing_hashes(journal: Journal) -> dict[str, int]:
    """The content hash of every game in the journal -> its id (the oldest if several).

    Finished and imported games are read from the journal's `game_fingerprints` table (kept
    when such a game is written), so a history of thousands of games is not replayed; only
    the games still in play are hashed from their events.
    """
    found: dict[str, int] = {
        str(mark): int(game_id)
        for mark, game_id in journal.query(
            "SELECT fingerprint, MIN(game_id) FROM game_fingerprints GROUP BY fingerprint"
        )
    }
    for summary in journal.games():
        if summary.status != "finished" and summary.origin != "import":
            mark = content_hash(journal.effective_events(summary.id))
            found[mark] = min(found.get(mark, summary.id), summary.id)
    return found


def import_history(
    catalog: Catalog, journal: Journal, data: Any, family: FamilyCatalog | None = None
) -> Imported:
    """Add the games of a history file (parsed JSON) that the journal does not hold yet.

    Raises:
        RecordRefused: not a history file, or a game the rules refuse (named by its index in
            the file and its line); nothing is written then.
        JournalError: read-only or busy journal.
    """
    games = check_history(catalog, data)
    family = family or default_family_catalog()
    check_pads_and_plays(family, data)  # refused before anything is written
    known = existing_hashes(journal)
    result = Imported()
    for index, (entry, lines) in enumerate(games, start=1):
        digest = content_hash([json.loads(line) for line in lines])
        if digest in known:
            result.already[index] = known[digest]
            continue
        game_id = import_record(catalog, journal, lines, again=True)  # a twin in the file is kept
        result.added.append(game_id)
        if entry.get("status") == "finished" and isinstance(entry.get("finished"), str):
            journal.set_meta(
                game_id,
                HISTORY_KEY,
                {"finished": entry["finished"], "minutes": entry.get("minutes"),
                 "started": entry.get("started")},
            )  # fmt: skip
            keep_summary(journal, game_id, check_record(catalog, lines).state)
    names = history_names(data)  # checked with the games, before anything was written
    for name in names:
        add_player(journal, name)
    pads, plays = import_pads_and_plays(family, journal, data)
    return Imported(result.added, result.already, len(names), pads, plays)


MAX_HISTORY_BYTES = 32 * 1024 * 1024  # about 3,000 games; a larger file is not read as one


def parsed_history(data: bytes) -> dict[str, Any] | None:
    """The parsed history file in an upload, or None for anything else (a game record in
    JSON Lines, even of one line, is an object without "format")."""
    try:
        parsed = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) and "format" in parsed else None


def other_file(data: bytes) -> tuple[str, str] | None:
    """What an upload that is no game record is, for the one line that refuses it: ("sheet",
    "a 7 Wonders score sheet"), ("bgstats", "a BG Stats backup") or ("bgg-xml", "BoardGameGeek
    plays"); None for anything else (a record, a history, a file that is none of these)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<"):
        return ("bgg-xml", "BoardGameGeek plays") if b"<plays" in head else None
    try:
        parsed = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # a record's lines, or no JSON
        return None
    if not isinstance(parsed, dict):
        return None
    game = parsed.get("game")
    if game in SHEET_GAMES:
        return "sheet", f"a {SHEET_GAMES[game]} score sheet"
    if isinstance(parsed.get("plays"), list) and isinstance(parsed.get("games"), list):
        return "bgstats", "a BG Stats backup"
    return None


SHEET_GAMES = {FAMILY_SHEET: "7 Wonders", dice.GAME: "7 Wonders Dice"}


def _records(lines: Sequence[str]) -> list[Record]:
    return [json.loads(line) for line in lines]


def check_history(catalog: Catalog, data: Any) -> list[tuple[Mapping[str, Any], list[str]]]:
    """The games of a history file as (entry, record lines), every one checked by the rules.

    Raises:
        RecordRefused: not a history file, or a game the rules refuse (its index and line).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordRefused(f'not a history file (no "format": "{FORMAT}")')
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # true is not 1
        raise RecordRefused(f"history version {_shown(version)}, this program reads 1")
    entries = data.get("games")
    if not isinstance(entries, list):
        raise RecordRefused('a history file lists its games in "games"')
    history_names(data)
    games: list[tuple[Mapping[str, Any], list[str]]] = []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("record"), list):
            raise RecordRefused(f'game {index}: expected an object with a "record" list')
        if entry.get("game", DUEL) != DUEL:
            raise RecordRefused(
                f"game {index}: {_shown(entry.get('game'))} games cannot be imported"
            )
        try:
            if entry.get("status", "finished") not in STATUSES:
                raise ValueError(f"status: finished or in_progress, not {_shown(entry['status'])}")
            checked = {**entry, **history_times(entry)}
            _check_seats(entry.get("players"))
        except ValueError as bad:
            raise RecordRefused(f"game {index}: {bad}") from None
        lines = [dumps(r) if isinstance(r, dict) else json.dumps(r) for r in entry["record"]]
        try:
            check_record(catalog, lines)
        except RecordRefused as refused:
            raise RecordRefused(f"game {index}: {refused}", refused.line) from None
        games.append((checked, lines))
    return games


STATUSES = ("finished", "in_progress")  # the journal's statuses of a game
MAX_MINUTES = 7 * 24 * 60  # a game paused for a week still counts; longer is no game


def history_names(data: Mapping[str, Any]) -> list[str]:
    """The remembered players of a history file: a list of names by the players' rule.

    Raises:
        RecordRefused: "players" is not a list, or holds a name the rule refuses.
    """
    names = data.get("players", [])
    if not isinstance(names, list):
        raise RecordRefused(f'"players" is a list of names, not {_shown(names)}')
    try:
        return [check_name(name) for name in names]
    except ValueError as bad:
        raise RecordRefused(f"players: {bad}") from None


def history_times(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A game's "started", "finished" and "minutes", checked: times as the journal writes
    them (years 1970 to 2100), minutes a finite number from 0 to a week, or null. Returns
    the checked values (times in the journal's form, "2026-05-01T20:15:00Z").

    Raises:
        ValueError: a time or a number that is not one.
    """
    checked: dict[str, Any] = {}
    for key in ("started", "finished"):
        value = entry.get(key)
        if value is not None or (key == "finished" and entry.get("status") == "finished"):
            checked[key] = _stamp(key, value)
    minutes = entry.get("minutes")
    if minutes is not None:
        number = isinstance(minutes, int | float) and not isinstance(minutes, bool)
        if not (number and math.isfinite(minutes) and 0 <= minutes <= MAX_MINUTES):
            raise ValueError(f"minutes: a number from 0 to {MAX_MINUTES}, not {_shown(minutes)}")
    return checked


def _stamp(key: str, value: object) -> str:
    """A time of the history file in the journal's form (UTC, to the second)."""
    when = parse_stamp(value)
    if when is None and isinstance(value, str) and _looks_like_a_stamp(value):
        years = f"years {FIRST_YEAR} to {LAST_YEAR}"
        raise ValueError(f"{key}: {value} is not a time of a game ({years})")
    if when is None:
        raise ValueError(f'{key}: a time like "2026-05-01T20:15:00Z", not {_shown(value)}')
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _looks_like_a_stamp(value: str) -> bool:
    """A well-formed time whose year is out of range (parsed with a year in range)."""
    return len(value) > 4 and parse_stamp(f"2000{value[4:]}") is not None


def _check_seats(players: object) -> None:
    """A game's "players" of the history file: absent, or p1 and p2 named by the rule ("" for
    an unnamed side)."""
    if players is None:
        return
    if not isinstance(players, dict) or not set(players) <= {"p1", "p2"}:
        raise ValueError(f'players: {{"p1": name, "p2": name}}, not {_shown(players)}')
    for side, name in players.items():
        if name != "":
            try:
                check_name(name)
            except ValueError as bad:
                raise ValueError(f"players.{side}: {bad}") from None


def _shown(value: object) -> str:
    """A value of a refused file in a one-line message: its JSON, cut at 40 characters."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else f"{text[:37]}..."


CSV_HEAD = ("game_id", "game", "finished", "minutes", "seat", "player", "first", "result",
            "victory")  # fmt: skip


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""


def csv_cell(value: object) -> object:
    """A value as a CSV cell a spreadsheet shows as text: text that a spreadsheet would run as
    a formula ("=HYPERLINK(...)", "+1", "@SUM") gets a leading apostrophe; numbers are kept."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value


def games_csv(facts: Sequence[GameFacts], kind: str = DUEL) -> str:
    """One CSV row per player per game, with every category, the total, wonders and tokens
    (a score pad's rows: `family_csv`). With a Pantheon game among them, its `divinities` row
    is a column after the base game's (empty for a base game), so that every row adds up to
    its total."""
    if kind != DUEL:
        return family_csv(facts, kind)
    pantheon = any(game.mode == "pantheon" for game in facts)
    rows = list(PANTHEON_ROWS if pantheon else ROWS)  # with or without games to fill them
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out, lineterminator="\n"))
    writer.writerow([*CSV_HEAD, *rows, "total", "wonders_built", "progress_tokens"])
    for game in facts:
        for seat in game.seats:
            result = ("shared" if game.shared else "win") if seat.won else "loss"
            writer.writerow(
                [
                    game.id, game.game, game.finished,
                    "" if game.minutes is None else game.minutes,
                    seat.seat, seat.name, "yes" if seat.seat == game.first else "no", result,
                    "shared" if game.shared else game.victory or "",
                    *(_cell(seat.scores, row) for row in rows), seat.total,
                    " ".join(seat.wonders), " ".join(seat.tokens),
                ]
            )  # fmt: skip
    return out.getvalue()


def _cell(scores: Mapping[str, Any], row: str) -> object:
    """A Duel category's points, or "" for a row the game has not (a base game's divinities)."""
    return scores.get(row, "" if row not in ROWS else 0)


FAMILY_HEAD = ("pad_id", "game", "variant", "expansions", "saved", "seat", "player", "rank",
               "result")  # fmt: skip
BOARD_HEAD = ("wonder", "side", "stages")  # the base game's boards (7 Wonders Dice has none)
FAMILY_ROWS = {"7wonders": (*CATEGORIES, EDIFICE), "7wonders-dice": dice.BUILDINGS}


def family_csv(facts: Sequence[GameFacts], kind: str) -> str:
    """One CSV row per player per saved score pad: the variant, the expansions, the player's
    rank and result, their board (wonder, side, stages built; not in 7 Wonders Dice, whose
    `wonder` is a category), every category and the total. A category the pad does not have
    (Edifice without the expansion) is left empty."""
    sheet = dice.GAME if kind == dice.GAME else "7wonders"  # the two-player variant's too
    rows = list(FAMILY_ROWS[sheet])
    boards = sheet != dice.GAME
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out, lineterminator="\n"))
    writer.writerow([*FAMILY_HEAD, *(BOARD_HEAD if boards else ()), *rows, "total"])
    for game in facts:
        for seat in game.seats:
            result = ("shared" if game.shared else "win") if seat.won else "loss"
            board = (" ".join(seat.wonders), seat.side, "" if seat.stages is None else seat.stages)
            writer.writerow(
                [
                    game.id - PAD_IDS, game.game, game.variant, " ".join(game.expansions),
                    game.finished, seat.seat, seat.name, seat.rank, result,
                    *(board if boards else ()),
                    *(seat.scores.get(row, "") for row in rows), seat.total,
                ]
            )  # fmt: skip
    return out.getvalue()


class _SafeWriter:
    """A csv writer whose every cell goes through `csv_cell`."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: Sequence[object]) -> None:
        """Write one row, each cell made safe."""
        self._writer.writerow([csv_cell(cell) for cell in row])
