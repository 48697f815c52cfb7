"""The Pantheon expansion's tokens in play: the tokens taken from the structures, the
Mythology token's placement of a divinity, and Astarte's coins in a payment.

The divinities' effects are in `divinities`; the rules are stated in docs/pantheon.md.
"""

from __future__ import annotations

from .cards import MYTHOLOGIES
from .events import IllegalEvent, PlaceDivinity
from .pantheon_rules import player_index, replaced
from .state import evolve
from .turn import Turn

__all__ = [
    "collect_freed_tokens",
    "gain_mythology_token",
    "pay",
    "place_divinity",
    "take_structure_token",
]


def collect_freed_tokens(turn: Turn, opened: int) -> None:
    """The tokens on the cards just turned up (bits of `opened`) go to the acting player."""
    pantheon = turn.pantheon
    if pantheon is None or not pantheon.on_structure or not opened:
        return
    for position, token in pantheon.on_structure:
        if opened >> position & 1:
            take_structure_token(turn, position, token)


def take_structure_token(turn: Turn, position: int, token: str) -> None:
    """The acting player takes the token lying at `position`: an Offering token, or a
    Mythology token (whose divinity they then place)."""
    pantheon = turn.pantheon
    assert pantheon is not None
    on = tuple(t for t in pantheon.on_structure if t[0] != position)
    turn.pantheon = evolve(pantheon, on_structure=on)
    if token.isdigit():
        index = player_index(turn.player)
        offerings = list(pantheon.offerings)
        offerings[index] = (*offerings[index], int(token))
        turn.pantheon = evolve(turn.pantheon, offerings=(offerings[0], offerings[1]))
    else:
        gain_mythology_token(turn, token)


def gain_mythology_token(turn: Turn, mythology: str) -> None:
    """The player keeps the token (the chain of its Grand Temple) and has a divinity to place."""
    pantheon = turn.pantheon
    assert pantheon is not None
    index = player_index(turn.player)
    held = list(pantheon.mythology_tokens)
    held[index] = (*held[index], mythology)
    turn.pantheon = evolve(
        pantheon, mythology_tokens=(held[0], held[1]), to_place=(*pantheon.to_place, mythology)
    )
    city = turn.city
    turn.city = evolve(city, chain_symbols=city.chain_symbols | {mythology})


def place_divinity(turn: Turn, event: PlaceDivinity) -> None:
    """Draw the top 2 cards of the token's deck (1 when one is left), place one on an empty
    space, put the other back on top.

    Raises:
        IllegalEvent: not the cards the deck can give, a divinity not drawn, or a space
            that is not empty.
    """
    pantheon = turn.pantheon
    assert pantheon is not None
    mythology = pantheon.to_place[0]
    deck_index = MYTHOLOGIES.index(mythology)
    deck = pantheon.decks[deck_index]
    top = pantheon.tops[deck_index]
    drawn = event.drawn
    name = turn.catalog.name
    if len(drawn) != min(2, len(deck)) or len(set(drawn)) != len(drawn):
        raise IllegalEvent(f"divinity: draw {min(2, len(deck))} cards of the {mythology} deck")
    for divinity in drawn:
        if divinity not in deck:
            raise IllegalEvent(f"divinity: {divinity!r} is not in the {mythology} deck")
    if top is not None and top not in drawn:
        raise IllegalEvent(f"divinity: {name(top)} lies on top of the {mythology} deck")
    if event.divinity not in drawn:
        raise IllegalEvent(f"divinity: {event.divinity!r} was not drawn")
    if not 1 <= event.space <= len(pantheon.spaces) or pantheon.spaces[event.space - 1]:
        raise IllegalEvent(f"divinity: space {event.space} of the Pantheon is not empty")
    spaces = list(pantheon.spaces)
    spaces[event.space - 1] = event.divinity
    back = [d for d in drawn if d != event.divinity]
    turn.pantheon = evolve(
        pantheon,
        spaces=tuple(spaces),
        decks=replaced(pantheon.decks, deck_index, tuple(d for d in deck if d != event.divinity)),
        tops=replaced(pantheon.tops, deck_index, back[0] if back else None),
        to_place=pantheon.to_place[1:],
    )


def pay(turn: Turn, total: int, what: str) -> int:
    """The acting player's coins once `total` is paid: the treasury first, then the coins on
    Astarte when the treasury is short (docs/pantheon.md, choice 7).

    Raises:
        IllegalEvent: the treasury and Astarte together hold less than `total`.
    """
    coins = turn.city.coins
    if total <= coins:
        return coins - total
    pantheon = turn.pantheon
    index = player_index(turn.player)
    on_astarte = 0 if pantheon is None else pantheon.astarte[index]
    if total > coins + on_astarte:
        held = f"{coins} + {on_astarte} on Astarte" if on_astarte else str(coins)
        raise IllegalEvent(f"{what} costs {total} coins, {turn.player} has {held}")
    assert pantheon is not None
    astarte = list(pantheon.astarte)
    astarte[index] -= total - coins
    turn.pantheon = evolve(pantheon, astarte=(astarte[0], astarte[1]))
    return 0
