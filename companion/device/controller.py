"""The scan-and-confirm state machine: one input in, the next screen and maybe one event out.

`step(ui, state, input, context)` is pure: no I/O, no clock (a `Tick` carries the time). The
run loop (`companion.service`) submits the returned event to the journal before it shows the
screen, and calls `Step.refused` if the journal's game refuses it after all.

Inputs are `Press(name, long)` from the buttons or the keyboard, `Scan(card)` from the camera
(`card` None: a foreign or unknown QR code), `Status(problem)` from the hardware watch, and
`Tick(now)`. The button map: left/right move the cursor, select confirms, a long left goes
back, a long select asks to undo the last confirmed action, a long right shows the button map
(then right shows the phone page's address and QR code). With `Context.guided`, each age
begins by scanning its face-up cards and an uncovered card is asked for by its position
(modes GUIDED and REVEAL, `companion.device.guided`). Nothing changes the game until select
confirms a choice, and the end screen asks before select leaves it for a new game; a scan only
fills in what the camera saw (a card to act on, the revealed wonders, the tokens on the board)
or moves the cursor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.device import guided, overhead, pantheon, present, solo, words
from companion.device.choices import (
    NAMING,
    PANTHEON,
    REVEALED_PER_ROUND,
    Choice,
    card_options,
    coachable,
    destroyable,
    draft_picker,
    is_scanning,
    library_pool,
    options,
    prompt_options,
    scan_pool,
    setup_event,
    setup_wonders,
)
from companion.device.ui import Context, Mode, UiState
from companion.device.views import View
from companion.device.words import DEFAULT_NAMES, Voice
from companion.engine.cards import CardId, Catalog
from companion.engine.events import (
    BuildFromDiscard,
    BuildWonder,
    Deal,
    Destroy,
    Discard,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Setup,
    TakeProgress,
)
from companion.engine.rules import apply, draft_pickers, library_draw, was_taken
from companion.engine.state import GameState, Phase, Player
from companion.inputs import Input, Press, Scan, Status, Table, Tick

__all__ = [  # the UI's values and the screens' options, for the run loop, adapters and tests
    "DEFAULT_NAMES",
    "REVEALED_PER_ROUND",
    "Choice",
    "Context",
    "Input",
    "Mode",
    "Press",
    "Scan",
    "Status",
    "Step",
    "Table",
    "Tick",
    "UiState",
    "card_options",
    "coachable",
    "destroyable",
    "draft_picker",
    "initial",
    "library_draw",
    "library_pool",
    "options",
    "prompt_options",
    "resume",
    "settle",
    "setup_event",
    "setup_screens",
    "setup_wonders",
    "step",
    "undone",
    "welcome",
]

FEEDBACK_SECONDS = 4.0  # a feedback screen gives way to the next screen after this long


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of one input: the next UI state, its screen, and an event to submit.

    `undo` asks the run loop to undo the last confirmed event (then `undone` gives the
    screen); `names` asks it to name the game's players once the setup is in the journal
    (as the phone's naming does); `new_game` asks it to start the next game after a finished
    one; `coach` asks it to search for the coach's advice off the loop (the screen says
    "Thinking..." until then). `applied` is the state before `event` and the state the rules
    made of it while the controller checked it, so that the journal's game applies each
    confirmed event once.
    """

    ui: UiState
    view: View | None  # None when the run loop acts first (undo, new game) and then shows
    event: Event | None = None
    undo: bool = False
    new_game: bool = False
    coach: bool = False  # asks the run loop to start the coach's search
    renew_pairing: bool = False  # asks the run loop for a new pairing code (phone screen)
    names: dict[str, str] | None = None  # the setup's named sides ("p1"/"p2"), to name the game
    applied: tuple[GameState, GameState] | None = None  # (before, after) of `event`

    def refused(self, reason: str, state: GameState, context: Context) -> Step:
        """The step when the journal's game refused `event`: the screen says why."""
        ui = replace(self.ui, notice=reason, lines=(), until=None)
        if ui.mode is Mode.FEEDBACK:
            ui = settle(state, context, status=ui.status, skipped=ui.skipped)
            ui = replace(ui, notice=reason)
        return Step(ui, present.view(ui, state, context))


