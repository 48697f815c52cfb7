"""The events of a game and their game-record form (one JSON object per line).

The record format is documented in docs/game-record.md. `event_from_record` checks the shape
of a record line (types and fields); whether the ids exist and the event is legal is for
`rules.apply` to say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import CardId, TokenId, WonderId
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

    def __init__(
        self,
        first_player: Player,
        progress_tokens: tuple[TokenId, ...],
        wonders: tuple[tuple[WonderId, ...], tuple[WonderId, ...]],
        players: tuple[str, str] = ("", ""),
    ) -> None:
        object.__setattr__(self, "first_player", first_player)
        object.__setattr__(self, "progress_tokens", progress_tokens)
        object.__setattr__(self, "wonders", wonders)
        object.__setattr__(self, "players", players)

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

    def __init__(self, age: int, layout: tuple[CardId | None, ...]) -> None:
        object.__setattr__(self, "age", age)
        object.__setattr__(self, "layout", layout)

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
)

EVENT_TYPES: tuple[str, ...] = (
    "setup", "deal", "build", "discard", "wonder", "progress", "destroy", "mausoleum",
    "great_library", "next_age", "reveal",
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
    return Deal(age=age, layout=tuple(None if c is None else CardId(c) for c in layout))


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
            }
        case Deal():
            return {"type": "deal", "age": event.age, "layout": list(event.layout)}
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
