"""From the game state and the controller's UI state to what the OLED shows.

`view(ui, state, context)` returns one of the views of `companion.device.views`, with names in the
configured language and prices from the engine's cheapest payments. It is pure; drawing the
view is `companion.device.screens.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.device import guided, overhead, pantheon, solo, words
from companion.device.choices import (
    REVEALED_PER_ROUND,
    Choice,
    coachable,
    draft_picker,
    entered,
    is_scanning,
    options,
)
from companion.device.screens import render
from companion.device.ui import Context, Mode, UiState
from companion.device.views import (
    BUTTON_MAP,
    ChoiceView,
    EndView,
    HelpView,
    IdleView,
    Loot,
    MessageView,
    Option,
    PhoneView,
    View,
)
from companion.device.words import DEFAULT_NAMES, Voice, coins, event_line, price
from companion.engine.cards import RESOURCES
from companion.engine.decisions import DECISIONS
from companion.engine.events import Discard
from companion.engine.pricing import unit_prices
from companion.engine.rules import cards_left, library_draw
from companion.engine.scoring import score_sheet
from companion.engine.state import GameState, PendingKind, Player

__all__ = [
    "ChoiceView",
    "EndView",
    "HelpView",
    "IdleView",
    "Loot",
    "MessageView",
    "Option",
    "View",
    "end_view",
    "idle_view",
    "render",
    "view",
]

SHORT_DETAIL = 9  # characters of a detail shown beside an option; longer ones go below it


def view(
    ui: UiState, state: GameState, ctx: Context, choices: Sequence[Choice] | None = None
) -> View:
    """The screen for the UI state `ui` over the game `state`; `choices` are its options when
    the caller has them already (`options(ui, state, ctx)`: computed once per press)."""
    notice, status = ui.notice, ui.status
    match ui.mode:
        case Mode.IDLE if solo.box_acts(state, ctx):
            shown = idle_view(state, notice, status, ctx.names)
            return replace(shown, player=words.BOX, hint=solo.hint(state, ctx))
        case Mode.IDLE if ctx.overhead and state.structure is not None:
            places = overhead.unclear(state, ctx.table)
            status = status or words.unclear(state.catalog, state.age, places)
            return table_view(state, ctx, ui.cursor, notice, status)
        case Mode.IDLE:
            return idle_view(state, notice, status, ctx.names)
        case Mode.FEEDBACK:
            if ui.lines[:1] == ("Undone:",):
                return MessageView("Undone", ui.lines[1:], notice, status)
            return MessageView("Done", ui.lines, notice, status)
        case Mode.HELP:
            return HelpView(BUTTON_MAP, ctx.pairing, _help_line(ui, state, ctx), notice, status)
        case Mode.COACH if ctx.coach is not None:
            cursor = min(ui.cursor, max(len(ctx.coach.options) - 1, 0))
            return replace(ctx.coach, cursor=cursor, notice=notice, status=status)
        case Mode.COACH:
            return MessageView("Coach", (words.THINKING,), notice, status)
        case Mode.PHONE:
            return PhoneView(ctx.phone_url, ctx.pairing, notice, status)
        case Mode.NEW_GAME:
            return MessageView("New game?", words.NEW_GAME_QUESTION, notice, status)
        case Mode.UNDO:
            voice = Voice.oled(state, ctx.language, ctx.names)
            last = event_line(voice, state, ctx.last) if ctx.last else "-"
            return MessageView("Undo?", (last, "select: undo it", "left/right: keep"), notice,
                               status)  # fmt: skip
        case Mode.END:
            return end_view(state, ctx, notice, status)
        case Mode.REVEAL:
            index = guided.reveal_position(state)
            where = "" if index is None else words.place(state.catalog, state.age, index)
            return MessageView(words.REVEAL_TITLE, (words.REVEAL_ASK, where), notice, status)
    title, subtitle = _titles(ui, state, ctx)
    listed = options(ui, state, ctx) if choices is None else choices
    rows = tuple(_option(c) for c in listed)
    cursor = min(ui.cursor, max(len(rows) - 1, 0))
    hint, seen = _hint(ui, state, ctx)
    if rows and seen:  # the options fill the screen: what was scanned goes on the bottom line
        scanned = "scanned: " + ", ".join(seen)
        rows = tuple(replace(c, note=c.note or scanned) for c in rows)
    if ui.mode is Mode.GUIDED and ctx.overhead:  # the overhead camera reads the deal too
        rows = tuple(replace(c, note=c.note or words.CAMERA_READS_DEAL) for c in rows)
    return ChoiceView(title, subtitle, rows, cursor, hint, seen, notice, status)


def _help_line(ui: UiState, state: GameState, ctx: Context) -> str:
    """The button map's last line: what left (the coach) and right (the phone page) show."""
    coach = coachable(ui.under or UiState(), state)
    if coach and ctx.phone_url:
        return words.SEE_BOTH
    if coach:
        return words.SEE_COACH
    return words.SEE_PHONE if ctx.phone_url else ""


