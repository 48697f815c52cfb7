"""The events of a game and their game-record form (one JSON object per line).

The record format is documented in docs/game-record.md. `event_from_record` checks the shape
of a record line (types and fields); whether the ids exist and the event is legal is for
`rules.apply` to say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import CardId, DivinityId, TokenId, WonderId
from .state import Player


class IllegalEvent(ValueError):
    """An event the rules refuse. The message is one line, fit for the OLED."""


class RecordError(IllegalEvent):
    """A game-record line that is not a well-formed event (wrong type, missing field...)."""


@dataclass(frozen=True, slots=True, init=False)
class Setup:
    """The game's setup: first player, the 5 tokens on the board, 4 wonders each, names."""

    first_player: Player
    progress_tokens: tuple[TokenId, ...]
    wonders: tuple[tuple[WonderId, ...], tuple[WonderId, ...]]
    players: tuple[str, str]
    expansions: tuple[str, ...]
    """The expansions played ("pantheon"); none in a base game."""

    def __init__(
        self,
        first_player: Player,
        progress_tokens: tuple[TokenId, ...],
        wonders: tuple[tuple[WonderId, ...], tuple[WonderId, ...]],
        players: tuple[str, str] = ("", ""),
        expansions: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "first_player", first_player)
        object.__setattr__(self, "progress_tokens", progress_tokens)
        object.__setattr__(self, "wonders", wonders)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "expansions", expansions)

    @property
    def type(self) -> str:
        """The event's type in a game record: "setup"."""
        return "setup"


@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """The 20 cards of an age's structure in layout order (docs/game-record.md). A face-down
    card not seen yet is None, or GUILD_BACK for an age 3 guild known by its back."""

    age: int
    layout: tuple[CardId | None, ...]
    tokens: tuple[str, ...]
    """Pantheon: the tokens on the marked cards, in layout order: 5 mythologies in Age I,
    the Offering tokens' values ("2", "3", "4") in Age II; none otherwise."""

    def __init__(
        self, age: int, layout: tuple[CardId | None, ...], tokens: tuple[str, ...] = ()
    ) -> None:
        object.__setattr__(self, "age", age)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "tokens", tokens)

    @property
    def type(self) -> str:
        """The event's type in a game record: "deal"."""
        return "deal"


GUILD_BACK: Final = CardId("guild")
"""In a deal: the face-down card at this position is a guild (its back says so)."""


@dataclass(frozen=True, slots=True, init=False)
class Reveal:
    """A face-down card of the dealt structure, not known at the deal, seen once uncovered:
    its layout position (0-19) and its id."""

    position: int
    card: CardId

    def __init__(self, position: int, card: CardId) -> None:
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "reveal"."""
        return "reveal"


@dataclass(frozen=True, slots=True, init=False)
class Build:
    """The player constructs an accessible card in their city, paying its cheapest price."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "build"."""
        return "build"


@dataclass(frozen=True, slots=True, init=False)
class Discard:
    """The player discards an accessible card for 2 coins + 1 per yellow card they own."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "discard"."""
        return "discard"


@dataclass(frozen=True, slots=True, init=False)
class BuildWonder:
    """The player builds one of their wonders, tucking an accessible card under it."""

    player: Player
    wonder: WonderId
    card: CardId

    def __init__(self, player: Player, wonder: WonderId, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "wonder", wonder)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "wonder"."""
        return "wonder"


@dataclass(frozen=True, slots=True, init=False)
class TakeProgress:
    """The player takes a progress token from the board after making a pair."""

    player: Player
    token: TokenId

    def __init__(self, player: Player, token: TokenId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "token", token)

    @property
    def type(self) -> str:
        """The event's type in a game record: "progress"."""
        return "progress"


@dataclass(frozen=True, slots=True, init=False)
class Destroy:
    """The player puts an opponent's card (of the wonder's colour) on the discard pile."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "destroy"."""
        return "destroy"


@dataclass(frozen=True, slots=True, init=False)
class BuildFromDiscard:
    """The Mausoleum: the player builds a discarded card for free."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "mausoleum"."""
        return "mausoleum"


@dataclass(frozen=True, slots=True, init=False)
class KeepLibraryToken:
    """The Great Library: 3 tokens drawn from those not on the board; the player keeps one."""

    player: Player
    drawn: tuple[TokenId, ...]
    token: TokenId

    def __init__(self, player: Player, drawn: tuple[TokenId, ...], token: TokenId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "token", token)

    @property
    def type(self) -> str:
        """The event's type in a game record: "great_library"."""
        return "great_library"


