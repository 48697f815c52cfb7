"""The state of a game: two cities, the board, the age's structure and any pending decision.

Every type here is a frozen, slotted dataclass of tuples, frozensets and enums, so a state can
be kept, compared and shared at no cost; `rules.apply` returns a new one for every event.
`City` holds precomputed summaries (production, choices, fixed prices, chain symbols, colour
counts, science symbols) so that pricing and the rules never walk the card list.
"""

from __future__ import annotations

import inspect
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
    itself generates `__init__`."""
    names = _field_names(cls)
    _SLOT_SETS[cls] = frozenset(names)
    native = native_maker(cls)
    if native is not None:
        return _native_copier(native, names)
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


def constructor(cls: type[_T]) -> Callable[..., _T]:
    """A function that builds a `cls` from every one of its fields, in declaration order.

    Generated once, like `_copier`: for the hot paths of the rules, which know every field of
    the value they build. Pass the fields by position there (a call with 18 keywords costs
    more than the 18 stores); a missing or unknown argument is a TypeError, as for
    `__init__`. Only for the classes of this package, which have no `__post_init__`.
    """
    native = native_maker(cls)
    if native is not None:
        built: Callable[..., _T] = native
        return built
    names = _field_names(cls)
    namespace: dict[str, Any] = {"_new": cls.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    new = _new(_cls)"]
    for index, name in enumerate(names):
        namespace[f"_set{index}"] = getattr(cls, name).__set__
        lines.append(f"    _set{index}(new, {name})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # the code is built above from field names only
    make: Callable[..., _T] = namespace["make"]
    return make


def _native_copier(
    make: Callable[..., Any], names: tuple[str, ...]
) -> Callable[[Any, dict[str, Any]], Any]:
    """`copy(obj, changes)` through a compiled maker."""

    def copy(obj: Any, changes: dict[str, Any]) -> Any:
        return make(*[changes[n] if n in changes else getattr(obj, n) for n in names])

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


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision `player` must make before anything else happens.

    `extra_turn` remembers whether the action that asked for it gives its player another
    turn once the decision is made.
    """

    kind: PendingKind
    player: Player
    extra_turn: bool = False


@dataclass(frozen=True, slots=True)
class City:
    """One player's city: coins, built cards and wonders, progress tokens, and summaries.

    The summary fields are kept up to date by the rules and read by pricing:
    `produces` is the fixed production of its brown and grey cards (which also sets the
    OPPONENT's trade price), `choices` has one entry per choice producer (Forum, Caravansery,
    Great Lighthouse, Piraeus), `fixed_price` the resources it buys for 1 coin, and
    `chain_symbols` the chain symbols of its cards.
    """

    coins: int = 7
    cards: tuple[CardId, ...] = ()
    wonders_built: tuple[WonderId, ...] = ()
    wonders_unbuilt: tuple[WonderId, ...] = ()
    tokens: frozenset[TokenId] = frozenset()
    produces: Amounts = NO_RESOURCES
    choices: tuple[tuple[Resource, ...], ...] = ()
    fixed_price: frozenset[Resource] = frozenset()
    chain_symbols: frozenset[str] = frozenset()
    colors: tuple[int, ...] = (0,) * len(COLORS)
    """Number of cards of each colour, in `COLORS` order."""
    symbols: frozenset[Science] = frozenset()
    """Science symbols owned (cards and Law)."""
    tucked: tuple[CardId, ...] = ()
    """Cards tucked under the built wonders, in the order of `wonders_built`."""

    def count(self, color: Color) -> int:
        """Number of cards of `color` in the city."""
        return self.colors[COLOR_INDEX[color]]

    def has(self, token: str) -> bool:
        """Whether the city owns the progress token `token`."""
        return token in self.tokens


