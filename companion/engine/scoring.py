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


def civilian_ranks(state: GameState) -> tuple[tuple[int, int], tuple[int, int]]:
    """(total VP, blue VP) of p1 and of p2 now: what a civilian victory compares. The same
    count as `score_sheet`'s, without the sources (at the end of every game played)."""
    catalog = state.catalog
    military = military_points(catalog.track, state.position)
    one, two = state.cities
    first = _rows(catalog, one, two, military[0], None)
    second = _rows(catalog, two, one, military[1], None)
    return (sum(first), first[_BLUE]), (sum(second), second[_BLUE])


_BLUE: Final = ROWS.index("blue")
_PURPLE: Final = ROWS.index("purple")
_WONDERS: Final = ROWS.index("wonders")
_PROGRESS: Final = ROWS.index("progress")
_COINS: Final = ROWS.index("coins")
_MILITARY: Final = ROWS.index("military")

_ROW_OF_COLOR: Final = {
    Color.BLUE: ROWS.index("blue"),
    Color.GREEN: ROWS.index("green"),
    Color.YELLOW: ROWS.index("yellow"),
    Color.PURPLE: _PURPLE,
}
"""The row of each colour that scores its cards' printed VP (guilds score by their rule)."""


def _score(catalog: Catalog, city: City, opponent: City, military: int) -> Score:
    """The score of `city`, with its sources."""
    sources: list[tuple[str, str, int]] = []
    rows = _rows(catalog, city, opponent, military, sources)
    blue, green, yellow, purple, wonders, progress, coins, military = rows  # `ROWS` order
    return Score(blue, green, yellow, purple, wonders, progress, coins, military, tuple(sources))


def _rows(
    catalog: Catalog,
    city: City,
    opponent: City,
    military: int,
    sources: list[tuple[str, str, int]] | None,
) -> list[int]:
    """The VP of `city` per row of `ROWS`, each source that scores added to `sources` (when
    given) as (row, id, VP); guilds count the city (either one) that has the most."""
    rows = [0] * len(ROWS)
    for card_id in city.cards:
        card = catalog.card(card_id)
        guild = card.guild
        if guild is not None:
            most = max(count_in(city, guild.counts), count_in(opponent, guild.counts))
            _add(rows, sources, _PURPLE, card_id, guild.points * (most // guild.per))
        else:
            row = _ROW_OF_COLOR.get(card.color, -1)
            if row >= 0:
                _add(rows, sources, row, card_id, card.points)
    for wonder_id in city.wonders_built:
        _add(rows, sources, _WONDERS, wonder_id, catalog.wonder(wonder_id).points)
    if city.tokens:
        for token in catalog.progress_tokens:  # catalog order: a stable order of sources
            if token.id in city.tokens:
                points = token.points
                if token.id == MATHEMATICS:  # 3 VP per token owned, itself included
                    points += MATHEMATICS_POINTS * len(city.tokens)
                _add(rows, sources, _PROGRESS, token.id, points)
    _add(rows, sources, _COINS, "coins", city.coins // COINS_PER_POINT)
    _add(rows, sources, _MILITARY, "military", military)
    return rows


def _add(
    rows: list[int], sources: list[tuple[str, str, int]] | None, row: int, source: str, points: int
) -> None:
    """Count `points` VP from `source` in `rows[row]`, and the source (when it scores)."""
    if points:
        rows[row] += points
        if sources is not None:
            sources.append((ROWS[row], source, points))
