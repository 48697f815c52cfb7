"""The Pantheon expansion at the table: activating a divinity or the Gate as a turn, and the
options of the decisions the expansion's rules ask for (docs/pantheon.md).

A divinity or the Gate scanned on the idle screen opens its activation screen (mode CARD
with the divinity's id): one option per set of Offering tokens that changes the price, each
priced for the player to move. Three decisions begin with what the table shows, scanned like
the Great Library's draw: the two divinities drawn with a Mythology token, the two progress
tokens lying on Enki, and the top card of each Mythology deck the Gate turns up; the options
then say which one is kept. Every other decision lists the engine's answers. Prices and
answers come from the engine; the words from `companion.device.words`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from companion.device import words
from companion.device.ui import UiState
from companion.device.words import Voice, coins
from companion.engine.cards import MYTHOLOGIES, DivinityId, TokenId
from companion.engine.decisions import available_library_tokens
from companion.engine.divinities import ENKI_DRAW, activate, pantheon_events
from companion.engine.events import (
    Activate,
    DiscardFromStructure,
    Event,
    GateActivation,
    HadesBuild,
    IllegalEvent,
    IsisWonder,
    NeptuneLoot,
    PlaceDivinity,
    PlaceMinerva,
    PlaceSnake,
    StealCard,
    StealWonder,
    TakeEnkiToken,
    TheaterActivation,
    UnbuildWonder,
)
from companion.engine.pantheon_rules import activation_price, player_index, rules_of
from companion.engine.state import PANTHEON_DECISIONS, GameState, PendingKind
from companion.engine.structure import is_face_up

SCANNED = frozenset({PendingKind.DIVINITY, PendingKind.ENKI, PendingKind.GATE})
"""The decisions that begin with cards or tokens scanned from the table."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One option of a Pantheon screen: label, detail line, the event, and the engine's
    one-line refusal when it cannot be taken (an activation the player cannot pay)."""

    label: str
    detail: str = ""
    event: Event | None = None
    refusal: str | None = None


def is_piece(state: GameState, any_id: str) -> bool:
    """Whether `any_id` is a card of the Pantheon board: a divinity or the Gate."""
    pantheon = state.catalog.pantheon
    return pantheon is not None and (pantheon.is_divinity(any_id) or any_id == pantheon.gate)


def piece_refusal(state: GameState, piece: str, name: str) -> str | None:
    """Why scanning `piece` (a divinity or the Gate) opens no activation, or None."""
    pantheon = state.pantheon
    if pantheon is None:
        return words.refusal(name, words.NOT_IN_THIS_GAME)
    if piece not in pantheon.spaces:
        return words.refusal(name, words.NOT_ON_THE_PANTHEON)
    if state.age < rules_of(state.catalog).first_age:
        return words.refusal(name, words.FROM_AGE_2)
    return None


def activation_answers(state: GameState, piece: str) -> list[Answer]:
    """Activating the card `piece` of the Pantheon: without Offering tokens, then with each
    set of the player's tokens that lowers the price further; each with its price."""
    pantheon = state.pantheon
    assert pantheon is not None
    space = pantheon.spaces.index(piece) + 1
    player = state.current
    held = sorted(pantheon.offerings[player_index(player)])
    offers = sorted(
        {c for n in range(len(held) + 1) for c in combinations(held, n)}, key=lambda c: (len(c), c)
    )
    answers: list[Answer] = []
    seen: set[int] = set()
    for offer in offers:
        price = activation_price(state, player, space, offer)
        if price in seen:
            continue
        seen.add(price)
        event = Activate(player, space, offer)
        try:
            activate(state, event)
            refusal = None
        except IllegalEvent as refused:
            refusal = str(refused)
        answers.append(Answer(words.offering_label(offer), coins(price), event, refusal))
    return answers


def space_prices(state: GameState) -> list[tuple[int, str | None, int | None]]:
    """Each space of the Pantheon board: its number, its card (None: empty) and what the
    player to move pays to activate it without Offering tokens (None: empty)."""
    pantheon = state.pantheon
    assert pantheon is not None
    player = state.current
    return [
        (n, card, None if card is None else activation_price(state, player, n, ()))
        for n, card in enumerate(pantheon.spaces, start=1)
    ]


def hidden_mythology(state: GameState, card: str | None) -> str | None:
    """The mythology shown for a divinity still face down (Age I), else None."""
    pantheon = state.catalog.pantheon
    if card is None or pantheon is None or not pantheon.is_divinity(card):
        return None
    if state.age >= rules_of(state.catalog).first_age:
        return None
    return pantheon.divinity(card).mythology


def board_answers(state: GameState, voice: Voice) -> list[tuple[str, str, str | None]]:
    """The Pantheon board as the OLED lists it: per space its label ("5 Hades", "2 Greek?"
    face down in age 1, "4 empty"), what the player to move pays without Offering tokens,
    and the card to open (None: nothing to activate there yet)."""
    rows: list[tuple[str, str, str | None]] = []
    playable = state.age >= rules_of(state.catalog).first_age
    for space, card, price in space_prices(state):
        hidden = hidden_mythology(state, card)
        label = words.pantheon_space(voice, space, card, hidden)
        detail = "" if price is None else coins(price)
        rows.append((label, detail, card if playable else None))
    return rows


# --- the decisions --------------------------------------------------------------------------


def is_draw(ui: UiState, state: GameState) -> bool:
    """Whether the screen waits for divinities or tokens to be scanned from the table."""
    pending = state.pending
    return pending is not None and pending.kind in SCANNED and len(ui.tokens) < draw_count(state)