def _option(choice: Choice) -> Option:
    """The option of a choice: a price beside it, what is bought (or why it cannot be paid)
    on the bottom line."""
    blocked = choice.refusal is not None
    if choice.payment is not None:
        detail, note = price(choice.payment)
        return Option(choice.label, detail, blocked, choice.refusal or note)
    if isinstance(choice.event, Discard) or len(choice.detail) <= SHORT_DETAIL:
        return Option(choice.label, choice.detail, blocked)
    return Option(choice.label, "", blocked, choice.detail)


def _hint(ui: UiState, state: GameState, ctx: Context) -> tuple[str, tuple[str, ...]]:
    """What to do on a screen with nothing to choose yet, and what was scanned so far."""
    name = Voice.oled(state, ctx.language, ctx.names).name
    match ui.mode:
        case Mode.DRAFT if len(ui.revealed) < REVEALED_PER_ROUND:
            return "Scan the wonders shown:", tuple(name(w) for w in ui.revealed)
        case Mode.TOKENS:
            return "Scan the board's tokens:", tuple(name(t) for t in ui.tokens)
        case Mode.PROMPT if is_scanning(ui, state):
            # after a restart mid-draw, the players see which ones already count
            what = "cards" if pantheon.is_draw(ui, state) else "tokens"
            if state.pending is not None and state.pending.kind is PendingKind.ENKI:
                what = "tokens"
            return f"Scan the {what} drawn:", tuple(name(t) for t in ui.tokens)
        case Mode.PROMPT if solo.box_acts(state, ctx):
            return words.THINKING, ()
    return "", ()


def short_label(name: str, index: int) -> str:
    """The label beside a player's coins: P1/P2 for the default names, else 4 letters."""
    return f"P{index + 1}" if name == DEFAULT_NAMES[index] else name[:4]


def idle_view(
    state: GameState, notice: str = "", status: str = "", given: tuple[str, str] = ("", "")
) -> IdleView:
    """Whose turn, age, cards left in it, coins, pawn and loot, and the trade prices; the
    players named as on the phone (`given`), else as in the setup."""
    player = state.current
    city, other = state.city(player), state.city(player.opponent)
    prices = unit_prices(city, other)
    names = Voice.oled(state, given=given).players
    track = state.catalog.track
    tokens = sorted(state.loot, key=lambda signed: (abs(signed), signed))
    zones = [(signed, track.loot_token_at(signed)) for signed in tokens]
    loot = tuple(
        Loot(signed, zone.last * (1 if signed > 0 else -1), zone.loot)
        for signed, zone in zones
        if zone is not None
    )
    return IdleView(
        age=state.age,
        cards_left=cards_left(state),
        player=names[0 if player is Player.P1 else 1],
        coins=(state.cities[0].coins, state.cities[1].coins),
        pawn=state.position,
        loot=tuple(sorted(loot, key=lambda t: t.first)),
        prices=tuple((r.value, prices[i]) for i, r in enumerate(RESOURCES)),
        active=0 if player is Player.P1 else 1,
        labels=(short_label(names[0], 0), short_label(names[1], 1)),
        capital=track.capital,
        hint=words.IDLE_HINT,
        notice=notice,
        status=status,
    )


