"""What a card or a progress token gives the city that gets it: production, coins, shields,
science (a pair asks for a progress token, 6 symbols win) and the summaries pricing reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import NO_RESOURCES, Card, Catalog, Science, TokenId
from .military import move_pawn
from .science import has_supremacy, makes_pair
from .scoring import count_in
from .state import (
    COLOR_INDEX,
    City,
    Pending,
    PendingKind,
    Player,
    Victory,
    evolve,
    with_coins,
)
from .turn import Turn, win

__all__ = [
    "add_card",
    "add_shields",
    "city_of",
    "construct",
    "gain_symbol",
    "gain_token",
    "remove_card",
]

STRATEGY_SHIELDS: Final = 1
STRATEGY: Final = TokenId("strategy")


def add_card(city: City, card: Card, coins: int) -> City:
    """The city with `card` added, `coins` coins and its summaries updated."""
    colors = list(city.colors)  # one list and one tuple: fewer objects than slices joined
    colors[COLOR_INDEX[card.color]] += 1
    produces = city.produces
    if card.produces != NO_RESOURCES:
        w, c, s, g, p = produces
        aw, ac, as_, ag, ap = card.produces
        produces = (w + aw, c + ac, s + as_, g + ag, p + ap)
    return City(  # every field, in declaration order
        coins,
        city.cards + (card.id,),  # noqa: RUF005 (compiled, a concatenation builds no list)
        city.wonders_built,
        city.wonders_unbuilt,
        city.tokens,
        produces,
        (*city.choices, card.produces_one_of) if card.produces_one_of else city.choices,
        city.fixed_price | card.fixed_price if card.fixed_price else city.fixed_price,
        city.chain_symbols | {card.chain_symbol} if card.chain_symbol else city.chain_symbols,
        tuple(colors),
        city.symbols | {card.science} if card.science else city.symbols,
        city.tucked,
    )


def construct(turn: Turn, card: Card, coins: int) -> None:
    """Add a paid-for card to the acting city (left with `coins` coins) and apply its
    effects: coins, shields, science. May end the game or ask for a progress token."""
    before = turn.city
    city = add_card(before, card, coins)
    gained = card.coins
    if card.coins_per is not None:  # counted once, in the builder's city, the card included
        gained += card.coins_per.coins * count_in(city, card.coins_per.counts)
    if card.guild is not None:  # counted in the city that has the most
        counts = card.guild.counts
        gained += card.guild.coins * max(count_in(city, counts), count_in(turn.opponent, counts))
    if gained:
        city = with_coins(city, city.coins + gained)
    turn.city = city
    if card.shields:
        add_shields(turn, card.shields + (STRATEGY_SHIELDS if STRATEGY in city.tokens else 0))
    elif card.science is not None:
        if has_supremacy(city, turn.catalog.rules.science_supremacy):
            win(turn, turn.player, Victory.SCIENCE)
        elif makes_pair(before, card.science) and turn.board_tokens:
            turn.pending = Pending(PendingKind.PROGRESS, turn.player, False)


def add_shields(turn: Turn, shields: int) -> None:
    """Move the conflict pawn; apply loot; military supremacy ends the game. With Pantheon,
    the Minerva pawn stops the first move that would enter its space (and leaves), and
    Poliorcetics costs the opponent a coin per space moved."""
    if turn.pantheon is not None:
        shields = _pantheon_shields(turn, shields)
        if not shields:
            return
    move = move_pawn(turn.catalog.track, turn.position, turn.loot, turn.player, shields)
    if move.lost != (0, 0):
        one, two = turn.cities
        turn.cities = [
            with_coins(one, max(0, one.coins - move.lost[0])) if move.lost[0] else one,
            with_coins(two, max(0, two.coins - move.lost[1])) if move.lost[1] else two,
        ]
    if turn.pantheon is not None and move.position != turn.position:
        _poliorcetics(turn, abs(move.position - turn.position))
    turn.position = move.position
    turn.loot = move.loot
    if move.supremacy:
        win(turn, turn.player, Victory.MILITARY)


def _pantheon_shields(turn: Turn, shields: int) -> int:
    """The spaces the pawn may move: the Minerva pawn stops it before its space, and then
    leaves the game."""
    pantheon = turn.pantheon
    assert pantheon is not None
    minerva = pantheon.minerva
    if minerva is None:
        return shields
    sign = 1 if turn.player is Player.P1 else -1
    ahead = (minerva - turn.position) * sign  # spaces to Minerva in the move's direction
    if 0 < ahead <= shields:
        turn.pantheon = evolve(pantheon, minerva=None)
        return ahead - 1
    return shields


def _poliorcetics(turn: Turn, moved: int) -> None:
    """Poliorcetics: the opponent loses coins per space the owner moved the pawn (from the
    treasury only, down to 0)."""
    per = 0
    for token in turn.city.tokens:
        per += turn.catalog.token(token).opponent_loses_per_space
    if per:
        opponent = turn.opponent
        turn.opponent = with_coins(opponent, max(0, opponent.coins - per * moved))


def gain_token(turn: Turn, token_id: TokenId) -> None:
    """Add a progress token to the city: its coins now, Law's symbol (maybe supremacy)."""
    token = turn.catalog.token(token_id)
    before = city = turn.city
    city = City(  # every field, in declaration order
        city.coins + token.coins,
        city.cards,
        city.wonders_built,
        city.wonders_unbuilt,
        city.tokens | {token_id},
        city.produces,
        city.choices,
        city.fixed_price,
        city.chain_symbols,
        city.colors,
        city.symbols | {token.science} if token.science else city.symbols,
        city.tucked,
    )
    turn.city = city
    if token.science is not None and has_supremacy(city, turn.catalog.rules.science_supremacy):
        win(turn, turn.player, Victory.SCIENCE)
    elif (
        token.science is not None
        and turn.pantheon is not None
        and makes_pair(before, token.science)  # with Ishtar's Law
        and turn.board_tokens
    ):
        turn.pending = Pending(PendingKind.PROGRESS, turn.player, False)


