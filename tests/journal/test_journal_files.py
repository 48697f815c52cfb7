"""Only a broken regular file is set aside; busy, foreign or device files are refused and
kept; writers racing on a new journal all succeed; a killed writer loses no commit."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.records.journal import Journal, JournalError, _to_wal

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
    broken = r"SQLite finds it broken \(file is not a database\); moved aside to"
    with pytest.raises(JournalError, match=broken) as refused:
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
        (0x44554545, 99, r"schema version 99 is newer than this program's \(1\)"),
        (0x44554545, 1, "table 'games' is missing"),
    ],
)
@pytest.mark.parametrize("readonly", [False, True])
def test_healthy_sqlite_that_is_not_our_journal_is_refused_and_left_in_place(
    tmp_path: Path, application_id: int, version: int, message: str, readonly: bool
) -> None:
    path = tmp_path / "journal.sqlite"
    write_foreign_sqlite(path, application_id, version)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=message) as refused:
        Journal.open(path, readonly=readonly)
    assert refused.value.moved_to is None and aside(path) == []
    assert path.read_bytes() == before  # not even the header was touched
    db = sqlite3.connect(path)
    assert db.execute("SELECT text FROM notes").fetchall() == [("keep me",)]
    db.close()


def test_a_device_file_or_a_directory_is_refused_and_never_moved(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"  # stands for /dev/null: a file that is not a regular one
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    for path in (fifo, folder):
        for readonly in (False, True):
            with pytest.raises(JournalError, match="not a regular file") as refused:
                Journal.open(path, readonly=readonly)
            assert refused.value.moved_to is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "folder"]
    assert stat.S_ISFIFO(fifo.stat().st_mode) and folder.is_dir()


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
    with pytest.raises(JournalError, match=r"cannot be read \(file is not a database\)"):
        Journal.open(path, readonly=True)
    assert path.exists() and aside(path) == []


def test_an_empty_file_is_a_fresh_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.touch()
    with Journal.open(path) as journal:
        assert journal.games() == []


def python(code: str, *args: str, **popen: Any) -> subprocess.Popen[str]:
    """A Python process running `code` with this checkout on its path."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args], text=True, env=env, **popen
    )


RACER = """
    import sys, time
    from pathlib import Path
    from companion.records.journal import Journal
    path, go, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    while not go.exists():  # every racer waits at the line, then all start at once
        time.sleep(0.001)
    journal = Journal.open(path, busy_seconds=120)  # a loaded machine: wait, never fail
    game = journal.new_game()
    for n in range(1, 6):
        seq = journal.append(game, {"type": "build", "player": "p1", "card": f"{name}-{n}"})
        print(game, seq, flush=True)  # said only after the commit returned
    journal.close()
"""


def test_writers_racing_on_a_new_journal_all_succeed_and_nothing_is_moved(
    tmp_path: Path,
) -> None:
    path = tmp_path / "new.sqlite"
    go = tmp_path / "go"
    racers = [
        python(RACER, str(path), str(go), f"w{i}", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for i in range(6)
    ]
    go.touch()
    confirmed: dict[int, list[int]] = {}
    for racer in racers:
        out, err = racer.communicate(timeout=60)
        assert racer.returncode == 0, err  # no "table games already exists", no "locked"
        for line in out.splitlines():
            game, seq = map(int, line.split())
            confirmed.setdefault(game, []).append(seq)
    assert aside(path) == []
    assert sorted(confirmed) == [1, 2, 3, 4, 5, 6]  # one game per racer, in one journal
    with Journal.open(path) as journal:
        for game, seqs in confirmed.items():
            assert seqs == [1, 2, 3, 4, 5]
            cards = [r["card"] for r in journal.effective_events(game)]
            assert len(cards) == 5 and len({c.split("-")[0] for c in cards}) == 1


def test_the_switch_to_wal_waits_for_another_creators_write_lock(tmp_path: Path) -> None:
    # A journal being created by two programs: one holds the write lock while the other
    # switches to WAL. SQLite says "locked" at once there, without waiting (the racing test
    # above failed about once in 50 runs on a loaded machine); the switch waits instead.
    path = tmp_path / "new.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    ours = sqlite3.connect(path, isolation_level=None, timeout=5)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        ours.execute("PRAGMA journal_mode = WAL")  # what the open did: no wait at all
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _to_wal(ours, 0.05)  # still held when the wait is over: the error, as before
    letting_go = threading.Timer(0.2, lambda: other.execute("COMMIT"))
    letting_go.start()
    _to_wal(ours, 5.0)
    letting_go.join()
    assert ours.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    ours.close()
    other.close()


HOLDER = """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")  # what another program (or a stuck writer) may hold
    print("held", flush=True)
    sys.stdin.read()  # until the test closes stdin
    db.execute("COMMIT")
"""


@pytest.mark.parametrize("existing", [True, False], ids=["journal", "file-being-created"])
def test_a_held_lock_is_busy_never_corrupt_and_nothing_is_lost(
    tmp_path: Path, existing: bool
) -> None:
    path = tmp_path / "journal.sqlite"
    if existing:
        journal_with_a_game(path)
    holder = python(HOLDER, str(path), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline() == "held\n"
    try:
        with pytest.raises(JournalError, match="busy: another process holds it") as refused:
            Journal.open(path, busy_seconds=0.2)
        assert refused.value.moved_to is None
        assert aside(path) == [] and path.exists()
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()
    with Journal.open(path) as journal:  # the lock gone, the same file opens
        assert aside(path) == []
        if existing:
            assert journal.effective_events(1) == [SETUP]
        else:
            assert journal.games() == []


def test_an_open_waits_for_a_lock_released_within_the_busy_time(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal_with_a_game(path)
    holder = python(
        HOLDER.replace("sys.stdin.read()", "__import__('time').sleep(0.5)"),
        str(path),
        stdout=subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    with Journal.open(path, busy_seconds=30) as journal:  # waits, then opens
        assert journal.effective_events(1) == [SETUP]
    holder.wait(timeout=30)
    holder.stdout.close()
    assert aside(path) == []


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
