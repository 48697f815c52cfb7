"""A corrupt or foreign file is refused and set aside; a killed writer loses no commit."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.records.journal import Journal, JournalError

SETUP = {"type": "setup", "first_player": "p1"}


def aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.corrupt-*"))


def write_foreign_sqlite(path: Path, application_id: int = 0, version: int = 0) -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id = {application_id}")
    db.execute(f"PRAGMA user_version = {version}")
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('keep me')")
    db.commit()
    db.close()


def journal_with_a_game(path: Path) -> None:
    with Journal.create(path) as journal:
        journal.append(journal.new_game(), SETUP)


@pytest.mark.parametrize(
    "content", [b"hello, not a database\n" * 40, b"SQLite format 2\x00" + b"\x00" * 200]
)
def test_a_file_that_is_not_sqlite_is_refused_and_moved_aside(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(content)
    with pytest.raises(JournalError, match="not an SQLite file; moved aside to") as refused:
        Journal.open(path)
    [moved] = aside(path)
    assert refused.value.moved_to == moved
    assert moved.read_bytes() == content  # kept as it was
    assert not path.exists()


@pytest.mark.parametrize(
    ("application_id", "version", "message"),
    [
        (0, 0, "not a Duel Companion journal"),
        (1234, 1, "not a Duel Companion journal"),
        (0x44554545, 99, "schema version 99"),
        (0x44554545, 1, "table 'games' is missing"),
    ],
)
def test_sqlite_without_our_marks_or_schema_is_refused_and_moved_aside(
    tmp_path: Path, application_id: int, version: int, message: str
) -> None:
    path = tmp_path / "journal.sqlite"
    write_foreign_sqlite(path, application_id, version)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=message):
        Journal.open(path)
    [moved] = aside(path)
    assert moved.read_bytes() == before
    db = sqlite3.connect(moved)
    assert db.execute("SELECT text FROM notes").fetchall() == [("keep me",)]
    db.close()


def test_a_damaged_journal_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_with_a_game(path)
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # scribble over the second page
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="moved aside"):
        Journal.open(path)
    [moved] = aside(path)
    assert moved.read_bytes() == bytes(data)


def test_moving_aside_never_overwrites_an_earlier_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    for text in (b"first junk", b"second junk"):
        path.write_bytes(text * 10)
        with pytest.raises(JournalError):
            Journal.open(path)
    assert sorted(p.read_bytes() for p in aside(path)) == [b"first junk" * 10, b"second junk" * 10]


def test_after_moving_aside_a_fresh_journal_opens(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"junk" * 100)
    with pytest.raises(JournalError):
        Journal.open(path)
    with Journal.open(path) as journal:
        assert journal.games() == []


def test_readonly_open_refuses_a_foreign_file_without_moving_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"junk" * 100)
    with pytest.raises(JournalError, match="not an SQLite file"):
        Journal.open(path, readonly=True)
    assert path.exists() and aside(path) == []


def test_an_empty_file_is_a_fresh_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.touch()
    with Journal.open(path) as journal:
        assert journal.games() == []


WRITER = textwrap.dedent(
    """
    import sys
    from companion.records.journal import Journal
    journal = Journal.open(sys.argv[1])
    game = journal.new_game()
    n = 0
    while True:
        n += 1
        seq = journal.append(game, {"type": "build", "player": "p1", "card": f"c{n}"})
        if n % 3 == 0:
            seq = journal.append_undo(game)
        print(seq, flush=True)  # said only after the commit returned
    """
)


@pytest.mark.parametrize("rows_before_kill", [1, 25, 140])
def test_a_writer_killed_mid_write_leaves_every_committed_row(
    tmp_path: Path, rows_before_kill: int
) -> None:
    path = tmp_path / "journal.sqlite"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    reported = [int(process.stdout.readline()) for _ in range(rows_before_kill)]
    process.send_signal(signal.SIGKILL)  # while it keeps writing
    process.wait()
    process.stdout.close()
    with Journal.open(path) as journal:
        rows = journal.rows(1)
        assert [row.seq for row in rows] == list(range(1, len(rows) + 1))  # no gap, no tear
        assert len(rows) >= reported[-1]
        for row in rows:
            if row.seq % 4 == 0:
                assert row.is_undo
            else:
                assert row.record["type"] == "build"
        cards = [r["card"] for r in journal.effective_events(1)]
        assert cards == sorted(set(cards), key=lambda c: int(c[1:]))
        assert json.loads(journal.export_record(1).splitlines()[0])["card"] == "c1"