# --- the machine ----------------------------------------------------------------------------


OVERLAYS = (Mode.HELP, Mode.PHONE, Mode.UNDO, Mode.NEW_GAME, Mode.COACH)  # over another one


def initial(state: GameState, context: Context | None = None) -> UiState:
    """The screen to show for `state` when nothing else is known (start, stale save)."""
    return settle(state, context or Context())


def welcome(ui: UiState, context: Context) -> UiState:
    """At start-up: the phone page's address, its QR code and the pairing code over the
    screen `ui`, when the pages are served; any button goes on to `ui`."""
    if not (context.phone_url and context.pairing) or ui.mode in OVERLAYS:
        return ui
    return UiState(mode=Mode.PHONE, status=ui.status, under=ui, events=ui.events)


def settle(state: GameState, context: Context, *, status: str = "", skipped: int = 0) -> UiState:
    """The natural screen of the game state: setup, idle, a prompt, or the end; with guided
    entry also an age's structure to scan (unless the players `skipped` that age) or a card
    uncovered to turn up."""
    if state.phase is Phase.SETUP:
        mode = Mode.FIRST_PLAYER
    elif state.phase is Phase.FINISHED:
        mode = Mode.END
    elif (context.guided or context.overhead) and guided.wants_deal(state, skipped):
        mode = Mode.GUIDED
    elif guided.reveal_position(state) is not None:
        mode = Mode.REVEAL
    elif state.pending is not None:
        mode = Mode.PROMPT
    else:
        mode = Mode.IDLE
    return UiState(mode=mode, status=status, skipped=skipped, events=context.events)


def resume(saved: UiState | None, state: GameState, context: Context) -> UiState:
    """The screen to show after a restart: the saved one if it matches the journal."""
    if saved is None or saved.events != context.events:
        return initial(state, context)
    expected = settle(state, context, skipped=saved.skipped).mode
    setup_modes = {
        Mode.FIRST_PLAYER,
        Mode.WONDER_SETUP,
        Mode.DRAFT,
        Mode.TOKENS,
        Mode.START,
        Mode.PLAYERS,
    }
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
            # said in full on the bottom line until the next press or scan (the idle screen
            # then keeps a mark of it, the others a banner)
            notice = ui.notice or status
            return _show(replace(ui, status=status, under=under, notice=notice), state, ctx)
        case Tick(now):
            if ui.mode is Mode.FEEDBACK and ui.until is not None and now >= ui.until:
                return _show(_next(ui, state, ctx), state, ctx)
            if ui.mode is Mode.FEEDBACK and ui.until is None:
                return _show(replace(ui, until=now + FEEDBACK_SECONDS), state, ctx)
            return _show(ui, state, ctx)
        case Table():
            return _table(ui, state, given, ctx)
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
    return settle(state, ctx, status=ui.status, skipped=ui.skipped)


def _show(
    ui: UiState, state: GameState, ctx: Context, choices: Sequence[Choice] | None = None
) -> Step:
    """The step that shows `ui`; `choices` its options when already computed this press."""
    return Step(ui, present.view(ui, state, ctx, choices))


def _notice(
    ui: UiState,
    state: GameState,
    ctx: Context,
    reason: str,
    choices: Sequence[Choice] | None = None,
) -> Step:
    return _show(replace(ui, notice=reason), state, ctx, choices)


# --- buttons --------------------------------------------------------------------------------


