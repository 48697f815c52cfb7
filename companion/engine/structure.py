"""The structure of an age: the deal, which cards are accessible or face up, and taking a
card, in both ways of knowing the table.

With a `deal` for the current age the structure holds the 20 cards and the covering
relation of the layout, and only an uncovered card may be taken. A deal may leave face-down
cards unknown (FACE_DOWN, or GUILD_BACK for an age 3 guild); a `reveal` names one once it is
uncovered and turned up. In table mode (no deal) any card of the age not yet taken is
accepted, with at most 3 guilds and 17 other cards in age 3.
"""

from __future__ import annotations

from typing import Final

from .cards import Card, CardId, Catalog, Color, Layout
from .events import GUILD_BACK, Deal, IllegalEvent, Reveal
from .pantheon_rules import check_purple_card, deal_tokens
from .state import (
    GameState,
    Structure,
    evolve,
    positions_of,
    structure_from_cards,
    with_structure,
)

__all__ = [
    "CARDS_PER_AGE",
    "FACE_DOWN",
    "GUILD_BACK",
    "UNKNOWN",
    "accessible_cards",
    "cards_left",
    "deal",
    "is_accessible",
    "is_face_up",
    "place_name",
    "remove_from_structure",
    "reveal",
    "take_card",
    "unrevealed",
    "was_taken",
]

CARDS_PER_AGE: Final = 20

FACE_DOWN: Final = CardId("back")
"""In a structure: a face-down card not known yet (None in the deal record)."""

UNKNOWN: Final = frozenset({FACE_DOWN, GUILD_BACK})
"""The markers of a face-down card not known yet; every other entry is a card id or None."""


def cards_left(state: GameState) -> int:
    """Cards still in the structure of the current age (an age ends after 20 are taken)."""
    return CARDS_PER_AGE - state.taken


def deal(state: GameState, event: Deal) -> GameState:
    """Record the structure of the current age, before its first card is taken. Face-down
    positions may be unknown (None, or GUILD_BACK in age 3); face-up cards must be named.

    Raises:
        IllegalEvent: another age, an age already dealt or begun, unknown cards or cards
            of another age, not 20 different cards, a face-up card not named, or not 3
            guilds in age 3 (guild backs included).
    """
    if event.age != state.age:
        raise IllegalEvent(f"deal: this is age {state.age}, not age {event.age}")
    if state.structure is not None:
        raise IllegalEvent(f"deal: age {state.age} is already dealt")
    if state.taken:
        raise IllegalEvent(f"deal: cards of age {state.age} have already been taken")
    catalog = state.catalog
    layout = catalog.layout(event.age)
    guilds = 0
    known: list[CardId] = []
    for index, card_id in enumerate(event.layout):
        if card_id is None or card_id == GUILD_BACK:
            if index >= len(layout.positions) or layout.positions[index].face_up:
                raise IllegalEvent(f"deal: {place_name(layout, index)} is face up: name its card")
            if card_id == GUILD_BACK and event.age != 3:
                raise IllegalEvent(f"deal: only age 3 has guilds, not age {event.age}")
            guilds += card_id == GUILD_BACK
            continue
        try:
            card = catalog.card(card_id)
        except KeyError:
            raise IllegalEvent(f"deal: unknown card {card_id!r}") from None
        if card.age != event.age:
            raise IllegalEvent(f"deal: {card_id!r} is not an age {event.age} card")
        if card.color is Color.PURPLE:
            check_purple_card(state, card)  # guilds, or Grand Temples with Pantheon
            guilds += 1
        known.append(card_id)
    if len(set(known)) != len(known) or len(event.layout) != CARDS_PER_AGE:
        raise IllegalEvent(f"deal: {CARDS_PER_AGE} different cards needed")
    if event.age == 3 and guilds != catalog.rules.guilds_in_age_3:  # 17 + 3 guilds
        raise IllegalEvent(f"deal: age 3 has {catalog.rules.guilds_in_age_3} guilds, not {guilds}")
    cards = tuple(FACE_DOWN if card_id is None else card_id for card_id in event.layout)
    after = with_structure(state, structure_from_cards(event.age, cards, _covering(layout)))
    if state.pantheon is None and not event.tokens:
        return after
    return evolve(after, pantheon=deal_tokens(state, event))


def place_name(layout: Layout, index: int) -> str:
    """A layout position in words: "row 4, card 2" (rows from the farthest, cards from the
    left, both from 1)."""
    position = layout.positions[index]
    card = sum(1 for p in layout.positions[:index] if p.row == position.row) + 1
    return f"row {position.row}, card {card}"


