"""Victory points: the score pad of each city, row by row, with where each row comes from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import Catalog, Color, Counted
from .military import military_points
from .state import COLOR_INDEX, City, GameState, Player

COINS_PER_POINT: Final = 3
MATHEMATICS: Final = "mathematics"
MATHEMATICS_POINTS: Final = 3

_COUNTED_COLOR: Final = {
    Counted.BROWN_CARD: COLOR_INDEX[Color.BROWN],
    Counted.GREY_CARD: COLOR_INDEX[Color.GREY],
    Counted.RED_CARD: COLOR_INDEX[Color.RED],
    Counted.GREEN_CARD: COLOR_INDEX[Color.GREEN],
    Counted.BLUE_CARD: COLOR_INDEX[Color.BLUE],
    Counted.YELLOW_CARD: COLOR_INDEX[Color.YELLOW],
}

ROWS: Final[tuple[str, ...]] = (
    "blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military",
)  # fmt: skip
"""The rows of the score pad, in the order the rulebook's pad lists them."""


@dataclass(frozen=True, slots=True, init=False)
class Score:
    """One player's VP per row, the total, and the sources: (row, id, VP) for every card,
    wonder, token, the coins ("coins") and the pawn ("military") that scores."""

    blue: int
    green: int
    yellow: int
    purple: int
    wonders: int
    progress: int
    coins: int
    military: int
    sources: tuple[tuple[str, str, int], ...]

    def __init__(
        self,
        blue: int,
        green: int,
        yellow: int,
        purple: int,
        wonders: int,
        progress: int,
        coins: int,
        military: int,
        sources: tuple[tuple[str, str, int], ...] = (),
    ) -> None:
        object.__setattr__(self, "blue", blue)
        object.__setattr__(self, "green", green)
        object.__setattr__(self, "yellow", yellow)
        object.__setattr__(self, "purple", purple)
        object.__setattr__(self, "wonders", wonders)
        object.__setattr__(self, "progress", progress)
        object.__setattr__(self, "coins", coins)
        object.__setattr__(self, "military", military)
        object.__setattr__(self, "sources", sources)

    @property
    def total(self) -> int:
        """The sum of the rows."""
        return (
            self.blue + self.green + self.yellow + self.purple + self.wonders
            + self.progress + self.coins + self.military
        )  # fmt: skip

    def row(self, name: str) -> int:
        """The VP of the row `name` (one of `ROWS`, or "total")."""
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True, slots=True, init=False)
class ScoreSheet:
    """Both players' scores as if the game were scored now."""

    p1: Score
    p2: Score

    def __init__(self, p1: Score, p2: Score) -> None:
        object.__setattr__(self, "p1", p1)
        object.__setattr__(self, "p2", p2)

    def of(self, player: Player) -> Score:
        """The score of `player`."""
        return self.p1 if player is Player.P1 else self.p2


def count_in(city: City, counted: Sequence[Counted]) -> int:
    """How many of the `counted` items the city has (cards of colours, wonders, coins)."""
    total = 0
    for item in counted:
        if item is Counted.WONDER:
            total += len(city.wonders_built)
        elif item is Counted.COINS:
            total += city.coins
        else:
            total += city.colors[_COUNTED_COLOR[item]]
    return total


def score_sheet(state: GameState) -> ScoreSheet:
    """The score pad of both cities now (the final score once the game is over)."""
    military = military_points(state.catalog.track, state.position)
    one, two = state.cities
    return ScoreSheet(
        p1=_score(state.catalog, one, two, military[0]),
        p2=_score(state.catalog, two, one, military[1]),
    )


_ROW_OF_COLOR: Final = {
    Color.BLUE: "blue",
    Color.GREEN: "green",
    Color.YELLOW: "yellow",
    Color.PURPLE: "purple",
}


def _score(catalog: Catalog, city: City, opponent: City, military: int) -> Score:
    """The score of `city`; guilds count the city (either one) that has the most."""
    rows = {row: 0 for row in ROWS}
    sources: list[tuple[str, str, int],] = []
    adder = _Adder(rows, sources)
    for card_id in city.cards:
        card = catalog.card(card_id)
        row = _ROW_OF_COLOR.get(card.color)
        if card.guild is not None:
            most = max(count_in(city, card.guild.counts), count_in(opponent, card.guild.counts))
            adder.add("purple", card_id, card.guild.points * (most // card.guild.per))
        elif row is not None:
            adder.add(row, card_id, card.points)
    for wonder_id in city.wonders_built:
        adder.add("wonders", wonder_id, catalog.wonder(wonder_id).points)
    for token in catalog.progress_tokens:  # catalog order: a stable order of sources
        if token.id in city.tokens:
            points = token.points
            if token.id == MATHEMATICS:  # 3 VP per token owned, itself included
                points += MATHEMATICS_POINTS * len(city.tokens)
            adder.add("progress", token.id, points)
    adder.add("coins", "coins", city.coins // COINS_PER_POINT)
    adder.add("military", "military", military)
    return Score(  # the rows in `ROWS` order, the order of Score's fields
        rows["blue"],
        rows["green"],
        rows["yellow"],
        rows["purple"],
        rows["wonders"],
        rows["progress"],
        rows["coins"],
        rows["military"],
        tuple(sources),
    )


class _Adder:
    """Adds a source's VP to its row, and the source to the list (when it scores)."""

    def __init__(self, rows: dict[str, int], sources: list[tuple[str, str, int]]) -> None:
        self.rows = rows
        self.sources = sources

    def add(self, row: str, source: str, points: int) -> None:
        """Count `points` VP from `source` in `row`."""
        if points:
            self.rows[row] += points
            self.sources.append((row, source, points))
