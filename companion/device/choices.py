"""The options of each screen, in cursor order, and what selecting each one does.

`options(ui, state, context)` is read by the controller (what select confirms) and by the
presenter (what the lines say). Prices, draws and draft order come from the engine; the
words (names, prices, refusals) from `companion.device.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.device import guided, overhead, pantheon, words
from companion.device.solo import box_acts, draft_pick
from companion.device.ui import Context, Mode, UiState
from companion.device.words import DEFAULT_NAMES, Voice, coins, not_affordable, price
from companion.engine.cards import CardId, Catalog, TokenId, WonderId
from companion.engine.events import (
    GUILD_BACK,
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
from companion.engine.events import Build as BuildCard
from companion.engine.pricing import Payment, cheapest_payment
from companion.engine.rules import (
    available_library_tokens,
    discard_gain,
    draft_pickers,
    library_draw,
)
from companion.engine.state import PANTHEON_DECISIONS, GameState, PendingKind, Player

REVEALED_PER_ROUND = 4  # the draft reveals 4 wonders a round
NAMING = "players"  # the ready screen's option that opens the name list
PANTHEON = "pantheon"  # the wonder setup's option for a game with the Pantheon expansion


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


def options(ui: UiState, state: GameState, context: Context | None = None) -> list[Choice]:
    """The options of the screen, in cursor order (empty on screens without a choice)."""
    ctx = context or Context()
    voice = Voice.oled(state, ctx.language, ctx.names)
    match ui.mode:
        case Mode.FIRST_PLAYER:  # solo: the box's side by its name
            names = [words.BOX if p is ctx.box else DEFAULT_NAMES[i] for i, p in enumerate(Player)]
            return [Choice(f"{names[i]} begins", value=p.value) for i, p in enumerate(Player)]
        case Mode.WONDER_SETUP:
            draft = Choice("Wonder draft", "scan 4 + 4 wonders", value="draft")
            sets = Choice("First-game sets", "fixed wonders", value="first_game")
            if state.catalog.pantheon is None:
                return [draft, sets]
            # last, so that the buttons reach the first two as on a box without it; table
            # mode cannot tell the tokens on the cards: each age is then entered by scans
            note = words.PANTHEON_NOTE if ctx.guided or ctx.overhead else words.PANTHEON_GUIDED
            return [draft, sets, Choice(words.PANTHEON_DRAFT, note, value=PANTHEON)]
        case Mode.DRAFT if len(ui.revealed) == REVEALED_PER_ROUND:
            if (pick := draft_pick(ui, state.catalog, ctx, REVEALED_PER_ROUND)) is not None:
                return [Choice(voice.name(pick), words.BOX_PICK_NOTE, value=pick)]  # solo
            return [Choice(voice.name(w), value=w) for w in ui.revealed if w not in ui.picks]
        case Mode.START:
            return [Choice("Start the game", value="start"), Choice(words.PLAYERS, value=NAMING)]
        case Mode.PLAYERS:
            return name_options(ui, ctx)
        case Mode.CARD if ui.card is not None:
            return card_options(state, CardId(ui.card), voice)
        case Mode.PROMPT if box_acts(state, ctx) and not is_library_draw(ui, state):
            # solo: the box's answer is the only option, once the search has it
            shown = prompt_options(ui, state, voice, ctx.box)
            return [box_choice(c, voice) for c in shown if c.event == ctx.box_move]
        case Mode.PROMPT:
            return prompt_options(ui, state, voice, ctx.box)
        case Mode.GUIDED:
            return guided_options(ui, state)
        case Mode.PANTHEON if state.pantheon is not None:
            return [
                Choice(label, detail, value=card or "")
                for label, detail, card in pantheon.board_answers(state, voice)
            ]
        case Mode.IDLE if ctx.overhead and not box_acts(state, ctx):  # select proposes one
            return [Choice(o.name, value=o.card) for o in overhead.offers(state, voice)]
    return []


def box_choice(choice: Choice, voice: Voice) -> Choice:
    """The box's answer as its only option: where the cards it drew and did not keep go
    (a Mythology token's draw, the Gate) on the detail line."""
    put_back = words.box_put_back(voice, choice.event) if choice.event is not None else ""
    return replace(choice, detail=put_back) if put_back else choice


def name_options(ui: UiState, ctx: Context) -> list[Choice]:
    """The names a side can take: the remembered players, the most recent first (without the
    one the other side took), then unnamed, which says where new names are typed."""
    taken = ui.names[0] if ui.naming == 1 else ""
    named = [Choice(name, value=name) for name in ctx.known if name != taken]
    return [*named, Choice(words.UNNAMED, words.NEW_NAMES, value="")]


def guided_options(ui: UiState, state: GameState) -> list[Choice]:
    """Guided entry: skip the age; in age 3, first the answers for a face-down card's back.
    A Pantheon game's ages 1 and 2 cannot be skipped: their tokens lie on the cards."""
    tokens_lie = guided.played(state) and state.age < 3
    skip = [] if tokens_lie else [Choice(words.GUIDED_SKIP, value=guided.SKIP)]
    entry = entered(ui, state)
    if entry.next_token is not None:  # Pantheon: the token on a marked card
        tokens = entry.token_choices()
        return [Choice(words.token_name(t), value=guided.TOKEN + t) for t in tokens] + skip
    if entry.next_back is None:
        return skip
    return [
        Choice(words.PLAIN_BACK, value=guided.PLAIN_BACK),
        Choice(words.TEMPLE_BACK if guided.played(state) else words.GUILD_BACK, value=GUILD_BACK),
        *skip,
    ]


def entered(ui: UiState, state: GameState) -> guided.GuidedDeal:
    """The guided deal of the screen `ui` (what a stale screen entered is forgotten)."""
    played = guided.played(state)
    try:
        return guided.GuidedDeal.of(state.catalog, state.age, ui.dealt, pantheon=played)
    except IllegalEvent:
        return guided.GuidedDeal(state.catalog, state.age, pantheon=played)


def card_options(state: GameState, card: CardId, voice: Voice) -> list[Choice]:
    """Build, discard, and a wonder per unbuilt wonder, with the cheapest payments; for a
    divinity or the Gate on the Pantheon, its activation with each useful set of Offering
    tokens."""
    if pantheon.is_piece(state, card):
        return [
            Choice(a.label, a.detail, a.event, a.refusal)
            for a in pantheon.activation_answers(state, card)
        ]
    catalog = state.catalog
    player = state.current
    city, other = state.city(player), state.city(player.opponent)

    def paid(label: str, payment: Payment, event: Event) -> Choice:
        refused = (
            None if payment.affordable(city.coins) else not_affordable(payment.total, city.coins)
        )
        return Choice(label, price(payment)[0], event, refused, payment=payment)

    build_price = cheapest_payment(catalog, city, other, catalog.card(card))
    choices = [
        paid("Build", build_price, BuildCard(player, card)),
        Choice("Discard", coins(discard_gain(city), signed=True), Discard(player, card)),
    ]
    for wonder in city.wonders_unbuilt:
        wonder_price = cheapest_payment(catalog, city, other, catalog.wonder(wonder))
        choices.append(paid(voice.name(wonder), wonder_price, BuildWonder(player, wonder, card)))
    return choices


def prompt_options(
    ui: UiState, state: GameState, voice: Voice, box: Player | None = None
) -> list[Choice]:
    """The options of the pending decision (in a solo game the `box` side is "Box")."""
    pending = state.pending
    if pending is None:
        return []
    player = pending.player
    name = voice.name
    if pantheon.is_draw(ui, state):
        return [Choice(name(t), "drawn?", value=t) for t in pantheon.draw_pool(ui, state)]
    if pending.kind in PANTHEON_DECISIONS:
        return [
            Choice(a.label, a.detail, a.event, a.refusal)
            for a in pantheon.decision_answers(ui, state, voice)
        ]
    match pending.kind:
        case PendingKind.PROGRESS:
            return [Choice(name(t), event=TakeProgress(player, t)) for t in state.board_tokens]
        case PendingKind.DESTROY:
            return [Choice(name(c), event=Destroy(player, c)) for c in destroyable(state, player)]
        case PendingKind.MAUSOLEUM:
            return [
                Choice(name(c), event=BuildFromDiscard(player, c))
                for c in dict.fromkeys(state.discard)
            ]
        case PendingKind.GREAT_LIBRARY if len(ui.tokens) < library_draw(state):
            return [
                Choice(name(t), "drawn?", value=t)
                for t in library_pool(state)
                if t not in ui.tokens
            ]
        case PendingKind.GREAT_LIBRARY:
            drawn = tuple(TokenId(t) for t in ui.tokens)
            return [
                Choice(name(t), "keep", event=KeepLibraryToken(player, drawn, t)) for t in drawn
            ]
        case PendingKind.NEXT_AGE:
            names = {p: words.BOX if p is box else voice.player(p) for p in Player}
            return [Choice(f"{names[p]} begins", event=ChooseStarter(player, p)) for p in Player]
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


def is_scanning(ui: UiState, state: GameState) -> bool:
    """Whether the screen waits for what the table shows to be scanned: the Great Library's
    draw, or the divinities, Enki's tokens or the Gate's cards of a Pantheon decision."""
    return is_library_draw(ui, state) or pantheon.is_draw(ui, state)


def scan_pool(ui: UiState, state: GameState) -> tuple[str, ...]:
    """What may be scanned next while `is_scanning`."""
    if is_library_draw(ui, state):
        return library_pool(state)
    return pantheon.draw_pool(ui, state)


def is_library_draw(ui: UiState, state: GameState) -> bool:
    """Whether the screen waits for the tokens the Great Library draws to be scanned."""
    pending = state.pending
    return (
        pending is not None
        and pending.kind is PendingKind.GREAT_LIBRARY
        and len(ui.tokens) < library_draw(state)
    )


# --- setup -----------------------------------------------------------------------------------


def draft_picker(ui: UiState, catalog: Catalog) -> Player:
    """Who picks the next wonder of the draft (the order is in data: ABBA BAAB)."""
    pickers = draft_pickers(catalog.rules, ui.first)
    return pickers[min(len(ui.picks), len(pickers) - 1)]


def setup_wonders(ui: UiState, catalog: Catalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each player's wonders: the draft's picks, or the first-game sets."""
    if not ui.picks:
        p1, p2 = catalog.rules.first_game_wonders
        return tuple(p1), tuple(p2)
    mine: dict[Player, list[str]] = {Player.P1: [], Player.P2: []}
    for picker, wonder in zip(draft_pickers(catalog.rules, ui.first), ui.picks, strict=False):
        mine[picker].append(wonder)
    return tuple(mine[Player.P1]), tuple(mine[Player.P2])


def setup_event(ui: UiState, catalog: Catalog) -> Setup:
    """The setup event that the setup screens describe."""
    p1, p2 = setup_wonders(ui, catalog)
    return Setup(
        first_player=ui.first,
        progress_tokens=tuple(TokenId(t) for t in ui.tokens),
        wonders=(tuple(WonderId(w) for w in p1), tuple(WonderId(w) for w in p2)),
        players=ui.names,  # "" for an unnamed side: "Player 1" is never a remembered player
        expansions=ui.expansions,
    )


def coachable(ui: UiState, state: GameState) -> bool:
    """Whether the coach can be asked over the screen `ui`: idle or a decision of the rules
    (not while a Great Library draw is being scanned), during a game."""
    return ui.mode in (Mode.IDLE, Mode.PROMPT) and not ui.tokens and not state.finished