@dataclass(frozen=True, slots=True)
class Structure:
    """The dealt structure of the current age (known only after a `deal` event).

    `cards[i]` is the card at layout position `i` (layout order, see docs/game-record.md),
    or None once it has been taken.
    """

    age: int
    cards: tuple[CardId | None, ...]
    covered_by: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    """For each position, the positions that cover it (from the age's layout)."""
    accessible: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    """The positions whose card may be taken now, in layout order (None: not worked out;
    the rules keep it up to date as cards are taken, it follows from `cards`)."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the rules know after a list of events.

    `position` is the conflict pawn, from -9 to 9, positive toward p2's capital. `loot`
    holds the loot tokens still on the board as signed distances of their zones (3 and 6
    on p2's side, -3 and -6 on p1's). `structure` is None in table mode (no deal for this
    age): then any card of the age not yet seen may be taken.
    """

    catalog: Catalog = field(compare=False, repr=False)
    phase: Phase = Phase.SETUP
    age: int = 1
    current: Player = Player.P1
    cities: tuple[City, City] = (City(), City())
    names: tuple[str, str] = ("", "")
    position: int = 0
    loot: frozenset[int] = frozenset()
    board_tokens: tuple[TokenId, ...] = ()
    boxed_tokens: frozenset[TokenId] = frozenset()
    """Tokens that went back to the box (the two the Great Library does not keep)."""
    boxed_wonders: tuple[WonderId, ...] = ()
    """The unbuilt wonder that left the game when the 7th was built."""
    structure: Structure | None = None
    taken: int = 0
    """Cards taken from the structure in the current age (20 end it)."""
    discard: tuple[CardId, ...] = ()
    pending: Pending | None = None
    winner: Player | None = None
    shared: bool = False
    victory: Victory | None = None

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


# Compiled by mypyc, the classes above are native classes without slots, whose
# dataclass-generated `__init__` is interpreted code (a store through `object.__setattr__` per
# field). Compiled code may store into their fields directly, which Python refuses on a
# frozen dataclass: the makers below build the values the rules build at every event, and
# `constructor` and `evolve` use them when compiled (see docs/engine.md, "Compiled engine").

COMPILED: Final = not hasattr(GameState, "__slots__")
"""Whether this module runs compiled (mypyc); the pure-Python engine has slotted classes."""


def new_city(
    coins: int,
    cards: tuple[CardId, ...],
    wonders_built: tuple[WonderId, ...],
    wonders_unbuilt: tuple[WonderId, ...],
    tokens: frozenset[TokenId],
    produces: Amounts,
    choices: tuple[tuple[Resource, ...], ...],
    fixed_price: frozenset[Resource],
    chain_symbols: frozenset[str],
    colors: tuple[int, ...],
    symbols: frozenset[Science],
    tucked: tuple[CardId, ...],
) -> City:
    """A City from every field, in declaration order (the rules' hot paths build cities so).

    Compiled, fields are stored directly; in pure Python by the function `constructor`
    generates.
    """
    if not COMPILED:
        return _pure_city(
            coins,
            cards,
            wonders_built,
            wonders_unbuilt,
            tokens,
            produces,
            choices,
            fixed_price,
            chain_symbols,
            colors,
            symbols,
            tucked,
        )
    city = City.__new__(City)
    city.coins = coins  # type: ignore[misc]
    city.cards = cards  # type: ignore[misc]
    city.wonders_built = wonders_built  # type: ignore[misc]
    city.wonders_unbuilt = wonders_unbuilt  # type: ignore[misc]
    city.tokens = tokens  # type: ignore[misc]
    city.produces = produces  # type: ignore[misc]
    city.choices = choices  # type: ignore[misc]
    city.fixed_price = fixed_price  # type: ignore[misc]
    city.chain_symbols = chain_symbols  # type: ignore[misc]
    city.colors = colors  # type: ignore[misc]
    city.symbols = symbols  # type: ignore[misc]
    city.tucked = tucked  # type: ignore[misc]
    return city


def new_pending(kind: PendingKind, player: Player, extra_turn: bool) -> Pending:
    """A Pending from every field (compiled: stored directly, without the interpreted
    `__init__`)."""
    if not COMPILED:
        return Pending(kind, player, extra_turn)
    pending = Pending.__new__(Pending)
    pending.kind = kind  # type: ignore[misc]
    pending.player = player  # type: ignore[misc]
    pending.extra_turn = extra_turn  # type: ignore[misc]
    return pending


