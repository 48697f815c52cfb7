"""Printable sticker sheets (PDF, SVG, PNG) and single sticker images, at an exact size.

A sticker is a white square `size_mm` wide: the 21x21 modules of a version-1 QR code plus a
quiet zone of QUIET_MODULES modules on each side (25 modules across, so a 20 mm sticker has
0.8 mm modules). On a sheet the card's name and, below it, its age and colour ("Age II,
blue", "Guild, purple", "Wonder") are printed in small text to the right of each sticker, to
find the card it goes on; cut marks at the sticker's four corners show where to cut. Every
page carries a 100 mm rule: print at 100 % ("actual size", no fit to page) and check it
before cutting.

The PDF is written by fpdf2 (compressed, vector) and SVG by hand (plain XML), so the modules
are exactly the size asked for; PNG is drawn at 300 dpi with module edges rounded to whole
pixels (the sticker is within one pixel of its size).
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

from companion.engine.catalog import default_catalog
from companion.family.cards import CardId, FamilyCard
from companion.family.catalog import default_family_catalog
from companion.vision import payloads

DEFAULT_SIZE_MM = 20.0  # read in the scan zone and from above (BENCHMARKS.md; data/table.toml)
QUIET_MODULES = 2
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm
MARGIN_MM = 10.0
GAP_MM = 3.0
NAME_MM = 17.0  # width of the name column beside each sticker
CUT_MM = 1.2  # length of a cut mark
CUT_GAP_MM = 0.4  # between the sticker's corner and its cut marks
NAME_PT = 6.5
DPI = 300
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True, slots=True)
class Entry:
    """One sticker to print: the id, its payload, the name and the label printed beside it
    (the card's age and colour, or what kind of piece it goes on), and a note under them (a
    base-game card's copies: "3+ 4+ players", "copy 1 of 2")."""

    id: str
    payload: str
    name: str
    label: str = ""
    note: str = ""


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


def entries(language: str = "en", game: str = "duel", players: int | None = None) -> list[Entry]:
    """Every sticker of a game (`duel`: data/stickers.toml; `7wonders`: the base game's
    cards, data/family/stickers.toml) with its name in `language` (English fallback). For
    the base game with `players`, one sticker per card of that game's decks (each guild
    once: any may be drawn); without, one per card name, noting its copies."""
    if game == "7wonders":
        return _family_entries(language, players)
    names = tomllib.loads(payloads.read_data_file("names.toml"))
    english, local = names.get("en", {}), names.get(language, {})
    return [
        Entry(
            card_id,
            payloads.payload_for(card_id),
            local.get(card_id) or english.get(card_id) or card_id.replace("_", " ").title(),
            label(card_id),
        )
        for card_id in payloads.sticker_ids()
    ]


def pantheon_entries(language: str = "en") -> list[Entry]:
    """The stickers of the Pantheon expansion's new components (data/pantheon/stickers.toml):
    Grand Temples, its two wonders and three progress tokens, the divinities and the Gate,
    with their names in `language` (English fallback)."""
    catalog = default_catalog(("pantheon",))
    return [
        Entry(
            any_id,
            payload,
            catalog.name(any_id, language),
            pantheon_label(any_id),
        )
        for any_id, payload in payloads.pantheon_sticker_table().by_id.items()
    ]


def pantheon_label(sticker_id: str) -> str:
    """What a Pantheon sticker goes on: "Age III, purple" (a Grand Temple), a divinity's
    mythology ("Greek"), "Gate", "Wonder", "Progress token"."""
    catalog = default_catalog(("pantheon",))
    pantheon = catalog.pantheon
    assert pantheon is not None
    if catalog.is_card(sticker_id):
        return f"Age {AGES[3]}, {catalog.card(sticker_id).color.value}"
    if pantheon.is_divinity(sticker_id):
        return catalog.name(pantheon.divinity(sticker_id).mythology)
    if sticker_id == pantheon.gate:
        return "Gate"
    return "Wonder" if catalog.is_wonder(sticker_id) else "Progress token"


def _family_entries(language: str, players: int | None) -> list[Entry]:
    cards = default_family_catalog().cards
    found = []
    for card_id, payload in payloads.family_sticker_table().by_id.items():
        card = cards[CardId(card_id)]
        name, label = _name(card.names, language), _family_label(card)
        if players is None:
            found.append(Entry(card_id, payload, name, label, copies_note(card)))
            continue
        count = card.copies_for(players)
        for copy in range(1, count + 1):
            note = f"copy {copy} of {count}" if count > 1 else "1 copy"
            found.append(Entry(card_id, payload, name, label, note))
    return found


def copies_note(card: FamilyCard) -> str:
    """The copies of a base-game card by player count, as printed on it: "3+ 4+ players",
    "I: 3+ 6+; II: 3+ 5+" (Loom), "1 copy, drawn" (a guild)."""
    if not card.copies:
        return "1 copy, drawn"
    ages = [f"{'+ '.join(str(n) for n in counts)}+" for counts in card.copies.values()]
    if len(ages) == 1:
        return f"{ages[0]} players"
    parts = (f"{AGES[age]}: {text}" for age, text in zip(card.copies, ages, strict=True))
    return "; ".join(part.replace(" ", NBSP) for part in parts)  # one Age a line


def _family_label(card: FamilyCard) -> str:
    """A base-game card's ages and colour: "Age I, brown", "Age I-II, grey", "Guild, purple"."""
    if card.color.value == "purple":
        return "Guild, purple"
    first, last = AGES[card.ages[0]], AGES[card.ages[-1]]
    ages = first if first == last else f"{first}-{last}"
    return f"Age {ages}, {card.color.value}"


def _name(names: Mapping[str, str], language: str) -> str:
    return names.get(language) or names["en"]


AGES = {1: "I", 2: "II", 3: "III"}
NBSP = "\u00a0"  # a space the name column does not break a line at


def label(sticker_id: str) -> str:
    """What a sticker goes on: "Age II, blue", "Guild, purple", "Wonder", "Progress token"."""
    catalog = default_catalog()
    if catalog.is_card(sticker_id):
        card = catalog.card(sticker_id)
        if card.is_guild:
            return f"Guild, {card.color.value}"
        return f"Age {AGES[card.age]}, {card.color.value}"
    kind = payloads.payload_for(sticker_id)[len(payloads.PREFIX)]
    return "Wonder" if kind == "W" else "Progress token"


def cut_marks(x: float, y: float, size_mm: float) -> list[tuple[float, float, float, float]]:
    """Short lines (x1, y1, x2, y2 in mm) outside the four corners of the sticker at (x, y),
    along its edges: where to cut."""
    a, b = CUT_GAP_MM, CUT_GAP_MM + CUT_MM
    lines = []
    for cx, sx in ((x, -1), (x + size_mm, 1)):
        for cy, sy in ((y, -1), (y + size_mm, 1)):
            lines.append((cx + sx * a, cy, cx + sx * b, cy))  # along the horizontal edge
            lines.append((cx, cy + sy * a, cx, cy + sy * b))  # along the vertical edge
    return lines


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


def _name_lines(entry: Entry) -> list[str]:
    """The name (up to 3 lines), the label below it, then the note (wrapped)."""
    lines = textwrap.wrap(entry.name, 13)[:3] or [entry.name]
    if entry.label:
        lines.append(entry.label)
    return [*lines, *(line.replace(NBSP, " ") for line in textwrap.wrap(entry.note, 13))]


SUBJECT = "Duel Companion stickers"
"""What a sheet holds, at the start of its title line ("7 Wonders, 4 players: 88 stickers")."""


def _title(paper: str, size_mm: float, page: int, pages: int, subject: str = SUBJECT) -> str:
    return (
        f"{subject}, {size_mm:g} mm, {paper.upper()}, page {page}/{pages}. "
        "Print at 100 %: the line below is 100 mm."
    )


# --- SVG --------------------------------------------------------------------------------------


def svg_page(
    page: list[Placed], size_mm: float, paper: str, number: int, count: int, subject: str = SUBJECT
) -> str:
    """One page as SVG in millimetre user units."""
    width, height = PAPERS[paper]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="{MARGIN_MM}" y="{MARGIN_MM + 2}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="2.6">{escape(_title(paper, size_mm, number, count, subject))}</text>',
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
        for line in _name_lines(placed.entry)
    )
    marks = "".join(
        f"M{a:.3f} {b:.3f}L{c:.3f} {d:.3f}" for a, b, c, d in cut_marks(placed.x, placed.y, size_mm)
    )
    return (
        f'<g id="{placed.entry.id}">'
        f'<rect class="sticker" x="{placed.x:.4f}" y="{placed.y:.4f}" width="{size_mm}" '
        f'height="{size_mm}" fill="#fff"/>'
        f'<path class="cut" d="{marks}" stroke="#000" stroke-width="0.15" fill="none"/>'
        f'<path d="{path}" fill="#000" shape-rendering="crispEdges"/>'
        f'<text y="{placed.y:.3f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{size:.3f}">{lines}</text></g>'
    )