def gain_symbol(turn: Turn, symbol: Science) -> None:
    """Pantheon (Ishtar, Nisaba's Snake): a science symbol that counts for the acting city,
    making a pair (a progress token, when one is left) or scientific supremacy."""
    before = turn.city
    city = evolve(before, symbols=before.symbols | {symbol})
    turn.city = city
    if has_supremacy(city, turn.catalog.rules.science_supremacy):
        win(turn, turn.player, Victory.SCIENCE)
    elif makes_pair(before, symbol) and turn.board_tokens:
        turn.pending = Pending(PendingKind.PROGRESS, turn.player, False)


def remove_card(city: City, card: Card) -> City:
    """The city without `card` (a brown or grey card: production is all it gives)."""
    colors = list(city.colors)
    colors[COLOR_INDEX[card.color]] -= 1
    w, c, s, g, p = (a - b for a, b in zip(city.produces, card.produces, strict=True))
    return evolve(
        city,
        cards=tuple(c for c in city.cards if c != card.id),
        colors=tuple(colors),
        produces=(w, c, s, g, p),
    )


def city_of(
    catalog: Catalog,
    cards: Sequence[str] = (),
    *,
    coins: int = 7,
    tokens: Sequence[str] = (),
    wonders_built: Sequence[str] = (),
    wonders_unbuilt: Sequence[str] = (),
) -> City:
    """A city holding these cards, wonders and tokens, with its summaries computed (for
    tests and tools that need a position without playing up to it; no effect is applied).

    Raises:
        KeyError: an unknown id.
    """
    city = City(
        coins=coins,
        tokens=frozenset(catalog.token(t).id for t in tokens),
        wonders_unbuilt=tuple(catalog.wonder(w).id for w in wonders_unbuilt),
    )
    for card_id in cards:
        city = add_card(city, catalog.card(card_id), coins)
    for wonder_id in wonders_built:
        wonder = catalog.wonder(wonder_id)
        choices = (
            (*city.choices, wonder.produces_one_of) if wonder.produces_one_of else city.choices
        )
        city = evolve(city, wonders_built=(*city.wonders_built, wonder.id), choices=choices)
    law = [catalog.token(t).science for t in tokens if catalog.token(t).science]
    return evolve(city, symbols=city.symbols | frozenset(s for s in law if s is not None))
