"""Printable sticker sheets (PDF, SVG, PNG) and single sticker images, at an exact size.

A sticker is a white square `size_mm` wide: the 21x21 modules of a version-1 QR code plus a
quiet zone of QUIET_MODULES modules on each side (25 modules across, so a 20 mm sticker has
0.8 mm modules). On a sheet the card's name is printed in small text to the right of each
sticker, and a thin grey square marks where to cut. Every page carries a 100 mm rule: print at
100 % ("actual size", no fit to page) and check it before cutting.

PDF and SVG are vector, so the modules are exactly the size asked for; PNG is drawn at 300 dpi
with module edges rounded to whole pixels (the sticker is within one pixel of its size).
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np
import segno
from PIL import Image, ImageDraw, ImageFont

from companion.family.cards import CardId
from companion.family_catalog import default_family_catalog
from companion.vision import payloads

DEFAULT_SIZE_MM = 20.0  # the smallest read at 99.5 % in the scan zone (BENCHMARKS.md, Vision)
QUIET_MODULES = 2
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm
MARGIN_MM = 10.0
GAP_MM = 3.0
NAME_MM = 17.0  # width of the name column beside each sticker
NAME_PT = 6.5
DPI = 300
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True, slots=True)
class Entry:
    """One sticker to print: the id, its payload and the name printed beside it."""

    id: str
    payload: str
    name: str


@dataclass(frozen=True, slots=True)
class Placed:
    """A sticker on a page: its entry and its top-left corner in mm from the page's top left."""

    entry: Entry
    x: float
    y: float


@cache
def qr_modules(payload: str, error_correction: str = "H") -> np.ndarray:
    """The 21x21 modules of `payload` (True = dark).

    Raises:
        ValueError: a payload too long for a version-1 code at this level.
    """
    qr = segno.make_qr(payload, error=error_correction.lower(), boost_error=False)
    if qr.version != 1:
        raise ValueError(f"{payload!r} needs QR version {qr.version}, not 1")
    return np.array(qr.matrix, dtype=bool)


GAMES = ("duel", "7wonders")


def entries(language: str = "en", game: str = "duel") -> list[Entry]:
    """Every sticker of a game (`duel`: data/stickers.toml; `7wonders`: the base game's
    cards, data/family/stickers.toml) with its name in `language` (English fallback)."""
    if game == "7wonders":
        return _family_entries(language)
    names = tomllib.loads(payloads.read_data_file("names.toml"))
    english, local = names.get("en", {}), names.get(language, {})
    return [
        Entry(
            card_id,
            payloads.payload_for(card_id),
            local.get(card_id) or english.get(card_id) or card_id.replace("_", " ").title(),
        )
        for card_id in payloads.sticker_ids()
    ]


def _family_entries(language: str) -> list[Entry]:
    cards = default_family_catalog().cards
    return [
        Entry(card_id, payload, _name(cards[CardId(card_id)].names, language))
        for card_id, payload in payloads.family_sticker_table().by_id.items()
    ]


def _name(names: Mapping[str, str], language: str) -> str:
    return names.get(language) or names["en"]


