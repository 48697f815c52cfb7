"""The size of a photo read from its header, before anything decodes it.

A PNG of a few hundred kilobytes can declare 32000 x 32000 pixels, and a decoder allocates
what the header declares. So an uploaded photo is measured first: only PNG and JPEG are
accepted (what a phone's camera and the score pad page send), and at most `MAX_PIXELS`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

MAX_PIXELS = 12_000_000  # 12 megapixels: a phone photo at full size; the page sends less
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Start-of-frame markers, which hold the size; C4 (Huffman tables), C8 and CC are not frames.
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_NO_LENGTH = frozenset(range(0xD0, 0xD8)) | {0x01}  # markers without a length


class NotAPhoto(ValueError):
    """Bytes that are not a PNG or JPEG image whose size can be read."""


class TooLarge(ValueError):
    """A photo with more pixels than `MAX_PIXELS`; the message gives its size."""


@dataclass(frozen=True, slots=True)
class PhotoSize:
    """The format and size a photo's header declares."""

    kind: str  # "png" or "jpeg"
    width: int
    height: int


def photo_size(data: bytes) -> PhotoSize:
    """The format and size of a PNG or JPEG, read from its header only.

    Raises:
        NotAPhoto: another format, or a header that gives no size (or a size of 0).
    """
    if data.startswith(PNG_SIGNATURE):
        found = _png_size(data)
    elif data.startswith(b"\xff\xd8"):
        found = _jpeg_size(data)
    else:
        raise NotAPhoto("The photo is not an image (JPEG or PNG)")
    if found.width <= 0 or found.height <= 0:
        raise NotAPhoto("The photo's header gives no size")
    return found


def checked_photo(data: bytes, max_pixels: int = MAX_PIXELS) -> PhotoSize:
    """The photo's size, refused when it has more than `max_pixels` pixels.

    Raises:
        NotAPhoto: not a PNG or JPEG with a readable size.
        TooLarge: more pixels than `max_pixels`.
    """
    size = photo_size(data)
    if size.width * size.height > max_pixels:
        raise TooLarge(
            f"The photo has {size.width} x {size.height} pixels; at most "
            f"{max_pixels / 1e6:g} megapixels are read"
        )
    return size


def _png_size(data: bytes) -> PhotoSize:
    # the first chunk must be IHDR: length (13), "IHDR", width, height (big-endian)
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise NotAPhoto("The photo's header gives no size")
    width, height = struct.unpack(">II", data[16:24])
    return PhotoSize("png", width, height)


def _jpeg_size(data: bytes) -> PhotoSize:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _JPEG_NO_LENGTH:
            at += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, start of scan: no frame header before
            break
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _JPEG_FRAMES and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return PhotoSize("jpeg", width, height)
        if length < 2:
            break
        at += 2 + length
    raise NotAPhoto("The photo's header gives no size")