@dataclass(frozen=True, slots=True, init=False)
class ChooseStarter:
    """At the end of an age, the player entitled to it chooses who begins the next age."""

    player: Player
    starter: Player

    def __init__(self, player: Player, starter: Player) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "starter", starter)

    @property
    def type(self) -> str:
        """The event's type in a game record: "next_age"."""
        return "next_age"


@dataclass(frozen=True, slots=True, init=False)
class PlaceDivinity:
    """Pantheon: with a Mythology token, the player draws the top cards of its deck (`drawn`,
    2, or 1 when one is left) and places one of them on an empty space of the Pantheon."""

    player: Player
    drawn: tuple[DivinityId, ...]
    divinity: DivinityId
    space: int

    def __init__(
        self, player: Player, drawn: tuple[DivinityId, ...], divinity: DivinityId, space: int
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "divinity", divinity)
        object.__setattr__(self, "space", space)

    @property
    def type(self) -> str:
        """The event's type in a game record: "divinity"."""
        return "divinity"


@dataclass(frozen=True, slots=True, init=False)
class Activate:
    """Pantheon: the player activates the card (divinity or Gate) on a space of the
    Pantheon, handing in Offering tokens (their values) to lower the price."""

    player: Player
    space: int
    offerings: tuple[int, ...]

    def __init__(self, player: Player, space: int, offerings: tuple[int, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "space", space)
        object.__setattr__(self, "offerings", offerings)

    @property
    def type(self) -> str:
        """The event's type in a game record: "activate"."""
        return "activate"


@dataclass(frozen=True, slots=True, init=False)
class TakeEnkiToken:
    """Enki: the 2 progress tokens drawn onto Enki (from those set aside); the player keeps one."""

    player: Player
    drawn: tuple[TokenId, ...]
    token: TokenId

    def __init__(self, player: Player, drawn: tuple[TokenId, ...], token: TokenId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "token", token)

    @property
    def type(self) -> str:
        """The event's type in a game record: "enki"."""
        return "enki"


@dataclass(frozen=True, slots=True, init=False)
class PlaceSnake:
    """Nisaba: the Snake token goes on one of the opponent's green cards."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "snake"."""
        return "snake"


@dataclass(frozen=True, slots=True, init=False)
class StealCard:
    """Baal: the player takes a brown or grey card of the opponent into their city."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "baal"."""
        return "baal"


@dataclass(frozen=True, slots=True, init=False)
class HadesBuild:
    """Hades: the player builds a card of the discard pile for free."""

    player: Player
    card: CardId

    def __init__(self, player: Player, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "hades"."""
        return "hades"


@dataclass(frozen=True, slots=True, init=False)
class DiscardFromStructure:
    """Zeus: the card at a layout position of the structure goes to the discard pile."""

    player: Player
    position: int

    def __init__(self, player: Player, position: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "position", position)

    @property
    def type(self) -> str:
        """The event's type in a game record: "zeus"."""
        return "zeus"


@dataclass(frozen=True, slots=True, init=False)
class UnbuildWonder:
    """Anubis: a built wonder (either player's) is unbuilt; its card goes to the discard pile."""

    player: Player
    wonder: WonderId

    def __init__(self, player: Player, wonder: WonderId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "wonder", wonder)

    @property
    def type(self) -> str:
        """The event's type in a game record: "anubis"."""
        return "anubis"


@dataclass(frozen=True, slots=True, init=False)
class IsisWonder:
    """Isis: the player builds one of their wonders for free with a card of the discard pile."""

    player: Player
    wonder: WonderId
    card: CardId

    def __init__(self, player: Player, wonder: WonderId, card: CardId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "wonder", wonder)
        object.__setattr__(self, "card", card)

    @property
    def type(self) -> str:
        """The event's type in a game record: "isis"."""
        return "isis"


@dataclass(frozen=True, slots=True, init=False)
class StealWonder:
    """Ra: the player takes one of the opponent's unbuilt wonders."""

    player: Player
    wonder: WonderId

    def __init__(self, player: Player, wonder: WonderId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "wonder", wonder)

    @property
    def type(self) -> str:
        """The event's type in a game record: "ra"."""
        return "ra"


@dataclass(frozen=True, slots=True, init=False)
class PlaceMinerva:
    """Minerva: the Minerva pawn goes on a space of the military track (-9 to 9)."""

    player: Player
    position: int

    def __init__(self, player: Player, position: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "position", position)

    @property
    def type(self) -> str:
        """The event's type in a game record: "minerva"."""
        return "minerva"


@dataclass(frozen=True, slots=True, init=False)
class NeptuneLoot:
    """Neptune: a loot token (its signed distance) is discarded unused, another is applied
    (None when none is left)."""

    player: Player
    discarded: int
    applied: int | None

    def __init__(self, player: Player, discarded: int, applied: int | None) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "applied", applied)

    @property
    def type(self) -> str:
        """The event's type in a game record: "neptune"."""
        return "neptune"


@dataclass(frozen=True, slots=True, init=False)
class GateActivation:
    """The Gate: the top card of each Mythology deck is turned up (`revealed`); the player
    activates one of them for free, the others go back on top of their decks."""

    player: Player
    revealed: tuple[DivinityId, ...]
    divinity: DivinityId

    def __init__(
        self, player: Player, revealed: tuple[DivinityId, ...], divinity: DivinityId
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "revealed", revealed)
        object.__setattr__(self, "divinity", divinity)

    @property
    def type(self) -> str:
        """The event's type in a game record: "gate"."""
        return "gate"


@dataclass(frozen=True, slots=True, init=False)
class TheaterActivation:
    """The Divine Theater: the player looks at one Mythology deck and activates one of its
    divinities for free."""

    player: Player
    divinity: DivinityId

    def __init__(self, player: Player, divinity: DivinityId) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "divinity", divinity)

    @property
    def type(self) -> str:
        """The event's type in a game record: "theater"."""
        return "theater"


