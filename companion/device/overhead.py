"""At the table with the overhead camera (issue 14, item 5): what the structure's readings
mean for the game.

The overhead reader (`companion.vision.structure.read_structure`) tells, for each frame,
what lies at each of the 20 positions: a card id, "back", "empty" or None (cannot tell: a
hand over it, a sticker not read). A `Watch` keeps the readings of the frames in a row and
gives a `Table` input to the controller once `agree` frames in a row say the same about every
position (`sure` when they tell every position), and that differs from the last one given: a
hand moving over the table changes what is seen from frame to frame, so it gives nothing
until it has left (or rests for as long). The `Table` carries the positions where a card was seen in
an earlier table of the age (`seen`): a card has left the structure when its position is
seen bare ("empty"), or cannot be told where the card was seen before. One card gone is
proposed; more than one is a hand still in view (or cards moved at once: when two positions
are seen bare, the box asks to put one back).

`what_left` says what a table means for the game: the cards turned face up and read (each
becomes a `reveal`, recorded without anyone asking), and the positions whose card has left
(one: the box proposes the action, or refuses a card that was not accessible; two or more: a
hand still in view, or too many cards moved). `offers` lists the accessible cards with what
each costs the player to build and the cheapest way to pay, for the OLED's list between turns
and the phone's live page. Pure logic over the engine's state: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.device import words
from companion.device.words import Voice
from companion.engine.cards import CardId
from companion.engine.events import Reveal
from companion.engine.pricing import cheapest_payment
from companion.engine.rules import accessible_cards, is_accessible, unrevealed
from companion.engine.state import GameState, Phase
from companion.engine.structure import UNKNOWN, was_taken
from companion.inputs import Table

AGREE = 3  # frames in a row that must say the same before the table counts
SURE = 2  # as many when every position of those frames is told (no hand over any)

__all__ = [
    "AGREE", "Offer", "Seen", "Watch", "deal_entries", "first_untold", "known_cards", "offers",
    "taken_cards", "unclear", "what_left",
]  # fmt: skip


def known_cards(state: GameState) -> tuple[str, ...] | None:
    """What the box knows at each position of the age's structure (layout order): the card
    lying there, "back" for a face-down card not turned yet, "empty" where the card was
    taken (recorded: that position is empty for certain), the KNOWN list that `scan
    --structure --known` reads. The overhead reader uses it to settle where the cards it
    reads lie and to look only at the positions a card may have left. Before the age's
    deal is recorded, while no card of it is taken, every position holds a card, which
    ones not known yet: 20 "back" entries (a placement of the cards read that leaves a
    position bare is then ruled out, `read_structure`); None once cards were taken without
    a recorded deal."""
    structure = state.structure
    if structure is None:
        if state.phase is not Phase.PLAYING or state.taken:
            return None
        return ("back",) * len(state.catalog.layout(state.age).positions)
    return tuple(
        "empty" if card is None else "back" if card in UNKNOWN else card for card in structure.cards
    )


def taken_cards(state: GameState) -> frozenset[str]:
    """The cards of the age being played that the game recorded as taken (in a city, under
    a wonder or discarded): the overhead reader never puts them in the structure."""
    catalog = state.catalog
    cards = catalog.age_deck(state.age) + (catalog.guilds if state.age == 3 else ())
    return frozenset(card.id for card in cards if was_taken(state, card.id))


@dataclass(frozen=True, slots=True)
class Offer:
    """An accessible card as the list between turns shows it: its name, the price to build
    it ("3 coins", "free", "chain"), how to pay it ("buys 1 wood 2 glass", "Free through a
    chain") or why it cannot be paid ("Costs 9 coins, has 6")."""

    card: CardId
    name: str
    price: str
    how: str
    affordable: bool

    def to_json(self) -> dict[str, object]:
        """The phone page's entry (web/present.py)."""
        return {
            "card": self.card,
            "name": self.name,
            "price": self.price,
            "how": self.how,
            "affordable": self.affordable,
        }


def offers(state: GameState, voice: Voice) -> tuple[Offer, ...]:
    """The accessible cards of a dealt age in layout order, priced for the player to move
    (empty in table mode, in setup and at the end)."""
    if state.phase is not Phase.PLAYING:
        return ()
    catalog = state.catalog
    player = state.current
    city, other = state.city(player), state.city(player.opponent)
    found = []
    for card_id in accessible_cards(state):
        payment = cheapest_payment(catalog, city, other, catalog.card(card_id))
        price, how = words.price(payment)
        affordable = payment.affordable(city.coins)
        if not affordable:
            how = words.not_affordable(payment.total, city.coins)
        found.append(Offer(card_id, voice.name(card_id), price, how, affordable))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Seen:
    """What a table means for the game now: a reveal to record (the first card turned face
    up and read), the positions whose card has left the structure, and which of those were
    seen bare ("empty", not only unseen)."""

    reveal: Reveal | None = None
    left: tuple[int, ...] = ()
    bare: tuple[int, ...] = ()


def what_left(state: GameState, table: Table) -> Seen:
    """The reveal and the cards gone that `table` shows against the dealt structure (nothing
    in table mode, or when the table is of another age)."""
    structure = state.structure
    if structure is None or table.age != state.age or len(table.slots) != len(structure.cards):
        return Seen()
    for index in unrevealed(state):
        slot = table.slots[index]
        if slot not in (None, "back", "empty") and state.catalog.is_card(slot):
            return Seen(reveal=Reveal(index, CardId(slot)))
    slots = table.slots
    bare = [i for i, card in enumerate(structure.cards) if card is not None and slots[i] == "empty"]
    # a card no longer seen where it was seen is gone, in a view that places the structure
    # (one that still tells a card lying in it: the last card of an age, alone, cannot be
    # told); beside a place seen bare, only if it could have been taken (a covered card the
    # view cannot tell is still there); never in a reading given again after an event was
    # recorded (it was judged before the event: a card the event uncovered that the view
    # cannot tell still lies there as far as it knows)
    placed = not table.again and any(card is not None and slots[i] not in (None, "empty")
                                     for i, card in enumerate(structure.cards))  # fmt: skip
    unseen = [
        i
        for i, card in enumerate(structure.cards)
        if placed and card is not None and slots[i] is None and i in table.seen
        and (not bare or is_accessible(state, i))
    ]  # fmt: skip
    left = tuple(sorted(bare + unseen))
    return Seen(left=left, bare=tuple(bare))


def unclear(state: GameState, table: Table | None) -> tuple[int, ...]:
    """The positions of the dealt structure that the players may take a card from now
    (accessible, a card still there) and whose card the last table could not tell (None: a
    hand over it, its sticker not read, too few cards left to place the structure): a card
    taken there is not seen gone, and is scanned by hand."""
    structure = state.structure
    if table is None or structure is None or table.age != state.age:
        return ()
    if len(table.slots) != len(structure.cards):
        return ()
    return tuple(
        i
        for i, card in enumerate(structure.cards)
        if card is not None and table.slots[i] is None and is_accessible(state, i)
    )


def refusal(state: GameState, index: int, voice: Voice) -> str | None:
    """Why the card gone from `index` cannot be taken now, in one line (None: it can)."""
    structure = state.structure
    if structure is None:
        return None
    card = structure.cards[index]
    known = card is not None and card not in UNKNOWN
    name = (
        voice.name(card)
        if known and card is not None
        else words.place(state.catalog, state.age, index)
    )
    if not is_accessible(state, index) or not known:
        return words.refusal(name, words.STILL_COVERED)
    return None


def deal_entries(
    state: GameState, slots: Sequence[str | None], entered: Sequence[str] = ()
) -> tuple[str, ...]:
    """The face-up cards a reading shows at the start of an age, in the order a guided entry
    asks for them, up to the first one not read (the rest is scanned by hand). A position the
    reading cannot tell (None) that the entry already holds (`entered`, from an earlier
    frame or scanned by hand) keeps its card, so frames that each miss another position add
    up; a card read there that differs from the entry's stays in the entries, for the caller
    to see the disagreement."""
    entries: list[str] = []
    face_up = [p for p in state.catalog.layout(state.age).positions if p.face_up]
    for number, position in enumerate(face_up):
        slot = slots[position.index] if position.index < len(slots) else None
        if slot is None and number < len(entered):
            slot = entered[number]
        if slot in (None, "back", "empty"):
            break
        entries.append(str(slot))
    return tuple(entries)


def first_untold(state: GameState, slots: Sequence[str | None], entered: int) -> int | None:
    """The face-up position a guided entry asks for after `entered` cards, when the reading
    cannot tell it (None there): the OLED says so, and the card is scanned by hand."""
    face_up = [p.index for p in state.catalog.layout(state.age).positions if p.face_up]
    if entered >= len(face_up):
        return None
    index = face_up[entered]
    return index if index < len(slots) and slots[index] is None else None


@dataclass
class Watch:
    """The readings of the frames in a row, to a `Table` once `agree` of them say the same
    at every position (a card id, "back", or no card seen: "empty" and None alike, which a
    reader may tell apart from one frame to the next on a bare position), or `sure` of them
    when those tell every position (no None: no hand over the structure, and the reader
    never tells a position wrongly, so a second frame only guards against a hand coming
    in); the table holds the last frame's reading. A reading the same as the last table
    given is given again when a position that table did not read bare reads "empty" in each
    of those frames (a card taken where the view could not tell the card: it is seen gone).

    `frame(slots, age)` takes one reading of age `age`'s structure; it returns the `Table`
    to give the controller, or None (not yet agreed, or the same as the last one given).
    """

    agree: int = AGREE
    sure: int = SURE
    _age: int = 0
    _row: list[tuple[tuple[str | None, ...], float | None, bool, frozenset[int]]] = field(
        default_factory=list
    )
    _given: tuple[str | None, ...] | None = None
    _bare: frozenset[int] = frozenset()  # the positions the last table given read bare
    _seen: set[int] = field(default_factory=set)
    last: Table | None = None  # the last table given

    def frame(self, slots: Sequence[str | None], age: int, at: float | None = None) -> Table | None:
        """One frame's reading (`at`: when it was captured; the table's `at` is the capture
        of the first frame of the run that agreed, when the hand had left)."""
        if age != self._age:  # a new age: its structure is another one
            self._age, self._row, self._given, self._seen = age, [], None, set()
            self._bare = frozenset()
        shape = tuple(None if slot == "empty" else slot for slot in slots)  # no card seen
        if not self._row or self._row[-1][0] != shape:
            self._row = []  # the run of frames agreeing starts again here
        told = all(slot is not None for slot in slots)  # nothing under a hand
        bare = frozenset(i for i, slot in enumerate(slots) if slot == "empty")
        self._row.append((shape, at, told, bare))
        wanted = self.sure if all(row[2] for row in self._row) else self.agree
        if len(self._row) < wanted:
            return None
        bare = frozenset.intersection(*(row[3] for row in self._row[-wanted:]))
        if shape == self._given and bare <= self._bare:
            return None
        self._given, self._bare = shape, bare
        seen = frozenset(self._seen)  # before this table: a card not seen now was there
        self._seen |= {i for i, slot in enumerate(shape) if slot is not None}
        self.last = Table(tuple(slots), age, seen, self._row[0][1])  # at: when the run began
        return self.last
