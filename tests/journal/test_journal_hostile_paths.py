"""The one-writer lock goes by the journal file, not by its name; hostile paths are refused
before anything is created."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.records import journal as journal_module
from companion.records.journal import Journal, JournalError
from companion.records.lock import JournalBusy, WriterLock, lock_path


def test_a_second_writer_through_a_symlink_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    Journal.create(journal).close()
    other = tmp_path / "other-name.sqlite"
    other.symlink_to(journal)
    busy = r"in use by pid \d+ \(duel-companion run\)"
    with (
        WriterLock(journal, command="duel-companion run", kind="run"),
        pytest.raises(JournalBusy, match=busy),
    ):
        WriterLock(other).acquire()
    assert lock_path(other) == lock_path(journal)


def test_a_journal_with_a_hard_link_takes_no_writer(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    Journal.create(journal).close()
    os.link(journal, tmp_path / "copy.sqlite")
    for name in (journal, tmp_path / "copy.sqlite"):
        with pytest.raises(JournalError, match="has 2 names \\(hard links\\); remove the others"):
            WriterLock(name).acquire()
    assert not Path(f"{journal}.lock").exists() and not (tmp_path / "copy.sqlite.lock").exists()


def test_a_hard_link_made_while_a_writer_holds_the_journal_gets_no_second_writer(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    Journal.create(journal).close()
    with WriterLock(journal):
        os.link(journal, tmp_path / "copy.sqlite")
        with pytest.raises(JournalError, match="has 2 names"):
            WriterLock(tmp_path / "copy.sqlite").acquire()


def test_a_planted_symlink_for_the_lock_file_is_refused_and_its_target_kept(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    Path(f"{journal}.lock").symlink_to(precious)
    with pytest.raises(JournalError, match=r"journal\.sqlite\.lock: a symbolic link where"):
        WriterLock(journal).acquire()
    assert precious.read_text() == "keep me\n"


def test_a_planted_hard_link_for_the_lock_file_is_refused_and_its_target_kept(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    os.link(precious, f"{journal}.lock")
    with pytest.raises(JournalError, match="not a lock file of its own"):
        WriterLock(journal).acquire()
    assert precious.read_text() == "keep me\n"


@pytest.mark.parametrize("kind", ["device", "folder", "fifo"])
def test_a_journal_that_is_no_regular_file_is_refused_before_anything_is_created(
    tmp_path: Path, kind: str
) -> None:
    if kind == "device":
        journal = Path("/dev/null")
    elif kind == "folder":
        journal = tmp_path / "folder"
        journal.mkdir()
    else:
        journal = tmp_path / "pipe"
        os.mkfifo(journal)
    with pytest.raises(JournalError, match="not a regular file; a journal is a file of its own"):
        WriterLock(journal).acquire()
    assert not Path(f"{journal}.lock").exists()


def test_a_read_only_copy_with_a_pending_wal_is_refused_with_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "box" / "journal.sqlite"
    writer = Journal.create(source)
    keep_open = sqlite3.connect(source)  # holds the -wal (no checkpoint on close)
    keep_open.execute("PRAGMA wal_autocheckpoint = 0")
    keep_open.execute("CREATE TABLE IF NOT EXISTS scratch (x)")
    keep_open.commit()
    copy = tmp_path / "stick"
    copy.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{source}{suffix}", f"{copy / 'journal.sqlite'}{suffix}")
    keep_open.close()
    writer.close()
    assert Path(f"{copy / 'journal.sqlite'}-wal").stat().st_size > 0
    real_access = os.access
    monkeypatch.setattr(  # the stick is read-only (as root, chmod would not stop SQLite)
        journal_module.os, "access", lambda p, m: False if Path(p) == copy else real_access(p, m)
    )
    with pytest.raises(JournalError) as refused:
        Journal.open(copy / "journal.sqlite", readonly=True)
    assert str(refused.value) == (
        f"{copy / 'journal.sqlite'}: a read-only copy with changes still in its -wal file, "
        "which SQLite cannot read without writing beside it; copy the journal with its -wal "
        "file to a folder that can be written, or open it once where it was made"
    )


@pytest.mark.parametrize("command", ["import", "replay"])
def test_a_command_refuses_a_device_or_a_pipe_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    from companion.cli import main

    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)  # nobody writes: a plain read would wait for ever
    journal = tmp_path / "journal.sqlite"
    for source in (Path("/dev/zero"), pipe):
        extra = ["--journal", str(journal)] if command == "import" else []
        assert main([command, str(source), *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "not a regular file (a pipe, a device or a folder)" in err
    assert not journal.exists()