def _press(ui: UiState, state: GameState, press: Press, ctx: Context) -> Step:
    if press.long:
        return _long_press(ui, state, press.name, ctx)
    if ui.mode in OVERLAYS:
        return _overlay_press(ui, state, press, ctx)
    if ui.mode is Mode.END and press.name == "select":  # ask first: the result leaves the box
        return _show(UiState(mode=Mode.NEW_GAME, status=ui.status, under=ui, events=ui.events),
                     state, ctx)  # fmt: skip
    choices = options(ui, state, ctx)  # once per press: the screen shows these same options
    if press.name in ("left", "right") and choices:
        delta = -1 if press.name == "left" else 1
        return _show(replace(ui, cursor=(ui.cursor + delta) % len(choices)), state, ctx, choices)
    if press.name != "select" or not choices:
        if press.name == "select" and ui.mode is Mode.IDLE and _has_board(state, ctx):
            return _show(replace(ui, mode=Mode.PANTHEON, cursor=0), state, ctx)
        if press.name == "select" and ui.mode is Mode.IDLE:
            return _notice(ui, state, ctx, words.SCAN_FIRST, choices)
        return _show(ui, state, ctx, choices)
    chosen = choices[min(ui.cursor, len(choices) - 1)]
    if chosen.refusal is not None:
        return _notice(ui, state, ctx, chosen.refusal, choices)
    if chosen.event is not None:
        return _confirm(ui, state, chosen.event, ctx)
    return _local_choice(ui, state, chosen.value or "", ctx)


def _has_board(state: GameState, ctx: Context) -> bool:
    """Whether select on the idle screen shows the Pantheon board: a Pantheon game, on a
    player's turn at the table (not the box's)."""
    return state.pantheon is not None and not solo.box_acts(state, ctx)


def _overlay_press(ui: UiState, state: GameState, press: Press, ctx: Context) -> Step:
    """A short press on a screen shown over another: select confirms the undo or the new
    game; right on the button map shows the phone page, left the coach (during a game);
    left on the phone page asks for a new pairing code; left/right on the coach move through
    its moves; anything else goes back."""
    under = ui.under or _next(ui, state, ctx)
    if press.name == "left" and ui.mode is Mode.HELP and coachable(under, state):
        coach = replace(ui, mode=Mode.COACH, cursor=0)
        return Step(coach, present.view(coach, state, ctx), coach=True)
    if press.name in ("left", "right") and ui.mode is Mode.COACH and ctx.coach is not None:
        count = max(len(ctx.coach.options), 1)
        delta = -1 if press.name == "left" else 1
        return _show(replace(ui, cursor=(ui.cursor + delta) % count), state, ctx)
    if press.name == "select" and ui.mode is Mode.UNDO:
        return Step(replace(under, notice=""), None, undo=True)
    if press.name == "select" and ui.mode is Mode.NEW_GAME:
        return Step(under, None, new_game=True)
    if press.name == "right" and ui.mode is Mode.HELP and ctx.phone_url:
        return _show(replace(ui, mode=Mode.PHONE), state, ctx)
    if press.name == "left" and ui.mode is Mode.PHONE:  # the loop renews it, then shows it
        return Step(ui, None, renew_pairing=True)
    return _show(under, state, ctx)


def undone(ui: UiState, before: GameState, after: GameState, event: Event, ctx: Context) -> Step:
    """The screen after the run loop undid `event`: what was undone, then the game's screen."""
    if isinstance(event, Setup) and (screens := setup_screens(event, after.catalog)):
        ready = replace(screens, notice=words.SETUP_UNDONE, status=ui.status, events=ctx.events)
        return Step(ready, present.view(ready, after, ctx))  # nothing to scan again
    line = words.event_line(Voice.oled(before, ctx.language, ctx.names), before, event)
    if isinstance(event, Deal) and (ctx.guided or ctx.overhead):  # back to the entry, one less
        entries = guided.deal_entries(after.catalog, event)[:-1]
        again = UiState(mode=Mode.GUIDED, dealt=entries, notice=words.undone(line),
                        status=ui.status, events=ctx.events)  # fmt: skip
        return Step(again, present.view(again, after, ctx))
    lines = ("Undone:", line)
    done = UiState(mode=Mode.FEEDBACK, lines=lines, status=ui.status, skipped=ui.skipped,
                   events=ctx.events)  # fmt: skip
    return Step(done, present.view(done, after, ctx))


