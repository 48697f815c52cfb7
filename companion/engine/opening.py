"""The opening of a game: the wonder draft (A-B-B-A then B-A-A-B) and the setup event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Catalog, Rules, WonderId
from .events import IllegalEvent, Setup
from .military import initial_loot
from .pantheon_rules import PANTHEON, check_setup_ids, new_pantheon
from .state import City, GameState, Phase, Player

__all__ = ["check_draft", "draft_pickers", "setup"]

EMPTY_CITY: Final = City()
"""A city before the setup: no coins given yet, nothing built."""


def setup(state: GameState, event: Setup) -> GameState:
    """Set the first player, the board's tokens, 4 wonders each and 7 coins each.

    Raises:
        IllegalEvent: unknown tokens or wonders, not 5 different tokens, not 4 wonders
            each, or a wonder given twice.
    """
    catalog = state.catalog
    rules = catalog.rules
    tokens = event.progress_tokens
    for token in tokens:
        if not catalog.is_token(token):
            raise IllegalEvent(f"setup: unknown progress token {token!r}")
    if len(set(tokens)) != rules.tokens_on_board or len(tokens) != rules.tokens_on_board:
        raise IllegalEvent(f"setup: {rules.tokens_on_board} different progress tokens needed")
    wonders = event.wonders[0] + event.wonders[1]
    for wonder in wonders:
        if not catalog.is_wonder(wonder):
            raise IllegalEvent(f"setup: unknown wonder {wonder!r}")
    per = rules.wonders_per_player
    if len(event.wonders[0]) != per or len(event.wonders[1]) != per:
        raise IllegalEvent(f"setup: each player needs {per} wonders")
    if len(set(wonders)) != len(wonders):
        raise IllegalEvent("setup: a wonder is given twice")
    for expansion in event.expansions:
        if expansion != PANTHEON:
            raise IllegalEvent(f"setup: unknown expansion {expansion!r}")
    pantheon = PANTHEON in event.expansions
    check_setup_ids(catalog, tokens + wonders, pantheon)
    cities = (
        with_wonders(EMPTY_CITY, rules.starting_coins, event.wonders[0]),
        with_wonders(EMPTY_CITY, rules.starting_coins, event.wonders[1]),
    )
    return GameState(  # every field, in declaration order
        catalog,
        Phase.PLAYING,
        1,
        event.first_player,
        cities,
        event.players,
        state.position,
        initial_loot(catalog.track),
        tokens,
        state.boxed_tokens,
        state.boxed_wonders,
        state.structure,
        state.taken,
        state.discard,
        state.pending,
        state.winner,
        state.shared,
        state.victory,
        new_pantheon(catalog) if pantheon else None,
    )


def with_wonders(city: City, coins: int, wonders: tuple[WonderId, ...]) -> City:
    """`city` (empty) at the start of the game: its coins and its unbuilt wonders."""
    return City(  # every field, in declaration order
        coins,
        city.cards,
        city.wonders_built,
        wonders,
        city.tokens,
        city.produces,
        city.choices,
        city.fixed_price,
        city.chain_symbols,
        city.colors,
        city.symbols,
        city.tucked,
    )


def draft_pickers(rules: Rules, first_player: Player) -> tuple[Player, ...]:
    """Who picks each of the 8 draft wonders, in order (A-B-B-A then B-A-A-B)."""
    other = first_player.opponent
    return tuple(first_player if letter == "A" else other for letter in rules.draft_order)


def check_draft(
    catalog: Catalog,
    first_player: Player,
    revealed: Sequence[Sequence[str]],
    picks: Sequence[tuple[Player, str]],
) -> tuple[tuple[WonderId, ...], tuple[WonderId, ...]]:
    """The wonders of (p1, p2) after a draft whose picks follow the draft order and take
    each wonder from its round's revealed four.

    Raises:
        IllegalEvent: a pick by the wrong player, of a wonder not revealed in that round,
            taken twice or unknown, a wrong number of picks, or rounds that do not reveal
            4 different wonders each.
    """
    order = draft_pickers(catalog.rules, first_player)
    per_round = catalog.rules.wonders_per_player  # 4 revealed, 4 picked, per round
    rounds = len(order) // per_round
    shown = [w for round_ in revealed for w in round_]
    if len(revealed) != rounds or any(len(r) != per_round for r in revealed):
        raise IllegalEvent(f"draft: {rounds} rounds of {per_round} revealed wonders needed")
    if len(set(shown)) != len(shown):
        raise IllegalEvent("draft: a wonder is revealed twice")
    if len(picks) != len(order):
        raise IllegalEvent(f"draft: {len(order)} picks needed, got {len(picks)}")
    taken: set[str] = set()
    wonders: tuple[list[WonderId], list[WonderId]] = ([], [])
    for number, ((player, wonder), picker) in enumerate(zip(picks, order, strict=True)):
        if not catalog.is_wonder(wonder):
            raise IllegalEvent(f"draft: unknown wonder {wonder!r}")
        if player is not picker:
            raise IllegalEvent(f"draft: pick {number + 1} is {picker}'s, not {player}'s")
        if wonder not in revealed[number // per_round]:
            raise IllegalEvent(f"draft: {wonder!r} is not among the wonders revealed")
        if wonder in taken:
            raise IllegalEvent(f"draft: {wonder!r} is already taken")
        taken.add(wonder)
        wonders[0 if player is Player.P1 else 1].append(WonderId(wonder))
    return tuple(wonders[0]), tuple(wonders[1])
