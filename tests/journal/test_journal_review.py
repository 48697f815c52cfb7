"""The journal's edges: nesting, line separators inside strings, read-only opens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.records.journal import (
    Journal,
    JournalError,
    RecordRefused,
    dumps,
    parse_record_lines,
    record_lines,
)


@pytest.mark.parametrize(
    "line",
    [
        "[" * 100_000,
        '{"type": "build", "note": ' + "[" * 500 + "]" * 500 + "}",
    ],
)
def test_a_line_nested_too_deeply_is_refused_naming_the_line(line: str) -> None:
    setup = json.dumps({"type": "setup"})
    with pytest.raises(RecordRefused, match=r"^line 3: nested too deeply$") as refused:
        parse_record_lines([setup, "", line])
    assert refused.value.line == 3


def test_an_event_nested_as_deep_as_a_setup_is_kept() -> None:
    setup = {"type": "setup", "wonders": {"p1": ["a", "b", "c", "d"], "p2": ["e", "f", "g", "h"]}}
    assert parse_record_lines([json.dumps(setup)]) == [(1, setup)]


def test_record_lines_end_at_newlines_only() -> None:
    text = '{"a": "x\u2028y\x85z\u2029"}\r\n\n{"b": 1}\n'
    assert record_lines(text) == ['{"a": "x\u2028y\x85z\u2029"}', "", '{"b": 1}']
    assert record_lines("") == []


def test_dumps_keeps_a_record_on_one_line_for_any_reader() -> None:
    record = {"type": "setup", "players": {"p1": "Ann\u2028Lee", "p2": "\x85\u2029"}}
    line = dumps(record)
    assert line.splitlines() == [line]
    assert json.loads(line) == record


def test_a_readonly_open_of_an_empty_file_says_so_and_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "j.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(JournalError, match="an empty file, no journal there yet"):
        Journal.open(empty, readonly=True)
    assert [p.name for p in tmp_path.iterdir()] == ["j.sqlite"] and empty.read_bytes() == b""
