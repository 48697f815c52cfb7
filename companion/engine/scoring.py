"""Victory points: the score pad of each city, row by row, with where each row comes from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import Catalog, Color, Counted
from .military import military_points
from .state import COLOR_INDEX, City, GameState, PantheonState, Player

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

PANTHEON_ROWS: Final[tuple[str, ...]] = (*ROWS, "divinities")
"""The rows of a Pantheon game: the divinities' VP (Aphrodite, Astarte's coins) added."""


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
    divinities: int
    """Pantheon: Aphrodite's VP and Astarte's coins (0 in a base game)."""
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
        divinities: int = 0,
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
        object.__setattr__(self, "divinities", divinities)
        object.__setattr__(self, "sources", sources)

    @property
    def total(self) -> int:
        """The sum of the rows."""
        return (
            self.blue + self.green + self.yellow + self.purple + self.wonders
            + self.progress + self.coins + self.military + self.divinities
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
        p1=_score(state, one, two, military[0], 0),
        p2=_score(state, two, one, military[1], 1),
    )


def civilian_ranks(state: GameState) -> tuple[tuple[int, int], tuple[int, int]]:
    """(total VP, blue VP) of p1 and of p2 now: what a civilian victory compares. The same
    count as `score_sheet`'s, without the sources (at the end of every game played)."""
    catalog = state.catalog
    military = military_points(catalog.track, state.position)
    one, two = state.cities
    first = _rows(catalog, one, two, military[0], None)
    second = _rows(catalog, two, one, military[1], None)
    pantheon = state.pantheon
    if pantheon is not None:
        first += _pantheon_rows(state, pantheon, 0, one, None)  # only the sums are compared
        second += _pantheon_rows(state, pantheon, 1, two, None)
    return (sum(first), first[_BLUE]), (sum(second), second[_BLUE])


_BLUE: Final = ROWS.index("blue")
_PURPLE: Final = ROWS.index("purple")
_WONDERS: Final = ROWS.index("wonders")
_PROGRESS: Final = ROWS.index("progress")
_COINS: Final = ROWS.index("coins")
_MILITARY: Final = ROWS.index("military")
_DIVINITIES: Final = PANTHEON_ROWS.index("divinities")

_ROW_OF_COLOR: Final = {
    Color.BLUE: ROWS.index("blue"),
    Color.GREEN: ROWS.index("green"),
    Color.YELLOW: ROWS.index("yellow"),
    Color.PURPLE: _PURPLE,
}
"""The row of each colour that scores its cards' printed VP (guilds score by their rule)."""


def _score(state: GameState, city: City, opponent: City, military: int, index: int) -> Score:
    """The score of `city` (player `index`), with its sources."""
    sources: list[tuple[str, str, int]] = []
    rows = _rows(state.catalog, city, opponent, military, sources)
    pantheon = state.pantheon
    rows.append(0)  # the divinities' row
    if pantheon is not None:
        extra = _pantheon_rows(state, pantheon, index, city, sources)
        rows = [a + b for a, b in zip(rows, extra, strict=True)]
    blue, green, yellow, purple, wonders, progress, coins, military, divinities = rows
    return Score(
        blue, green, yellow, purple, wonders, progress, coins, military, divinities,
        tuple(sources),
    )  # fmt: skip


def _pantheon_rows(
    state: GameState,
    pantheon: PantheonState,
    index: int,
    city: City,
    sources: list[tuple[str, str, int]] | None,
) -> list[int]:
    """The Pantheon's VP of player `index`, row by row of `PANTHEON_ROWS`: the Grand
    Temples (5, 12, 21 for 1, 2, 3) in the purple row, Mysticism (2 VP per Mythology and
    Offering token held) in the progress row, Aphrodite and Astarte's coins in a row of
    their own. All other rows are 0."""
    catalog = state.catalog
    rules = catalog.pantheon
    assert rules is not None
    rows = [0] * len(PANTHEON_ROWS)
    temples = sum(1 for c in city.cards if catalog.card(c).is_temple)
    if temples:
        points = rules.temple_points[min(temples, len(rules.temple_points)) - 1]
        _add(rows, sources, _PURPLE, "grand_temples", points)
    held = len(pantheon.mythology_tokens[index]) + len(pantheon.offerings[index])
    for token in city.tokens:
        per = catalog.token(token).points_per_pantheon_token
        if per and held:
            _add(rows, sources, _PROGRESS, token, per * held)
    for card in pantheon.activated[index]:
        if rules.is_divinity(card) and rules.divinity(card).points:
            _add(rows, sources, _DIVINITIES, card, rules.divinity(card).points)
    if pantheon.astarte[index]:
        astarte = pantheon.astarte[index] * rules.astarte_points_per_coin
        _add(rows, sources, _DIVINITIES, "astarte", astarte)
    return rows


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
            sources.append((PANTHEON_ROWS[row], source, points))
