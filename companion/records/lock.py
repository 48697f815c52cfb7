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

The lock belongs to the journal file, not to the name it was given: the name is resolved
through symbolic links first (two names of one file take one lock file), and a journal file
with several names (hard links) is refused, since SQLite would keep a second -wal beside the
other name and two writers would silently overwrite each other's games. The path is checked
before anything is created (a journal that is a device, a folder or a FIFO is refused: no
`/dev/null.lock`), and the lock file itself is never a symbolic link or a file with another
name (it would be emptied): such a lock file is refused, naming it.

Not covered: the same file reached through two mount points (a bind mount) is two names.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import stat
import sys
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from companion.records.journal import JournalError

POLL_SECONDS = 0.05
NAMELESS_SECONDS = 2.0
"""How long a holder that has not written its name yet is waited for: a writer takes the
lock, then writes who it is, and empties that before it lets go; another process that
looks in between sees the lock held by nobody named (imports started at once on a loaded
machine: one was refused as the journal being "in use by another process")."""


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
    """The lock file of a journal: `<journal>.lock` beside the file its name leads to."""
    return Path(f"{os.path.realpath(journal)}.lock")


def checked_journal(journal: Path | str) -> None:
    """Refuse a journal path no writer may lock: anything but a regular file (a device, a
    folder, a FIFO) or a file with several names (hard links). A missing journal is fine.

    Raises:
        JournalError: one line naming the path and what is wrong.
    """
    try:
        info = os.stat(journal)
    except (FileNotFoundError, NotADirectoryError):  # missing: creating it will say more
        return
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        why = getattr(error, "strerror", None) or error
        raise JournalError(f"{journal}: cannot be checked: {why}") from None
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(f"{journal}: not a regular file; a journal is a file of its own")
    if info.st_nlink > 1:
        raise JournalError(
            f"{journal}: the journal file has {info.st_nlink} names (hard links); remove the "
            "others, one writer and one -wal file belong to one name"
        )


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
        self.path = Path(f"{journal}.lock")  # until `acquire` resolves the journal's name
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
        checked_journal(self.journal)  # before anything is created
        self.path = lock_path(self.journal)
        fd = _open_lock_file(self.journal, self.path)
        start = time.monotonic()
        deadline = start + self._wait_seconds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _read_holder(fd)
                now = time.monotonic()
                waited_for = holder.kind in self._wait_for and now < deadline
                if waited_for or (holder.pid is None and now < start + NAMELESS_SECONDS):
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


def _open_lock_file(journal: Path, path: Path) -> int:
    """The lock file opened for writing, created if need be; never through a symbolic link,
    never a file that has another name or is not a regular file.

    Raises:
        JournalError: it cannot be created, or is not a lock file of its own.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = os.open(path, flags, 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise JournalError(
                f"{path}: a symbolic link where the journal's writer lock belongs; remove it"
            ) from None
        why = error.strerror or error
        raise JournalError(f"{journal}: cannot create its writer lock: {why}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        raise JournalError(
            f"{path}: not a lock file of its own (another kind of file, or a file with "
            "another name); remove it"
        )
    return fd


def holder_of(journal: Path | str) -> Holder | None:
    """Who holds the writer lock of `journal` now, or None."""
    try:
        fd = os.open(lock_path(journal), os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except (OSError, ValueError):
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
