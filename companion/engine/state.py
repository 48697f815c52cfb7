"""The state of a game: two cities, the board, the age's structure and any pending decision.

Every type here is a frozen, slotted dataclass of tuples, frozensets and enums, so a state can
be kept, compared and shared at no cost; `rules.apply` returns a new one for every event.
`City` holds precomputed summaries (production, choices, fixed prices, chain symbols, colour
counts, science symbols) so that pricing and the rules never walk the card list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, TypeVar

from .cards import (
    NO_RESOURCES,
    Amounts,
    CardId,
    Catalog,
    Color,
    DivinityId,
    Resource,
    Science,
    TokenId,
    WonderId,
)

_T = TypeVar("_T")


def evolve(obj: _T, **changes: Any) -> _T:
    """A copy of a frozen, slotted dataclass with some fields changed.

    `dataclasses.replace` costs about 10 us on a `GameState` (it walks `fields()` and calls
    `__init__`); this calls a copier generated once per class (see `_copier`), about 1.5 us.
    Only for the classes of this package, which have no `__post_init__`.

    Raises:
        TypeError: a name in `changes` is not a field.
    """
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    if not changes.keys() <= _SLOT_SETS[cls]:
        slots = _SLOT_SETS[cls]
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - slots)}")
    new: _T = copier(obj, changes)
    return new


_COPIERS: Final[dict[type, Callable[[Any, dict[str, Any]], Any]]] = {}
_SLOT_SETS: Final[dict[type, frozenset[str]]] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """Generate `copy(obj, changes)` for `cls`: one line per field, set through the field's
    descriptor (which a frozen dataclass's `__setattr__` cannot refuse), as `dataclasses`
    itself generates `__init__`; compiled, a call of the class (whose `__init__` is native)."""
    names = _field_names(cls)
    _SLOT_SETS[cls] = frozenset(names)
    if COMPILED:
        return _native_copier(cls, names)
    namespace: dict[str, Any] = {"_new": cls.__new__, "_cls": cls}
    lines = ["def copy(obj, changes):", "    new = _new(_cls)"]
    for index, name in enumerate(names):
        namespace[f"_set{index}"] = getattr(cls, name).__set__
        lines.append(
            f"    _set{index}(new, changes[{name!r}] if {name!r} in changes else obj.{name})"
        )
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # the code is built above from field names only
    copier: Callable[[Any, dict[str, Any]], Any] = namespace["copy"]
    return copier


def _native_copier(cls: type, names: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """`copy(obj, changes)` through the class's own (compiled) `__init__`, which takes
    every field in declaration order."""

    def copy(obj: Any, changes: dict[str, Any]) -> Any:
        return cls(*[changes[n] if n in changes else getattr(obj, n) for n in names])

    return copy


def _field_names(cls: type) -> tuple[str, ...]:
    """The fields of a dataclass of this package, in declaration order: its slots, or for a
    class compiled by mypyc (which has none: its fields are its own) the dataclass fields."""
    slots: tuple[str, ...] | None = getattr(cls, "__slots__", None)
    if slots is not None:
        return slots
    return tuple(getattr(cls, "__dataclass_fields__"))  # noqa: B009 (not typed on `type`)


class Player(StrEnum):
    """One of the two players; `p1` and `p2` in game records."""

    P1 = "p1"
    P2 = "p2"

    @property
    def opponent(self) -> Player:
        """The other player."""
        return opponent_of(self)


def opponent_of(player: Player) -> Player:
    """`player.opponent`, for the hot paths of the compiled engine (where a property of an
    enum is a Python attribute lookup, and a function a direct call)."""
    return Player.P2 if player is Player.P1 else Player.P1


COLORS: Final[tuple[Color, ...]] = tuple(Color)
"""Colours in their fixed order; `City.colors` counts cards in this order."""

COLOR_INDEX: Final[dict[Color, int]] = {c: i for i, c in enumerate(COLORS)}


class PendingKind(StrEnum):
    """A decision a rule asks for; the value is the type of the event that answers it."""

    PROGRESS = "progress"
    DESTROY = "destroy"
    MAUSOLEUM = "mausoleum"
    GREAT_LIBRARY = "great_library"
    NEXT_AGE = "next_age"
    # Pantheon
    DIVINITY = "divinity"  # place a divinity drawn with a Mythology token
    ENKI = "enki"
    SNAKE = "snake"  # Nisaba
    BAAL = "baal"
    HADES = "hades"
    ZEUS = "zeus"
    ANUBIS = "anubis"
    ISIS = "isis"
    RA = "ra"
    MINERVA = "minerva"
    NEPTUNE = "neptune"
    GATE = "gate"
    THEATER = "theater"  # the Divine Theater


PANTHEON_DECISIONS: Final = frozenset(
    {
        PendingKind.DIVINITY, PendingKind.ENKI, PendingKind.SNAKE, PendingKind.BAAL,
        PendingKind.HADES, PendingKind.ZEUS, PendingKind.ANUBIS, PendingKind.ISIS,
        PendingKind.RA, PendingKind.MINERVA, PendingKind.NEPTUNE, PendingKind.GATE,
        PendingKind.THEATER,
    }
)  # fmt: skip
"""The decisions only the Pantheon expansion asks for."""


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"  # waiting for the setup event
    PLAYING = "playing"
    FINISHED = "finished"


class Victory(StrEnum):
    """How the game was won."""

    MILITARY = "military"
    SCIENCE = "science"
    CIVILIAN = "civilian"


@dataclass(frozen=True, slots=True, init=False)
class Pending:
    """A decision `player` must make before anything else happens.

    `extra_turn` remembers whether the action that asked for it gives its player another
    turn once the decision is made.
    """

    kind: PendingKind
    player: Player
    extra_turn: bool

    def __init__(self, kind: PendingKind, player: Player, extra_turn: bool = False) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "extra_turn", extra_turn)


@dataclass(frozen=True, slots=True, init=False)
class City:
    """One player's city: coins, built cards and wonders, progress tokens, and summaries.

    The summary fields are kept up to date by the rules and read by pricing:
    `produces` is the fixed production of its brown and grey cards (which also sets the
    OPPONENT's trade price), `choices` has one entry per choice producer (Forum, Caravansery,
    Great Lighthouse, Piraeus), `fixed_price` the resources it buys for 1 coin, and
    `chain_symbols` the chain symbols of its cards.
    """

    coins: int
    cards: tuple[CardId, ...]
    wonders_built: tuple[WonderId, ...]
    wonders_unbuilt: tuple[WonderId, ...]
    tokens: frozenset[TokenId]
    produces: Amounts
    choices: tuple[tuple[Resource, ...], ...]
    fixed_price: frozenset[Resource]
    chain_symbols: frozenset[str]
    colors: tuple[int, ...]
    """Number of cards of each colour, in `COLORS` order."""
    symbols: frozenset[Science]
    """Science symbols owned (cards and Law)."""
    tucked: tuple[CardId, ...]
    """Cards tucked under the built wonders, in the order of `wonders_built`."""

    def __init__(
        self,
        coins: int = 7,
        cards: tuple[CardId, ...] = (),
        wonders_built: tuple[WonderId, ...] = (),
        wonders_unbuilt: tuple[WonderId, ...] = (),
        tokens: frozenset[TokenId] = frozenset(),
        produces: Amounts = NO_RESOURCES,
        choices: tuple[tuple[Resource, ...], ...] = (),
        fixed_price: frozenset[Resource] = frozenset(),
        chain_symbols: frozenset[str] = frozenset(),
        colors: tuple[int, ...] = (0,) * len(COLORS),
        symbols: frozenset[Science] = frozenset(),
        tucked: tuple[CardId, ...] = (),
    ) -> None:
        object.__setattr__(self, "coins", coins)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "wonders_built", wonders_built)
        object.__setattr__(self, "wonders_unbuilt", wonders_unbuilt)
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "produces", produces)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "fixed_price", fixed_price)
        object.__setattr__(self, "chain_symbols", chain_symbols)
        object.__setattr__(self, "colors", colors)
        object.__setattr__(self, "symbols", symbols)
        object.__setattr__(self, "tucked", tucked)

    def count(self, color: Color) -> int:
        """Number of cards of `color` in the city."""
        return self.colors[COLOR_INDEX[color]]

    def has(self, token: str) -> bool:
        """Whether the city owns the progress token `token`."""
        return token in self.tokens


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Structure:
    """The dealt structure of the current age (known only after a `deal` event).

    `cards[i]` is the card at layout position `i` (layout order, see docs/game-record.md),
    or None once it has been taken. It is kept as the cards dealt (`dealt`, with the
    face-down cards named as `reveal`s turn them up) and bit masks over the positions (bit
    `i` for position `i`): the positions taken (`gone`), those whose card may be taken now
    (`open`), and for each position the positions that cover it (`covering`). Taking a card
    changes two ints: no tuple is made. Two structures are equal when their ages and
    `cards` are. `structure_from_cards` makes one from `cards`.
    """

    age: int
    dealt: tuple[CardId | None, ...] = field(repr=False)
    gone: int = field(repr=False)
    open: int = field(repr=False)
    covering: tuple[int, ...] = field(repr=False)

    def __init__(
        self,
        age: int,
        dealt: tuple[CardId | None, ...],
        gone: int,
        open: int,
        covering: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "age", age)
        object.__setattr__(self, "dealt", dealt)
        object.__setattr__(self, "gone", gone)
        object.__setattr__(self, "open", open)
        object.__setattr__(self, "covering", covering)

    @property
    def cards(self) -> tuple[CardId | None, ...]:
        """The card at each position, None where it has been taken."""
        gone = self.gone
        if not gone:
            return self.dealt
        return tuple([None if gone >> i & 1 else card for i, card in enumerate(self.dealt)])

    @property
    def accessible(self) -> tuple[int, ...]:
        """The positions whose card may be taken now, in layout order."""
        return positions_of(self.open)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Structure):
            return NotImplemented
        return self.age == other.age and self.cards == other.cards

    def __hash__(self) -> int:
        return hash((self.age, self.cards))

    def __repr__(self) -> str:
        return f"Structure(age={self.age!r}, cards={self.cards!r})"


def positions_of(mask: int) -> tuple[int, ...]:
    """The positions whose bits are set in `mask`, in increasing order."""
    found: list[int] = []
    i = 0
    while mask:
        if mask & 1:
            found.append(i)
        mask >>= 1
        i += 1
    return tuple(found)


def structure_from_cards(
    age: int, cards: tuple[CardId | None, ...], covering: tuple[int, ...] = ()
) -> Structure:
    """The structure whose positions hold `cards` (None: taken), with `covering[i]` the mask
    of the positions that cover position `i` (none when not given); which cards may be taken
    follows from them."""
    gone = 0
    for i, card in enumerate(cards):
        if card is None:
            gone |= 1 << i
    open_ = 0
    for i, over in enumerate(covering):
        if not gone >> i & 1 and not over & ~gone:
            open_ |= 1 << i
    return Structure(age, cards, gone, open_, covering)


@dataclass(frozen=True, slots=True, init=False)
class PantheonState:
    """The Pantheon expansion's part of a game (None in a base game).

    `spaces` holds, for spaces 1 to 6 (from p1's side), the divinity or the Gate lying there,
    None where empty. `decks` holds the divinities left in each Mythology deck (in
    `MYTHOLOGIES` order, catalog order within), `tops` the card known to lie on top of each
    (put back by a draw or the Gate), None when unknown. Per player (p1, p2): the Mythology
    tokens held (their mythologies), the Offering tokens not handed in (their values), the
    coins on Astarte, and the cards activated (divinities and the Gate). `on_structure`
    lists the tokens still lying on the current age's structure as (position, token): a
    mythology, or an Offering token's value as a string. `to_place` holds the mythologies of
    tokens just taken whose divinity the current player has still to place. `minerva` is
    the Minerva pawn's space on the military track (None: not placed or gone), `snake` the
    opponent's green card under the Snake token.
    """

    spaces: tuple[str | None, ...]
    decks: tuple[tuple[DivinityId, ...], ...]
    tops: tuple[DivinityId | None, ...]
    mythology_tokens: tuple[tuple[str, ...], tuple[str, ...]]
    offerings: tuple[tuple[int, ...], tuple[int, ...]]
    astarte: tuple[int, int]
    activated: tuple[tuple[str, ...], tuple[str, ...]]
    on_structure: tuple[tuple[int, str], ...]
    to_place: tuple[str, ...]
    minerva: int | None
    snake: CardId | None

    def __init__(
        self,
        spaces: tuple[str | None, ...],
        decks: tuple[tuple[DivinityId, ...], ...],
        tops: tuple[DivinityId | None, ...],
        mythology_tokens: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
        offerings: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
        astarte: tuple[int, int] = (0, 0),
        activated: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
        on_structure: tuple[tuple[int, str], ...] = (),
        to_place: tuple[str, ...] = (),
        minerva: int | None = None,
        snake: CardId | None = None,
    ) -> None:
        object.__setattr__(self, "spaces", spaces)
        object.__setattr__(self, "decks", decks)
        object.__setattr__(self, "tops", tops)
        object.__setattr__(self, "mythology_tokens", mythology_tokens)
        object.__setattr__(self, "offerings", offerings)
        object.__setattr__(self, "astarte", astarte)
        object.__setattr__(self, "activated", activated)
        object.__setattr__(self, "on_structure", on_structure)
        object.__setattr__(self, "to_place", to_place)
        object.__setattr__(self, "minerva", minerva)
        object.__setattr__(self, "snake", snake)


@dataclass(frozen=True, slots=True, init=False)
class GameState:
    """Everything the rules know after a list of events.

    `position` is the conflict pawn, from -9 to 9, positive toward p2's capital. `loot`
    holds the loot tokens still on the board as signed distances of their zones (3 and 6
    on p2's side, -3 and -6 on p1's). `structure` is None in table mode (no deal for this
    age): then any card of the age not yet seen may be taken.
    """

    catalog: Catalog = field(compare=False, repr=False)
    phase: Phase
    age: int
    current: Player
    cities: tuple[City, City]
    names: tuple[str, str]
    position: int
    loot: frozenset[int]
    board_tokens: tuple[TokenId, ...]
    boxed_tokens: frozenset[TokenId]
    """Tokens that went back to the box (the two the Great Library does not keep)."""
    boxed_wonders: tuple[WonderId, ...]
    """The unbuilt wonder that left the game when the 7th was built."""
    structure: Structure | None
    taken: int
    """Cards taken from the structure in the current age (20 end it)."""
    discard: tuple[CardId, ...]
    pending: Pending | None
    winner: Player | None
    shared: bool
    victory: Victory | None
    pantheon: PantheonState | None
    """The Pantheon expansion's board and pieces; None in a base game."""

    def __init__(
        self,
        catalog: Catalog,
        phase: Phase = Phase.SETUP,
        age: int = 1,
        current: Player = Player.P1,
        cities: tuple[City, City] = (City(), City()),
        names: tuple[str, str] = ("", ""),
        position: int = 0,
        loot: frozenset[int] = frozenset(),
        board_tokens: tuple[TokenId, ...] = (),
        boxed_tokens: frozenset[TokenId] = frozenset(),
        boxed_wonders: tuple[WonderId, ...] = (),
        structure: Structure | None = None,
        taken: int = 0,
        discard: tuple[CardId, ...] = (),
        pending: Pending | None = None,
        winner: Player | None = None,
        shared: bool = False,
        victory: Victory | None = None,
        pantheon: PantheonState | None = None,
    ) -> None:
        object.__setattr__(self, "catalog", catalog)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "age", age)
        object.__setattr__(self, "current", current)
        object.__setattr__(self, "cities", cities)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "board_tokens", board_tokens)
        object.__setattr__(self, "boxed_tokens", boxed_tokens)
        object.__setattr__(self, "boxed_wonders", boxed_wonders)
        object.__setattr__(self, "structure", structure)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "shared", shared)
        object.__setattr__(self, "victory", victory)
        object.__setattr__(self, "pantheon", pantheon)

    def city(self, player: Player) -> City:
        """The city of `player`."""
        return self.cities[0 if player is Player.P1 else 1]

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.FINISHED

    def with_city(self, player: Player, city: City) -> tuple[City, City]:
        """The pair of cities with `player`'s replaced by `city`."""
        return (city, self.cities[1]) if player is Player.P1 else (self.cities[0], city)


