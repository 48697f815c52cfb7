"""The one reader of game records (JSON Lines), with every guard in one place.

Everything that takes a record in goes through here: `duel-companion replay` and `import`, the
phone's import (page and API), and the journal. The guards, each refusing with one line that
names the line of the record:

- size: at most `MAX_RECORD_BYTES` (256 KB; a whole game is about 10 KB), read no further;
- text: UTF-8 (a byte-order mark is allowed), lines end at "\\n" only (JSON strings may hold
  the other separators `str.splitlines` knows);
- JSON: one object with a "type" per line, nested at most `MAX_NESTING` deep (json's scanner
  recurses: 200,000 "[" would overflow it), numbers of at most `MAX_NUMBER_CHARS` characters
  (Python refuses to convert integers of over 4,300 digits, and nothing in a record needs
  more than a few), no NaN or Infinity;
- names: the players' names in a setup line are empty (not named) or 1 to `NAME_LENGTH`
  printable characters, the rule of the pages (`check_name`);
- undo rows (`{"type": "undo"}`) only where allowed, each cancelling the latest effective
  event before it, never one too many (`undo_targets`, the one rule of undo);
- at least one event.

`dumps` writes a record as one line; `fingerprint` names a game's effective events so the same
game is recognised when it is imported again.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.engine.names import check_name
from companion.files import FileRefused, read_capped

MAX_RECORD_BYTES = 256 * 1024  # the phone's body limit too (web.MAX_BODY)
MAX_NESTING = 16  # an event nests 3 deep (setup.wonders.p1); deeper input is refused early
MAX_NUMBER_CHARS = 20  # the largest number in a record is an age (1 to 3)
UNDO_TYPE = "undo"

Record = dict[str, Any]
Numbered = tuple[int, Record]


class RecordRefused(ValueError):
    """A game record that cannot be read, replayed or imported; one line naming the line.

    `line` is the line of the record (or the journal row) at fault, None for the whole
    record; `reason` is the message without the "line N: " prefix.
    """

    def __init__(self, reason: str, line: int | None = None, *, label: str = "line") -> None:
        super().__init__(f"{label} {line}: {reason}" if line is not None else reason)
        self.line = line
        self.reason = reason


class _Refused(ValueError):
    """A guard inside the JSON parser; becomes a RecordRefused naming the line."""


# --- text ---------------------------------------------------------------------------------------

# Characters that JSON leaves raw inside strings but `str.splitlines` breaks a line on.
_LINE_BREAKS_IN_STRINGS = str.maketrans(
    {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def dumps(record: Mapping[str, Any]) -> str:
    """A record as one compact JSON line (the journal and the game record share it).

    Line separators inside strings (U+0085, U+2028, U+2029) are escaped, so that the line
    stays one line for any reader, `str.splitlines` included.
    """
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_LINE_BREAKS_IN_STRINGS)


def record_lines(text: str) -> list[str]:
    """The physical lines of a game record: JSON Lines ends a line at "\\n" (or "\\r\\n") only,
    never at the other separators `str.splitlines` knows, which JSON strings may hold raw."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def decode_record(data: bytes) -> list[str]:
    """The lines of a record given as bytes (an upload, a file).

    Raises:
        RecordRefused: over `MAX_RECORD_BYTES`, or not UTF-8 text.
    """
    if len(data) > MAX_RECORD_BYTES:
        raise RecordRefused(f"the record is larger than {MAX_RECORD_BYTES // 1024} KB")
    try:
        return record_lines(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RecordRefused("not UTF-8 text (a game record is JSON Lines)") from None


def read_record_file(path: Path) -> list[str]:
    """The lines of the record file at `path`, read no further than the size limit.

    Raises:
        RecordRefused: unreadable, over `MAX_RECORD_BYTES`, or not UTF-8 text.
    """
    try:
        data = read_capped(path, MAX_RECORD_BYTES)
    except FileRefused as refused:
        if refused.oversize:
            raise RecordRefused(
                f"the record is larger than {MAX_RECORD_BYTES // 1024} KB"
            ) from None
        raise RecordRefused(f"{path}: {refused}") from None
    return decode_record(data)


# --- lines --------------------------------------------------------------------------------------


def _number(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(text)} characters (at most {MAX_NUMBER_CHARS})")


def _int(text: str) -> int:
    _number(text)
    return int(text)


def _float(text: str) -> float:
    _number(text)
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"a number out of range ({text})")
    return value


def _constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