def table_view(state: GameState, ctx: Context, cursor: int, notice: str = "",
               status: str = "") -> ChoiceView:  # fmt: skip
    """Between turns with the overhead camera: the accessible cards, each with its price for
    the player to move and how to pay it (the cursor's card on the bottom line)."""
    voice = Voice.oled(state, ctx.language, ctx.names)
    found = overhead.offers(state, voice)
    who = voice.player(state.current)
    title = f"{who}: {coins(state.city(state.current).coins)}"
    lines = tuple(Option(o.name, o.price, not o.affordable, o.how) for o in found)
    at = min(cursor, max(len(lines) - 1, 0))
    return ChoiceView(title, words.to_take(len(lines)), lines, at, "", (), notice, status)


def end_view(state: GameState, ctx: Context, notice: str = "", status: str = "") -> EndView:
    """The winner and the victory, the totals, and the phone page's URL for the QR code."""
    sheet = score_sheet(state)
    totals = (sheet.p1.total, sheet.p2.total)
    voice = Voice.oled(state, ctx.language, ctx.names)
    winner = "" if state.shared or state.winner is None else voice.player(state.winner)
    if winner and state.winner is ctx.box:
        winner = words.BOX
    victory = state.victory.value if state.victory is not None else ""
    return EndView(winner, victory, totals, ctx.score_url, notice, status)


def _titles(ui: UiState, state: GameState, ctx: Context) -> tuple[str, str]:
    voice = Voice.oled(state, ctx.language, ctx.names)
    name = voice.name
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
        case Mode.DRAFT if solo.draft_pick(ui, state.catalog, ctx, REVEALED_PER_ROUND):
            return "Draft", words.BOX_TAKES
        case Mode.DRAFT:
            picker = draft_picker(ui, state.catalog)
            return "Draft", f"{_default_name(picker)} picks"
        case Mode.TOKENS:
            count = state.catalog.rules.tokens_on_board
            return "Progress tokens", f"Scan token {len(ui.tokens) + 1}/{count}"
        case Mode.START:
            return ("Ready: Pantheon" if ui.expansions else "Ready"), words.versus(ui.names)
        case Mode.PLAYERS:
            return words.PLAYERS, words.who_is(ui.naming)
        case Mode.CARD if ui.card is not None:
            money = state.city(state.current).coins
            return name(ui.card), f"{voice.player(state.current)}: {coins(money)}"
        case Mode.PANTHEON:
            money = state.city(state.current).coins
            return words.PANTHEON_TITLE, f"{voice.player(state.current)}: {coins(money)}"
        case Mode.PROMPT if state.pending is not None:
            return _prompt_titles(ui, state, ctx)
        case Mode.GUIDED:
            return entered(ui, state).titles()
    return "", ""


def _default_name(player: Player) -> str:
    return "Player 1" if player is Player.P1 else "Player 2"


def _prompt_titles(ui: UiState, state: GameState, ctx: Context) -> tuple[str, str]:
    pending = state.pending
    assert pending is not None
    voice = Voice.oled(state, ctx.language, ctx.names)
    who = words.BOX if ctx.box is pending.player else voice.player(pending.player)
    wording = DECISIONS[pending.kind]
    count = 0
    if pending.kind is PendingKind.GREAT_LIBRARY and len(ui.tokens) < library_draw(state):
        count = library_draw(state)
    elif pantheon.is_draw(ui, state):
        count = pantheon.draw_count(state)
    if count and ctx.box is pending.player:  # solo: the human draws for the box
        to_place = state.pantheon.to_place if state.pantheon is not None else ()
        return words.box_draw(pending.kind, len(ui.tokens), count, to_place[0] if to_place else "")
    if count:
        return wording.title, f"Scan drawn {len(ui.tokens) + 1}/{count}"
    if pending.kind is PendingKind.NEXT_AGE:  # the age that ends heads the choice
        return f"End of age {state.age}", f"{who} {wording.short}"
    return wording.title, f"{who} {wording.short}"