# --- PDF --------------------------------------------------------------------------------------


def pdf_document(
    pages: list[list[Placed]], size_mm: float, paper: str, subject: str = SUBJECT
) -> bytes:
    """A compressed PDF (fpdf2), one page per list, in vector with the Helvetica core font."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format=PAPERS[paper])
    pdf.set_compression(True)
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_title("Duel Companion stickers")
    pdf.set_creator("duel-companion stickers")
    for number, page in enumerate(pages, 1):
        pdf.add_page()
        pdf.set_font("Helvetica", size=7.4)
        title = _title(paper, size_mm, number, len(pages), subject)
        pdf.text(MARGIN_MM, MARGIN_MM + 2, _latin1(title))
        pdf.set_line_width(0.3)
        pdf.line(MARGIN_MM, MARGIN_MM + 4, MARGIN_MM + 100, MARGIN_MM + 4)
        pdf.set_font("Helvetica", size=NAME_PT)
        for placed in page:
            modules = qr_modules(placed.entry.payload)
            module = size_mm / (len(modules) + 2 * QUIET_MODULES)
            x0, y0 = placed.x + QUIET_MODULES * module, placed.y + QUIET_MODULES * module
            pdf.set_fill_color(0)
            for r, c, n in _dark_runs(modules):
                pdf.rect(x0 + c * module, y0 + r * module, n * module, module, style="F")
            pdf.set_line_width(0.15)
            for a, b, c2, d in cut_marks(placed.x, placed.y, size_mm):
                pdf.line(a, b, c2, d)
            for line_number, line in enumerate(_name_lines(placed.entry), 1):
                y = placed.y + line_number * NAME_PT * 1.15 / PT_PER_MM
                pdf.text(placed.x + size_mm + 1.5, y, _latin1(line))
    return bytes(pdf.output())


def _latin1(text: str) -> str:
    """The text in the core fonts' Latin-1 range (others become '?')."""
    return text.encode("latin-1", "replace").decode("latin-1")


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
    page: list[Placed],
    size_mm: float,
    paper: str,
    number: int,
    count: int,
    dpi: int = DPI,
    subject: str = SUBJECT,
) -> Image.Image:
    """One page drawn at `dpi` (grayscale)."""
    width, height = PAPERS[paper]
    image = Image.new("L", (_px(width, dpi), _px(height, dpi)), 255)
    draw = ImageDraw.Draw(image)
    name_font = ImageFont.load_default(size=max(8, round(NAME_PT / 72 * dpi)))
    title_font = ImageFont.load_default(size=max(8, round(7.4 / 72 * dpi)))
    draw.text(
        (_px(MARGIN_MM, dpi), _px(MARGIN_MM - 0.5, dpi)),
        _title(paper, size_mm, number, count, subject),
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
        top = _px(placed.y, dpi)
        for a, b, c, d in cut_marks(placed.x, placed.y, size_mm):
            draw.line((_px(a, dpi), _px(b, dpi), _px(c, dpi), _px(d, dpi)), fill=0, width=2)
        _draw_sticker(draw, placed.entry.payload, placed.x, placed.y, size_mm, dpi)
        text = "\n".join(_name_lines(placed.entry))
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