def parse_line(line: str, number: int) -> Any:
    """One line as a JSON value, with the nesting and number guards.

    Raises:
        RecordRefused: not JSON, nested too deeply, or a number too long.
    """
    try:
        value = json.loads(line, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:  # json's C scanner recurses: a line of 200,000 '['
        raise RecordRefused("nested too deeply", number) from None
    except _Refused as refused:
        raise RecordRefused(str(refused), number) from None
    except ValueError as bad:
        reason = bad.msg if isinstance(bad, json.JSONDecodeError) else str(bad)
        raise RecordRefused(f"not valid JSON ({reason})", number) from None
    if _nesting(value) > MAX_NESTING:  # would not even serialise again deeper in a page
        raise RecordRefused("nested too deeply", number)
    return value


def _nesting(value: Any) -> int:
    """How deep lists and objects nest in a parsed JSON value (a scalar is 0), without
    recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _checked_players(record: Record, number: int | None) -> Record:
    """A setup line with its names kept by the rule of the pages (an empty name: unnamed)."""
    players = record.get("players")
    if not isinstance(players, dict):
        return record  # the rules say what is wrong with it
    names = {}
    for key, value in players.items():
        try:
            names[key] = "" if value == "" else check_name(value)
        except ValueError as bad:
            raise RecordRefused(f"players.{key}: {bad}", number) from None
    return {**record, "players": names}


def check_event(value: Any, number: int | None = None, *, undo: bool = False) -> Record:
    """One parsed line (or an event sent alone, as a phone's correction does) as a record:
    a JSON object with a "type", nested at most `MAX_NESTING` deep, names by the rule.

    Raises:
        RecordRefused: not such an object, an undo where none is allowed, or a bad name.
    """
    if not isinstance(value, dict):
        raise RecordRefused("expected a JSON object", number)
    if _nesting(value) > MAX_NESTING:
        raise RecordRefused("nested too deeply", number)
    if not isinstance(value.get("type"), str):
        raise RecordRefused('missing "type"', number)
    if value["type"] == UNDO_TYPE and not undo:
        raise RecordRefused("a game record holds no undo", number)
    return _checked_players(value, number) if value["type"] == "setup" else value


def read_records(lines: Iterable[str], *, undo: bool = False) -> list[Numbered]:
    """JSON Lines -> (line number, record) pairs, blank lines skipped (still counted).

    `undo`: whether `{"type": "undo"}` lines are allowed (a replay reads them; an import, a
    record of effective events, holds none). Undo lines are checked against `undo_targets`.

    Raises:
        RecordRefused: the first line that is not a JSON object with a "type" under the
            guards (module docstring), an undo where none is allowed or with nothing to
            undo, a name against the rule, or no event at all.
    """
    records: list[Numbered] = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            records.append((number, check_event(parse_line(line, number), number, undo=undo)))
    if not records:
        raise RecordRefused("the record holds no event")
    undo_targets(records)
    return records


# --- undo ---------------------------------------------------------------------------------------


def is_undo(record: Mapping[str, Any]) -> bool:
    """Whether a record (a line, a journal row) is an undo."""
    return record.get("type") == UNDO_TYPE


def undo_targets(numbered: Sequence[Numbered], *, label: str = "line") -> dict[int, int]:
    """The one rule of undo: each undo cancels the latest effective event before it.

    Returns, for the index of each undo, the index of the event it cancels.

    Raises:
        RecordRefused: an undo with no effective event before it ("Nothing to undo").
    """
    open_events: list[int] = []
    targets: dict[int, int] = {}
    for index, (number, record) in enumerate(numbered):
        if is_undo(record):
            if not open_events:
                raise RecordRefused("Nothing to undo", number, label=label)
            targets[index] = open_events.pop()
        else:
            open_events.append(index)
    return targets


def effective(numbered: Sequence[Numbered], *, label: str = "line") -> list[Numbered]:
    """The records that count: neither undos nor cancelled by one, in order.

    Raises:
        RecordRefused: an undo with nothing to undo.
    """
    targets = undo_targets(numbered, label=label)
    gone = targets.keys() | set(targets.values())
    return [pair for index, pair in enumerate(numbered) if index not in gone]


# --- recognising a game -------------------------------------------------------------------------


def fingerprint(records: Iterable[Mapping[str, Any]]) -> str:
    """A name for a game's effective events, the same whoever imports or plays them.

    The players' names are left out (a record exported after the names were given on a phone
    is still the same game), and keys are sorted, so only the events count.
    """
    digest = hashlib.sha256()
    for record in records:
        names = "players" if record.get("type") == "setup" else None
        kept = {k: v for k, v in record.items() if k != names}
        digest.update(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode())
        digest.update(b"\n")
    return digest.hexdigest()
