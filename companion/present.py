"""From the game state and the controller's UI state to what the OLED shows.

`view(ui, state, context)` returns one of the screen values below, with names in the
configured language and prices from the engine's cheapest payments; `render(view)` draws it
as a 128x64 mode "1" image. Both are pure.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from companion.controller import (
    REVEALED_PER_ROUND,
    Choice,
    Context,
    Mode,
    UiState,
    draft_picker,
    library_draw,
    options,
    player_name,
    winner_line,
)
from companion.engine.cards import RESOURCES
from companion.engine.pricing import unit_prices
from companion.engine.scoring import score_sheet
from companion.engine.state import GameState, PendingKind, Player

WIDTH, HEIGHT = 128, 64
CARDS_PER_AGE = 20


@dataclass(frozen=True, slots=True)
class Option:
    """One line of a choice: label and detail; `blocked` when it cannot be taken."""

    label: str
    detail: str = ""
    blocked: bool = False


@dataclass(frozen=True, slots=True)
class IdleView:
    """The screen players glance at: whose turn, age, cards left, coins, pawn, loot, prices."""

    age: int
    cards_left: int
    player: str
    coins: tuple[int, int]
    pawn: int  # -9..9, positive toward p2's capital
    loot: tuple[int, ...]  # signed distances of the loot tokens still on the track
    prices: tuple[tuple[str, int], ...]  # the active player's trade price per resource
    active: int  # 0 for p1, 1 for p2
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class ChoiceView:
    """A title, a subtitle and options with a cursor (card actions, prompts, setup)."""

    title: str
    subtitle: str
    options: tuple[Option, ...]
    cursor: int
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class MessageView:
    """A few lines of text: feedback after an action, the undo question, the button map."""

    title: str
    lines: tuple[str, ...]
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class EndView:
    """The end of the game: the winner, the kind of victory and the scoring page's URL."""

    winner: str
    scores: tuple[int, int]
    url: str
    notice: str = ""
    status: str = ""


View = IdleView | ChoiceView | MessageView | EndView

BUTTON_MAP = (
    "left/right: move",
    "select: confirm",
    "hold left: back",
    "hold select: undo",
    "hold right: this help",
)


def view(ui: UiState, state: GameState, ctx: Context) -> View:
    """The screen for the UI state `ui` over the game `state`."""
    notice, status = ui.notice, ui.status
    match ui.mode:
        case Mode.IDLE:
            return idle_view(state, notice, status)
        case Mode.FEEDBACK:
            if ui.lines[:1] == ("Undone:",):
                return MessageView("Undone", ui.lines[1:], notice, status)
            return MessageView("Done", ui.lines, notice, status)
        case Mode.HELP:
            pairing = (f"phone code: {ctx.pairing}",) if ctx.pairing else ()
            return MessageView("Buttons", (*BUTTON_MAP, *pairing), notice, status)
        case Mode.UNDO:
            from companion.controller import describe_event

            last = describe_event(state, ctx.last, ctx.language) if ctx.last else "-"
            return MessageView("Undo?", (last, "select: undo it", "left/right: keep"), notice,
                               status)  # fmt: skip
        case Mode.END:
            return end_view(state, ctx, notice, status)
    title, subtitle = _titles(ui, state, ctx)
    choices = tuple(_option(c) for c in options(ui, state, ctx))
    return ChoiceView(title, subtitle, choices, min(ui.cursor, max(len(choices) - 1, 0)),
                      notice, status)  # fmt: skip


def _option(choice: Choice) -> Option:
    return Option(choice.label, choice.detail, choice.refusal is not None)


def idle_view(state: GameState, notice: str = "", status: str = "") -> IdleView:
    """Whose turn, age, cards left in it, coins, pawn and loot, and the trade prices."""
    player = state.current
    city, other = state.city(player), state.city(player.opponent)
    prices = unit_prices(city, other)
    return IdleView(
        age=state.age,
        cards_left=CARDS_PER_AGE - state.taken,
        player=player_name(state, player),
        coins=(state.cities[0].coins, state.cities[1].coins),
        pawn=state.position,
        loot=tuple(sorted(state.loot)),
        prices=tuple((r.value, prices[i]) for i, r in enumerate(RESOURCES)),
        active=0 if player is Player.P1 else 1,
        notice=notice,
        status=status,
    )