def setup_screens(event: Setup, catalog: Catalog) -> UiState | None:
    """The last setup screen (ready to start) that gives `event`, with the draft's picks in
    draft order; None when no draft gives its wonders."""
    first = event.first_player
    wonders = {Player.P1: list(event.wonders[0]), Player.P2: list(event.wonders[1])}
    picks: tuple[str, ...] = ()
    if event.wonders != catalog.rules.first_game_wonders:
        try:
            picks = tuple(wonders[picker].pop(0) for picker in draft_pickers(catalog.rules, first))
        except IndexError:
            return None
    names = tuple("" if name in DEFAULT_NAMES else name for name in event.players)
    ui = UiState(mode=Mode.START, first=first, picks=picks, tokens=tuple(event.progress_tokens),
                 names=(names[0], names[1]), expansions=event.expansions)  # fmt: skip
    return ui if setup_event(ui, catalog) == replace(event, players=ui.names) else None


def _long_press(ui: UiState, state: GameState, name: str, ctx: Context) -> Step:
    base = ui.under if ui.mode in OVERLAYS and ui.under else ui
    if name == "right":
        return _show(UiState(mode=Mode.HELP, status=ui.status, under=base, events=ui.events),
                     state, ctx)  # fmt: skip
    if name == "left":
        return _back(base, state, ctx)
    if name == "select":
        if state.phase is Phase.SETUP:
            return _back(base, state, ctx)
        if ctx.last is None:
            return _notice(base, state, ctx, words.NOTHING_TO_UNDO)
        return _show(UiState(mode=Mode.UNDO, status=ui.status, under=base, events=ui.events),
                     state, ctx)  # fmt: skip
    return _show(ui, state, ctx)


def _back(ui: UiState, state: GameState, ctx: Context) -> Step:
    """Long left: leave a card or a half-made choice; in setup, go one step back."""
    match ui.mode:
        case Mode.CARD | Mode.PANTHEON:
            return _show(_next(ui, state, ctx), state, ctx)
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
        case Mode.PLAYERS if ui.naming:
            return _show(replace(ui, naming=0, cursor=0), state, ctx)
        case Mode.PLAYERS:
            return _show(replace(ui, mode=Mode.START, cursor=1), state, ctx)
        case Mode.GUIDED if ui.dealt:
            return _show(replace(ui, dealt=ui.dealt[:-1], cursor=0), state, ctx)
    return _show(ui, state, ctx)


def _confirm(ui: UiState, state: GameState, event: Event, ctx: Context) -> Step:
    """Select on an option with an event: check it with the rules, then say what it does."""
    try:
        after = apply(state, event)
    except IllegalEvent as refused:
        return _notice(ui, state, ctx, str(refused))
    lines = words.told(Voice.oled(after, ctx.language, ctx.names), state, after, event)
    done = UiState(mode=Mode.FEEDBACK, lines=lines, status=ui.status, skipped=ui.skipped,
                   events=ctx.events + 1)  # fmt: skip
    next_ctx = replace(ctx, events=ctx.events + 1, last=event)
    return Step(done, present.view(done, after, next_ctx), event, applied=(state, after))


