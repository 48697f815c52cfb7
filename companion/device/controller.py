"""The scan-and-confirm state machine: one input in, the next screen and maybe one event out.

`step(ui, state, input, context)` is pure: no I/O, no clock (a `Tick` carries the time). The
run loop (`companion.device.app`) submits the returned event to the journal before it shows the
screen, and calls `Step.refused` if the journal's game refuses it after all.

Inputs are `Press(name, long)` from the buttons or the keyboard, `Scan(card)` from the camera
(`card` None: a foreign or unknown QR code), `Status(problem)` from the hardware watch, and
`Tick(now)`. The button map: left/right move the cursor, select confirms, a long left goes
back, a long select asks to undo the last confirmed action, a long right shows the button map.
Nothing changes the game until select confirms a choice; a scan only fills in what the camera
saw (a card to act on, the revealed wonders, the tokens on the board) or moves the cursor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.engine.cards import CardId, Catalog, Color, TokenId, WonderId
from companion.engine.events import Build as BuildCard
from companion.engine.events import (
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Destroy,
    Discard,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Setup,
    TakeProgress,
)
from companion.engine.pricing import Payment, cheapest_payment
from companion.engine.rules import apply, available_library_tokens, was_taken
from companion.engine.state import GameState, PendingKind, Phase, Player

FEEDBACK_SECONDS = 4.0  # a feedback screen gives way to the next screen after this long
DEFAULT_NAMES = ("Player 1", "Player 2")
LIBRARY_DRAW = 3
BOARD_TOKENS = 5
REVEALED_PER_ROUND = 4


# --- inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Press:
    """A button press: `left`, `select` or `right`; `long` when held (about a second)."""

    name: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class Scan:
    """A sticker seen by the camera: a card, wonder or token id, or None for a foreign code.

    `at` is when its frame was captured (perf_counter), for the latency measurement.
    """

    card: str | None
    at: float | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Status:
    """A part of the kit lost ("camera lost") or back (None)."""

    problem: str | None


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes (monotonic seconds): feedback screens time out."""

    now: float


Input = Press | Scan | Status | Tick


# --- the UI state ---------------------------------------------------------------------------


class Mode(StrEnum):
    """Which screen the controller is on."""

    FIRST_PLAYER = "first_player"  # setup: who begins
    WONDER_SETUP = "wonder_setup"  # setup: draft or first-game sets
    DRAFT = "draft"  # setup: scan the 4 revealed wonders, then pick
    TOKENS = "tokens"  # setup: scan the 5 progress tokens on the board
    START = "start"  # setup: confirm the whole setup
    IDLE = "idle"  # waiting for a card
    CARD = "card"  # a card was scanned: build, discard or wonder
    PROMPT = "prompt"  # a pending decision of the rules
    FEEDBACK = "feedback"  # what the last action did
    UNDO = "undo"  # confirm an undo
    HELP = "help"  # the button map
    END = "end"  # the game is over


