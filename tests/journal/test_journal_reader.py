"""The one record reader: its guards (size, nesting, numbers, names, undo) and its lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.records.journal import Journal, JournalError
from companion.records.reader import (
    MAX_RECORD_BYTES,
    RecordRefused,
    check_name,
    decode_record,
    dumps,
    effective,
    fingerprint,
    read_record_file,
    read_records,
    record_lines,
)

SETUP = {"type": "setup", "first_player": "p1"}


@pytest.mark.parametrize(
    "line",
    [
        "[" * 200_000,
        '{"type": "build", "note": ' + "[" * 500 + "]" * 500 + "}",
    ],
)
def test_a_line_nested_too_deeply_is_refused_naming_the_line(line: str) -> None:
    with pytest.raises(RecordRefused, match=r"^line 3: nested too deeply$") as refused:
        read_records([json.dumps(SETUP), "", line])
    assert refused.value.line == 3


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("1" * 5_000, "a number of 5000 characters"),  # int() refuses over 4300 digits
        ("1" * 21, "a number of 21 characters"),
        ("1e999", r"a number out of range \(1e999\)"),
        ("NaN", "NaN is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
    ],
)
def test_a_number_no_record_needs_is_refused_naming_the_line(number: str, message: str) -> None:
    line = '{"type": "deal", "age": ' + number + "}"
    with pytest.raises(RecordRefused, match=f"^line 2: {message}"):
        read_records([json.dumps(SETUP), line])


def test_an_age_and_a_negative_number_are_read() -> None:
    assert read_records(['{"type": "deal", "age": 3, "x": -2.5}']) == [
        (1, {"type": "deal", "age": 3, "x": -2.5})
    ]


@pytest.mark.parametrize("lines", [[], [""], ["", "  ", "\t"]])
def test_an_empty_record_is_refused(lines: list[str]) -> None:
    with pytest.raises(RecordRefused, match=r"^the record holds no event$") as refused:
        read_records(lines)
    assert refused.value.line is None


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type":"setup"}', "{oops"], r"^line 2: not valid JSON"),
        (['{"type":"setup"}', "", "[1, 2]"], r"^line 3: expected a JSON object"),
        (['{"card":"baths"}'], r'^line 1: missing "type"'),
        (['{"type":"setup"}', '{"type":"undo"}'], r"^line 2: a game record holds no undo"),
    ],
)
def test_malformed_lines_are_refused_naming_the_line(lines: list[str], message: str) -> None:
    with pytest.raises(RecordRefused, match=message):
        read_records(lines)


def test_undo_lines_are_read_where_allowed_and_never_one_too_many() -> None:
    build = {"type": "build", "player": "p1", "card": "baths"}
    undo = {"type": "undo"}
    lines = [json.dumps(r) for r in (SETUP, build, undo)]
    numbered = read_records(lines, undo=True)
    assert effective(numbered) == [(1, SETUP)]
    assert effective(read_records([*lines, json.dumps(undo)], undo=True)) == []  # setup undone
    with pytest.raises(RecordRefused, match=r"^line 5: Nothing to undo$"):
        read_records([*lines, json.dumps(undo), json.dumps(undo)], undo=True)


LONG_NAME = "A" * 25


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (LONG_NAME, "a name is 1 to 24 printable characters"),
        ("Ann\u2028Lee", "a name is 1 to 24 printable characters"),  # a line separator
        ("Ann\nLee", "a name is 1 to 24 printable characters"),
        (7, "a name is text"),
    ],
)
def test_setup_names_follow_the_rule_of_the_pages(name: object, message: str) -> None:
    setup = {**SETUP, "players": {"p1": "Ann", "p2": name}}
    with pytest.raises(RecordRefused, match=f"^line 1: players.p2: {message}$"):
        read_records([json.dumps(setup)])
    with pytest.raises(ValueError, match=message):
        check_name(name)


def test_setup_names_are_kept_stripped_and_an_empty_name_stays_unnamed() -> None:
    setup = {**SETUP, "players": {"p1": "  Ann ", "p2": ""}}
    [(_, read)] = read_records([json.dumps(setup)])
    assert read["players"] == {"p1": "Ann", "p2": ""}


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    line = json.dumps({**SETUP, "note": "x" * 1000}) + "\n"
    path.write_text(line * (MAX_RECORD_BYTES // len(line) + 1))  # just over 256 KB
    with pytest.raises(RecordRefused, match=r"^the record is larger than 256 KB$"):
        read_record_file(path)
    path.write_text(line * (MAX_RECORD_BYTES // len(line)))  # just under
    assert len(read_records(read_record_file(path))) == MAX_RECORD_BYTES // len(line)


def test_a_record_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(RecordRefused, match="not UTF-8 text"):
        decode_record(b'{"type": "setup", "x": "\xff"}\n')
    assert decode_record(b'\xef\xbb\xbf{"type": "setup"}\n') == ['{"type": "setup"}']


def test_record_lines_end_at_newlines_only() -> None:
    text = '{"a": "x\u2028y\x85z\u2029"}\r\n\n{"b": 1}\n'
    assert record_lines(text) == ['{"a": "x\u2028y\x85z\u2029"}', "", '{"b": 1}']
    assert record_lines("") == []


def test_dumps_keeps_a_record_on_one_line_for_any_reader() -> None:
    record = {"type": "setup", "players": {"p1": "Ann\u2028Lee", "p2": "\x85\u2029"}}
    line = dumps(record)
    assert line.splitlines() == [line]
    assert json.loads(line) == record


def test_the_fingerprint_counts_the_events_not_the_names_nor_the_key_order() -> None:
    build = {"type": "build", "player": "p1", "card": "baths"}
    named = {**SETUP, "players": {"p1": "Ann", "p2": "Ben"}}
    reordered = {"card": "baths", "type": "build", "player": "p1"}
    assert fingerprint([SETUP, build]) == fingerprint([named, reordered])
    assert fingerprint([SETUP, build]) != fingerprint([SETUP])
    assert fingerprint([SETUP, build]) != fingerprint([SETUP, {**build, "card": "tavern"}])


def test_a_readonly_open_of_an_empty_file_says_so_and_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "j.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(JournalError, match="an empty file, no journal there yet"):
        Journal.open(empty, readonly=True)
    assert [p.name for p in tmp_path.iterdir()] == ["j.sqlite"] and empty.read_bytes() == b""