def draw_count(state: GameState) -> int:
    """How many things the pending decision scans first: the divinities drawn with a
    Mythology token (2, or 1 left in the deck), Enki's 2 tokens, the Gate's top cards (one per
    deck not empty)."""
    pending, pantheon = state.pending, state.pantheon
    if pending is None or pantheon is None:
        return 0
    match pending.kind:
        case PendingKind.DIVINITY:
            deck = pantheon.decks[MYTHOLOGIES.index(pantheon.to_place[0])]
            return min(2, len(deck))
        case PendingKind.ENKI:
            return min(ENKI_DRAW, len(available_library_tokens(state)))
        case PendingKind.GATE:
            return sum(1 for deck in pantheon.decks if deck)
    return 0


def draw_pool(ui: UiState, state: GameState) -> tuple[str, ...]:
    """What may be scanned next for the pending decision (nothing scanned twice; for the
    Gate one card per deck, the known top card where one is known)."""
    pending, pantheon = state.pending, state.pantheon
    if pending is None or pantheon is None:
        return ()
    match pending.kind:
        case PendingKind.DIVINITY:
            deck = pantheon.decks[MYTHOLOGIES.index(pantheon.to_place[0])]
            return tuple(d for d in deck if d not in ui.tokens)
        case PendingKind.ENKI:
            return tuple(t for t in available_library_tokens(state) if t not in ui.tokens)
        case PendingKind.GATE:
            pool: list[str] = []
            for top, deck in zip(pantheon.tops, pantheon.decks, strict=True):
                if deck and not set(deck) & set(ui.tokens):
                    pool += [top] if top is not None else list(deck)
            return tuple(pool)
    return ()


def decision_answers(ui: UiState, state: GameState, voice: Voice) -> list[Answer]:
    """The options of a pending Pantheon decision; for a decision that scans first, the
    scanned cards once all are in."""
    pending = state.pending
    assert pending is not None and pending.kind in PANTHEON_DECISIONS
    player = pending.player
    name = voice.name
    match pending.kind:
        case PendingKind.DIVINITY:
            drawn = tuple(DivinityId(d) for d in ui.tokens)
            pantheon = state.pantheon
            assert pantheon is not None
            spaces = [n for n, card in enumerate(pantheon.spaces, start=1) if card is None]
            return [
                Answer(f"Space {n}: {name(kept)}", event=PlaceDivinity(player, drawn, kept, n))
                for kept in drawn
                for n in spaces
            ]
        case PendingKind.ENKI:
            tokens = tuple(TokenId(t) for t in ui.tokens)
            return [Answer(name(t), "keep", TakeEnkiToken(player, tokens, t)) for t in tokens]
        case PendingKind.GATE:
            revealed = _in_deck_order(state, ui.tokens)
            return [
                Answer(name(d), "activate", GateActivation(player, revealed, d)) for d in revealed
            ]
    return [_answer(voice, state, event) for event in pantheon_events(state, pending)]


def _in_deck_order(state: GameState, scanned: tuple[str, ...]) -> tuple[DivinityId, ...]:
    """The Gate's cards in the order of the Mythology decks, as the rules list them."""
    pantheon = state.catalog.pantheon
    assert pantheon is not None
    ordered = sorted(scanned, key=lambda d: MYTHOLOGIES.index(pantheon.divinity(d).mythology))
    return tuple(DivinityId(d) for d in ordered)


def _answer(voice: Voice, state: GameState, event: Event) -> Answer:
    """The option of one answer the engine lists."""
    name = voice.name
    match event:
        case PlaceSnake() | StealCard() | HadesBuild():
            return Answer(name(event.card), event=event)
        case UnbuildWonder() | StealWonder():
            return Answer(name(event.wonder), event=event)
        case IsisWonder():
            return Answer(name(event.wonder), name(event.card), event)
        case DiscardFromStructure():
            structure = state.structure
            assert structure is not None  # Zeus asks only in a dealt age
            card = structure.cards[event.position]
            where = words.place(state.catalog, state.age, event.position)
            face_up = card is not None and is_face_up(state, event.position)
            label = name(card) if face_up and card is not None else "Face down"
            return Answer(label, where, event)
        case PlaceMinerva():
            where = words.track_space(voice, event.position)
            return Answer(where[:1].upper() + where[1:], event=event)
        case NeptuneLoot():
            applied = (
                "use none" if event.applied is None else "use " + _loot(voice, state, event.applied)
            )
            return Answer("Drop " + _loot(voice, state, event.discarded), applied, event)
        case TheaterActivation():
            pantheon = state.catalog.pantheon
            assert pantheon is not None
            mythology = pantheon.divinity(event.divinity).mythology
            return Answer(name(event.divinity), mythology.capitalize(), event)
    return Answer(event.type, event=event)  # pragma: no cover - every answer is named above


def _loot(voice: Voice, state: GameState, signed: int) -> str:
    """A loot token in a few letters: whose coins it takes and how many, "Ben 5"."""
    owner, amount = words.loot_of(voice, state, signed)
    return f"{owner} {amount}"


def target_of(event: Event | None) -> str | None:
    """The card, wonder or divinity a scan points at among a Pantheon decision's options."""
    match event:
        case PlaceSnake() | StealCard() | HadesBuild():
            return str(event.card)
        case UnbuildWonder() | StealWonder() | IsisWonder():
            return str(event.wonder)
        case TheaterActivation() | GateActivation():
            return str(event.divinity)
        case PlaceDivinity():
            return str(event.divinity)
    return None


__all__ = [
    "SCANNED",
    "Answer",
    "activation_answers",
    "board_answers",
    "decision_answers",
    "draw_count",
    "draw_pool",
    "hidden_mythology",
    "is_draw",
    "is_piece",
    "piece_refusal",
    "space_prices",
    "target_of",
]
