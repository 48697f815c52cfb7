"""The scanner: a background thread from camera frames to scans, never blocking the caller.

The thread opens the camera through a factory, reads frames, decodes each full-resolution
grayscale frame with its own decoder (decoder objects are not shared between threads), feeds
the tracker and calls `on_scan` for each sticker newly shown. A camera that fails to open or
stops giving frames is closed, reported once as `on_status("camera lost")`, and reopened after
a delay that doubles up to `retry_longest`; the first frame after that reports
`on_status(None)`. Callbacks run on the scanner thread: they should only put values on a queue.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

import numpy as np

from companion.vision.decode import (
    DEFAULT_DECODER,
    Corners,
    Decoder,
    Sticker,
    decode_all,
    make_decoder,
)
from companion.vision.tracker import TrackedScan, Tracker

log = logging.getLogger(__name__)

CAMERA_LOST = "camera lost"


class Source(Protocol):
    """A camera source (hardware.camera.FrameSource): read() a frame or None, close()."""

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


OnFrame = Callable[[np.ndarray, list[Sticker], float, list[Corners]], object]


class Scanner:
    """Frames from `open_source()` to `on_scan(TrackedScan)` calls, on a background thread.

    `fps` paces a source that does not block (a folder); None reads as fast as frames come.
    `clock` timestamps frames for the tracker and the scans (monotonic seconds).
    `on_frame(frame, stickers, captured, unread)` gets each frame with the codes decoded
    from it and the corners of those found there but not decoded (the overhead camera reads
    the structure from them, telling those by their modules; companion/service/).
    """

    def __init__(
        self,
        open_source: Callable[[], Source],
        on_scan: Callable[[TrackedScan], object],
        on_status: Callable[[str | None], object] = lambda problem: None,
        *,
        decoder: str | Callable[[], Decoder] = DEFAULT_DECODER,
        tracker: Tracker | None = None,
        fps: float | None = 15.0,
        retry_first: float = 1.0,
        retry_longest: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        on_frame: OnFrame | None = None,
    ) -> None:
        if isinstance(decoder, str):
            make_decoder(decoder)  # refuse an unknown name here, not on the thread
        self._open_source = open_source
        self._on_scan = on_scan
        self._on_status = on_status
        self._decoder = decoder
        self._tracker = tracker or Tracker()
        self._interval = 1.0 / fps if fps else 0.0
        self._retry = (retry_first, retry_longest)
        self._clock = clock
        self._on_frame = on_frame
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.finished = threading.Event()  # set when the thread ends (stopped or out of frames)
        self.problem: str | None = None  # why the camera is lost, for logs and pages
        self.frames = 0  # frames decoded so far

    def start(self) -> None:
        """Start the thread (once)."""
        if self._thread is not None:
            raise RuntimeError("the scanner is already started")
        self._thread = threading.Thread(target=self._run, name="scanner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the thread to end and wait for it at most `timeout` seconds."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> Scanner:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _run(self) -> None:
        decoder = make_decoder(self._decoder) if isinstance(self._decoder, str) else self._decoder()
        failures = 0
        source: Source | None = None
        try:
            while not self._stop.is_set():
                try:
                    if source is None:
                        source = self._open_source()
                    started = self._clock()
                    frame = source.read()
                except Exception as failed:  # any camera fault: report, release, retry
                    failures += 1
                    self._lose(failed, source)
                    source = None
                    delay = min(self._retry[0] * 2 ** (failures - 1), self._retry[1])
                    self._stop.wait(delay)
                    continue
                if self.problem is not None or failures:
                    self._recover()
                    failures = 0
                if frame is None:  # a video file or folder has no more frames
                    log.warning("camera: the folder or video has no more frames; scanning stops")
                    return
                self._scan(decoder, frame, started)
                if self._interval:
                    self._stop.wait(max(0.0, self._interval - (self._clock() - started)))
        finally:
            if source is not None:
                source.close()
            self.finished.set()

    def _scan(self, decoder: Decoder, frame: np.ndarray, captured: float) -> None:
        self.frames += 1
        size = (frame.shape[1], frame.shape[0])
        stickers, unread = decode_all(decoder, frame)
        for scan in self._tracker.feed(stickers, captured, size):
            try:
                self._on_scan(scan)
            except Exception:  # a broken consumer must not stop the camera
                log.exception("on_scan failed for %s", scan.text)
        if self._on_frame is not None:  # the overhead reading, on the codes decoded once
            try:
                self._on_frame(frame, stickers, captured, unread)
            except Exception:
                log.exception("on_frame failed")

    def _lose(self, failed: Exception, source: Source | None) -> None:
        if source is not None:
            try:
                source.close()
            except Exception:  # already broken: nothing more to release
                log.debug("closing a failed camera source", exc_info=True)
        self._tracker.reset()  # what was held may have changed while blind
        if self.problem is None:
            self.problem = str(failed) or type(failed).__name__
            log.warning("%s: %s", CAMERA_LOST, self.problem)
            self._status(CAMERA_LOST)

    def _recover(self) -> None:
        if self.problem is not None:
            log.warning("camera back after: %s", self.problem)
            self.problem = None
            self._status(None)

    def _status(self, problem: str | None) -> None:
        try:
            self._on_status(problem)
        except Exception:
            log.exception("on_status failed")
