"""The tracker: a stream of decoded frames in, one scan per showing of a sticker out.

Pure: no clock, no I/O. The caller passes each frame's stickers and the time it was captured.
A sticker counts when it has been seen in `confirm_frames` frames in a row (no flicker reads),
counts once however long it is held, and counts again after it has been out of view for
`forget_frames` frames in a row and at least `forget_seconds`. Stickers whose centre lies
outside the scan zone (a fraction of the frame) are ignored: the cards of the structure lying
on the table around the zone never count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.vision import payloads
from companion.vision.decode import Sticker

Zone = tuple[float, float, float, float]  # left, top, right, bottom: fractions of the frame
WHOLE_FRAME: Zone = (0.0, 0.0, 1.0, 1.0)


@dataclass(frozen=True, slots=True)
class TrackedScan:
    """A sticker newly shown: its text, the card id (None: a foreign code), when, and where."""

    text: str
    card: str | None
    at: float
    center: tuple[float, float]


Scan = TrackedScan  # the name the other areas use for a tracker's output


@dataclass(slots=True)
class _Track:
    streak: int = 0  # frames in a row the sticker was seen
    missed: int = 0  # frames in a row it was not seen
    last_seen: float = 0.0
    counted: bool = False


@dataclass
class Tracker:
    """Frames of stickers -> scans.

    `zone` is in fractions of the frame (left, top, right, bottom). A zone smaller than the
    frame needs the frame's size (width, height) in pixels: `frame_size`, or the `size` given
    to `feed` with each frame (the scanner passes it: a webcam may not give the size asked).

    Raises:
        ValueError: a zone that is empty or outside the frame, or counts below 1.
    """

    confirm_frames: int = 2
    forget_frames: int = 2
    forget_seconds: float = 0.0
    zone: Zone = WHOLE_FRAME
    frame_size: tuple[int, int] | None = None
    _tracks: dict[str, _Track] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        left, top, right, bottom = self.zone
        if not (0.0 <= left < right <= 1.0 and 0.0 <= top < bottom <= 1.0):
            raise ValueError(f"scan zone {self.zone} is not inside the frame (0..1, left < right)")
        if self.confirm_frames < 1 or self.forget_frames < 1 or self.forget_seconds < 0:
            raise ValueError("confirm_frames and forget_frames must be >= 1, forget_seconds >= 0")

    def in_zone(self, sticker: Sticker, size: tuple[int, int] | None = None) -> bool:
        """True if the sticker's centre lies in the scan zone of a frame of `size` pixels.

        Raises:
            ValueError: a zone smaller than the frame, and no size.
        """
        if self.zone == WHOLE_FRAME:
            return True
        size = size or self.frame_size
        if size is None:
            raise ValueError("a scan zone smaller than the frame needs the frame size")
        width, height = size
        x, y = sticker.center
        left, top, right, bottom = self.zone
        return left * width <= x <= right * width and top * height <= y <= bottom * height

    def feed(
        self, stickers: Iterable[Sticker], now: float, size: tuple[int, int] | None = None
    ) -> list[TrackedScan]:
        """The scans newly counted in this frame, captured at `now` (seconds, monotonic);
        `size` is the frame's (width, height), for the scan zone."""
        seen: dict[str, Sticker] = {}
        for sticker in stickers:
            if self.in_zone(sticker, size):
                seen.setdefault(sticker.text, sticker)
        scans = []
        for text in sorted(seen):
            track = self._tracks.setdefault(text, _Track())
            track.streak += 1
            track.missed = 0
            track.last_seen = now
            if track.streak >= self.confirm_frames and not track.counted:
                track.counted = True
                scans.append(TrackedScan(text, payloads.parse_scan(text), now, seen[text].center))
        for text in [text for text in self._tracks if text not in seen]:
            track = self._tracks[text]
            track.streak = 0
            track.missed += 1
            gone_long = now - track.last_seen >= self.forget_seconds
            if track.missed >= self.forget_frames and gone_long:
                del self._tracks[text]
        return scans

    def reset(self) -> None:
        """Forget every sticker (after the camera was lost: what was held may have changed)."""
        self._tracks.clear()