PantheonEvent = (
    PlaceDivinity
    | Activate
    | TakeEnkiToken
    | PlaceSnake
    | StealCard
    | HadesBuild
    | DiscardFromStructure
    | UnbuildWonder
    | IsisWonder
    | StealWonder
    | PlaceMinerva
    | NeptuneLoot
    | GateActivation
    | TheaterActivation
)
"""The events of the Pantheon expansion."""

Event = (
    Setup
    | Deal
    | Build
    | Discard
    | BuildWonder
    | TakeProgress
    | Destroy
    | BuildFromDiscard
    | KeepLibraryToken
    | ChooseStarter
    | Reveal
    | PantheonEvent
)

EVENT_TYPES: tuple[str, ...] = (
    "setup", "deal", "build", "discard", "wonder", "progress", "destroy", "mausoleum",
    "great_library", "next_age", "reveal",
    "divinity", "activate", "enki", "snake", "baal", "hades", "zeus", "anubis", "isis", "ra",
    "minerva", "neptune", "gate", "theater",
)  # fmt: skip


# --- Record -> event -----------------------------------------------------------------------


def _field(obj: Mapping[str, Any], key: str, kind: str) -> Any:
    if key not in obj:
        raise RecordError(f"{kind}: missing field {key!r}")
    return obj[key]


def _id(obj: Mapping[str, Any], key: str, kind: str) -> str:
    value = _field(obj, key, kind)
    if not isinstance(value, str) or not value:
        raise RecordError(f"{kind}: {key} must be an id, got {value!r}")
    return value


def _player(obj: Mapping[str, Any], key: str, kind: str) -> Player:
    value = _field(obj, key, kind)
    if value not in ("p1", "p2"):
        raise RecordError(f"{kind}: {key} must be 'p1' or 'p2', got {value!r}")
    return Player(value)


def _ids(value: Any, key: str, kind: str, count: int) -> tuple[str, ...]:
    if (
        not isinstance(value, list)
        or len(value) != count
        or not all(isinstance(v, str) and v for v in value)
    ):
        raise RecordError(f"{kind}: {key} must be a list of {count} ids")
    return tuple(value)


def _setup(obj: Mapping[str, Any]) -> Setup:
    wonders = _field(obj, "wonders", "setup")
    if not isinstance(wonders, dict) or set(wonders) != {"p1", "p2"}:
        raise RecordError("setup: wonders must be an object with 'p1' and 'p2'")
    players = obj.get("players", {"p1": "", "p2": ""})
    if (
        not isinstance(players, dict)
        or set(players) != {"p1", "p2"}
        or not all(isinstance(n, str) for n in players.values())
    ):
        raise RecordError("setup: players must be an object with the names of 'p1' and 'p2'")
    _field(obj, "progress_tokens", "setup")
    expansions = obj.get("expansions", [])
    if not isinstance(expansions, list) or not all(isinstance(e, str) and e for e in expansions):
        raise RecordError('setup: expansions must be a list of names, e.g. ["pantheon"]')
    return Setup(
        first_player=_player(obj, "first_player", "setup"),
        progress_tokens=tuple(
            TokenId(t)
            for t in _ids(_field(obj, "progress_tokens", "setup"), "progress_tokens", "setup", 5)
        ),
        wonders=(
            tuple(WonderId(w) for w in _ids(wonders["p1"], "wonders.p1", "setup", 4)),
            tuple(WonderId(w) for w in _ids(wonders["p2"], "wonders.p2", "setup", 4)),
        ),
        players=(players["p1"], players["p2"]),
        expansions=tuple(expansions),
    )


