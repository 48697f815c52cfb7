"""Views drawn as 128x64 mode "1" images for the OLED: pure drawing, no state, no I/O.

`render(view, fonts)` draws any view of `companion.device.views`. The fonts are the X11 misc-fixed
bitmap fonts shipped in `companion/device/fonts` (`load_fonts()`): 5x8 for text (25 characters a
line), 6x10 for titles, 7x13 bold for the numbers players read from across the table.
They cover Latin-1 (æøåäö); any other character is drawn as "?". A text too long for its
place ends with an ellipsis, drawn as three dots since Latin-1 has no ellipsis character.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from companion.device import words
from companion.device.views import (
    ChoiceView,
    EndView,
    HelpView,
    IdleView,
    Loot,
    MessageView,
    Option,
    PhoneView,
    ReadingView,
    View,
)

WIDTH, HEIGHT = 128, 64
QR_SIZE = 64  # the end screen's QR code: a lit square on the right
CODE_GAP = 3  # pixels between the groups of the pairing code
FONT_DIR = Path(__file__).parent / "fonts"
ELLIPSIS = "\u2026"

Font = ImageFont.ImageFont
Draw = ImageDraw.ImageDraw


@dataclass(frozen=True, slots=True)
class Fonts:
    """The three bitmap fonts of the screens."""

    text: Font  # 5x8
    title: Font  # 6x10
    bold: Font  # 7x13 bold


@cache
def load_fonts(folder: Path = FONT_DIR) -> Fonts:
    """The shipped fonts (never Pillow's default font, which changes between versions).

    Raises:
        OSError: a font file is missing.
    """
    return Fonts(
        text=ImageFont.load(str(folder / "misc-fixed-5x8.pil")),
        title=ImageFont.load(str(folder / "misc-fixed-6x10.pil")),
        bold=ImageFont.load(str(folder / "misc-fixed-7x13B.pil")),
    )


def render(shown: View, fonts: Fonts | None = None) -> Image.Image:
    """The 128x64 mode "1" image of a screen (lit pixels are 1)."""
    fonts = fonts or load_fonts()
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    match shown:
        case IdleView():
            draw_idle(draw, shown, fonts)
        case ChoiceView():
            draw_choice(draw, shown, fonts)
        case MessageView():
            draw_message(draw, shown, fonts)
        case HelpView():
            draw_help(draw, shown, fonts)
        case PhoneView():
            draw_phone(image, draw, shown, fonts)
        case EndView():
            draw_end(image, draw, shown, fonts)
        case ReadingView():
            draw_reading(draw, shown, fonts)
    # the banner leaves a QR code whole
    with_qr = (isinstance(shown, EndView) and shown.url) or isinstance(shown, PhoneView)
    width = WIDTH - QR_SIZE - 1 if with_qr else WIDTH
    # the idle screen keeps its prices: a lost part is a mark on its top bar there
    status = "" if isinstance(shown, IdleView) else shown.status
    draw_banner(draw, shown.notice, status, fonts, width)
    # drawing with fill=1 stores 1, not 255, in a mode "1" image; make lit pixels 255 so
    # that the image compares equal to itself saved and loaded (ImageChops, luma)
    return image.point(lambda value: 255 if value else 0)


# --- text -----------------------------------------------------------------------------------


def printable(text: str) -> str:
    """`text` with every character the Latin-1 fonts lack replaced by "?" (the ellipsis is
    kept: it is drawn as dots)."""
    parts = text.split(ELLIPSIS)
    safe = [p.encode("latin-1", "replace").decode("latin-1") for p in parts]
    return ELLIPSIS.join(safe)


def text_width(text: str, font: Font) -> int:
    """Width in pixels of `text` as `draw_text` draws it."""
    plain = printable(text)
    dots = plain.count(ELLIPSIS)
    plain = plain.replace(ELLIPSIS, "")
    return int(font.getlength(plain)) + dots * _ellipsis_width(font)


def fit(text: str, font: Font, width: int) -> str:
    """`text`, or its longest beginning that fits in `width` pixels followed by an ellipsis."""
    text = printable(text)
    if text_width(text, font) <= width:
        return text
    room = width - _ellipsis_width(font)
    cut = text
    while cut and text_width(cut, font) > room:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def fit_line(text: str, font: Font, width: int) -> str:
    """Like `fit`, but "<name>: <reason>" loses letters of the name first, so that the
    reason of a refusal stays readable."""
    text = printable(text)
    head, sep, reason = text.partition(": ")
    if text_width(text, font) <= width or not sep:
        return fit(text, font, width)
    room = width - text_width(sep + reason, font)
    if room < 4 * _ellipsis_width(font):
        return fit(text, font, width)
    return fit(head, font, room) + sep + reason


def draw_text(draw: Draw, xy: tuple[int, int], text: str, font: Font, fill: int = 1) -> int:
    """Draw `text` (its ellipses as dots); return the x after it."""
    x, y = xy
    for index, part in enumerate(printable(text).split(ELLIPSIS)):
        if index:
            x = _draw_ellipsis(draw, x, y, font, fill)
        if part:
            draw.text((x, y), part, font=font, fill=fill)
            x += int(font.getlength(part))
    return x


def draw_right(draw: Draw, right: int, y: int, text: str, font: Font, fill: int = 1) -> int:
    """Draw `text` ending at x = `right` (exclusive); return where it starts."""
    left = right - text_width(text, font)
    draw_text(draw, (left, y), text, font, fill)
    return left


def draw_centred(draw: Draw, centre: int, y: int, text: str, font: Font, fill: int = 1) -> None:
    """Draw `text` centred on x = `centre`."""
    draw_text(draw, (centre - text_width(text, font) // 2, y), text, font, fill)


@cache
def _dot(font: Font) -> tuple[int, int, int]:
    """The full stop of `font`: its centre (x, y) in the glyph cell and a dot size."""
    x0, y0, x1, y1 = font.getmask(".").getbbox() or (0, 0, 1, 1)
    size = 2 if x1 - x0 >= 4 else 1  # the bold font's stop is a 2x2 block
    return (x0 + x1 - 1) // 2, (y0 + y1 - 1) // 2, size


def _ellipsis_width(font: Font) -> int:
    _, _, size = _dot(font)
    return 3 * size + 2 * size + 1  # three dots a dot apart, and a pixel before the next


def _draw_ellipsis(draw: Draw, x: int, y: int, font: Font, fill: int) -> int:
    _, cy, size = _dot(font)
    for i in range(3):
        left = x + i * 2 * size
        draw.rectangle((left, y + cy, left + size - 1, y + cy + size - 1), fill=fill)
    return x + _ellipsis_width(font)


# --- the banner -----------------------------------------------------------------------------

BANNER_TOP = HEIGHT - 9  # the bottom line: a rule, then one line of 5x8 text


def draw_banner(draw: Draw, notice: str, status: str, fonts: Fonts, width: int = WIDTH) -> None:
    """The bottom line: a refusal (lit bar, dark text), or else a part of the kit lost
    (framed, after a lit "!")."""
    right = width - 1
    if notice:
        draw.rectangle((0, BANNER_TOP, right, HEIGHT - 1), fill=1)
        draw_text(draw, (1, BANNER_TOP + 1), fit_line(notice, fonts.text, width - 2),
                  fonts.text, fill=0)  # fmt: skip
    elif status:
        draw.rectangle((0, BANNER_TOP, right, HEIGHT - 1), fill=0, outline=1)
        draw.rectangle((0, BANNER_TOP, 8, HEIGHT - 1), fill=1)
        draw_text(draw, (2, BANNER_TOP + 1), "!", fonts.text, fill=0)
        draw_text(draw, (11, BANNER_TOP + 1), fit_line(status, fonts.text, width - 13),
                  fonts.text)  # fmt: skip


def _footer(draw: Draw, text: str, fonts: Fonts) -> None:
    """A note on the bottom line, under a rule (the banner covers it when there is one)."""
    if text:
        draw.line((0, BANNER_TOP, WIDTH - 1, BANNER_TOP), fill=1)
        draw_text(draw, (0, BANNER_TOP + 1), fit_line(text, fonts.text, WIDTH), fonts.text)


# --- idle -----------------------------------------------------------------------------------

TRACK_TOP = 32  # the spaces of the conflict track
LOST_MARK = 8  # the width of the idle screen's mark of a part lost, at the top bar's right
SPACE = 6  # pixels from one space to the next


def draw_idle(draw: Draw, v: IdleView, fonts: Fonts) -> None:
    """Whose turn and what to do ("Ann: scan a card"); the coins (bold), the age and the
    cards left in it; the conflict track with its pawn and loot tokens; the active player's
    price for one unit of each resource. A part of the kit lost is a dark "!" at the right
    of the top bar (the button map says which); a refusal takes the prices' line."""
    # whose turn and what to do, on a lit bar (the name gives way to the hint; a long hint,
    # such as the solo box's move, takes the smaller font so that the name stays)
    draw.rectangle((0, 0, WIDTH - 1, 10), fill=1)
    right = WIDTH - 1
    if v.status:
        right = WIDTH - 1 - LOST_MARK
        draw.rectangle((right + 1, 1, WIDTH - 2, 9), fill=0)
        draw_centred(draw, right + 1 + LOST_MARK // 2, 2, "!", fonts.text)
    hint = f": {v.hint}" if v.hint else ""
    room = right - 1 - text_width(hint, fonts.title)
    if room < text_width(v.player[:3], fonts.title):
        line = fit(v.player + hint, fonts.text, right - 1)
        draw_text(draw, (1, 2), line, fonts.text, fill=0)
    else:
        draw_text(draw, (1, 1), fit(v.player, fonts.title, room) + hint, fonts.title, fill=0)
    # both players' coins, player 1 on the left (their capital is on the left of the track)
    _draw_coins(draw, v, fonts)
    draw_centred(draw, WIDTH // 2, 12, f"Age {v.age}", fonts.text)
    draw_centred(draw, WIDTH // 2, 19, f"{v.cards_left} left", fonts.text)
    draw_track(draw, v.pawn, v.loot, v.capital, fonts, top=TRACK_TOP)
    if not v.notice:  # a refusal takes the bottom line
        _draw_prices(draw, v.prices, fonts, top=HEIGHT - 13)


def _draw_coins(draw: Draw, v: IdleView, fonts: Fonts) -> None:
    top = 13
    for side in (0, 1):
        number = str(v.coins[side])
        label = v.labels[side]
        width = text_width(number, fonts.bold) + 2 + text_width(label, fonts.text)
        x = 0 if side == 0 else WIDTH - width - 2
        lit = side == v.active
        if lit:  # the active player's coins on a lit box
            draw.rectangle((x, top - 1, x + width + 1, top + 13), fill=1)
        if side == 0:
            after = draw_text(draw, (x + 1, top + 4), label, fonts.text, fill=0 if lit else 1)
            draw_text(draw, (after + 2, top), number, fonts.bold, fill=0 if lit else 1)
        else:
            after = draw_text(draw, (x + 1, top), number, fonts.bold, fill=0 if lit else 1)
            draw_text(draw, (after + 2, top + 4), label, fonts.text, fill=0 if lit else 1)


def space_x(space: int) -> int:
    """The x of the centre of a space of the conflict track (0: the centre space)."""
    return WIDTH // 2 + space * SPACE


def draw_track(
    draw: Draw, pawn: int, loot: tuple[Loot, ...], capital: int, fonts: Fonts, *, top: int
) -> None:
    """The 19 spaces between the capitals, the pawn on its space with a marker above it, and
    each loot token still on the track drawn under its zone with the coins it takes."""
    end = capital - 1
    for space in range(-end, end + 1):
        x = space_x(space)
        draw.rectangle((x - 2, top, x + 2, top + 4), outline=1)
    draw.line((space_x(0), top - 2, space_x(0), top + 6), fill=1)  # the centre line
    for side in (-1, 1):  # the capitals: hollow towers at both ends
        x = space_x(side * capital)
        draw.rectangle((x - 2, top - 2, x + 2, top + 6), outline=1)
    # the pawn: a lit block taller than the spaces (in a capital, it fills the tower)
    x = space_x(max(-capital, min(capital, pawn)))
    draw.rectangle((x - 3, top - 3, x + 3, top + 7), fill=0)
    draw.rectangle((x - 2, top - 3, x + 2, top + 7), fill=1)
    for token in loot:
        lo, hi = sorted((token.first, token.last))
        left, right = space_x(lo) - 2, space_x(hi) + 2
        draw.rectangle((left, top + 7, right, top + 16), outline=1)
        draw_centred(draw, (left + right + 1) // 2, top + 8, str(token.coins), fonts.text)


def price_label(resource: str) -> str:
    """The label of a resource's price on the idle screen: its first two letters ("Pa")."""
    return resource[:2].capitalize()


def _draw_prices(
    draw: Draw, prices: tuple[tuple[str, int], ...], fonts: Fonts, *, top: int
) -> None:
    """Each resource as two letters and its price in bold: Wo2 Cl2 St3 Gl2 Pa2 (one letter
    would make papyrus "P2", like player 2)."""
    if not prices:
        return
    step = WIDTH // len(prices)
    for index, (name, price) in enumerate(prices):
        x = index * step + 1
        after = draw_text(draw, (x, top + 4), price_label(name), fonts.text)
        draw_text(draw, (after + 1, top), str(price), fonts.bold)


# --- choices --------------------------------------------------------------------------------

ROW = 9  # pixels per option line
OPTION_GAP = 3  # pixels between an option's label and its price
ROWS_TOP = 19


def draw_choice(draw: Draw, v: ChoiceView, fonts: Fonts) -> None:
    """Title, subtitle, up to 4 options with the cursor's line lit, marks when more options
    are above or below, and the note of the option under the cursor on the bottom line."""
    draw_text(draw, (0, 0), fit(v.title, fonts.title, WIDTH), fonts.title)
    count = len(v.options)
    position = f"{v.cursor + 1}/{count}" if count > 1 else ""
    right = draw_right(draw, WIDTH, 10, position, fonts.text) - 4 if position else WIDTH
    draw_text(draw, (0, 10), fit(v.subtitle, fonts.text, right), fonts.text)
    if not v.options:  # the hint wrapped (a sentence of the coach), then what was scanned
        lines = wrap(v.hint, fonts.text, WIDTH, 1 if v.seen else 4)
        if v.seen:
            lines += wrap(", ".join(v.seen), fonts.text, WIDTH, 3)
        for row, line in enumerate(lines):
            draw_text(draw, (0, ROWS_TOP + 1 + row * ROW), line, fonts.text)
        return
    rows = 4 if not v.options[v.cursor].note else 3  # the note takes the bottom line
    first = max(0, min(v.cursor - rows // 2, count - rows))
    for row, option in enumerate(v.options[first : first + rows]):
        _draw_option(draw, option, ROWS_TOP + row * ROW, first + row == v.cursor, fonts)
    if first > 0:
        _arrow(draw, ROWS_TOP, up=True)
    if first + rows < count:
        _arrow(draw, ROWS_TOP + rows * ROW - 4, up=False)
    _footer(draw, v.options[v.cursor].note, fonts)


OPTION_RIGHT = WIDTH - 7  # the options' right edge, left of the scroll marks
CROSS = 7  # the cross before a blocked option, with its gap


def label_room(option: Option, fonts: Fonts) -> int:
    """The pixels an option's label may take beside its detail (and its cross)."""
    right = OPTION_RIGHT
    if option.detail:
        right -= text_width(option.detail, fonts.text) + OPTION_GAP
    return right - 1 - (CROSS if option.blocked else 0)


def _draw_option(draw: Draw, option: Option, y: int, selected: bool, fonts: Fonts) -> None:
    fill = 0 if selected else 1
    if selected:
        draw.rectangle((0, y, WIDTH - 6, y + ROW - 1), fill=1)
    if option.detail:
        draw_right(draw, OPTION_RIGHT, y + 1, option.detail, fonts.text, fill)
    x = 1
    if option.blocked:  # a cross before what cannot be taken
        draw.line((x, y + 2, x + 4, y + 6), fill=fill)
        draw.line((x, y + 6, x + 4, y + 2), fill=fill)
        x += CROSS
    label = fit(option.label, fonts.text, label_room(option, fonts))
    draw_text(draw, (x, y + 1), label, fonts.text, fill)


def _arrow(draw: Draw, y: int, *, up: bool) -> None:
    """A small triangle at the right edge: more options above or below."""
    x = WIDTH - 3
    if up:
        draw.polygon([(x - 2, y + 3), (x + 2, y + 3), (x, y + 1)], fill=1)
    else:
        draw.polygon([(x - 2, y), (x + 2, y), (x, y + 2)], fill=1)


# --- messages -------------------------------------------------------------------------------


def wrap(text: str, font: Font, width: int, lines: int) -> list[str]:
    """`text` in at most `lines` lines of `width` pixels; the last ends with an ellipsis
    when the text goes on."""
    columns = max(1, width // max(1, int(font.getlength("M"))))
    wrapped = textwrap.wrap(printable(text), columns) or [""]
    if len(wrapped) > lines:
        wrapped = [*wrapped[: lines - 1], fit(wrapped[lines - 1] + " " + ELLIPSIS, font, width)]
    return [fit(line, font, width) for line in wrapped]


MESSAGE_ROW = 8  # the 5x8 font line to line: six lines under the title, five over a banner


def message_lines(v: MessageView, fonts: Fonts) -> list[str]:
    """The lines of a message as drawn: wrapped, and ending with an ellipsis when they do
    not all fit."""
    room = 6 if not (v.notice or v.status) else 5
    lines: list[str] = []
    for line in v.lines:
        lines.extend(wrap(line, fonts.text, WIDTH, room))
    if len(lines) > room:
        lines = [*lines[: room - 1], fit(lines[room - 1] + " " + ELLIPSIS, fonts.text, WIDTH)]
    return lines


def draw_message(draw: Draw, v: MessageView, fonts: Fonts) -> None:
    """A title on a lit bar, then the lines, wrapped; an ellipsis when they go on."""
    draw.rectangle((0, 0, WIDTH - 1, 10), fill=1)
    draw_text(draw, (1, 1), fit(v.title, fonts.title, WIDTH - 2), fonts.title, fill=0)
    for row, line in enumerate(message_lines(v, fonts)):
        draw_text(draw, (0, 12 + row * MESSAGE_ROW), line, fonts.text)


def draw_help(draw: Draw, v: HelpView, fonts: Fonts) -> None:
    """The button map as a table: button, short press, long press (held)."""
    draw.rectangle((0, 0, WIDTH - 1, 10), fill=1)
    draw_text(draw, (1, 1), "Buttons", fonts.title, fill=0)
    draw_right(draw, WIDTH - 1, 2, "press  hold", fonts.text, fill=0)
    for row, (button, short, held) in enumerate(v.rows):
        y = 13 + row * ROW
        draw_text(draw, (0, y), fit(button, fonts.text, 34), fonts.text)
        draw_text(draw, (37, y), fit(short, fonts.text, 48), fonts.text)
        draw_text(draw, (88, y), fit(held, fonts.text, 40), fonts.text)
    y = 13 + len(v.rows) * ROW + 1
    if v.pairing:
        draw_text(draw, (0, y), fit(f"phone code {v.pairing}", fonts.text, WIDTH), fonts.text)
    if v.phone:
        draw_text(draw, (0, y + ROW), fit(v.phone, fonts.text, WIDTH), fonts.text)


def draw_phone(image: Image.Image, draw: Draw, v: PhoneView, fonts: Fonts) -> None:
    """The phone pages' address (without "http://") and pairing code on the left, the
    address as a QR code on the right."""
    width = WIDTH - QR_SIZE - 2
    draw_text(draw, (0, 0), fit("Phone", fonts.title, width), fonts.title)
    address = v.url.removeprefix("http://").removesuffix("/")
    for row, line in enumerate(wrap_address(address, fonts.text, width, 2)):
        draw_text(draw, (0, 12 + row * MESSAGE_ROW), line, fonts.text)
    draw_text(draw, (0, 31), "code", fonts.text)
    draw_code(draw, (0, 39), v.pairing, fonts.bold, width)
    if not (v.notice or v.status):
        draw_text(draw, (0, HEIGHT - 8), fit(words.RENEW_CODE, fonts.text, width), fonts.text)
    if v.url:
        image.paste(qr_image(v.url, QR_SIZE), (WIDTH - QR_SIZE, 0))


def draw_code(draw: Draw, xy: tuple[int, int], code: str, font: Font, width: int) -> None:
    """The pairing code ("K7QM-4XRT") as its groups a few pixels apart: the dash would not fit
    beside the QR code."""
    x, y = xy
    for group in code.split("-"):
        shown = fit(group, font, max(0, width - x))
        draw_text(draw, (x, y), shown, font)
        x += text_width(shown, font) + CODE_GAP


def wrap_address(text: str, font: Font, width: int, lines: int) -> list[str]:
    """An address (no spaces) in lines of `width` pixels, each line broken at the last place
    that keeps its parts whole: before the port's ":", after a "." or a "/" ("127.0.0.1" /
    ":8000", never "127.0.0.1:80" / "00"); anywhere only when a part is longer than a line."""
    columns = max(1, width // max(1, int(font.getlength("M"))))
    cut: list[str] = []
    rest = text
    while len(rest) > columns and len(cut) < lines:
        breaks = [i for i in range(1, columns + 1) if rest[i - 1] in "./" or rest[i] == ":"]
        at = max(breaks, default=columns)
        cut.append(rest[:at])
        rest = rest[at:]
    if rest and len(cut) < lines:
        cut.append(rest)
    elif rest:
        cut[-1] += ELLIPSIS
    return [fit(line, font, width) for line in cut or [""]]


# --- the end --------------------------------------------------------------------------------


def draw_end(image: Image.Image, draw: Draw, v: EndView, fonts: Fonts) -> None:
    """The winner and the kind of victory, the totals in bold (player 1 first), the QR code
    of the scoring page on the right."""
    width = WIDTH - QR_SIZE - 2 if v.url else WIDTH
    draw_text(draw, (0, 0), fit("Game over", fonts.title, width), fonts.title)
    lines = [*wrap(v.winner, fonts.text, width, 2), "wins"] if v.winner else ["Shared", "victory"]
    if v.victory:
        lines.append(f"({v.victory})")
    for row, line in enumerate(lines[:4]):
        draw_text(draw, (0, 12 + row * 9), fit(line, fonts.text, width), fonts.text)
    if not (v.notice or v.status):  # the banner takes the bottom line
        scores = f"{v.scores[0]}-{v.scores[1]}"
        draw_text(draw, (0, HEIGHT - 13), fit(scores, fonts.bold, width), fonts.bold)
    if v.url:
        image.paste(qr_image(v.url, QR_SIZE), (WIDTH - QR_SIZE, 0))


@cache
def qr_image(url: str, size: int) -> Image.Image:
    """The URL as a QR code, dark modules on a lit square of `size` pixels, each module a
    whole number of pixels (no resampling), with as much quiet zone as the square leaves."""
    import segno

    code = segno.make(url, error="l", micro=False)
    modules = int(code.symbol_size(scale=1, border=0)[0])
    scale = max(1, (size - 4) // modules)  # keep at least 2 lit pixels all round
    square = Image.new("1", (size, size), 1)
    draw = ImageDraw.Draw(square)
    offset = (size - modules * scale) // 2
    for y, row in enumerate(code.matrix_iter(scale=1, border=0)):
        for x, dark in enumerate(row):
            if dark:
                left, top = offset + x * scale, offset + y * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill=0)
    return square


# --- reading the cities of a 7 Wonders base game ----------------------------------------------


def draw_reading(draw: Draw, v: ReadingView, fonts: Fonts) -> None:
    """Whose city is read on a lit bar with the player's place ("2/4"); its number of cards
    in bold, big enough to read at arm's length; the last card read; the buttons."""
    draw.rectangle((0, 0, WIDTH - 1, 10), fill=1)
    position = f" {v.position}"
    room = WIDTH - 2 - text_width(position, fonts.title)
    draw_text(draw, (1, 1), fit(v.city, fonts.title, room), fonts.title, fill=0)
    draw_right(draw, WIDTH - 2, 1, position, fonts.title, fill=0)
    draw_centred(draw, WIDTH // 2, 15, v.count, fonts.bold)
    if v.last:
        draw_centred(draw, WIDTH // 2, 32, fit(v.last, fonts.title, WIDTH), fonts.title)
    _footer(draw, v.hint, fonts)
