"""Helpers for the Pantheon tests: a Pantheon game set up, positions built directly."""

from __future__ import annotations

from typing import Any

from companion.engine.catalog import default_catalog
from companion.engine.events import Setup
from companion.engine.rules import apply, city_of, new_game
from companion.engine.state import City, GameState, Player, evolve

CATALOG = default_catalog(("pantheon",))
BOARD = ("agriculture", "economy", "law", "masonry", "strategy")
P1_WONDERS = ("the_pyramids", "the_great_lighthouse", "the_sanctuary", "the_statue_of_zeus")
P2_WONDERS = ("circus_maximus", "piraeus", "the_appian_way", "the_divine_theater")
P1, P2 = Player.P1, Player.P2


def setup_event(first: Player = P1) -> Setup:
    return Setup(first, BOARD, (P1_WONDERS, P2_WONDERS), ("Ann", "Ben"), ("pantheon",))  # type: ignore[arg-type]


def started(first: Player = P1) -> GameState:
    """A Pantheon game just set up."""
    return apply(new_game(CATALOG), setup_event(first))


def city(*cards: str, coins: int = 7, **kwargs: Any) -> City:
    return city_of(CATALOG, cards, coins=coins, **kwargs)


def age_2(
    p1: City | None = None,
    p2: City | None = None,
    *,
    spaces: tuple[str | None, ...] = (None,) * 6,
    current: Player = P1,
    **pantheon: Any,
) -> GameState:
    """A table-mode Age II position of a Pantheon game: these cities and Pantheon spaces;
    the divinities on the spaces are taken out of their decks."""
    state = started()
    board = state.pantheon
    assert board is not None
    decks = tuple(tuple(d for d in deck if d not in spaces) for deck in board.decks)
    board = evolve(board, spaces=spaces, decks=decks, **pantheon)
    return evolve(
        state,
        age=2,
        current=current,
        cities=(p1 or state.cities[0], p2 or state.cities[1]),
        pantheon=board,
    )


def on(space: int, card: str) -> tuple[str | None, ...]:
    """Pantheon spaces with only `card` on `space` (1 to 6)."""
    spaces: list[str | None] = [None] * 6
    spaces[space - 1] = card
    return tuple(spaces)