# Each value built at every event (the classes above, `pricing.Payment` and `Purchase`,
# `military.Move`) has its own `__init__` (`init=False`): compiled by mypyc it stores the
# fields directly, where the `__init__` that `dataclasses` generates would stay interpreted
# code (see docs/engine.md, "Compiled engine").

COMPILED: Final = not hasattr(GameState, "__slots__")
"""Whether this module runs compiled (mypyc); the pure-Python engine has slotted classes."""


def with_coins(city: City, coins: int) -> City:
    """`city` holding `coins` coins: the copy the rules make most often (`evolve` with its
    keywords costs several times more, compiled or not)."""
    return City(  # every field, in declaration order
        coins,
        city.cards,
        city.wonders_built,
        city.wonders_unbuilt,
        city.tokens,
        city.produces,
        city.choices,
        city.fixed_price,
        city.chain_symbols,
        city.colors,
        city.symbols,
        city.tucked,
    )


def with_structure(state: GameState, structure: Structure | None) -> GameState:
    """`state` with another structure (a deal, a reveal): `evolve` costs several times more."""
    return GameState(  # every field, in declaration order
        state.catalog,
        state.phase,
        state.age,
        state.current,
        state.cities,
        state.names,
        state.position,
        state.loot,
        state.board_tokens,
        state.boxed_tokens,
        state.boxed_wonders,
        structure,
        state.taken,
        state.discard,
        state.pending,
        state.winner,
        state.shared,
        state.victory,
        state.pantheon,
    )