def _local_choice(ui: UiState, state: GameState, value: str, ctx: Context) -> Step:
    """Select on a setup option or a Great Library draw."""
    match ui.mode:
        case Mode.FIRST_PLAYER:
            return _show(replace(ui, mode=Mode.WONDER_SETUP, first=Player(value), cursor=0),
                         state, ctx)  # fmt: skip
        case Mode.WONDER_SETUP if value == "first_game":
            return _show(replace(ui, mode=Mode.TOKENS, picks=(), revealed=(), cursor=0,
                                 expansions=()), state, ctx)  # fmt: skip
        case Mode.WONDER_SETUP:
            played = (PANTHEON,) if value == PANTHEON else ()
            return _show(replace(ui, mode=Mode.DRAFT, picks=(), revealed=(), cursor=0,
                                 expansions=played), state, ctx)  # fmt: skip
        case Mode.DRAFT:
            return _show(_pick_wonder(ui, state.catalog, value), state, ctx)
        case Mode.START if value == NAMING:
            return _show(replace(ui, mode=Mode.PLAYERS, naming=0, cursor=0), state, ctx)
        case Mode.START:
            step = _confirm(ui, state, setup_event(ui, state.catalog), ctx)
            named = {seat: name for seat, name in zip(("p1", "p2"), ui.names, strict=True) if name}
            return replace(step, names=named) if step.event and named else step
        case Mode.PLAYERS:
            names = (value, ui.names[1]) if ui.naming == 0 else (ui.names[0], value)
            if ui.naming == 0:
                return _show(replace(ui, names=names, naming=1, cursor=0), state, ctx)
            return _show(replace(ui, mode=Mode.START, names=names, naming=0, cursor=0),
                         state, ctx)  # fmt: skip
        case Mode.PROMPT:  # the Great Library: a token drawn
            return _show(replace(ui, tokens=(*ui.tokens, value), cursor=0), state, ctx)
        case Mode.GUIDED if value == guided.SKIP:
            return _show(settle(state, ctx, status=ui.status, skipped=state.age), state, ctx)
        case Mode.GUIDED:  # age 3: the back of a face-down card
            return _enter(ui, state, value, ctx)
        case Mode.PANTHEON if not value:  # an empty space, or age 1: nothing to activate
            return _notice(ui, state, ctx, words.NOTHING_TO_ACTIVATE)
        case Mode.PANTHEON:  # a card of the board chosen, as if scanned
            return _scan_card(ui, state, value, Voice.oled(state, ctx.language).name(value), ctx)
        case Mode.IDLE:  # overhead: a card of the list chosen, as if scanned
            return _scan_card(ui, state, value, Voice.oled(state, ctx.language).name(value), ctx)
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


# --- scans ----------------------------------------------------------------------------------


def _scan(ui: UiState, state: GameState, card: str | None, ctx: Context) -> Step:
    if ui.mode in OVERLAYS:
        ui = ui.under or _next(ui, state, ctx)
    if card is None:
        return _notice(ui, state, ctx, words.UNKNOWN_CODE)
    catalog = state.catalog
    name = Voice.oled(state, ctx.language, ctx.names).name(card)
    match ui.mode:
        case Mode.DRAFT:
            return _scan_draft(ui, state, card, name, ctx)
        case Mode.TOKENS:
            if not catalog.is_token(card):
                return _notice(ui, state, ctx, words.refusal(name, words.NOT_A_TOKEN))
            if card in ui.tokens:
                return _notice(ui, state, ctx, words.refusal(name, words.ALREADY_SCANNED))
            tokens = (*ui.tokens, card)
            mode = Mode.START if len(tokens) == catalog.rules.tokens_on_board else Mode.TOKENS
            return _show(replace(ui, tokens=tokens, mode=mode, cursor=0), state, ctx)
        case Mode.FIRST_PLAYER | Mode.WONDER_SETUP | Mode.START | Mode.PLAYERS:
            return _notice(ui, state, ctx, words.FINISH_SETUP)
        case Mode.END:
            return _notice(ui, state, ctx, words.GAME_OVER)
        case Mode.PROMPT:
            return _scan_prompt(ui, state, card, name, ctx)
        case Mode.GUIDED:
            return _enter(ui, state, card, ctx)
        case Mode.REVEAL if not catalog.is_card(card):
            return _notice(ui, state, ctx, words.refusal(name, words.NOT_AN_AGE_CARD))
        case Mode.REVEAL if refused := guided.reveal_refusal(state, card, name):
            return _notice(ui, state, ctx, refused)
        case Mode.REVEAL:
            return _confirm(ui, state, guided.reveal_event(state, card), ctx)
        case Mode.CARD if catalog.is_wonder(card):
            return _point_at(ui, state, ctx, card, words.refusal(name, words.NOT_YOUR_WONDER))
        case Mode.IDLE if solo.box_acts(state, ctx):  # the scan of the box's card confirms it
            move = solo.check_scan(state, ctx, card)
            if isinstance(move, str):
                return _notice(ui, state, ctx, move)
            return _confirm(ui, state, move, ctx)
    return _scan_card(ui, state, card, name, ctx)


