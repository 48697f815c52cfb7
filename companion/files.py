"""Reading a file a person names on the command line: a regular file, and never more than a
stated size.

`scorepad /dev/zero` once read until the box ran out of memory, and a FIFO blocked a command
for good. Every command reads its input through `read_capped`: the file is opened without
blocking, refused unless it is a regular file (not a FIFO, a device or a folder), and refused
when it is larger than the limit, before anything is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileRefused(ValueError):
    """A file that cannot be read as input; the message is one line, without the path.
    `why` is the reason alone ("No such file or directory")."""

    def __init__(self, why: str, *, opening: bool = False, oversize: bool = False) -> None:
        super().__init__(f"cannot read: {why}" if opening else why)
        self.why = why
        self.oversize = oversize  # larger than the limit (a caller may say so its own way)


def size_words(limit: int) -> str:
    """A byte limit as a person reads it: "256 KB", "32 MB"."""
    if limit >= 2**20 and limit % 2**20 == 0:
        return f"{limit // 2**20} MB"
    return f"{limit // 1024} KB" if limit >= 1024 else f"{limit} bytes"


def read_capped(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of the regular file at `path`, at most `max_bytes` of them.

    Raises:
        FileRefused: it cannot be opened, is not a regular file, or is larger than
            `max_bytes`.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as bad:  # ValueError: a NUL in the path
        raise FileRefused(str(getattr(bad, "strerror", None) or bad), opening=True) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("not a regular file (a pipe, a device or a folder); name a file")
        if info.st_size > max_bytes:
            raise FileRefused(f"larger than {size_words(max_bytes)}; not read", oversize=True)
        chunks: list[bytes] = []
        left = max_bytes + 1  # one byte more: a file that grew while read is refused too
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as bad:
        raise FileRefused(str(bad.strerror or bad), opening=True) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise FileRefused(f"larger than {size_words(max_bytes)}; not read", oversize=True)
    return data
