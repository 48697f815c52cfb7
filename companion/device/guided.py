"""Guided entry of an age's structure with the hand-held camera (issue 14, item 2).

At the start of an age the box asks for the face-up cards in layout order ("Row 3, card 2
of 4") and the player scans each; the face-down cards stay unknown, so the result is a
partial `Deal` (docs/game-record.md). When a card is uncovered later, `reveal_prompt` names
the position to turn up and scan, and `reveal_event` makes the `Reveal` of the card scanned.
Skipping is allowed: the age then goes on in table mode (no deal).

Pure logic over the engine's state and events: the controller asks `prompt`, feeds scans to
`scan`, and submits `deal()` once `done`; nothing here draws or reads hardware. The device's
controller does not call it yet (the hook is `GuidedDeal` plus `reveal_prompt`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.cards import CardId, Catalog
from companion.engine.events import GUILD_BACK, Deal, IllegalEvent, Reveal
from companion.engine.rules import unrevealed
from companion.engine.state import GameState


def place_words(catalog: Catalog, age: int, index: int) -> str:
    """A position as the OLED asks for it: "Row 3, card 2 of 4"."""
    positions = catalog.layout(age).positions
    row = positions[index].row
    same_row = [p.index for p in positions if p.row == row]
    return f"Row {row}, card {same_row.index(index) + 1} of {len(same_row)}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


@dataclass
class GuidedDeal:
    """The face-up cards of an age's structure, asked one by one in layout order."""

    catalog: Catalog
    age: int
    guild_backs: frozenset[int] = frozenset()
    """Age 3: the face-down positions whose back shows a guild (the player says so)."""
    cards: dict[int, CardId] = field(default_factory=dict)

    @property
    def wanted(self) -> list[int]:
        """The face-up positions, in layout order."""
        return [p.index for p in self.catalog.layout(self.age).positions if p.face_up]

    @property
    def next_position(self) -> int | None:
        """The position asked for now, None once every face-up card is scanned."""
        return next((i for i in self.wanted if i not in self.cards), None)

    @property
    def done(self) -> bool:
        """Every face-up card has been scanned."""
        return self.next_position is None

    def prompt(self) -> str:
        """What the OLED asks: "Scan row 3, card 2 of 4", or that the deal is complete."""
        index = self.next_position
        if index is None:
            return f"Age {self.age} entered"
        return f"Scan {_lower_first(place_words(self.catalog, self.age, index))}"

    def scan(self, card_id: str) -> None:
        """Take the scanned card for the position asked.

        Raises:
            IllegalEvent: not a card, of another age, or already scanned for this deal.
        """
        index = self.next_position
        if index is None:
            raise IllegalEvent(f"Age {self.age} is already entered")
        if not self.catalog.is_card(card_id):
            raise IllegalEvent(f"Unknown card {card_id!r}")
        card = self.catalog.card(card_id)
        name = self.catalog.name(card.id)
        if card.age != self.age:
            raise IllegalEvent(f"{name} is an age {card.age} card, not age {self.age}")
        if card.id in self.cards.values():
            raise IllegalEvent(f"{name} is already scanned")
        self.cards[index] = card.id

    def undo(self) -> None:
        """Forget the last card scanned (nothing when none is)."""
        if self.cards:
            del self.cards[max(self.cards, key=self.wanted.index)]

    def deal(self) -> Deal:
        """The partial deal: the cards scanned, None (or the guild marker) face down.

        Raises:
            IllegalEvent: not every face-up card has been scanned.
        """
        if not self.done:
            raise IllegalEvent(f"Not complete: {self.prompt()}")
        layout: list[CardId | None] = []
        for p in self.catalog.layout(self.age).positions:
            if p.face_up:
                layout.append(self.cards[p.index])
            else:
                layout.append(GUILD_BACK if p.index in self.guild_backs else None)
        return Deal(self.age, tuple(layout))


def reveal_prompt(state: GameState) -> str | None:
    """What to ask when a face-down card has been uncovered and not yet named: "Turn up
    row 4, card 2 of 5 and scan it"; None when nothing waits."""
    waiting = unrevealed(state)
    if not waiting:
        return None
    words = place_words(state.catalog, state.age, waiting[0])
    return f"Turn up {_lower_first(words)} and scan it"


def reveal_event(state: GameState, card_id: str) -> Reveal:
    """The `Reveal` of a scanned card for the first position waiting (the engine checks it).

    Raises:
        IllegalEvent: no position waits to be named.
    """
    waiting = unrevealed(state)
    if not waiting:
        raise IllegalEvent("No card waits to be turned up")
    return Reveal(waiting[0], CardId(card_id))
