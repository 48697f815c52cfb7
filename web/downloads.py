"""Costly downloads made once per state of the journal and sent in pieces.

The history file of a journal of thousands of games is tens of megabytes of JSON; made per
request, a few phones (or one guest with a script) asking at once held several copies. So it is
written once per state of the journal (`companion.records.tables.journal_state`), one game at a
time, into a gzip buffer (JSON compresses about ten times), kept while the journal does not
change, and sent in pieces: gzipped as it is kept to a client that accepts gzip, unpacked piece
by piece to any other. Requests that come while it is being made wait for that one making.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from flask import Response, current_app, request

PIECE = 64 * 1024  # bytes sent at a time
KEPT = 4  # downloads kept at once (the history, a few CSVs of chosen filters), oldest dropped


@dataclass
class Kept:
    """One download: the journal state it was made at, and its gzip bytes."""

    state: object
    gzipped: bytes


class Downloads:
    """The app's kept downloads, one per name, each made by one request at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {}
        self._kept: dict[str, Kept] = {}
        self.made = 0  # how many times a download was made (the tests count it)

    def gzipped(self, name: str, state: object, make: Callable[[], Iterable[str]]) -> bytes:
        """The gzip bytes of download `name` at journal `state`, made by `make` if need be."""
        with self._lock:
            making = self._making.setdefault(name, threading.Lock())
        with making:
            with self._lock:
                kept = self._kept.get(name)
            if kept is not None and kept.state == state:
                return kept.gzipped
            with self._lock:
                self._kept.pop(name, None)  # the old one is freed before the new one is made
            packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: a gzip header
            parts = [packer.compress(text.encode()) for text in make()]
            parts.append(packer.flush())
            data = b"".join(parts)
            with self._lock:
                self._kept[name] = Kept(state, data)
                while len(self._kept) > KEPT:
                    gone = next(iter(self._kept))
                    del self._kept[gone]
                    self._making.pop(gone, None)
                self.made += 1
            return data


def downloads() -> Downloads:
    """The app's kept downloads (made on first use)."""
    extensions = current_app.extensions["duel"]
    with extensions["lock"]:
        found = extensions.setdefault("downloads", Downloads())
    assert isinstance(found, Downloads)
    return found


def send_gzipped(data: bytes, mimetype: str, filename: str) -> Response:
    """A download of kept gzip bytes, sent as they are when the client accepts gzip."""
    if request.accept_encodings.quality("gzip") > 0:
        response = Response(_pieces(data), mimetype=mimetype)
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Content-Length"] = str(len(data))
    else:
        response = Response(_unpacked(data), mimetype=mimetype)
    response.vary.add("Accept-Encoding")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _pieces(data: bytes) -> Iterator[bytes]:
    view = memoryview(data)
    for at in range(0, len(data), PIECE):
        yield bytes(view[at : at + PIECE])


def _unpacked(data: bytes) -> Iterator[bytes]:
    unpacker = zlib.decompressobj(31)
    for piece in _pieces(data):
        out = unpacker.decompress(piece, PIECE * 16)
        yield out
        while unpacker.unconsumed_tail:
            yield unpacker.decompress(unpacker.unconsumed_tail, PIECE * 16)
    yield unpacker.flush()
