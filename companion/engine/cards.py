"""Card facts as frozen values: cards, wonders, progress tokens, layouts, the military track.

These types hold what is printed on the components and nothing about a game in progress.
`companion.engine.catalog` builds them from `data/*.toml`; every type checks its own invariants in
`__post_init__` and raises `ValueError`, to which the loader adds the file and entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final, NewType

CardId = NewType("CardId", str)
WonderId = NewType("WonderId", str)
TokenId = NewType("TokenId", str)
DivinityId = NewType("DivinityId", str)


class Resource(StrEnum):
    """The five resources. Wood, clay and stone are raw (brown); glass and papyrus grey."""

    WOOD = "wood"
    CLAY = "clay"
    STONE = "stone"
    GLASS = "glass"
    PAPYRUS = "papyrus"


RESOURCES: Final[tuple[Resource, ...]] = tuple(Resource)
"""The resources in their fixed order; resource amounts are tuples in this order."""

RESOURCE_INDEX: Final[Mapping[Resource, int]] = MappingProxyType(
    {r: i for i, r in enumerate(RESOURCES)}
)


class Color(StrEnum):
    """The colour of a building card."""

    BROWN = "brown"
    GREY = "grey"
    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"
    PURPLE = "purple"


class Science(StrEnum):
    """The seven science symbols; Law appears only on the Law progress token."""

    GLOBE = "globe"
    SUNDIAL = "sundial"
    MORTAR_PESTLE = "mortar_pestle"
    WHEEL = "wheel"
    QUILL = "quill"
    PLUMB_BOB = "plumb_bob"
    LAW = "law"


class Counted(StrEnum):
    """What a "per X" effect counts in a city."""

    BROWN_CARD = "brown_card"
    GREY_CARD = "grey_card"
    RED_CARD = "red_card"
    GREEN_CARD = "green_card"
    BLUE_CARD = "blue_card"
    YELLOW_CARD = "yellow_card"
    WONDER = "wonder"
    COINS = "coins"

    @property
    def words(self) -> str:
        """The item in plain English, e.g. "brown card"."""
        return self.value.replace("_", " ")


Amounts = tuple[int, int, int, int, int]
"""Units of wood, clay, stone, glass and papyrus, in that order."""

NO_RESOURCES: Final[Amounts] = (0, 0, 0, 0, 0)


def amounts(values: Mapping[Resource, int] | None = None) -> Amounts:
    """Resource amounts as a tuple in `RESOURCES` order."""
    values = values or {}
    w, c, s, g, p = (values.get(r, 0) for r in RESOURCES)
    return (w, c, s, g, p)


def _check_count(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: expected a whole number, got {value!r}")
    if value < 0:
        raise ValueError(f"{name}: must not be negative, got {value}")


def _check_amounts(name: str, values: Amounts) -> None:
    if len(values) != len(RESOURCES):
        raise ValueError(f"{name}: expected {len(RESOURCES)} amounts, got {len(values)}")
    for resource, value in zip(RESOURCES, values, strict=True):
        _check_count(f"{name}: {resource}", value)


@dataclass(frozen=True, slots=True)
class Cost:
    """A printed cost: coins paid to the bank and resource symbols."""

    coins: int = 0
    resources: Amounts = NO_RESOURCES

    def __post_init__(self) -> None:
        _check_count("cost: coins", self.coins)
        _check_amounts("cost", self.resources)

    @property
    def is_free(self) -> bool:
        """Whether nothing is printed in the cost strip."""
        return self.coins == 0 and not any(self.resources)

    def amount(self, resource: Resource) -> int:
        """Units of `resource` in the cost."""
        return self.resources[RESOURCE_INDEX[resource]]


@dataclass(frozen=True, slots=True)
class CoinsPer:
    """A yellow card's coins, counted once when built in the builder's own city."""

    counts: tuple[Counted, ...]
    coins: int

    def __post_init__(self) -> None:
        if not self.counts:
            raise ValueError("coins_per: counts nothing")
        _check_count("coins_per: coins", self.coins)


@dataclass(frozen=True, slots=True)
class GuildRule:
    """A guild: coins when built and VP at the end, from the city that has the most.

    `points` VP are scored per `per` counted items (Moneylenders: 1 VP per 3 coins).
    """

    counts: tuple[Counted, ...]
    coins: int
    points: int
    per: int = 1

    def __post_init__(self) -> None:
        if not self.counts:
            raise ValueError("guild: counts nothing")
        _check_count("guild: coins", self.coins)
        _check_count("guild: points", self.points)
        if self.per < 1:
            raise ValueError(f"guild: per must be at least 1, got {self.per}")


@dataclass(frozen=True, slots=True)
class Card:
    """A building card of an age (guilds are age 3, purple)."""

    id: CardId
    age: int
    color: Color
    cost: Cost = Cost()
    points: int = 0
    shields: int = 0
    science: Science | None = None
    chain_symbol: str | None = None
    chain_from: str | None = None
    produces: Amounts = NO_RESOURCES
    produces_one_of: tuple[Resource, ...] = ()
    fixed_price: frozenset[Resource] = frozenset()
    coins: int = 0
    coins_per: CoinsPer | None = None
    guild: GuildRule | None = None
    mythology: str | None = None
    """A Grand Temple (Pantheon): the mythology whose token builds it for free; its
    `chain_from` is that mythology (a Mythology token adds it to the city's chain symbols)."""

    def __post_init__(self) -> None:
        if self.age not in (1, 2, 3):
            raise ValueError(f"age: must be 1, 2 or 3, got {self.age!r}")
        if self.guild is not None and self.mythology is not None:
            raise ValueError("mythology: a guild is not a Grand Temple")
        if self.mythology is not None and self.chain_from != self.mythology:
            raise ValueError("chain_from: a Grand Temple chains from its mythology")
        purple_rule = self.guild is not None or self.mythology is not None
        if (self.color is Color.PURPLE) != purple_rule:
            raise ValueError("guild: purple cards and only they have a guild rule")
        if self.color is Color.PURPLE and self.age != 3:
            raise ValueError("age: guilds belong to age 3")
        for name in ("points", "shields", "coins"):
            _check_count(name, getattr(self, name))
        _check_amounts("produces", self.produces)
        if self.science is Science.LAW:
            raise ValueError("science: 'law' is on the Law token only, never on a card")
        if self.chain_symbol is not None and self.chain_symbol == self.chain_from:
            raise ValueError("chain_from: a card cannot chain from its own symbol")
        if len(self.produces_one_of) == 1:
            raise ValueError("produces_one_of: a choice needs at least two resources")

    @property
    def is_guild(self) -> bool:
        """Whether this is a guild card (purple, with a guild rule)."""
        return self.guild is not None

    @property
    def is_temple(self) -> bool:
        """Whether this is a Grand Temple of the Pantheon expansion (purple, no guild rule)."""
        return self.mythology is not None


@dataclass(frozen=True, slots=True)
class Wonder:
    """A wonder: its cost and what building it does.

    Two wonders have one-off effects handled by id in the rules: the Mausoleum (build a card
    from the discard pile for free) and the Great Library (draw 3 unused progress tokens,
    keep 1).
    """

    id: WonderId
    cost: Cost
    points: int = 0
    shields: int = 0
    coins: int = 0
    opponent_loses: int = 0
    extra_turn: bool = False
    destroys: Color | None = None
    produces_one_of: tuple[Resource, ...] = ()
    builds_from_discard: bool = False
    """The Mausoleum: build one card of the discard pile for free."""
    draws_tokens: int = 0
    """The Great Library: progress tokens drawn from those set aside at setup."""
    keeps_tokens: int = 0
    """The Great Library: how many of the drawn tokens the builder keeps."""
    pantheon_discount: int = 0
    """The Sanctuary (Pantheon): coins off every activation of its owner afterwards."""
    activates_from_mythology_deck: bool = False
    """The Divine Theater (Pantheon): activate for free one card of a Mythology deck."""

    def __post_init__(self) -> None:
        for name in ("points", "shields", "coins", "opponent_loses", "draws_tokens",
                     "keeps_tokens", "pantheon_discount"):  # fmt: skip
            _check_count(name, getattr(self, name))
        if self.destroys not in (None, Color.BROWN, Color.GREY):
            raise ValueError(f"destroys: only brown or grey cards, got {self.destroys}")
        if len(self.produces_one_of) == 1:
            raise ValueError("produces_one_of: a choice needs at least two resources")
        if self.keeps_tokens > self.draws_tokens or (self.draws_tokens > 0) != (
            self.keeps_tokens > 0
        ):
            raise ValueError(
                f"keeps_tokens: keeps {self.keeps_tokens} of {self.draws_tokens} drawn tokens"
            )


@dataclass(frozen=True, slots=True)
class ProgressToken:
    """A progress token: its coins, VP and science symbol, and the numbers of its rule.

    The rules of the lasting effects (Architecture, Economy, Masonry, Mathematics, Strategy,
    Theology, Urbanism) live in the engine; these fields hold the numbers printed on them.
    """

    id: TokenId
    coins: int = 0
    points: int = 0
    science: Science | None = None
    waives_on_wonders: int = 0
    """Architecture: resources waived from the cost of each wonder built afterwards."""
    waives_on_blue: int = 0
    """Masonry: resources waived from the cost of each blue card built afterwards."""
    points_per_token: int = 0
    """Mathematics: VP at the end per progress token owned, this one included."""
    extra_shields_on_red: int = 0
    """Strategy: shields added to each red card built afterwards (not wonders)."""
    coins_per_chain: int = 0
    """Urbanism: coins each time a card is built for free through a chain."""
    receives_trade: bool = False
    """Economy: the coins the opponent pays for trade go to the owner, not the bank."""
    wonders_extra_turn: bool = False
    """Theology: every wonder built afterwards gives an extra turn (never two)."""
    points_per_pantheon_token: int = 0
    """Mysticism (Pantheon): VP at the end per Mythology and unused Offering token held."""
    opponent_loses_per_space: int = 0
    """Poliorcetics (Pantheon): coins the opponent loses per space the owner moves the pawn."""
    chain_price: int = 0
    """Engineering (Pantheon): coins for a card with a chain symbol, without the chain."""

    def __post_init__(self) -> None:
        for name in ("coins", "points", "waives_on_wonders", "waives_on_blue",
                     "points_per_token", "extra_shields_on_red", "coins_per_chain",
                     "points_per_pantheon_token", "opponent_loses_per_space",
                     "chain_price"):  # fmt: skip
            _check_count(name, getattr(self, name))


@dataclass(frozen=True, slots=True)
class Position:
    """One place of an age's layout. `index` is the layout order of docs/game-record.md:
    row 1 (farthest from the players) first, each row from left (low col) to right."""

    index: int
    row: int
    col: int
    face_up: bool
    covered_by: tuple[int, ...]
    covers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """The structure of one age: 20 positions and which covers which."""

    age: int
    positions: tuple[Position, ...]

    @property
    def rows(self) -> int:
        """Number of rows."""
        return max(p.row for p in self.positions)

    def initially_accessible(self) -> frozenset[int]:
        """Indices of the positions no card covers at the start of the age."""
        return frozenset(p.index for p in self.positions if not p.covered_by)


@dataclass(frozen=True, slots=True)
class Zone:
    """A zone of one half of the military track, by distance from the centre."""

    first: int
    last: int
    points: int
    loot: int

    def __post_init__(self) -> None:
        if not 0 < self.first <= self.last:
            raise ValueError(f"zone: bad distances {self.first}..{self.last}")
        _check_count("zone: points", self.points)
        _check_count("zone: loot", self.loot)


@dataclass(frozen=True, slots=True)
class MilitaryTrack:
    """One half of the track (both halves are alike): zones, then the capital."""

    zones: tuple[Zone, ...]
    capital: int

    def __post_init__(self) -> None:
        expected = 1
        for zone in self.zones:
            if zone.first != expected:
                raise ValueError(f"zones: distance {expected} is in no zone")
            expected = zone.last + 1
        if self.capital != expected:
            raise ValueError(f"capital: expected at distance {expected}, got {self.capital}")

    def zone_at(self, distance: int) -> Zone | None:
        """The zone at `distance` from the centre (None for the centre or the capital)."""
        for zone in self.zones:
            if zone.first <= distance <= zone.last:
                return zone
        return None

    def loot_token_at(self, signed: int) -> Zone | None:
        """The zone whose loot token lies at the signed distance `signed` (a token lies where
        its zone begins; negative on p1's side), or None where no token lies."""
        zone = self.zone_at(abs(signed))
        return zone if zone is not None and zone.loot and zone.first == abs(signed) else None

    def points_at(self, distance: int) -> int:
        """End-of-game VP for the leader when the pawn is `distance` from the centre."""
        zone = self.zone_at(distance)
        return zone.points if zone else 0


@dataclass(frozen=True, slots=True)
class Rules:
    """Numbers of the game setup that the rules read from data (board.toml)."""

    starting_coins: int
    wonders_per_player: int
    max_wonders: int
    tokens_on_board: int
    removed_per_age: int
    guilds_in_age_3: int
    science_supremacy: int
    first_game_wonders: tuple[tuple[WonderId, ...], tuple[WonderId, ...]]
    draft_order: tuple[str, ...]
    """Picks of the two draft rounds as "A" (first player) and "B", e.g. ABBABAAB."""


MYTHOLOGIES: Final[tuple[str, ...]] = ("egyptian", "greek", "mesopotamian", "phoenician", "roman")
"""The five mythologies of the Pantheon expansion, in the order of its decks."""


@dataclass(frozen=True, slots=True)
class Divinity:
    """A divinity of the Pantheon expansion: its mythology and what activating it does.

    The one-off effects (true flags) are handled in the rules by id, as the Mausoleum is.
    """

    id: DivinityId
    mythology: str
    coins: int = 0
    points: int = 0
    shields: int = 0
    science: Science | None = None
    draws_tokens: int = 0
    keeps_tokens: int = 0
    copies_opponent_science: bool = False
    coins_on_card: int = 0
    steals: tuple[Color, ...] = ()
    builds_from_discard: bool = False
    discards_from_structure: bool = False
    unbuilds_wonder: bool = False
    builds_wonder_from_discard: bool = False
    steals_unbuilt_wonder: bool = False
    places_minerva_pawn: bool = False
    discards_loot: int = 0
    applies_loot: int = 0

    def __post_init__(self) -> None:
        if self.mythology not in MYTHOLOGIES:
            raise ValueError(f"mythology: unknown mythology {self.mythology!r}")
        for name in ("coins", "points", "shields", "draws_tokens", "keeps_tokens",
                     "coins_on_card", "discards_loot", "applies_loot"):  # fmt: skip
            _check_count(name, getattr(self, name))
        if self.keeps_tokens > self.draws_tokens:
            raise ValueError(
                f"keeps_tokens: keeps {self.keeps_tokens} of {self.draws_tokens} drawn tokens"
            )


@dataclass(frozen=True, slots=True)
class Pantheon:
    """The Pantheon expansion: divinities, the board's spaces and the numbers of its setup.

    `space_costs[i]` is (p1's price, p2's price) of space i + 1 (spaces numbered from p1's
    side). Token positions are layout positions (indices) of the Age I and Age II layouts.
    """

    divinities: tuple[Divinity, ...]
    temples: tuple[tuple[str, str], ...]
    """(mythology, Grand Temple id) for each mythology, in `MYTHOLOGIES` order."""
    space_costs: tuple[tuple[int, int], ...]
    mythology_tokens_per_mythology: int
    mythology_tokens_in_play: int
    offering_tokens: tuple[int, ...]
    grand_temples_in_age_3: int
    mythology_positions: tuple[int, ...]
    offering_positions: tuple[int, ...]
    first_age: int
    gate_multiplier: int
    min_cost: int
    gate: str
    temple_points: tuple[int, ...]
    astarte_points_per_coin: int
    minerva_on_pawn: bool
    minerva_on_capital: bool
    snake_color: Color
    token_ids: frozenset[str] = frozenset()
    """The progress tokens the expansion adds (not in a base game)."""
    wonder_ids: frozenset[str] = frozenset()
    """The wonders the expansion adds (not in a base game)."""
    _divinities: dict[str, Divinity] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_divinities", {d.id: d for d in self.divinities})

    def divinity(self, divinity_id: str) -> Divinity:
        """The divinity with this id. Raises: KeyError for an unknown id."""
        return self._divinities[divinity_id]

    def is_divinity(self, any_id: str) -> bool:
        """Whether `any_id` names a divinity."""
        return any_id in self._divinities

    def deck(self, mythology: str) -> tuple[DivinityId, ...]:
        """The divinities of one mythology, in catalog order."""
        return tuple(d.id for d in self.divinities if d.mythology == mythology)

    def space_cost(self, space: int, player_index: int) -> int:
        """The printed price of space `space` (1 to 6) for p1 (index 0) or p2 (1)."""
        return self.space_costs[space - 1][player_index]


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every component of the base game, with lookups by id and names per language."""

    cards: tuple[Card, ...]
    wonders: tuple[Wonder, ...]
    progress_tokens: tuple[ProgressToken, ...]
    layouts: tuple[Layout, ...]
    track: MilitaryTrack
    rules: Rules
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Language code -> id -> name; English ("en") is complete, others fall back to it."""
    short_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Language code -> id -> a short name for the 128-pixel screen, where the full name
    does not fit beside a price ("Great Library"); ids without one use their name."""
    pantheon: Pantheon | None = None
    """The Pantheon expansion, when loaded (its cards, wonders and tokens are in the
    tuples above too; a base game leaves them out)."""
    _cards: dict[str, Card] = field(init=False, repr=False, compare=False)
    _wonders: dict[str, Wonder] = field(init=False, repr=False, compare=False)
    _tokens: dict[str, ProgressToken] = field(init=False, repr=False, compare=False)
    """Lookups by id: private dicts, never handed out nor changed (a dict, not a read-only
    view, because the rules look cards up at every event)."""
    _decks: tuple[tuple[Card, ...], ...] = field(init=False, repr=False, compare=False)
    """Age decks (ages 1, 2, 3, without guilds), then the guilds: read on every deal."""

    def __post_init__(self) -> None:
        decks = tuple(
            tuple(c for c in self.cards if c.age == age and c.color is not Color.PURPLE)
            for age in (1, 2, 3)
        )
        guilds = tuple(c for c in self.cards if c.is_guild)
        temples = tuple(c for c in self.cards if c.is_temple)
        object.__setattr__(self, "_decks", (*decks, guilds, temples))
        object.__setattr__(self, "_cards", {c.id: c for c in self.cards})
        object.__setattr__(self, "_wonders", {w.id: w for w in self.wonders})
        object.__setattr__(self, "_tokens", {t.id: t for t in self.progress_tokens})

    def card(self, card_id: str) -> Card:
        """The card with this id. Raises: KeyError for an unknown id."""
        return self._cards[card_id]

    def wonder(self, wonder_id: str) -> Wonder:
        """The wonder with this id. Raises: KeyError for an unknown id."""
        return self._wonders[wonder_id]

    def token(self, token_id: str) -> ProgressToken:
        """The progress token with this id. Raises: KeyError for an unknown id."""
        return self._tokens[token_id]

    def is_card(self, any_id: str) -> bool:
        """Whether `any_id` names a building card (guilds included)."""
        return any_id in self._cards

    def is_wonder(self, any_id: str) -> bool:
        """Whether `any_id` names a wonder."""
        return any_id in self._wonders

    def is_token(self, any_id: str) -> bool:
        """Whether `any_id` names a progress token."""
        return any_id in self._tokens

    def layout(self, age: int) -> Layout:
        """The layout of age 1, 2 or 3."""
        return self.layouts[age - 1]

    def age_deck(self, age: int) -> tuple[Card, ...]:
        """The non-guild cards of an age, in catalog order."""
        if age not in (1, 2, 3):
            return ()
        return self._decks[age - 1]

    @property
    def guilds(self) -> tuple[Card, ...]:
        """The seven guild cards."""
        return self._decks[3]

    @property
    def temples(self) -> tuple[Card, ...]:
        """The five Grand Temples of the Pantheon expansion (none without it)."""
        return self._decks[4]

    def name(self, any_id: str, language: str = "en") -> str:
        """The name of a card, wonder or token in `language`, falling back to English."""
        for lang in (language, "en"):
            found = self.names.get(lang, {}).get(any_id)
            if found:
                return found
        return any_id

    def short_name(self, any_id: str, language: str = "en") -> str:
        """The short name for the OLED in `language`, else its name in `language`, falling
        back to English (the English short name only where `language` has no name)."""
        for lang in (language, "en"):
            found = self.short_names.get(lang, {}).get(any_id) or self.names.get(lang, {}).get(
                any_id
            )
            if found:
                return found
        return any_id

    def ids(self) -> Iterable[str]:
        """Every card, wonder and progress token id (and divinity, with Pantheon)."""
        yield from self._cards
        yield from self._wonders
        yield from self._tokens
        if self.pantheon is not None:
            yield from (d.id for d in self.pantheon.divinities)