def reveal(state: GameState, event: Reveal) -> GameState:
    """Name the face-down card at `event.position`, turned up once uncovered.

    Raises:
        IllegalEvent: no dealt structure, a position taken, known or still covered, or a
            card that cannot lie there (unknown, of another age, already in the structure or
            taken, a guild under a plain back or a plain card under a guild's back).
    """
    structure = state.structure
    if structure is None:
        raise IllegalEvent(f"reveal: age {state.age} is not dealt")
    catalog = state.catalog
    layout = catalog.layout(structure.age)
    index = event.position
    where = place_name(layout, index)
    there = structure.cards[index]
    if there is None:
        raise IllegalEvent(f"reveal: the card at {where} has been taken")
    if there not in UNKNOWN:
        raise IllegalEvent(f"reveal: the card at {where} is known ({catalog.name(there)})")
    if structure.covering[index] & ~structure.gone:
        raise IllegalEvent(f"reveal: the card at {where} is still covered")
    if not catalog.is_card(event.card):
        raise IllegalEvent(f"Unknown card {event.card!r}")
    card = catalog.card(event.card)
    name = catalog.name(card.id)
    if card.age != structure.age:
        raise IllegalEvent(f"{name} is an age {card.age} card, not age {structure.age}")
    if card.id in structure.cards:
        raise IllegalEvent(f"{name} is already in the structure")
    if was_taken(state, card.id):
        raise IllegalEvent(f"{name} has already been taken")
    if (card.color is Color.PURPLE) != (there == GUILD_BACK):
        back = "a guild's back" if there == GUILD_BACK else "an age 3 back"
        raise IllegalEvent(f"The card at {where} has {back}: it cannot be {name}")
    dealt = list(structure.dealt)
    dealt[index] = card.id
    return with_structure(
        state,
        Structure(structure.age, tuple(dealt), structure.gone, structure.open, structure.covering),
    )


def unrevealed(state: GameState) -> tuple[int, ...]:
    """The positions uncovered (so turned face up) whose card is not named yet: each needs
    a `reveal` before it can be taken."""
    structure = state.structure
    if structure is None:
        return ()
    dealt = structure.dealt
    return tuple(i for i in positions_of(structure.open) if dealt[i] in UNKNOWN)


def _covering(layout: Layout) -> tuple[int, ...]:
    """For each position of `layout`, the mask of the positions that cover it (worked out
    once per layout: a deal is on every simulated game's path)."""
    found = _COVERING.get(id(layout))
    if found is None or found[0] is not layout:
        found = (layout, tuple(sum(1 << i for i in p.covered_by) for p in layout.positions))
        _COVERING[id(layout)] = found
    return found[1]


_COVERING: Final[dict[int, tuple[Layout, tuple[int, ...]]]] = {}
"""Covering masks by id of the layout, which each entry holds (so an id is never reused)."""


def is_accessible(state: GameState, index: int) -> bool:
    """Whether the card at layout position `index` is still there and uncovered."""
    structure = state.structure
    return structure is not None and bool(structure.open >> index & 1)


def is_face_up(state: GameState, index: int) -> bool:
    """Whether the card at `index` shows its face: dealt face up, or uncovered since (a
    face-down card is turned over as soon as the action that freed it is done)."""
    structure = state.structure
    if structure is None:
        return False
    position = state.catalog.layout(structure.age).positions[index]
    return position.face_up or not structure.covering[index] & ~structure.gone


def accessible_cards(state: GameState) -> tuple[CardId, ...]:
    """The cards that may be taken now in a dealt age, in layout order (empty in table
    mode, where the engine does not know the table)."""
    structure = state.structure
    if structure is None:
        return ()
    dealt = structure.dealt
    found: list[CardId] = []
    open_ = structure.open
    index = 0
    while open_:  # `positions_of` walked in place: no tuple of positions on every turn
        if open_ & 1:
            card = dealt[index]  # two comparisons cost less than a look in UNKNOWN
            if card is not None and card != FACE_DOWN and card != GUILD_BACK:
                found.append(card)
        open_ >>= 1
        index += 1
    return tuple(found)


def was_taken(state: GameState, card_id: CardId) -> bool:
    """Whether `card_id` has been taken from a structure (it is in a city, under a wonder
    or in the discard pile)."""
    one, two = state.cities
    return (
        card_id in one.cards
        or card_id in two.cards
        or card_id in state.discard
        or card_id in one.tucked
        or card_id in two.tucked
    )