def _deal(obj: Mapping[str, Any]) -> Deal:
    age = _field(obj, "age", "deal")
    if age not in (1, 2, 3) or isinstance(age, bool):
        raise RecordError(f"deal: age must be 1, 2 or 3, got {age!r}")
    layout = _field(obj, "layout", "deal")
    if (
        not isinstance(layout, list)
        or len(layout) != 20
        or not all(c is None or (isinstance(c, str) and c) for c in layout)
    ):
        raise RecordError("deal: layout must be a list of 20 ids (null: a face-down card)")
    tokens = obj.get("tokens", [])
    if not isinstance(tokens, list) or not all(
        (isinstance(t, str) and t) or (isinstance(t, int) and not isinstance(t, bool))
        for t in tokens
    ):
        raise RecordError("deal: tokens must be a list of mythologies or Offering values")
    return Deal(
        age=age,
        layout=tuple(None if c is None else CardId(c) for c in layout),
        tokens=tuple(str(t) for t in tokens),
    )


def _reveal(obj: Mapping[str, Any]) -> Reveal:
    position = _field(obj, "position", "reveal")
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < 20:
        raise RecordError(f"reveal: position must be 0 to 19, got {position!r}")
    return Reveal(position=position, card=CardId(_id(obj, "card", "reveal")))


def _great_library(obj: Mapping[str, Any]) -> KeepLibraryToken:
    drawn = _ids(_field(obj, "drawn", "great_library"), "drawn", "great_library", 3)
    return KeepLibraryToken(
        player=_player(obj, "player", "great_library"),
        drawn=tuple(TokenId(t) for t in drawn),
        token=TokenId(_id(obj, "token", "great_library")),
    )


_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "setup": _setup,
    "deal": _deal,
    "build": lambda o: Build(_player(o, "player", "build"), CardId(_id(o, "card", "build"))),
    "discard": lambda o: Discard(
        _player(o, "player", "discard"), CardId(_id(o, "card", "discard"))
    ),
    "wonder": lambda o: BuildWonder(
        _player(o, "player", "wonder"),
        WonderId(_id(o, "wonder", "wonder")),
        CardId(_id(o, "card", "wonder")),
    ),
    "progress": lambda o: TakeProgress(
        _player(o, "player", "progress"), TokenId(_id(o, "token", "progress"))
    ),
    "destroy": lambda o: Destroy(
        _player(o, "player", "destroy"), CardId(_id(o, "card", "destroy"))
    ),
    "mausoleum": lambda o: BuildFromDiscard(
        _player(o, "player", "mausoleum"), CardId(_id(o, "card", "mausoleum"))
    ),
    "great_library": _great_library,
    "reveal": _reveal,
    "next_age": lambda o: ChooseStarter(
        _player(o, "player", "next_age"), _player(o, "starter", "next_age")
    ),
}


def _int_field(obj: Mapping[str, Any], key: str, kind: str) -> int:
    value = _field(obj, key, kind)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{kind}: {key} must be a whole number, got {value!r}")
    return value


def _id_list(obj: Mapping[str, Any], key: str, kind: str) -> tuple[str, ...]:
    value = _field(obj, key, kind)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise RecordError(f"{kind}: {key} must be a list of ids")
    return tuple(value)


def _offerings(obj: Mapping[str, Any]) -> tuple[int, ...]:
    value = obj.get("offerings", [])
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise RecordError("activate: offerings must be a list of Offering token values")
    return tuple(value)


def _neptune(obj: Mapping[str, Any]) -> NeptuneLoot:
    applied = obj.get("applied")
    if applied is not None and (not isinstance(applied, int) or isinstance(applied, bool)):
        raise RecordError(f"neptune: applied must be a whole number or null, got {applied!r}")
    return NeptuneLoot(
        _player(obj, "player", "neptune"), _int_field(obj, "discarded", "neptune"), applied
    )