def layout(items: Sequence[Entry], size_mm: float, paper: str = "a4") -> list[list[Placed]]:
    """Place the stickers in rows, page after page.

    Raises:
        ValueError: an unknown paper, or a sticker too large for the page.
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: choose a4 or letter")
    width, height = PAPERS[paper]
    cell_w, cell_h = size_mm + 1.5 + NAME_MM + GAP_MM, size_mm + GAP_MM
    top = MARGIN_MM + 8  # below the title and the 100 mm rule
    columns = int((width - 2 * MARGIN_MM + GAP_MM) // cell_w)
    rows = int((height - top - MARGIN_MM + GAP_MM) // cell_h)
    if columns < 1 or rows < 1:
        raise ValueError(f"a {size_mm:g} mm sticker does not fit on {paper}")
    pages: list[list[Placed]] = []
    for index, entry in enumerate(items):
        slot = index % (columns * rows)
        if slot == 0:
            pages.append([])
        row, column = divmod(slot, columns)
        pages[-1].append(Placed(entry, MARGIN_MM + column * cell_w, top + row * cell_h))
    return pages


def _dark_runs(modules: np.ndarray) -> Iterator[tuple[int, int, int]]:
    """(row, first column, length) of each horizontal run of dark modules."""
    for row, line in enumerate(modules):
        column = 0
        while column < len(line):
            if line[column]:
                start = column
                while column < len(line) and line[column]:
                    column += 1
                yield row, start, column - start
            else:
                column += 1


def _name_lines(name: str) -> list[str]:
    return textwrap.wrap(name, 13)[:3] or [name]


def _title(paper: str, size_mm: float, page: int, pages: int) -> str:
    return (
        f"Duel Companion stickers, {size_mm:g} mm, {paper.upper()}, page {page}/{pages}. "
        "Print at 100 %: the line below is 100 mm."
    )


# --- SVG --------------------------------------------------------------------------------------


def svg_page(page: list[Placed], size_mm: float, paper: str, number: int, count: int) -> str:
    """One page as SVG in millimetre user units."""
    width, height = PAPERS[paper]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{MARGIN_MM}" y="{MARGIN_MM + 2}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="2.6">{escape(_title(paper, size_mm, number, count))}</text>',
        f'<line x1="{MARGIN_MM}" y1="{MARGIN_MM + 4}" x2="{MARGIN_MM + 100}" '
        f'y2="{MARGIN_MM + 4}" stroke="#000" stroke-width="0.3"/>',
    ]
    for placed in page:
        out.append(_svg_sticker(placed, size_mm))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_sticker(placed: Placed, size_mm: float) -> str:
    modules = qr_modules(placed.entry.payload)
    module = size_mm / (len(modules) + 2 * QUIET_MODULES)
    x0, y0 = placed.x + QUIET_MODULES * module, placed.y + QUIET_MODULES * module
    path = "".join(
        f"M{x0 + c * module:.4f} {y0 + r * module:.4f}h{n * module:.4f}v{module:.4f}"
        f"h{-n * module:.4f}z"
        for r, c, n in _dark_runs(modules)
    )
    name_x = placed.x + size_mm + 1.5
    size = NAME_PT / PT_PER_MM
    lines = "".join(
        f'<tspan x="{name_x:.3f}" dy="{size * 1.15:.3f}">{escape(line)}</tspan>'
        for line in _name_lines(placed.entry.name)
    )
    return (
        f'<g id="{placed.entry.id}">'
        f'<rect class="sticker" x="{placed.x:.4f}" y="{placed.y:.4f}" width="{size_mm}" '
        f'height="{size_mm}" fill="#fff" stroke="#bbb" stroke-width="0.1"/>'
        f'<path d="{path}" fill="#000" shape-rendering="crispEdges"/>'
        f'<text y="{placed.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{size:.3f}">{lines}</text></g>'
    )


# --- PDF --------------------------------------------------------------------------------------


def pdf_document(pages: list[list[Placed]], size_mm: float, paper: str) -> bytes:
    """A PDF 1.4 file, one page per list, drawn in vector with the Helvetica base font."""
    width, height = (v * PT_PER_MM for v in PAPERS[paper])
    objects: list[bytes] = [
        b"",
        b"",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    kids = []
    for number, page in enumerate(pages, 1):
        stream = _pdf_stream(page, size_mm, paper, number, len(pages), height)
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.3f %.3f] /Contents %d 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>" % (width, height, len(objects))
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _pdf_text(text: str) -> bytes:
    raw = text.encode("cp1252", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _pdf_stream(
    page: list[Placed], size_mm: float, paper: str, number: int, count: int, height: float
) -> bytes:
    k = PT_PER_MM
    ops = [
        b"BT /F1 7.4 Tf %.3f %.3f Td (%s) Tj ET"
        % (
            MARGIN_MM * k,
            height - (MARGIN_MM + 2) * k,
            _pdf_text(_title(paper, size_mm, number, count)),
        )
    ]
    ops.append(
        b"0.85 w %.3f %.3f m %.3f %.3f l S"
        % (
            MARGIN_MM * k,
            height - (MARGIN_MM + 4) * k,
            (MARGIN_MM + 100) * k,
            height - (MARGIN_MM + 4) * k,
        )
    )
    for placed in page:
        modules = qr_modules(placed.entry.payload)
        module = size_mm / (len(modules) + 2 * QUIET_MODULES)
        x0, y0 = placed.x + QUIET_MODULES * module, placed.y + QUIET_MODULES * module
        ops.append(
            b"0.73 G 0.28 w %.3f %.3f %.3f %.3f re S 0 g"
            % (placed.x * k, height - (placed.y + size_mm) * k, size_mm * k, size_mm * k)
        )
        ops += [
            b"%.4f %.4f %.4f %.4f re"
            % (
                (x0 + c * module) * k,
                height - (y0 + (r + 1) * module) * k,
                n * module * k,
                module * k,
            )
            for r, c, n in _dark_runs(modules)
        ]
        ops.append(b"f")
        for line_number, line in enumerate(_name_lines(placed.entry.name), 1):
            y = height - (placed.y + line_number * NAME_PT * 1.15 / k) * k
            ops.append(
                b"BT /F1 %.1f Tf %.3f %.3f Td (%s) Tj ET"
                % (NAME_PT, (placed.x + size_mm + 1.5) * k, y, _pdf_text(line))
            )
    return b"\n".join(ops)


# --- PNG --------------------------------------------------------------------------------------


def _px(mm: float, dpi: int) -> int:
    return round(mm * dpi / 25.4)


def _draw_sticker(
    draw: ImageDraw.ImageDraw, payload: str, x_mm: float, y_mm: float, size_mm: float, dpi: int
) -> None:
    """Dark modules of the sticker at (x_mm, y_mm), each edge rounded to a whole pixel."""
    modules = qr_modules(payload)
    module = size_mm / (len(modules) + 2 * QUIET_MODULES)
    x0, y0 = x_mm + QUIET_MODULES * module, y_mm + QUIET_MODULES * module
    for r, c, n in _dark_runs(modules):
        left, top = _px(x0 + c * module, dpi), _px(y0 + r * module, dpi)
        right, bottom = _px(x0 + (c + n) * module, dpi), _px(y0 + (r + 1) * module, dpi)
        draw.rectangle((left, top, right - 1, bottom - 1), fill=0)


def sticker_png(payload: str, size_mm: float = DEFAULT_SIZE_MM, dpi: int = DPI) -> Image.Image:
    """One sticker alone: a white square of `size_mm` at `dpi`, grayscale ("L")."""
    side = _px(size_mm, dpi)
    image = Image.new("L", (side, side), 255)
    _draw_sticker(ImageDraw.Draw(image), payload, 0.0, 0.0, side * 25.4 / dpi, dpi)
    image.info["dpi"] = (dpi, dpi)
    return image


def png_page(
    page: list[Placed], size_mm: float, paper: str, number: int, count: int, dpi: int = DPI
) -> Image.Image:
    """One page drawn at `dpi` (grayscale)."""
    width, height = PAPERS[paper]
    image = Image.new("L", (_px(width, dpi), _px(height, dpi)), 255)
    draw = ImageDraw.Draw(image)
    name_font = ImageFont.load_default(size=max(8, round(NAME_PT / 72 * dpi)))
    title_font = ImageFont.load_default(size=max(8, round(7.4 / 72 * dpi)))
    draw.text(
        (_px(MARGIN_MM, dpi), _px(MARGIN_MM - 0.5, dpi)),
        _title(paper, size_mm, number, count),
        font=title_font,
        fill=0,
    )
    rule_y = _px(MARGIN_MM + 4, dpi)
    draw.line(
        (_px(MARGIN_MM, dpi), rule_y, _px(MARGIN_MM + 100, dpi), rule_y),
        fill=0,
        width=max(1, _px(0.3, dpi)),
    )
    for placed in page:
        left, top = _px(placed.x, dpi), _px(placed.y, dpi)
        side = _px(size_mm, dpi)
        draw.rectangle((left, top, left + side - 1, top + side - 1), outline=187)
        _draw_sticker(draw, placed.entry.payload, placed.x, placed.y, size_mm, dpi)
        text = "\n".join(_name_lines(placed.entry.name))
        draw.multiline_text(
            (_px(placed.x + size_mm + 1.5, dpi), top), text, font=name_font, fill=0, spacing=2
        )
    image.info["dpi"] = (dpi, dpi)
    return image


def page_paths(out: Path, count: int) -> list[Path]:
    """`out` for a single page; out-1.svg, out-2.svg ... for several (SVG and PNG sheets)."""
    if count == 1:
        return [out]
    return [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(1, count + 1)]