@dataclass(frozen=True, slots=True)
class UiState:
    """Everything the screen needs beyond the game state; saved beside the journal.

    `under` is the screen that HELP and UNDO return to. `events` is the number of effective
    events of the game when the state was made: a saved UiState whose count differs from the
    journal's is stale, and the screen is derived from the game state instead.
    """

    mode: Mode = Mode.FIRST_PLAYER
    cursor: int = 0
    card: str | None = None
    first: Player = Player.P1
    picks: tuple[str, ...] = ()  # draft: wonders picked, in draft order
    revealed: tuple[str, ...] = ()  # draft: wonders revealed this round
    tokens: tuple[str, ...] = ()  # setup: tokens on the board; Great Library: tokens drawn
    lines: tuple[str, ...] = ()  # feedback lines
    until: float | None = None  # feedback: Tick time when it gives way
    notice: str = ""  # one-line reason for the last refusal
    status: str = ""  # a hardware problem, e.g. "camera lost"
    under: UiState | None = None
    events: int = 0

    def to_json(self) -> dict[str, Any]:
        """A JSON object for the journal's meta table."""
        return {
            "mode": self.mode.value,
            "cursor": self.cursor,
            "card": self.card,
            "first": self.first.value,
            "picks": list(self.picks),
            "revealed": list(self.revealed),
            "tokens": list(self.tokens),
            "lines": list(self.lines),
            "notice": self.notice,
            "under": None if self.under is None else self.under.to_json(),
            "events": self.events,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> UiState:
        """The UiState of `to_json`; a feedback timer restarts, a hardware status is re-read.

        Raises:
            ValueError: not a saved UiState.
        """
        try:
            under = raw.get("under")
            return cls(
                mode=Mode(raw["mode"]),
                cursor=int(raw["cursor"]),
                card=None if raw["card"] is None else str(raw["card"]),
                first=Player(raw["first"]),
                picks=tuple(str(x) for x in raw["picks"]),
                revealed=tuple(str(x) for x in raw["revealed"]),
                tokens=tuple(str(x) for x in raw["tokens"]),
                lines=tuple(str(x) for x in raw["lines"]),
                notice=str(raw["notice"]),
                under=None if under is None else cls.from_json(under),
                events=int(raw["events"]),
            )
        except (KeyError, TypeError, AttributeError) as bad:
            raise ValueError(f"not a saved screen state: {bad}") from None


@dataclass(frozen=True, slots=True)
class Context:
    """What the controller reads besides the state: language, the last effective event
    (for the undo question), how many effective events there are, the score page URL."""

    language: str = "en"
    last: Event | None = None
    events: int = 0
    score_url: str = ""
    pairing: str = ""


@dataclass(frozen=True, slots=True)
class Choice:
    """One option on a screen: its label, the detail line, and what selecting it does.

    `event` is submitted when confirmed; `refusal` (one line) is shown instead when the option
    cannot be taken (not affordable); `value` is a local choice (setup, Great Library draw).
    """

    label: str
    detail: str = ""
    event: Event | None = None
    refusal: str | None = None
    value: str | None = None
    payment: Payment | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of one input: the next UI state, its screen, and an event to submit.

    `undo` asks the run loop to undo the last confirmed event (then `undone` gives the
    screen); `new_game` asks it to start the next game after a finished one.
    """

    ui: UiState
    view: Any
    event: Event | None = None
    undo: bool = False
    new_game: bool = False

    def refused(self, reason: str, state: GameState, context: Context) -> Step:
        """The step when the journal's game refused `event`: the screen says why."""
        ui = replace(self.ui, notice=reason, lines=(), until=None)
        if ui.mode is Mode.FEEDBACK:
            ui = settle(state, context)
            ui = replace(ui, notice=reason)
        return Step(ui, present_view(ui, state, context))


# --- the machine ----------------------------------------------------------------------------


def initial(state: GameState, context: Context | None = None) -> UiState:
    """The screen to show for `state` when nothing else is known (start, stale save)."""
    return settle(state, context or Context())


def settle(state: GameState, context: Context, *, status: str = "") -> UiState:
    """The natural screen of the game state: setup, idle, a prompt, or the end."""
    if state.phase is Phase.SETUP:
        mode = Mode.FIRST_PLAYER
    elif state.phase is Phase.FINISHED:
        mode = Mode.END
    elif state.pending is not None:
        mode = Mode.PROMPT
    else:
        mode = Mode.IDLE
    return UiState(mode=mode, status=status, events=context.events)


def resume(saved: UiState | None, state: GameState, context: Context) -> UiState:
    """The screen to show after a restart: the saved one if it matches the journal."""
    if saved is None or saved.events != context.events:
        return initial(state, context)
    expected = settle(state, context).mode
    setup_modes = {Mode.FIRST_PLAYER, Mode.WONDER_SETUP, Mode.DRAFT, Mode.TOKENS, Mode.START}
    base = saved.under.mode if saved.under is not None else saved.mode
    if base in (Mode.FEEDBACK, Mode.CARD) and expected in (Mode.IDLE, Mode.PROMPT, Mode.END):
        return saved
    fits = base in setup_modes if expected is Mode.FIRST_PLAYER else base is expected
    return saved if fits else initial(state, context)


def step(ui: UiState, state: GameState, given: Input, context: Context | None = None) -> Step:
    """The next UI state and screen after one input, and the event to submit, if any."""
    ctx = context or Context()
    ui = replace(ui, events=ctx.events)
    match given:
        case Status(problem):
            status = problem or ""
            under = None if ui.under is None else replace(ui.under, status=status)
            return _show(replace(ui, status=status, under=under), state, ctx)
        case Tick(now):
            if ui.mode is Mode.FEEDBACK and ui.until is not None and now >= ui.until:
                return _show(_next(ui, state, ctx), state, ctx)
            if ui.mode is Mode.FEEDBACK and ui.until is None:
                return _show(replace(ui, until=now + FEEDBACK_SECONDS), state, ctx)
            return _show(ui, state, ctx)
        case Press() | Scan():
            ui = replace(ui, notice="")
            if ui.mode is Mode.FEEDBACK:  # any input ends the feedback; a scan is then used
                ui = _next(ui, state, ctx)
                if isinstance(given, Press) and not given.long:
                    return _show(ui, state, ctx)
            if isinstance(given, Press):
                return _press(ui, state, given, ctx)
            return _scan(ui, state, given.card, ctx)
    raise TypeError(f"not an input: {given!r}")  # pragma: no cover


def _next(ui: UiState, state: GameState, ctx: Context) -> UiState:
    return settle(state, ctx, status=ui.status)


def _show(ui: UiState, state: GameState, ctx: Context, event: Event | None = None) -> Step:
    return Step(ui, present_view(ui, state, ctx), event)


def _notice(ui: UiState, state: GameState, ctx: Context, reason: str) -> Step:
    return _show(replace(ui, notice=reason), state, ctx)


def present_view(ui: UiState, state: GameState, ctx: Context) -> Any:
    """The view of the screen (see `companion.device.present`)."""
    from companion.device import present  # present imports this module's types

    return present.view(ui, state, ctx)


# --- buttons --------------------------------------------------------------------------------


def _press(ui: UiState, state: GameState, press: Press, ctx: Context) -> Step:
    if press.long:
        return _long_press(ui, state, press.name, ctx)
    if ui.mode in (Mode.HELP,):
        return _show(ui.under or settle(state, ctx, status=ui.status), state, ctx)
    if ui.mode is Mode.UNDO:
        under = ui.under or settle(state, ctx, status=ui.status)
        if press.name == "select":
            return Step(replace(under, notice=""), None, undo=True)
        return _show(under, state, ctx)
    if ui.mode is Mode.END and press.name == "select":
        return Step(ui, None, new_game=True)
    choices = options(ui, state, ctx)
    if press.name in ("left", "right") and choices:
        delta = -1 if press.name == "left" else 1
        return _show(replace(ui, cursor=(ui.cursor + delta) % len(choices)), state, ctx)
    if press.name != "select" or not choices:
        if press.name == "select" and ui.mode is Mode.IDLE:
            return _notice(ui, state, ctx, "Scan a card first")
        return _show(ui, state, ctx)
    chosen = choices[min(ui.cursor, len(choices) - 1)]
    if chosen.refusal is not None:
        return _notice(ui, state, ctx, chosen.refusal)
    if chosen.event is not None:
        return _confirm(ui, state, chosen.event, ctx)
    return _local_choice(ui, state, chosen.value or "", ctx)


def undone(ui: UiState, before: GameState, after: GameState, event: Event, ctx: Context) -> Step:
    """The screen after the run loop undid `event`: what was undone, then the game's screen."""
    if isinstance(event, Setup) and (screens := setup_screens(event, after.catalog)):
        ready = replace(screens, notice="Setup undone", status=ui.status, events=ctx.events)
        return Step(ready, present_view(ready, after, ctx))  # nothing to scan again
    lines = ("Undone:", describe_event(before, event, ctx.language))
    done = UiState(mode=Mode.FEEDBACK, lines=lines, status=ui.status, events=ctx.events)
    return Step(done, present_view(done, after, ctx))


def setup_screens(event: Setup, catalog: Catalog) -> UiState | None:
    """The last setup screen (ready to start) that gives `event`, with the draft's picks in
    draft order; None when no draft gives its wonders."""
    first = event.first_player
    wonders = {Player.P1: list(event.wonders[0]), Player.P2: list(event.wonders[1])}
    picks: tuple[str, ...] = ()
    if event.wonders != catalog.rules.first_game_wonders:
        try:
            picks = tuple(
                wonders[first if letter == "A" else first.opponent].pop(0)
                for letter in catalog.rules.draft_order
            )
        except IndexError:
            return None
    ui = UiState(mode=Mode.START, first=first, picks=picks, tokens=tuple(event.progress_tokens))
    return ui if setup_event(ui, catalog) == replace(event, players=DEFAULT_NAMES) else None


def _long_press(ui: UiState, state: GameState, name: str, ctx: Context) -> Step:
    base = ui.under if ui.mode in (Mode.HELP, Mode.UNDO) and ui.under else ui
    if name == "right":
        return _show(UiState(mode=Mode.HELP, status=ui.status, under=base, events=ui.events),
                     state, ctx)  # fmt: skip
    if name == "left":
        return _back(base, state, ctx)
    if name == "select":
        if state.phase is Phase.SETUP:
            return _back(base, state, ctx)
        if ctx.last is None:
            return _notice(base, state, ctx, "Nothing to undo")
        return _show(UiState(mode=Mode.UNDO, status=ui.status, under=base, events=ui.events),
                     state, ctx)  # fmt: skip
    return _show(ui, state, ctx)


def _back(ui: UiState, state: GameState, ctx: Context) -> Step:
    """Long left: leave a card or a half-made choice; in setup, go one step back."""
    match ui.mode:
        case Mode.CARD:
            return _show(settle(state, ctx, status=ui.status), state, ctx)
        case Mode.PROMPT if ui.tokens:
            return _show(replace(ui, tokens=ui.tokens[:-1], cursor=0), state, ctx)
        case Mode.WONDER_SETUP:
            return _show(replace(ui, mode=Mode.FIRST_PLAYER, cursor=0), state, ctx)
        case Mode.DRAFT if ui.revealed and len(ui.picks) % REVEALED_PER_ROUND == 0:
            return _show(replace(ui, revealed=ui.revealed[:-1], cursor=0), state, ctx)
        case Mode.DRAFT if ui.picks and len(ui.picks) % REVEALED_PER_ROUND == 0:
            # the start of the next round: back to the last choice of the round before
            revealed = ui.picks[-REVEALED_PER_ROUND:]
            back = replace(ui, picks=ui.picks[:-2], revealed=revealed, cursor=0)
            return _show(back, state, ctx)
        case Mode.DRAFT if ui.picks:
            picks = ui.picks[:-1]
            if len(picks) % REVEALED_PER_ROUND == REVEALED_PER_ROUND - 1:
                picks = picks[:-1]  # the last wonder of a round was given, not chosen
            return _show(replace(ui, picks=picks, cursor=0), state, ctx)
        case Mode.DRAFT:
            return _show(replace(ui, mode=Mode.WONDER_SETUP, cursor=0), state, ctx)
        case Mode.TOKENS if ui.tokens:
            return _show(replace(ui, tokens=ui.tokens[:-1]), state, ctx)
        case Mode.TOKENS:
            if ui.picks:
                revealed = ui.picks[-REVEALED_PER_ROUND:]
                back = replace(ui, mode=Mode.DRAFT, picks=ui.picks[:-2], revealed=revealed)
                return _show(replace(back, cursor=0), state, ctx)
            return _show(replace(ui, mode=Mode.WONDER_SETUP, cursor=0), state, ctx)
        case Mode.START:
            return _show(replace(ui, mode=Mode.TOKENS, tokens=ui.tokens[:-1]), state, ctx)
    return _show(ui, state, ctx)


def _confirm(ui: UiState, state: GameState, event: Event, ctx: Context) -> Step:
    """Select on an option with an event: check it with the rules, then say what it does."""
    try:
        after = apply(state, event)
    except IllegalEvent as refused:
        return _notice(ui, state, ctx, str(refused))
    lines = describe(state, after, event, ctx.language)
    done = UiState(mode=Mode.FEEDBACK, lines=lines, status=ui.status, events=ctx.events + 1)
    next_ctx = replace(ctx, events=ctx.events + 1, last=event)
    return Step(done, present_view(done, after, next_ctx), event)


def _local_choice(ui: UiState, state: GameState, value: str, ctx: Context) -> Step:
    """Select on a setup option or a Great Library draw."""
    match ui.mode:
        case Mode.FIRST_PLAYER:
            return _show(replace(ui, mode=Mode.WONDER_SETUP, first=Player(value), cursor=0),
                         state, ctx)  # fmt: skip
        case Mode.WONDER_SETUP if value == "first_game":
            return _show(replace(ui, mode=Mode.TOKENS, picks=(), revealed=(), cursor=0),
                         state, ctx)  # fmt: skip
        case Mode.WONDER_SETUP:
            return _show(replace(ui, mode=Mode.DRAFT, picks=(), revealed=(), cursor=0),
                         state, ctx)  # fmt: skip
        case Mode.DRAFT:
            return _show(_pick_wonder(ui, state.catalog, value), state, ctx)
        case Mode.START:
            return _confirm(ui, state, setup_event(ui, state.catalog), ctx)
        case Mode.PROMPT:  # the Great Library: a token drawn
            return _show(replace(ui, tokens=(*ui.tokens, value), cursor=0), state, ctx)
    return _show(ui, state, ctx)


def _pick_wonder(ui: UiState, catalog: Catalog, wonder: str) -> UiState:
    picks = (*ui.picks, wonder)
    remaining = [w for w in ui.revealed if w not in picks]
    if len(remaining) == 1:  # the last wonder of a round goes to whoever is left
        picks = (*picks, remaining[0])
    if len(picks) == 2 * REVEALED_PER_ROUND:
        return replace(ui, mode=Mode.TOKENS, picks=picks, revealed=(), cursor=0)
    if len(picks) % REVEALED_PER_ROUND == 0:
        return replace(ui, picks=picks, revealed=(), cursor=0)
    return replace(ui, picks=picks, cursor=0)


def draft_picker(ui: UiState, catalog: Catalog) -> Player:
    """Who picks the next wonder of the draft (the order is in data: ABBA BAAB)."""
    order = catalog.rules.draft_order
    letter = order[min(len(ui.picks), len(order) - 1)]
    return ui.first if letter == "A" else ui.first.opponent


def setup_wonders(ui: UiState, catalog: Catalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each player's wonders: the draft's picks, or the first-game sets."""
    if not ui.picks:
        p1, p2 = catalog.rules.first_game_wonders
        return tuple(p1), tuple(p2)
    mine: dict[Player, list[str]] = {Player.P1: [], Player.P2: []}
    for index, wonder in enumerate(ui.picks):
        letter = catalog.rules.draft_order[index]
        mine[ui.first if letter == "A" else ui.first.opponent].append(wonder)
    return tuple(mine[Player.P1]), tuple(mine[Player.P2])


def setup_event(ui: UiState, catalog: Catalog) -> Setup:
    """The setup event that the setup screens describe."""
    p1, p2 = setup_wonders(ui, catalog)
    return Setup(
        first_player=ui.first,
        progress_tokens=tuple(TokenId(t) for t in ui.tokens),
        wonders=(tuple(WonderId(w) for w in p1), tuple(WonderId(w) for w in p2)),
        players=DEFAULT_NAMES,
    )


# --- scans ----------------------------------------------------------------------------------


def _scan(ui: UiState, state: GameState, card: str | None, ctx: Context) -> Step:
    if ui.mode in (Mode.HELP, Mode.UNDO):
        ui = ui.under or settle(state, ctx, status=ui.status)
    if card is None:
        return _notice(ui, state, ctx, "Unknown QR code")
    catalog = state.catalog
    name = catalog.name(card, ctx.language)
    match ui.mode:
        case Mode.DRAFT:
            return _scan_draft(ui, state, card, name, ctx)
        case Mode.TOKENS:
            if not catalog.is_token(card):
                return _notice(ui, state, ctx, f"{name}: not a progress token")
            if card in ui.tokens:
                return _notice(ui, state, ctx, f"{name}: already scanned")
            tokens = (*ui.tokens, card)
            mode = Mode.START if len(tokens) == BOARD_TOKENS else Mode.TOKENS
            return _show(replace(ui, tokens=tokens, mode=mode, cursor=0), state, ctx)
        case Mode.FIRST_PLAYER | Mode.WONDER_SETUP | Mode.START:
            return _notice(ui, state, ctx, "Finish the setup first")
        case Mode.END:
            return _notice(ui, state, ctx, "The game is over")
        case Mode.PROMPT:
            return _scan_prompt(ui, state, card, name, ctx)
        case Mode.CARD if catalog.is_wonder(card):
            return _point_at(ui, state, ctx, card, f"{name}: not your wonder")
    return _scan_card(ui, state, card, name, ctx)


def _scan_draft(ui: UiState, state: GameState, card: str, name: str, ctx: Context) -> Step:
    if not state.catalog.is_wonder(card):
        return _notice(ui, state, ctx, f"{name}: not a wonder")
    if len(ui.revealed) < REVEALED_PER_ROUND:
        if card in ui.revealed or card in ui.picks:
            return _notice(ui, state, ctx, f"{name}: already scanned")
        return _show(replace(ui, revealed=(*ui.revealed, card), cursor=0), state, ctx)
    return _point_at(ui, state, ctx, card, f"{name}: not on offer")


def _scan_prompt(ui: UiState, state: GameState, card: str, name: str, ctx: Context) -> Step:
    pending = state.pending
    if (
        pending is not None
        and pending.kind is PendingKind.GREAT_LIBRARY
        and len(ui.tokens) < library_draw(state)
    ):
        if card not in library_pool(state):
            return _notice(ui, state, ctx, f"{name}: cannot be drawn")
        if card in ui.tokens:
            return _notice(ui, state, ctx, f"{name}: already drawn")
        return _show(replace(ui, tokens=(*ui.tokens, card), cursor=0), state, ctx)
    return _point_at(ui, state, ctx, card, f"{name}: not a choice here")


def _point_at(ui: UiState, state: GameState, ctx: Context, target: str, refusal: str) -> Step:
    """Move the cursor to the option of `target` (a scan points, select confirms)."""
    for index, choice in enumerate(options(ui, state, ctx)):
        if target in (choice.value, _target_of(choice.event)):
            return _show(replace(ui, cursor=index), state, ctx)
    return _notice(ui, state, ctx, refusal)


def _target_of(event: Event | None) -> str | None:
    match event:
        case BuildWonder():
            return event.wonder
        case TakeProgress() | KeepLibraryToken():
            return event.token
        case Destroy() | BuildFromDiscard():
            return event.card
    return None


def _scan_card(ui: UiState, state: GameState, card: str, name: str, ctx: Context) -> Step:
    catalog = state.catalog
    if not catalog.is_card(card):
        return _notice(ui, state, ctx, f"{name}: not an age card")
    age = catalog.card(card).age
    if age != state.age:
        return _notice(ui, state, ctx, f"{name}: age {age} card")
    if was_taken(state, CardId(card)):
        return _notice(ui, state, ctx, f"{name}: already played")
    try:  # what else the rules refuse: already taken, not accessible in a dealt structure
        apply(state, Discard(state.current, CardId(card)))
    except IllegalEvent as refused:
        return _notice(ui, state, ctx, str(refused))
    return _show(replace(ui, mode=Mode.CARD, card=card, cursor=0, under=None), state, ctx)


# --- the options of each screen ------------------------------------------------------------


def player_name(state: GameState, player: Player) -> str:
    """The player's name, "Player 1" / "Player 2" when none was given."""
    index = 0 if player is Player.P1 else 1
    return state.names[index] or DEFAULT_NAMES[index]


def options(ui: UiState, state: GameState, context: Context | None = None) -> list[Choice]:
    """The options of the screen, in cursor order (empty on screens without a choice)."""
    ctx = context or Context()
    lang = ctx.language
    catalog = state.catalog
    match ui.mode:
        case Mode.FIRST_PLAYER:
            return [
                Choice(f"{DEFAULT_NAMES[i]} begins", value=p.value) for i, p in enumerate(Player)
            ]
        case Mode.WONDER_SETUP:
            return [
                Choice("Wonder draft", "scan 4 + 4 wonders", value="draft"),
                Choice("First-game sets", "fixed wonders", value="first_game"),
            ]
        case Mode.DRAFT if len(ui.revealed) == REVEALED_PER_ROUND:
            return [
                Choice(catalog.name(w, lang), value=w) for w in ui.revealed if w not in ui.picks
            ]
        case Mode.START:
            return [Choice("Start the game", value="start")]
        case Mode.CARD if ui.card is not None:
            return card_options(state, CardId(ui.card), lang)
        case Mode.PROMPT:
            return prompt_options(ui, state, lang)
    return []


def card_options(state: GameState, card: CardId, language: str = "en") -> list[Choice]:
    """Build, discard, and a wonder per unbuilt wonder, with the cheapest payments."""
    catalog = state.catalog
    player = state.current
    city, other = state.city(player), state.city(player.opponent)
    target = catalog.card(card)
    payment = cheapest_payment(catalog, city, other, target)
    build = Choice(
        "Build",
        price_text(payment, language),
        event=BuildCard(player, card),
        refusal=None if payment.affordable(city.coins) else f"Not enough coins: {payment.total}",
        payment=payment,
    )
    gain = 2 + city.count(Color.YELLOW)
    choices = [build, Choice("Discard", f"+{coins_text(gain)}", event=Discard(player, card))]
    for wonder_id in city.wonders_unbuilt:
        price = cheapest_payment(catalog, city, other, catalog.wonder(wonder_id))
        choices.append(
            Choice(
                catalog.name(wonder_id, language),
                price_text(price, language),
                event=BuildWonder(player, wonder_id, card),
                refusal=None
                if price.affordable(city.coins)
                else f"Not enough coins: {price.total}",
                payment=price,
            )
        )
    return choices


def coins_text(amount: int) -> str:
    """An amount of coins in words: "1 coin", "-1 coin", "3 coins"."""
    return f"{amount} coin" if abs(amount) == 1 else f"{amount} coins"


def price_text(payment: Payment, language: str = "en") -> str:
    """ "free (chain)", "free", "3 coins: 1 wood 2 glass" """
    if payment.chain:
        return "free (chain)"
    if payment.total == 0:
        return "free"
    bought = " ".join(f"{units} {resource}" for resource, units, _ in payment.bought)
    coins = coins_text(payment.total)
    return f"{coins}: {bought}" if bought else coins


def prompt_options(ui: UiState, state: GameState, language: str = "en") -> list[Choice]:
    """The options of the pending decision."""
    pending = state.pending
    if pending is None:
        return []
    catalog = state.catalog
    player = pending.player
    name = catalog.name
    match pending.kind:
        case PendingKind.PROGRESS:
            return [
                Choice(name(t, language), event=TakeProgress(player, t)) for t in state.board_tokens
            ]
        case PendingKind.DESTROY:
            return [
                Choice(name(c, language), event=Destroy(player, c))
                for c in destroyable(state, player)
            ]
        case PendingKind.MAUSOLEUM:
            return [
                Choice(name(c, language), event=BuildFromDiscard(player, c))
                for c in dict.fromkeys(state.discard)
            ]
        case PendingKind.GREAT_LIBRARY if len(ui.tokens) < library_draw(state):
            return [
                Choice(name(t, language), "drawn?", value=t)
                for t in library_pool(state)
                if t not in ui.tokens
            ]
        case PendingKind.GREAT_LIBRARY:
            drawn = tuple(TokenId(t) for t in ui.tokens)
            return [
                Choice(name(t, language), "keep", event=KeepLibraryToken(player, drawn, t))
                for t in drawn
            ]
        case PendingKind.NEXT_AGE:
            return [
                Choice(f"{player_name(state, p)} begins", event=ChooseStarter(player, p))
                for p in Player
            ]
    return []  # pragma: no cover


def destroyable(state: GameState, player: Player) -> tuple[CardId, ...]:
    """The opponent's cards of the colour the last wonder of `player` destroys."""
    catalog = state.catalog
    built = state.city(player).wonders_built
    colour = catalog.wonder(built[-1]).destroys if built else None
    return tuple(c for c in state.city(player.opponent).cards if catalog.card(c).color == colour)


def library_pool(state: GameState) -> tuple[TokenId, ...]:
    """The progress tokens the Great Library may draw: not on the board, owned or boxed."""
    return available_library_tokens(state)


def library_draw(state: GameState) -> int:
    """How many tokens the Great Library draws: 3, or all that are left."""
    return min(LIBRARY_DRAW, len(available_library_tokens(state)))


# --- feedback -------------------------------------------------------------------------------


def describe_event(state: GameState, event: Event, language: str = "en") -> str:
    """One line for an event, e.g. "Ann builds Lumber Yard" (the undo question)."""
    name = state.catalog.name
    match event:
        case Setup():
            return "Setup of the game"
        case BuildCard():
            return f"{player_name(state, event.player)} builds {name(event.card, language)}"
        case Discard():
            return f"{player_name(state, event.player)} discards {name(event.card, language)}"
        case BuildWonder():
            return f"{player_name(state, event.player)} builds {name(event.wonder, language)}"
        case TakeProgress() | KeepLibraryToken():
            return f"{player_name(state, event.player)} takes {name(event.token, language)}"
        case Destroy():
            return f"{player_name(state, event.player)} destroys {name(event.card, language)}"
        case BuildFromDiscard():
            return f"{player_name(state, event.player)} builds {name(event.card, language)}"
        case ChooseStarter():
            return f"{player_name(state, event.starter)} begins the age"
    return event.type


def describe(
    before: GameState, after: GameState, event: Event, language: str = "en"
) -> tuple[str, ...]:
    """What an event did, a few short lines: coins, pawn, loot, tokens, extra turn, age."""
    lines = [describe_event(after, event, language)]
    if isinstance(event, Setup):
        first = player_name(after, after.current)
        return (*lines, f"{first} begins")
    for player in Player:
        delta = after.city(player).coins - before.city(player).coins
        if delta:
            sign = "+" if delta > 0 else ""
            lines.append(f"{player_name(after, player)} {sign}{coins_text(delta)}")
    if after.position != before.position:
        lines.append(_pawn_line(before.position, after.position, after))
    if lost := len(before.loot) - len(after.loot):
        lines.append("Loot token taken" if lost == 1 else f"{lost} loot tokens taken")
    for player in Player:
        for token in sorted(after.city(player).tokens - before.city(player).tokens):
            if not isinstance(event, TakeProgress | KeepLibraryToken):
                lines.append(
                    f"{player_name(after, player)} takes {after.catalog.name(token, language)}"
                )
    lines.extend(_what_next(before, after, event))
    return tuple(lines)


def _pawn_line(old: int, new: int, state: GameState) -> str:
    moved = abs(new - old)
    toward = Player.P2 if new > old else Player.P1  # positive is toward p2's capital
    return f"Pawn {moved} toward {player_name(state, toward)}"


def _what_next(before: GameState, after: GameState, event: Event) -> list[str]:
    if after.phase is Phase.FINISHED:
        return [winner_line(after)]
    if after.pending is not None:
        if after.pending.kind is PendingKind.NEXT_AGE:
            return [f"End of age {before.age}"]
        return []
    if after.age != before.age:
        return [f"Age {after.age}: {player_name(after, after.current)} begins"]
    actor = getattr(event, "player", None)
    if actor is not None and after.current == actor and not isinstance(event, ChooseStarter):
        return [f"Extra turn: {player_name(after, actor)}"]
    return []


def winner_line(state: GameState) -> str:
    """ "Ann wins (military)" or "Shared victory" """
    kind = f" ({state.victory.value})" if state.victory is not None else ""
    if state.shared or state.winner is None:
        return f"Shared victory{kind}"
    return f"{player_name(state, state.winner)} wins{kind}"