def end_view(state: GameState, ctx: Context, notice: str = "", status: str = "") -> EndView:
    """The winner and the victory, the totals, and the phone page's URL for the QR code."""
    sheet = score_sheet(state)
    totals = (sheet.p1.total, sheet.p2.total)
    return EndView(winner_line(state), totals, ctx.score_url, notice, status)


def _titles(ui: UiState, state: GameState, ctx: Context) -> tuple[str, str]:
    lang = ctx.language
    name = state.catalog.name
    match ui.mode:
        case Mode.FIRST_PLAYER:
            return "New game", "Who begins?"
        case Mode.WONDER_SETUP:
            return "Wonders", "Draft or first-game sets?"
        case Mode.DRAFT if len(ui.revealed) < REVEALED_PER_ROUND:
            round_number = len(ui.picks) // REVEALED_PER_ROUND + 1
            return f"Draft round {round_number}", (
                f"Scan wonder {len(ui.revealed) + 1}/{REVEALED_PER_ROUND}"
            )
        case Mode.DRAFT:
            picker = draft_picker(ui, state.catalog)
            return "Draft", f"{_default_name(picker)} picks"
        case Mode.TOKENS:
            return "Progress tokens", f"Scan token {len(ui.tokens) + 1}/5"
        case Mode.START:
            return "Ready", "Player 1 vs Player 2"
        case Mode.CARD if ui.card is not None:
            coins = state.city(state.current).coins
            return name(ui.card, lang), f"{player_name(state, state.current)}: {coins} coins"
        case Mode.PROMPT if state.pending is not None:
            return _prompt_titles(ui, state, ctx)
    return "", ""


def _default_name(player: Player) -> str:
    return "Player 1" if player is Player.P1 else "Player 2"


def _prompt_titles(ui: UiState, state: GameState, ctx: Context) -> tuple[str, str]:
    pending = state.pending
    assert pending is not None
    who = player_name(state, pending.player)
    match pending.kind:
        case PendingKind.PROGRESS:
            return "Progress token", f"{who} takes one"
        case PendingKind.DESTROY:
            return "Destroy", f"{who} destroys one"
        case PendingKind.MAUSOLEUM:
            return "Mausoleum", f"{who} builds one"
        case PendingKind.GREAT_LIBRARY if len(ui.tokens) < library_draw(state):
            return "Great Library", f"Scan drawn {len(ui.tokens) + 1}/{library_draw(state)}"
        case PendingKind.GREAT_LIBRARY:
            return "Great Library", f"{who} keeps one"
        case PendingKind.NEXT_AGE:
            return f"End of age {state.age}", f"{who} chooses"
    return "", ""  # pragma: no cover


# --- drawing --------------------------------------------------------------------------------


