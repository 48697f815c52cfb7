"""One writer process per journal: the lock names its holder and dies with it."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from companion.cli import main
from companion.records import lock as lock_module
from companion.records.journal import Journal
from companion.records.lock import JournalBusy, WriterLock, holder_of, lock_path

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "records"

HOLD = """
    import sys
    from companion.records.lock import WriterLock
    lock = WriterLock(sys.argv[1], command="duel-companion run --journal j", kind="run")
    lock.acquire()
    print("held", flush=True)
    sys.stdin.read()  # until killed, or stdin closed
"""


def holder_process(journal: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(HOLD), str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    return process


def test_a_second_writer_in_this_process_is_refused_naming_the_first(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    with WriterLock(journal, command="duel-companion run", kind="run"):
        with pytest.raises(JournalBusy) as refused:
            WriterLock(journal).acquire()
        assert str(refused.value) == (
            f"{journal} is in use by pid {os.getpid()} (duel-companion run); "
            "one process at a time writes a journal"
        )
        holder = holder_of(journal)
        assert holder is not None and (holder.pid, holder.kind) == (os.getpid(), "run")
    assert holder_of(journal) is None
    with WriterLock(journal):  # released: the next writer gets in
        pass


def test_a_killed_holder_never_blocks_the_next_writer(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    process = holder_process(journal)
    with pytest.raises(JournalBusy, match=f"pid {process.pid} \\(duel-companion run"):
        WriterLock(journal).acquire()
    process.send_signal(signal.SIGKILL)  # no clean-up: the lock file still names it
    process.wait()
    assert json.loads(lock_path(journal).read_text())["pid"] == process.pid  # stale
    with WriterLock(journal):  # the kernel released the flock with the process
        assert json.loads(lock_path(journal).read_text())["pid"] == os.getpid()
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()
    process.stdout.close()


def test_import_and_run_are_refused_while_a_run_holds_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.sqlite"
    process = holder_process(journal)
    try:
        record = RECORDS / "simulated_civilian_win.jsonl"
        assert main(["import", str(record), "--journal", str(journal)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert f"is in use by pid {process.pid} (duel-companion run --journal j)" in err
        script = tmp_path / "script.txt"
        script.write_text("")  # were the run to start, it would end at once
        status = main(["run", "--journal", str(journal), "--no-web", "--script", str(script)])
        assert status == 2
        err = capsys.readouterr().err
        assert err.startswith("run: ") and err.count("\n") == 1
        assert f"pid {process.pid}" in err
        assert not journal.exists()  # nothing was written
    finally:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.close()
        process.wait(timeout=30)
        process.stdout.close()
    assert main(["import", str(record), "--journal", str(journal)]) == 0  # free again
    with Journal.open(journal, readonly=True) as opened:
        assert len(opened.games()) == 1


def test_an_import_waits_for_another_import_but_not_for_a_run(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    with WriterLock(journal, command="duel-companion import a.jsonl", kind="import"):
        waiting = WriterLock(journal, wait_for=("import",), wait_seconds=0.3)
        with pytest.raises(JournalBusy, match=r"duel-companion import a\.jsonl"):
            waiting.acquire()  # waited 0.3 s for the import, which never ended here
    with WriterLock(journal, command="duel-companion run", kind="run"):
        impatient = WriterLock(journal, wait_for=("import",), wait_seconds=3600)
        with pytest.raises(JournalBusy, match="duel-companion run"):
            impatient.acquire()  # refused at once: a run does not end by itself


def imports_at_once(journal: Path, records: list[Path]) -> list[subprocess.CompletedProcess[str]]:
    """`duel-companion import` of each record, all started together."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "companion.cli", "import"]
    processes = [
        subprocess.Popen(
            [*command, str(record), "--journal", str(journal)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for record in records
    ]
    done = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return done


def test_imports_started_at_once_into_a_new_journal_all_succeed(tmp_path: Path) -> None:
    journal = tmp_path / "new.sqlite"
    records = sorted(RECORDS.glob("simulated_*.jsonl"))
    done = imports_at_once(journal, records)
    assert len(records) >= 3
    assert [(d.returncode, d.stderr) for d in done] == [(0, "")] * len(records)
    added = sorted(int(d.stdout.split()[2]) for d in done)  # "Added game N to new.sqlite."
    assert added == list(range(1, len(records) + 1))
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name) == []
    with Journal.open(journal, readonly=True) as opened:
        assert len(opened.games()) == len(records)


def test_the_same_record_imported_three_times_at_once_is_one_game(tmp_path: Path) -> None:
    journal = tmp_path / "new.sqlite"
    record = RECORDS / "simulated_science_win.jsonl"
    done = sorted(imports_at_once(journal, [record] * 3), key=lambda d: d.stdout)
    assert [(d.returncode, d.stdout, d.stderr) for d in done] == [
        (0, "Added game 1 to new.sqlite.\n", ""),
        (0, "Nothing added: already in the history as game 1.\n", ""),
        (0, "Nothing added: already in the history as game 1.\n", ""),
    ]
    with Journal.open(journal, readonly=True) as opened:
        assert [g.id for g in opened.games()] == [1]


def _nameless_holder(journal: Path) -> int:
    """The writer lock of `journal` taken by a writer that has not written its name yet
    (the instant between a writer's lock and its name, or its emptying and letting go)."""
    journal.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(f"{journal}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def test_a_writer_that_has_not_written_its_name_yet_is_waited_for(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    fd = _nameless_holder(journal)
    threading.Timer(0.3, os.close, (fd,)).start()  # it lets go
    with WriterLock(journal, wait_for=("import",)) as lock:  # refused at once before
        assert holder_of(journal) is not None and lock.path.exists()


def test_a_holder_that_never_names_itself_is_refused_after_a_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lock_module, "NAMELESS_SECONDS", 0.2)
    journal = tmp_path / "journal.sqlite"
    fd = _nameless_holder(journal)
    try:
        with pytest.raises(JournalBusy, match="in use by another process"):
            WriterLock(journal).acquire()
    finally:
        os.close(fd)
    with WriterLock(journal):  # free again
        pass
