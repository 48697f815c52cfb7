"""One writer process per journal: a lock file beside the journal.

SQLite lets many processes write one file, one transaction at a time, but two programs each
holding a `Game` of the same journal would refuse each other's rows ("changed elsewhere") in
the middle of a game. So every command that writes (`run`, `import`, a `web` that lets phones
change games) first takes the writer lock:

    with WriterLock(config.journal):     # JournalBusy names the running holder
        journal = Journal.open(config.journal)
        ...

The lock is an advisory `flock` on `<journal>.lock`, which also holds the holder's pid and
command (JSON) for the refusal to name. The kernel releases a `flock` when its process ends,
however it ends, so a crashed holder never blocks anyone: the next writer takes the lock and
overwrites the stale pid. The file is left in place on release (emptied): deleting it would let
two processes lock two different files of the same name.

Readers (the pages, `replay`) take no lock. Inside one process a second `WriterLock` of the same
journal is refused too, like another process.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from companion.records.journal import JournalError

POLL_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a journal's writer lock: a process id and its command line."""

    pid: int | None
    command: str
    kind: str  # the subcommand ("run", "import", "web"), for `wait_for`

    def __str__(self) -> str:
        if self.pid is None:
            return "another process"
        return f"pid {self.pid} ({self.command})"


class JournalBusy(JournalError):
    """Another process holds the journal's writer lock; the message names it."""

    def __init__(self, journal: Path, holder: Holder) -> None:
        super().__init__(f"{journal} is in use by {holder}; one process at a time writes a journal")
        self.holder = holder


def lock_path(journal: Path | str) -> Path:
    """The lock file of a journal: `<journal>.lock` beside it."""
    return Path(f"{journal}.lock")


def this_command() -> tuple[str, str]:
    """This process's command line and subcommand, as a holder shows them."""
    args = sys.argv[1:]
    kind = next((a for a in args if not a.startswith("-")), "")
    return " ".join(["duel-companion", *args])[:200], kind


class WriterLock:
    """The writer lock of one journal; a context manager (`acquire` on enter).

    `wait_for`: subcommands worth waiting for (an `import` lasts a moment), up to
    `wait_seconds`; any other holder is refused at once.
    """

    def __init__(
        self,
        journal: Path | str,
        *,
        command: str | None = None,
        kind: str | None = None,
        wait_for: Collection[str] = (),
        wait_seconds: float = 10.0,
    ) -> None:
        self.journal = Path(journal)
        self.path = lock_path(journal)
        own_command, own_kind = this_command()
        self._me = Holder(os.getpid(), command or own_command, kind or own_kind)
        self._wait_for = wait_for
        self._wait_seconds = wait_seconds
        self._fd: int | None = None

    def acquire(self) -> WriterLock:
        """Take the lock, or refuse naming the holder.

        Raises:
            JournalBusy: another process (or another `WriterLock` here) holds it.
            JournalError: the lock file cannot be created (a read-only disk).
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            why = error.strerror or error
            raise JournalError(f"{self.journal}: cannot create its writer lock: {why}") from None
        deadline = time.monotonic() + self._wait_seconds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _read_holder(fd)
                if holder.kind in self._wait_for and time.monotonic() < deadline:
                    time.sleep(POLL_SECONDS)
                    continue
                os.close(fd)
                raise JournalBusy(self.journal, holder) from None
        me = self._me
        data = json.dumps({"pid": me.pid, "command": me.command, "kind": me.kind}).encode()
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
        self._fd = fd
        return self

    def release(self) -> None:
        """Let the next writer in (also done by the kernel if this process dies)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        os.close(self._fd)  # closing the only descriptor releases the flock
        self._fd = None

    def __enter__(self) -> WriterLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder_of(journal: Path | str) -> Holder | None:
    """Who holds the writer lock of `journal` now, or None."""
    try:
        fd = os.open(lock_path(journal), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _read_holder(fd)
    finally:
        os.close(fd)
    return None


def _read_holder(fd: int) -> Holder:
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict):
        info = {}
    pid = info.get("pid")
    return Holder(
        pid if isinstance(pid, int) else None,
        str(info.get("command", "")),
        str(info.get("kind", "")),
    )