def _enter(ui: UiState, state: GameState, entry: str, ctx: Context) -> Step:
    """Guided entry: a card scanned (or age 3's answer for a back); the deal once complete."""
    return _enter_all(ui, state, (*ui.dealt, entry), ctx)


def _enter_all(ui: UiState, state: GameState, entries: tuple[str, ...], ctx: Context) -> Step:
    """Guided entry of what was entered so far (`entries`; several cards at once when read
    from above); the deal once complete."""
    try:
        entered = guided.GuidedDeal.of(
            state.catalog, state.age, entries, pantheon=guided.played(state)
        )
    except IllegalEvent as refused:
        return _notice(ui, state, ctx, str(refused))
    if entered.done:
        return _confirm(ui, state, entered.deal(), ctx)
    return _show(replace(ui, dealt=entered.entries, cursor=0), state, ctx)


def _scan_draft(ui: UiState, state: GameState, card: str, name: str, ctx: Context) -> Step:
    if not state.catalog.is_wonder(card):
        return _notice(ui, state, ctx, words.refusal(name, words.NOT_A_WONDER))
    if len(ui.revealed) < REVEALED_PER_ROUND:
        if card in ui.revealed or card in ui.picks:
            return _notice(ui, state, ctx, words.refusal(name, words.ALREADY_SCANNED))
        return _show(replace(ui, revealed=(*ui.revealed, card), cursor=0), state, ctx)
    pick = solo.draft_pick(ui, state.catalog, ctx, REVEALED_PER_ROUND)
    if pick is not None and card != pick:  # solo: the box's pick is the only one
        return _notice(ui, state, ctx, words.refusal(name, words.NOT_THE_BOX_PICK))
    return _point_at(ui, state, ctx, card, words.refusal(name, words.NOT_ON_OFFER))


def _scan_prompt(ui: UiState, state: GameState, card: str, name: str, ctx: Context) -> Step:
    if is_scanning(ui, state):
        if card not in scan_pool(ui, state) and card not in ui.tokens:
            return _notice(ui, state, ctx, words.refusal(name, words.CANNOT_BE_DRAWN))
        if card in ui.tokens:
            return _notice(ui, state, ctx, words.refusal(name, words.ALREADY_DRAWN))
        return _show(replace(ui, tokens=(*ui.tokens, card), cursor=0), state, ctx)
    return _point_at(ui, state, ctx, card, words.refusal(name, words.NOT_A_CHOICE))


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
    return pantheon.target_of(event)


def _scan_card(ui: UiState, state: GameState, card: str, name: str, ctx: Context) -> Step:
    catalog = state.catalog
    if pantheon.is_piece(state, card):  # a divinity or the Gate: its activation
        if refused := pantheon.piece_refusal(state, card, name):
            return _notice(ui, state, ctx, refused)
        return _show(replace(ui, mode=Mode.CARD, card=card, cursor=0, under=None), state, ctx)
    if not catalog.is_card(card):
        return _notice(ui, state, ctx, words.refusal(name, words.NOT_AN_AGE_CARD))
    age = catalog.card(card).age
    if age != state.age:
        return _notice(ui, state, ctx, words.refusal(name, words.other_age(age)))
    if was_taken(state, CardId(card)):
        return _notice(ui, state, ctx, words.refusal(name, words.ALREADY_PLAYED))
    try:  # what else the rules refuse: already taken, not accessible in a dealt structure
        apply(state, Discard(state.current, CardId(card)))
    except IllegalEvent as refused:
        return _notice(ui, state, ctx, str(refused))
    return _show(replace(ui, mode=Mode.CARD, card=card, cursor=0, under=None), state, ctx)


# --- the overhead camera --------------------------------------------------------------------


