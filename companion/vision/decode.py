"""QR decoders behind one small interface: a grayscale frame in, every sticker found out.

Decode the full-resolution frame: codes held in the scan zone are only 3-5 pixels per module,
and downscaling first loses most of them. One decoder object per thread.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

Point = tuple[float, float]
Corners = tuple[Point, Point, Point, Point]
DEFAULT_DECODER = "zxing"


@dataclass(frozen=True, slots=True)
class Sticker:
    """A decoded QR code: its text and its four corners in frame pixels (x, y)."""

    text: str
    corners: Corners

    @property
    def center(self) -> Point:
        """The mean of the corners."""
        xs, ys = zip(*self.corners, strict=True)
        return (sum(xs) / 4, sum(ys) / 4)

    @property
    def side(self) -> float:
        """The longest edge in pixels: the code's size, little changed by tilt."""
        pairs = zip(self.corners, self.corners[1:] + self.corners[:1], strict=True)
        return max(math.dist(a, b) for a, b in pairs)


class Decoder(Protocol):
    """Finds the QR codes in a grayscale (2-D uint8) frame."""

    def decode(self, gray: np.ndarray) -> list[Sticker]:
        """Every QR code in the frame, in no particular order."""
        ...


def decode_all(decoder: Decoder, gray: np.ndarray) -> tuple[list[Sticker], list[Corners]]:
    """Every QR code `decoder` reads in the frame, and the corners of each code it found but
    could not decode (zxing-cpp reports them: a blurred or dim code, which the overhead
    reader tells by its modules); a decoder that reports none gives an empty list."""
    every = getattr(decoder, "decode_all", None)
    if every is None:
        return decoder.decode(gray), []
    found, unread = every(gray)
    return list(found), list(unread)


def _gray(frame: np.ndarray) -> np.ndarray:
    """A 2-D contiguous uint8 frame; colour frames (BGR) are converted."""
    if frame.ndim == 3:
        import cv2

        frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return np.ascontiguousarray(frame, dtype=np.uint8)


class ZxingDecoder:
    """zxing-cpp: the default; fastest and reads the smallest codes in our benchmark.

    try_invert and try_rotate are off: stickers are dark on light and QR codes are found in any
    orientation anyway; both only cost time.
    """

    def __init__(self, *, try_downscale: bool = True) -> None:
        import zxingcpp

        self._zxing = zxingcpp
        self._formats = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
        self._try_downscale = try_downscale

    def decode(self, gray: np.ndarray) -> list[Sticker]:
        """Every QR code in the frame."""
        return self.decode_all(gray)[0]

    def decode_all(self, gray: np.ndarray) -> tuple[list[Sticker], list[Corners]]:
        """Every QR code in the frame, and the corners of each code found whose modules were
        not decoded (a checksum or format error: blurred, dim), top-left first as found."""
        results = self._zxing.read_barcodes(
            _gray(gray),
            formats=self._formats,
            try_rotate=False,
            try_invert=False,
            try_downscale=self._try_downscale,
            return_errors=True,
        )
        stickers, unread = [], []
        for result in results:
            p = result.position
            corners: Corners = tuple(  # type: ignore[assignment]
                (float(q.x), float(q.y))
                for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
            )
            if result.valid:
                stickers.append(Sticker(result.text, corners))
            else:
                unread.append(corners)
        return stickers, unread


class ZbarDecoder:
    """pyzbar (the zbar library): needs about 3 pixels per module, and is slower."""

    def __init__(self) -> None:
        from pyzbar import pyzbar

        self._pyzbar = pyzbar
        self._symbols = [pyzbar.ZBarSymbol.QRCODE]

    def decode(self, gray: np.ndarray) -> list[Sticker]:
        """Every QR code in the frame (zbar reads only channel 0 of colour arrays)."""
        stickers = []
        for result in self._pyzbar.decode(_gray(gray), symbols=self._symbols):
            points = [(float(p.x), float(p.y)) for p in result.polygon]
            text = result.data.decode("ascii", "replace")
            stickers.append(Sticker(text, _four_corners(points)))
        return stickers


class OpenCvDecoder:
    """OpenCV's QRCodeDetector: measured beside the others, slow and reads fewer codes."""

    def __init__(self) -> None:
        import cv2

        self._detector = cv2.QRCodeDetector()

    def decode(self, gray: np.ndarray) -> list[Sticker]:
        """Every QR code in the frame that OpenCV both detects and decodes."""
        ok, texts, points, _ = self._detector.detectAndDecodeMulti(_gray(gray))
        if not ok or points is None:
            return []
        stickers = []
        for text, quad in zip(texts, points, strict=True):
            if text:
                corners = [(float(x), float(y)) for x, y in quad]
                stickers.append(Sticker(text, _four_corners(corners)))
        return stickers


def _four_corners(points: list[Point]) -> tuple[Point, Point, Point, Point]:
    """Four corners from a polygon (zbar may return more or fewer points): its bounding box
    when it is not a quadrilateral."""
    if len(points) == 4:
        return (points[0], points[1], points[2], points[3])
    xs, ys = zip(*points, strict=True) if points else ((0.0,), (0.0,))
    left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    return ((left, top), (right, top), (right, bottom), (left, bottom))


DECODERS: dict[str, Callable[[], Decoder]] = {
    "zxing": ZxingDecoder,
    "zbar": ZbarDecoder,
    "opencv": OpenCvDecoder,
}


def make_decoder(name: str = DEFAULT_DECODER) -> Decoder:
    """A new decoder by name: "zxing" (default), "zbar" or "opencv".

    Raises:
        ValueError: an unknown name.
    """
    try:
        factory = DECODERS[name]
    except KeyError:
        raise ValueError(f"unknown decoder {name!r}: choose one of {', '.join(DECODERS)}") from None
    return factory()


def read_cards(
    decoder: Decoder, gray: np.ndarray, parse: Callable[[str], str | None]
) -> tuple[list[str], int]:
    """The card ids a still frame shows, left to right, each once, and the number of codes
    `parse` does not know (foreign). `parse` is `payloads.parse` (Duel) or
    `payloads.parse_family` (the 7 Wonders base game)."""
    found: dict[str, float] = {}
    foreign = 0
    for sticker in decoder.decode(gray):
        card = parse(sticker.text)
        if card is None:
            foreign += 1
        else:
            found.setdefault(card, sticker.center[0])
    return sorted(found, key=found.__getitem__), foreign