def new_structure(
    age: int,
    cards: tuple[CardId | None, ...],
    covered_by: tuple[tuple[int, ...], ...],
    accessible: tuple[int, ...] | None,
) -> Structure:
    """A Structure from every field (compiled: stored directly)."""
    if not COMPILED:
        return _pure_structure(age, cards, covered_by, accessible)
    structure = Structure.__new__(Structure)
    structure.age = age  # type: ignore[misc]
    structure.cards = cards  # type: ignore[misc]
    structure.covered_by = covered_by  # type: ignore[misc]
    structure.accessible = accessible  # type: ignore[misc]
    return structure


def new_state(
    catalog: Catalog,
    phase: Phase,
    age: int,
    current: Player,
    cities: tuple[City, City],
    names: tuple[str, str],
    position: int,
    loot: frozenset[int],
    board_tokens: tuple[TokenId, ...],
    boxed_tokens: frozenset[TokenId],
    boxed_wonders: tuple[WonderId, ...],
    structure: Structure | None,
    taken: int,
    discard: tuple[CardId, ...],
    pending: Pending | None,
    winner: Player | None,
    shared: bool,
    victory: Victory | None,
) -> GameState:
    """A GameState from every field, in declaration order (a new state per event is built so).

    Compiled, fields are stored directly; in pure Python by the function `constructor`
    generates.
    """
    if not COMPILED:
        return _pure_state(
            catalog,
            phase,
            age,
            current,
            cities,
            names,
            position,
            loot,
            board_tokens,
            boxed_tokens,
            boxed_wonders,
            structure,
            taken,
            discard,
            pending,
            winner,
            shared,
            victory,
        )
    state = GameState.__new__(GameState)
    state.catalog = catalog  # type: ignore[misc]
    state.phase = phase  # type: ignore[misc]
    state.age = age  # type: ignore[misc]
    state.current = current  # type: ignore[misc]
    state.cities = cities  # type: ignore[misc]
    state.names = names  # type: ignore[misc]
    state.position = position  # type: ignore[misc]
    state.loot = loot  # type: ignore[misc]
    state.board_tokens = board_tokens  # type: ignore[misc]
    state.boxed_tokens = boxed_tokens  # type: ignore[misc]
    state.boxed_wonders = boxed_wonders  # type: ignore[misc]
    state.structure = structure  # type: ignore[misc]
    state.taken = taken  # type: ignore[misc]
    state.discard = discard  # type: ignore[misc]
    state.pending = pending  # type: ignore[misc]
    state.winner = winner  # type: ignore[misc]
    state.shared = shared  # type: ignore[misc]
    state.victory = victory  # type: ignore[misc]
    return state


NATIVE_MAKERS: Final[dict[type, Callable[..., Any]]] = {
    Pending: new_pending,
    City: new_city,
    Structure: new_structure,
    GameState: new_state,
}
"""The compiled makers by class. One whose parameters are no longer the class's fields (a
field added to the class but not here) is not used: `test_engine_compiled.py` says so."""


def native_maker(cls: type) -> Callable[..., Any] | None:
    """The maker of `cls` when compiled and in step with its fields, else None."""
    maker = NATIVE_MAKERS.get(cls)
    if not COMPILED or maker is None:
        return None
    if tuple(inspect.signature(maker).parameters) != _field_names(cls):
        return None
    return maker


_pure_city: Callable[..., City] = constructor(City)
_pure_state: Callable[..., GameState] = constructor(GameState)
_pure_structure: Callable[..., Structure] = constructor(Structure)
"""The makers `new_city`, `new_state` and `new_structure` call in pure Python (compiled:
unused)."""


def with_coins(city: City, coins: int) -> City:
    """`city` holding `coins` coins: the copy the rules make most often (`evolve` with its
    keywords costs several times more, compiled or not)."""
    return new_city(  # every field, in declaration order
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
    return new_state(  # every field, in declaration order
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
    )
