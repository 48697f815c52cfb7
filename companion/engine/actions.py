"""The three actions of a turn: construct a building, discard it for coins, or construct a
wonder with the card tucked under it, with the decision a wonder may ask for.
"""

from __future__ import annotations

from typing import Final

from .cards import Card, CardId, Color, TokenId, Wonder, WonderId
from .effects import add_shields, construct
from .events import Build, BuildWonder, Discard, IllegalEvent
from .pantheon_board import collect_freed_tokens, pay
from .pricing import cheapest_payment
from .state import (
    COLOR_INDEX,
    City,
    GameState,
    Pending,
    PendingKind,
    Player,
    evolve,
    with_coins,
)
from .structure import take_card
from .turn import Turn, end_turn

__all__ = ["build", "build_wonder", "complete_wonder", "discard", "discard_gain"]

DISCARD_COINS: Final = 2
URBANISM_COINS: Final = 4
MAUSOLEUM: Final = WonderId("the_mausoleum")
GREAT_LIBRARY: Final = WonderId("the_great_library")
THEOLOGY: Final = TokenId("theology")
URBANISM: Final = TokenId("urbanism")

_YELLOW: Final = COLOR_INDEX[Color.YELLOW]


def _take(state: GameState, player: Player, card_id: CardId) -> tuple[Turn, Card]:
    """Check that `player` may take `card_id` now; return the turn without it and the card."""
    if player is not state.current:
        raise IllegalEvent(f"It is {state.current}'s turn, not {player}'s")
    structure, card = take_card(state, card_id)
    turn = Turn(state, player)
    turn.structure = structure
    turn.taken += 1
    if state.pantheon is not None and structure is not None and state.structure is not None:
        collect_freed_tokens(turn, structure.open & ~state.structure.open)
    return turn, card


def build(state: GameState, event: Build) -> GameState:
    """Construct the building: pay its cheapest price (free through a chain, Urbanism +4).

    Raises:
        IllegalEvent: not the player's turn, the card may not be taken, or it costs more
            coins than the player has.
    """
    turn, card = _take(state, event.player, event.card)
    city, opponent = turn.city, turn.opponent
    payment = cheapest_payment(state.catalog, city, opponent, card)
    if payment.total > city.coins:
        coins = pay(turn, payment.total, state.catalog.name(card.id))  # Astarte's coins, or refused
    else:
        coins = city.coins - payment.total
    if payment.chain and URBANISM in city.tokens:
        coins += URBANISM_COINS
    if payment.to_opponent:
        turn.opponent = with_coins(opponent, opponent.coins + payment.to_opponent)
    construct(turn, card, coins)
    if not turn.finished and turn.pending is None:
        end_turn(turn, extra_turn=False)
    return turn.state()


def discard(state: GameState, event: Discard) -> GameState:
    """Discard the card for 2 coins + 1 per yellow card in the city.

    Raises:
        IllegalEvent: not the player's turn, or the card may not be taken.
    """
    turn, card = _take(state, event.player, event.card)
    city = turn.city
    turn.city = with_coins(city, city.coins + discard_gain(city))
    turn.discard = (*turn.discard, card.id)
    end_turn(turn, extra_turn=False)
    return turn.state()


def discard_gain(city: City) -> int:
    """Coins a discard gives `city`: 2 + 1 per yellow card in it."""
    return DISCARD_COINS + city.colors[_YELLOW]