@cache
def default_font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: crisp on a 1-bit display and the same everywhere."""
    return ImageFont.load_default_imagefont()


def render(shown: View, font: ImageFont.ImageFont | None = None) -> Image.Image:
    """The 128x64 mode "1" image of a screen."""
    font = font or default_font()
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    match shown:
        case IdleView():
            _draw_idle(draw, shown, font)
        case ChoiceView():
            _draw_choice(draw, shown, font)
        case MessageView():
            _draw_message(draw, shown, font)
        case EndView():
            _draw_end(image, draw, shown, font)
    _draw_footer(draw, shown.notice or shown.status, font)
    return image


LINE = 10


COLUMNS = 21  # characters of the bitmap font on one line


def _right(draw: ImageDraw.ImageDraw, y: int, text: str, font: ImageFont.ImageFont) -> None:
    draw.text((WIDTH - int(draw.textlength(text, font=font)), y), text, font=font, fill=1)


def _draw_idle(draw: ImageDraw.ImageDraw, v: IdleView, font: ImageFont.ImageFont) -> None:
    draw.text((0, 0), f"Age {v.age}", font=font, fill=1)
    _right(draw, 0, f"{v.cards_left} card{'' if v.cards_left == 1 else 's'} left", font)
    draw.text((0, LINE), f"> {v.player}"[:COLUMNS], font=font, fill=1)
    draw.text((0, 2 * LINE), f"P1 {v.coins[0]}c", font=font, fill=1)
    _right(draw, 2 * LINE, f"P2 {v.coins[1]}c", font)
    # the military track: 19 spaces, the pawn as a filled box, loot as marks under them
    top = 3 * LINE + 2
    for space in range(-9, 10):
        x = 64 + space * 6
        draw.rectangle((x - 2, top, x + 2, top + 4), outline=1, fill=1 if space == v.pawn else 0)
    for loot in v.loot:
        x = 64 + loot * 6
        draw.line((x - 2, top + 7, x + 2, top + 7), fill=1)
    prices = " ".join(f"{name[0].upper()}{price}" for name, price in v.prices)
    draw.text((0, 4 * LINE + 1), prices, font=font, fill=1)


def _draw_choice(draw: ImageDraw.ImageDraw, v: ChoiceView, font: ImageFont.ImageFont) -> None:
    draw.text((0, 0), v.title[:COLUMNS], font=font, fill=1)
    draw.text((0, LINE), v.subtitle[:COLUMNS], font=font, fill=1)
    first = max(0, min(v.cursor - 1, len(v.options) - 3))
    for row, option in enumerate(v.options[first : first + 3]):
        y = 2 * LINE + 1 + row * LINE
        text = _option_text(option)
        if len(text) > COLUMNS:  # the detail goes to the bottom line when selected
            text = ("x " if option.blocked else "") + option.label
        if first + row == v.cursor:
            draw.rectangle((0, y, WIDTH - 1, y + LINE - 1), fill=1)
            draw.text((1, y), text[:COLUMNS], font=font, fill=0)
        else:
            draw.text((1, y), text[:COLUMNS], font=font, fill=1)
    if v.options and not (v.notice or v.status):
        chosen = v.options[v.cursor]
        if len(_option_text(chosen)) > COLUMNS and chosen.detail:
            _draw_footer(draw, chosen.detail, font)


def _option_text(option: Option) -> str:
    text = option.label + (f" {option.detail}" if option.detail else "")
    return ("x " + text) if option.blocked else text


def _draw_message(draw: ImageDraw.ImageDraw, v: MessageView, font: ImageFont.ImageFont) -> None:
    draw.text((0, 0), v.title[:COLUMNS], font=font, fill=1)
    wrapped = [part for line in v.lines for part in textwrap.wrap(line, COLUMNS) or [""]]
    for row, line in enumerate(wrapped[:5]):
        draw.text((0, LINE + row * LINE), line, font=font, fill=1)


def _draw_end(
    image: Image.Image, draw: ImageDraw.ImageDraw, v: EndView, font: ImageFont.ImageFont
) -> None:
    width = 12 if v.url else COLUMNS  # beside the QR code
    draw.text((0, 0), "Game over", font=font, fill=1)
    for row, line in enumerate(textwrap.wrap(v.winner, width)[:3]):
        draw.text((0, LINE + row * LINE), line, font=font, fill=1)
    draw.text((0, 4 * LINE), f"{v.scores[0]} - {v.scores[1]}", font=font, fill=1)
    if v.url:
        image.paste(qr_image(v.url, 64), (WIDTH - 64, 0))


@cache
def qr_image(url: str, size: int) -> Image.Image:
    """The URL as a QR code scaled to fit `size` pixels, mode "1", white on black."""
    import segno

    code = segno.make(url, error="l", micro=False)
    modules = int(code.symbol_size(scale=1, border=1)[0])
    scale = max(1, size // modules)
    matrix = Image.new("1", (size, size), 1)  # lit all round: a wider quiet zone
    inner = Image.new("1", (modules * scale, modules * scale), 1)
    draw = ImageDraw.Draw(inner)
    for y, row in enumerate(code.matrix_iter(scale=1, border=1)):
        for x, dark in enumerate(row):
            if dark:
                draw.rectangle((x * scale, y * scale, (x + 1) * scale - 1, (y + 1) * scale - 1),
                               fill=0)  # fmt: skip
    offset = (size - inner.width) // 2
    matrix.paste(inner, (offset, offset))
    return matrix


def _draw_footer(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.ImageFont) -> None:
    if not text:
        return
    y = HEIGHT - LINE - 1
    draw.rectangle((0, y, WIDTH - 1, HEIGHT - 1), fill=0)
    draw.line((0, y, WIDTH - 1, y), fill=1)
    draw.text((0, y + 1), text[:COLUMNS], font=font, fill=1)
