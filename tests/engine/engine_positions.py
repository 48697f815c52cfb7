"""Helpers for engine tests: positions built directly, events written as record lines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from companion.engine.cards import Catalog, TokenId
from companion.engine.events import event_from_record
from companion.engine.rules import apply, city_of
from companion.engine.state import City, GameState, Phase, Player, evolve

BOARD = ("agriculture", "economy", "law", "masonry", "strategy")


def city(catalog: Catalog, *cards: str, coins: int = 7, **kwargs: Any) -> City:
    """A city with these cards (see `city_of`)."""
    return city_of(catalog, cards, coins=coins, **kwargs)


def position(
    catalog: Catalog,
    p1: City | None = None,
    p2: City | None = None,
    *,
    age: int = 1,
    current: Player = Player.P1,
    board: Sequence[str] = BOARD,
    **changes: Any,
) -> GameState:
    """A table-mode state of `age` (no deal) with these cities, `current` to play."""
    state = GameState(
        catalog=catalog,
        phase=Phase.PLAYING,
        age=age,
        current=current,
        cities=(p1 or City(), p2 or City()),
        board_tokens=tuple(TokenId(t) for t in board),
        loot=frozenset({3, 6, -3, -6}),
    )
    return evolve(state, **changes)


def play(state: GameState, *lines: str | dict[str, Any]) -> GameState:
    """Apply record lines (JSON text or objects) in order."""
    for line in lines:
        obj = json.loads(line) if isinstance(line, str) else line
        state = apply(state, event_from_record(obj))
    return state


def build(player: str, card: str) -> dict[str, Any]:
    return {"type": "build", "player": player, "card": card}


def discard(player: str, card: str) -> dict[str, Any]:
    return {"type": "discard", "player": player, "card": card}


def wonder(player: str, wonder_id: str, card: str) -> dict[str, Any]:
    return {"type": "wonder", "player": player, "wonder": wonder_id, "card": card}


def progress(player: str, token: str) -> dict[str, Any]:
    return {"type": "progress", "player": player, "token": token}


SETUP: dict[str, Any] = {
    "type": "setup",
    "first_player": "p1",
    "progress_tokens": list(BOARD),
    "wonders": {
        "p1": ["the_pyramids", "the_great_lighthouse", "the_temple_of_artemis",
               "the_statue_of_zeus"],
        "p2": ["circus_maximus", "piraeus", "the_appian_way", "the_colossus"],
    },
    "players": {"p1": "Ann", "p2": "Ben"},
}  # fmt: skip
