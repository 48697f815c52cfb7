"""A finished game of the base game at the table: the cities in seating order, as values.

`companion.family.sheet` builds a `Table` from a score sheet; `companion.family.scoring`
scores it. Players sit clockwise in sheet order: each city's neighbours are the previous and
the next city, the first and the last being neighbours. Cards pass left in Age I, which is
clockwise, so the next city is the left neighbour and the previous one the right neighbour.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from companion.engine.cards import Color
from companion.family.cards import SYMBOLS, FamilyCard, Side, Stage, WonderBoard

VICTORY_TOKENS = {1: 1, 2: 3, 3: 5}
"""The victory token of each age; a defeat token is -1 in every age."""
DEFEAT = -1
TOKEN_VALUES = frozenset({*VICTORY_TOKENS.values(), DEFEAT})
MIN_PLAYERS, MAX_PLAYERS = 3, 7
PARTICIPATION_PAWNS = {3: 2, 4: 3, 5: 3, 6: 4, 7: 5}
"""Edifice (seed 001): participation pawns put on each age's project, by player count."""
DEBT_TOKENS = {1: -2, 2: -3, 3: -5}
"""Edifice: the debt token taken instead of a penalty that cannot be paid in full, by age."""


class Variant(StrEnum):
    """The base game for 3 to 7 players, or the two-player variant with the Free City."""

    BASE = "base"
    TWO_PLAYER = "two-player"


@dataclass(frozen=True, slots=True)
class Participation:
    """A player's Edifice tokens: the ages of their participation pawns and debt tokens."""

    pawns: frozenset[int] = frozenset()
    debts: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Project:
    """One age's Edifice project as it ended: built or failed, and the victory points its
    card prints (entered by the players): the reward per participant, the penalty."""

    age: int
    built: bool
    reward_points: int = 0
    penalty_points: int = 0


@dataclass(frozen=True, slots=True)
class City:
    """One city at the end of the game: its board, built stages, cards, coins and tokens."""

    name: str
    wonder: WonderBoard
    side: Side
    stages: int
    cards: tuple[FamilyCard, ...]
    coins: int
    military: tuple[int, ...]
    free_city: bool = False
    edifice: Participation = Participation()
    by_color: Mapping[Color, tuple[FamilyCard, ...]] = field(init=False, repr=False, compare=False)
    """The city's cards of each colour (sorted once: every category looks at one colour)."""
    colors: Mapping[Color, int] = field(init=False, repr=False, compare=False)
    """The number of cards of each colour."""
    symbols: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The number of green cards of each symbol, in `SYMBOLS` order."""

    def __post_init__(self) -> None:
        by_color: dict[Color, list[FamilyCard]] = {}
        for card in self.cards:
            by_color.setdefault(card.color, []).append(card)
        object.__setattr__(self, "by_color", {c: tuple(cs) for c, cs in by_color.items()})
        object.__setattr__(self, "colors", {c: len(cs) for c, cs in by_color.items()})
        symbols = Counter(card.science for card in by_color.get(Color.GREEN, ()))
        object.__setattr__(self, "symbols", tuple(symbols[s] for s in SYMBOLS))

    @property
    def built_stages(self) -> tuple[Stage, ...]:
        """The stages built, left to right."""
        return self.wonder.sides[self.side][: self.stages]

    @property
    def defeats(self) -> int:
        """The number of defeat tokens (-1) the city holds."""
        return self.military.count(DEFEAT)


@dataclass(frozen=True, slots=True)
class Table:
    """The cities in seating order (clockwise), the variant, and the Edifice projects if the
    expansion is played (one per age, in age order)."""

    variant: Variant
    cities: tuple[City, ...]
    projects: tuple[Project, ...] | None = None

    def neighbours(self, index: int) -> tuple[City, City]:
        """The left (next) and right (previous) neighbours of the city at `index`."""
        count = len(self.cities)
        return self.cities[(index + 1) % count], self.cities[index - 1]