def build_wonder(state: GameState, event: BuildWonder) -> GameState:
    """Construct a wonder with the card tucked under it, and apply the wonder's effects.

    Raises:
        IllegalEvent: not the player's turn, a wonder that is not one of the player's
            unbuilt wonders, a card that may not be taken, or a price above the coins.
    """
    player = event.player
    catalog = state.catalog
    # The wonder must be one of the player's unbuilt wonders.
    if player is not state.current:
        raise IllegalEvent(f"It is {state.current}'s turn, not {player}'s")
    if not catalog.is_wonder(event.wonder):
        raise IllegalEvent(f"Unknown wonder {event.wonder!r}")
    city = state.city(player)
    if event.wonder not in city.wonders_unbuilt:
        if event.wonder in city.wonders_built:
            raise IllegalEvent(f"{catalog.name(event.wonder)} is already built")
        if event.wonder in state.boxed_wonders:
            raise IllegalEvent(f"{catalog.name(event.wonder)} has left the game (7 wonders built)")
        raise IllegalEvent(f"{catalog.name(event.wonder)} is not one of {player}'s wonders")
    # Take the card and pay the wonder's price.
    turn, card = _take(state, player, event.card)
    wonder = catalog.wonder(event.wonder)
    opponent = turn.opponent
    payment = cheapest_payment(catalog, city, opponent, wonder)
    coins = city.coins - payment.total
    if coins < 0:
        coins = pay(turn, payment.total, catalog.name(wonder.id))  # Astarte's coins, or refused
    extra = complete_wonder(turn, wonder, card.id, coins, payment.to_opponent)
    if not turn.finished and turn.pending is None:
        end_turn(turn, extra_turn=extra)
    return turn.state()


def complete_wonder(
    turn: Turn, wonder: Wonder, card: CardId, coins: int, to_opponent: int = 0
) -> bool:
    """The acting player's wonder is built with `card` tucked under it (the player left with
    `coins` coins before the wonder's own), and its effects apply: coins, the opponent's
    loss, the 7th wonder's limit, shields, a decision. Returns whether it gives an extra
    turn (the caller ends the turn)."""
    city = turn.city
    opponent = turn.opponent
    # The card goes under the wonder; coins change hands (the opponent may lose some).
    turn.city = City(  # every field, in declaration order
        coins + wonder.coins,
        city.cards,
        (*city.wonders_built, wonder.id),
        tuple([w for w in city.wonders_unbuilt if w != wonder.id]),
        city.tokens,
        city.produces,
        (*city.choices, wonder.produces_one_of) if wonder.produces_one_of else city.choices,
        city.fixed_price,
        city.chain_symbols,
        city.colors,
        city.symbols,
        (*city.tucked, card),
    )
    if to_opponent or wonder.opponent_loses:
        turn.opponent = with_coins(
            opponent, max(0, opponent.coins + to_opponent - wonder.opponent_loses)
        )
    # The 7th wonder boxes the 8th; shields may win; then a decision or the turn ends.
    _limit_wonders(turn)
    if wonder.shields:
        add_shields(turn, wonder.shields)
        if turn.finished:
            return False
    extra = wonder.extra_turn or THEOLOGY in city.tokens
    turn.pending = _wonder_decision(turn, wonder, extra)
    return extra


def _limit_wonders(turn: Turn) -> None:
    """As soon as the 7th wonder is built, the last unbuilt one goes back to the box."""
    one, two = turn.cities
    if len(one.wonders_built) + len(two.wonders_built) < turn.catalog.rules.max_wonders:
        return
    left = one.wonders_unbuilt + two.wonders_unbuilt
    if left:
        turn.cities = [evolve(one, wonders_unbuilt=()), evolve(two, wonders_unbuilt=())]
        turn.boxed_wonders = turn.boxed_wonders + left


def _wonder_decision(turn: Turn, wonder: Wonder, extra: bool) -> Pending | None:
    """The choice a wonder asks for, if there is anything to choose from."""
    player = turn.player
    if wonder.destroys is not None:
        if turn.opponent.colors[COLOR_INDEX[wonder.destroys]]:
            return Pending(PendingKind.DESTROY, player, extra)
    elif wonder.id == MAUSOLEUM:  # one-off effect, handled by id
        if turn.discard:
            return Pending(PendingKind.MAUSOLEUM, player, extra)
    elif wonder.id == GREAT_LIBRARY:  # one-off effect, handled by id
        return Pending(PendingKind.GREAT_LIBRARY, player, extra)
    elif wonder.activates_from_mythology_deck:  # the Divine Theater (Pantheon)
        pantheon = turn.pantheon
        if pantheon is not None and any(pantheon.decks):
            return Pending(PendingKind.THEATER, player, extra)
    return None
