"""Card facts of the 7 Wonders base game (first edition) as frozen values.

Only what end-of-game scoring needs: colour, printed points, shields, science symbol, the
points a card counts at the end (`PointsPer`), and each wonder board's stages on both sides;
and how many copies of each card a game's decks hold (`FamilyCard.copies`, for the stickers).
`companion.family.catalog` builds them from `data/family/*.toml`; every type checks its own
invariants in `__post_init__` and raises `ValueError`, to which the loader adds file and entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import NewType

from companion.engine.cards import Color

PLAYERS = (3, 4, 5, 6, 7)
"""The player counts the cards are printed for (the two-player variant uses the 3-player
cards)."""

CardId = NewType("CardId", str)
WonderId = NewType("WonderId", str)


class Symbol(StrEnum):
    """The three science symbols of the base game; ANY is a wildcard chosen at game end."""

    COMPASS = "compass"
    GEAR = "gear"
    TABLET = "tablet"
    ANY = "any"


SYMBOLS: tuple[Symbol, ...] = (Symbol.COMPASS, Symbol.GEAR, Symbol.TABLET)
"""The symbols a wildcard may become, in the order reasons list them."""


class Counted(StrEnum):
    """What an end-of-game card counts besides cards of a colour."""

    WONDER_STAGES = "wonder_stages"
    DEFEAT_TOKENS = "defeat_tokens"


class Where(StrEnum):
    """Whose city is counted: the owner's, or a neighbour's (left = previous in seating)."""

    OWN = "own"
    LEFT = "left"
    RIGHT = "right"


class Side(StrEnum):
    """The side of a wonder board in play."""

    A = "A"
    B = "B"


@dataclass(frozen=True, slots=True)
class PointsPer:
    """`points` VP for each counted item (a card of a colour, a wonder stage, a defeat token)
    in each of `cities`, counted at the end of the game."""

    counts: tuple[Color | Counted, ...]
    cities: tuple[Where, ...]
    points: int

    def __post_init__(self) -> None:
        if not self.counts or len(set(self.counts)) != len(self.counts):
            raise ValueError("points_per: count must list distinct items")
        if not self.cities or len(set(self.cities)) != len(self.cities):
            raise ValueError("points_per: cities must list distinct cities")
        if self.points < 1:
            raise ValueError(f"points_per: points must be at least 1, got {self.points}")


@dataclass(frozen=True, slots=True)
class FamilyCard:
    """A building card of the base game."""

    id: CardId
    names: Mapping[str, str]
    ages: tuple[int, ...]
    color: Color
    points: int = 0
    shields: int = 0
    science: Symbol | None = None
    points_per: PointsPer | None = None
    copies: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Per Age deck, the player counts from which each copy is in it, as printed at the
    bottom of the card ("3+", "4+": {1: (3, 4)}); empty for a guild (one card, drawn)."""

    def __post_init__(self) -> None:
        if "en" not in self.names:
            raise ValueError("names: an English name (en) is required")
        if not self.ages or any(age not in (1, 2, 3) for age in self.ages):
            raise ValueError(f"ages: expected ages among 1, 2, 3, got {list(self.ages)}")
        if self.points < 0 or self.shields < 0:
            raise ValueError("points and shields must not be negative")
        if self.color is Color.GREEN and self.science not in SYMBOLS:
            raise ValueError("science: a green card carries compass, gear or tablet")
        if self.color is not Color.GREEN and self.science not in (None, Symbol.ANY):
            raise ValueError("science: only green cards carry a symbol")
        if self.science is Symbol.ANY and self.color is not Color.PURPLE:
            raise ValueError("science: only a guild carries the wildcard 'any'")
        if self.color is Color.PURPLE and 3 not in self.ages:
            raise ValueError("a guild belongs to Age III")
        if self.color is Color.PURPLE and self.copies:
            raise ValueError("copies: a guild is one card, drawn; it has no copies")
        if self.color is not Color.PURPLE and sorted(self.copies) != sorted(self.ages):
            raise ValueError(f"copies: expected the copies of each of its ages {list(self.ages)}")
        for age, counts in self.copies.items():
            if (
                not counts
                or any(n not in PLAYERS for n in counts)
                or sorted(counts) != list(counts)
            ):
                raise ValueError(f"copies: Age {age}: expected player counts from 3 to 7, "
                                 f"in order, got {list(counts)}")  # fmt: skip

    def copies_for(self, players: int) -> int:
        """The copies of this card in a game of `players` (2: the two-player variant, played
        with the 3-player cards); a guild counts one, as any guild may be drawn."""
        if self.color is Color.PURPLE:
            return 1
        at = max(players, PLAYERS[0])
        return sum(n <= at for counts in self.copies.values() for n in counts)

    @property
    def name(self) -> str:
        """The English name."""
        return self.names["en"]

    @property
    def is_scientists_guild(self) -> bool:
        """A guild whose effect is a science wildcard."""
        return self.color is Color.PURPLE and self.science is Symbol.ANY


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a wonder board: what it gives once built."""

    points: int = 0
    shields: int = 0
    coins: int = 0
    science: Symbol | None = None
    copies_guild: bool = False

    def __post_init__(self) -> None:
        if min(self.points, self.shields, self.coins) < 0:
            raise ValueError("a stage's points, shields and coins must not be negative")
        if self.science not in (None, Symbol.ANY):
            raise ValueError("a stage's science can only be the wildcard 'any'")


@dataclass(frozen=True, slots=True)
class WonderBoard:
    """A wonder board: its names and the stages of each side, built left to right."""

    id: WonderId
    names: Mapping[str, str]
    sides: Mapping[Side, tuple[Stage, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if "en" not in self.names:
            raise ValueError("names: an English name (en) is required")
        for side in Side:
            if not 2 <= len(self.sides.get(side, ())) <= 4:
                raise ValueError(f"side {side}: expected 2 to 4 stages")

    @property
    def name(self) -> str:
        """The English name."""
        return self.names["en"]


@dataclass(frozen=True, slots=True)
class FamilyCatalog:
    """The base game's cards and wonder boards, by id."""

    cards: Mapping[CardId, FamilyCard]
    wonders: Mapping[WonderId, WonderBoard]

    @classmethod
    def of(cls, cards: tuple[FamilyCard, ...], wonders: tuple[WonderBoard, ...]) -> FamilyCatalog:
        """The catalog of these cards and boards (ids must be unique: checked by the loader)."""
        return cls(
            cards=MappingProxyType({c.id: c for c in cards}),
            wonders=MappingProxyType({w.id: w for w in wonders}),
        )