def take_card(state: GameState, card_id: CardId) -> tuple[Structure | None, Card]:
    """Check that `card_id` may be taken now; return the structure without it (None in
    table mode) and the card.

    Raises:
        IllegalEvent: an unknown card, a card of another age, a card already taken, not in
            the dealt structure or covered, or in table mode a 4th guild or an 18th other
            age 3 card.
    """
    catalog = state.catalog
    if not catalog.is_card(card_id):
        raise IllegalEvent(f"Unknown card {card_id!r}")
    card = catalog.card(card_id)
    if card.age != state.age:
        raise IllegalEvent(
            f"{catalog.name(card_id)} is an age {card.age} card, not age {state.age}"
        )
    structure = state.structure
    if structure is not None:  # dealt: in the structure and uncovered
        index = _position(structure, card_id)
        if index < 0:
            if was_taken(state, card_id):
                raise IllegalEvent(f"{catalog.name(card_id)} has already been taken")
            waiting = unrevealed(state)
            if waiting:
                where = place_name(catalog.layout(state.age), waiting[0])
                raise IllegalEvent(f"Scan the card turned up at {where} first")
            raise IllegalEvent(f"{catalog.name(card_id)} is not in the age {state.age} structure")
        if not structure.open >> index & 1:
            raise IllegalEvent(f"{catalog.name(card_id)} is covered")
        structure = _without(structure, index, catalog)
    else:  # table mode: not taken before, and age 3's mix of guilds and other cards
        if was_taken(state, card_id):
            raise IllegalEvent(f"{catalog.name(card_id)} has already been taken")
        if card.age == 3:
            _check_age_3_mix(state, card)
    return structure, card


def _position(structure: Structure, card_id: CardId) -> int:
    """The layout position of `card_id` in the structure, -1 if it is not there (a loop, which
    compiled costs less than `tuple.index` and its exception)."""
    gone = structure.gone
    for index, there in enumerate(structure.dealt):
        if there == card_id and not gone >> index & 1:
            return index
    return -1


def remove_from_structure(structure: Structure, index: int, catalog: Catalog) -> Structure:
    """The structure once the card at `index` has left it (Zeus, Pantheon): as if taken."""
    return _without(structure, index, catalog)


def _without(structure: Structure, index: int, catalog: Catalog) -> Structure:
    """The structure once the card at `index` is taken: the cards it covered are freed
    when nothing else covers them."""
    gone = structure.gone | 1 << index
    open_ = structure.open & ~(1 << index)
    covering = structure.covering
    for below in catalog.layout(structure.age).positions[index].covers:
        if not covering[below] & ~gone:
            open_ |= 1 << below
    if open_ & gone:  # a covered card Zeus (Pantheon) took: gone, never open again
        open_ &= ~gone
    return Structure(structure.age, structure.dealt, gone, open_, covering)


def _check_age_3_mix(state: GameState, card: Card) -> None:
    """Age 3 lays out 17 age cards and 3 guilds: refuse a 4th guild or an 18th other card
    (table mode, where no deal says which cards are out)."""
    catalog = state.catalog
    guilds_in_age = catalog.rules.guilds_in_age_3
    guilds, others = _age_3_seen(state)
    if card.color is Color.PURPLE:
        check_purple_card(state, card)
    if card.color is Color.PURPLE and guilds >= guilds_in_age:
        raise IllegalEvent(
            f"Age 3 has only {guilds_in_age} guilds: {catalog.name(card.id)} cannot be a 4th"
        )
    most = CARDS_PER_AGE - guilds_in_age
    if card.color is not Color.PURPLE and others >= most:
        raise IllegalEvent(
            f"Age 3 has only {most} cards besides the guilds: {catalog.name(card.id)} "
            f"cannot be an {most + 1}th"
        )


def _age_3_seen(state: GameState) -> tuple[int, int]:
    """Guilds and other age 3 cards taken so far (in cities, under wonders, discarded)."""
    one, two = state.cities
    catalog = state.catalog
    guilds = others = 0
    for card_id in (*one.cards, *two.cards, *one.tucked, *two.tucked, *state.discard):
        card = catalog.card(card_id)
        if card.color is Color.PURPLE:
            guilds += 1
        elif card.age == 3:
            others += 1
    return guilds, others