def _table(ui: UiState, state: GameState, table: Table, ctx: Context) -> Step:
    """The overhead camera's table (`companion.device.overhead`): the face-up cards of a new
    age fill the guided entry; a card turned face up is recorded as a `reveal` at once; a card
    gone from the structure is proposed (build first), or refused in one line when it was not
    accessible; a proposed card back in its place withdraws the proposal."""
    if not ctx.overhead or ui.mode in OVERLAYS or state.phase is not Phase.PLAYING:
        return _show(ui, state, ctx)
    shown = ui  # a feedback screen stays when the table asks nothing
    if ui.mode is Mode.FEEDBACK:
        ui = _next(ui, state, ctx)
    if ui.mode is Mode.GUIDED:
        return _table_deal(shown, ui, state, table, ctx)
    seen = overhead.what_left(state, table)
    asked = guided.reveal_position(state) if ui.mode is Mode.REVEAL else None
    if seen.reveal is None and asked is not None and table.slots[asked] is None:
        return _notice(ui, state, ctx, words.CAMERA_CANNOT_TELL)  # the card to turn up
    if seen.reveal is not None and ui.mode is not Mode.CARD:
        step = _confirm(replace(ui, notice=""), state, seen.reveal, ctx)
        if shown.mode is Mode.FEEDBACK and step.event is not None:  # said after the action
            told = replace(step.ui, lines=(*shown.lines, *step.ui.lines))
            assert step.applied is not None  # _confirm applied it
            step = replace(step, ui=told, view=present.view(told, step.applied[1], ctx))
        return step
    proposed = ui.mode is Mode.CARD and ui.card is not None
    if len(seen.left) > 1:  # a hand in view, unless two cards are seen gone
        many = len(seen.bare) > 1
        return (
            _notice(ui, state, ctx, words.cards_gone(len(seen.bare)))
            if many
            else _show(shown, state, ctx)
        )
    if not seen.left:  # nothing gone; a proposed card seen back in its place is withdrawn
        back = proposed and ui.card in table.slots
        return _show(_next(ui, state, ctx) if back else shown, state, ctx)
    index = seen.left[0]
    voice = Voice.oled(state, ctx.language, ctx.names)
    if refused := overhead.refusal(state, index, voice):
        return _notice(ui, state, ctx, refused)
    structure = state.structure
    assert structure is not None  # what_left finds cards gone only from a dealt structure
    card = str(structure.cards[index])
    if proposed and ui.card == card:
        return _show(shown, state, ctx)
    if state.pending is not None:
        return _notice(ui, state, ctx, words.FINISH_CHOICE)
    return _scan_card(replace(ui, notice=""), state, card, voice.name(card), ctx)


def _table_deal(shown: UiState, ui: UiState, state: GameState, table: Table, ctx: Context) -> Step:
    """A new age seen from above: its face-up cards in layout order, as far as they are read,
    become the guided entry (the rest is scanned by hand); complete, the deal is recorded.
    Nothing more than what was entered (or a reading that disagrees): `shown` stays. When
    the view cannot tell the card the screen asks for next, the bottom line says so."""
    if table.age != state.age:
        return _show(shown, state, ctx)
    entries = overhead.deal_entries(state, table.slots, ui.dealt)
    if len(entries) <= len(ui.dealt) or entries[: len(ui.dealt)] != ui.dealt:
        asked = shown.mode is Mode.GUIDED and entries[: len(ui.dealt)] == ui.dealt
        if asked and overhead.first_untold(state, table.slots, len(ui.dealt)) is not None:
            return _notice(shown, state, ctx, words.CAMERA_CANNOT_TELL)
        return _show(shown, state, ctx)
    step = _enter_all(ui, state, entries, ctx)
    untold = overhead.first_untold(state, table.slots, len(entries)) is not None
    if untold and step.event is None and step.ui.mode is Mode.GUIDED:  # the card asked next
        return _notice(step.ui, state, ctx, words.CAMERA_CANNOT_TELL)
    return step