_PANTHEON_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "divinity": lambda o: PlaceDivinity(
        _player(o, "player", "divinity"),
        tuple(DivinityId(d) for d in _id_list(o, "drawn", "divinity")),
        DivinityId(_id(o, "divinity", "divinity")),
        _int_field(o, "space", "divinity"),
    ),
    "activate": lambda o: Activate(
        _player(o, "player", "activate"), _int_field(o, "space", "activate"), _offerings(o)
    ),
    "enki": lambda o: TakeEnkiToken(
        _player(o, "player", "enki"),
        tuple(TokenId(t) for t in _id_list(o, "drawn", "enki")),
        TokenId(_id(o, "token", "enki")),
    ),
    "snake": lambda o: PlaceSnake(_player(o, "player", "snake"), CardId(_id(o, "card", "snake"))),
    "baal": lambda o: StealCard(_player(o, "player", "baal"), CardId(_id(o, "card", "baal"))),
    "hades": lambda o: HadesBuild(_player(o, "player", "hades"), CardId(_id(o, "card", "hades"))),
    "zeus": lambda o: DiscardFromStructure(
        _player(o, "player", "zeus"), _int_field(o, "position", "zeus")
    ),
    "anubis": lambda o: UnbuildWonder(
        _player(o, "player", "anubis"), WonderId(_id(o, "wonder", "anubis"))
    ),
    "isis": lambda o: IsisWonder(
        _player(o, "player", "isis"),
        WonderId(_id(o, "wonder", "isis")),
        CardId(_id(o, "card", "isis")),
    ),
    "ra": lambda o: StealWonder(_player(o, "player", "ra"), WonderId(_id(o, "wonder", "ra"))),
    "minerva": lambda o: PlaceMinerva(
        _player(o, "player", "minerva"), _int_field(o, "position", "minerva")
    ),
    "neptune": _neptune,
    "gate": lambda o: GateActivation(
        _player(o, "player", "gate"),
        tuple(DivinityId(d) for d in _id_list(o, "revealed", "gate")),
        DivinityId(_id(o, "divinity", "gate")),
    ),
    "theater": lambda o: TheaterActivation(
        _player(o, "player", "theater"), DivinityId(_id(o, "divinity", "theater"))
    ),
}
_READERS.update(_PANTHEON_READERS)


def event_from_record(obj: Any) -> Event:
    """The event of one game-record object (a parsed JSON line); other keys are ignored.

    Raises:
        RecordError: not an object, an unknown type, or a missing or malformed field.
    """
    if not isinstance(obj, dict):
        raise RecordError("a record line must be a JSON object")
    kind = obj.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise RecordError(f"unknown event type {kind!r}")
    return reader(obj)


# --- Event -> record -----------------------------------------------------------------------


def event_to_record(event: Event) -> dict[str, Any]:
    """The game-record object of `event` (ready for `json.dumps`)."""
    match event:
        case Setup():
            return {
                "type": "setup",
                "first_player": event.first_player.value,
                "progress_tokens": list(event.progress_tokens),
                "wonders": {"p1": list(event.wonders[0]), "p2": list(event.wonders[1])},
                "players": {"p1": event.players[0], "p2": event.players[1]},
            } | ({"expansions": list(event.expansions)} if event.expansions else {})
        case Deal():
            found: dict[str, Any] = {"type": "deal", "age": event.age, "layout": list(event.layout)}
            if event.tokens:
                found["tokens"] = [int(t) if t.isdigit() else t for t in event.tokens]
            return found
        case Build() | Discard() | Destroy() | BuildFromDiscard():
            return {"type": event.type, "player": event.player.value, "card": event.card}
        case BuildWonder():
            return {
                "type": "wonder",
                "player": event.player.value,
                "wonder": event.wonder,
                "card": event.card,
            }
        case TakeProgress():
            return {"type": "progress", "player": event.player.value, "token": event.token}
        case KeepLibraryToken():
            return {
                "type": "great_library",
                "player": event.player.value,
                "drawn": list(event.drawn),
                "token": event.token,
            }
        case ChooseStarter():
            return {
                "type": "next_age",
                "player": event.player.value,
                "starter": event.starter.value,
            }
        case Reveal():
            return {"type": "reveal", "position": event.position, "card": event.card}
    return _pantheon_record(event)


def _pantheon_record(event: PantheonEvent) -> dict[str, Any]:
    """The game-record object of a Pantheon event: its type, then its fields."""
    found: dict[str, Any] = {"type": event.type, "player": event.player.value}
    for name in _field_names(event):
        if name != "player":
            value = getattr(event, name)
            found[name] = list(value) if isinstance(value, tuple) else value
    return found


def _field_names(event: PantheonEvent) -> tuple[str, ...]:
    """The fields of an event class, in declaration order."""
    return tuple(getattr(type(event), "__dataclass_fields__"))  # noqa: B009
