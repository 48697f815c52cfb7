"""The Pantheon expansion's setup and board numbers: its pieces at setup, the tokens a deal
puts on the structures, the Gate at the start of Age II, and what an activation costs.

The rest of the expansion's rules are in `pantheon_board` (tokens taken, a divinity placed,
Astarte's coins) and `divinities` (activations and effects); docs/pantheon.md states them.
"""

from __future__ import annotations

from typing import Final, TypeVar

from .cards import MYTHOLOGIES, Card, Catalog, Pantheon
from .events import Deal, IllegalEvent
from .state import GameState, PantheonState, Player, evolve

PANTHEON: Final = "pantheon"
"""The expansion's name in a setup's `expansions`."""

_Item = TypeVar("_Item")


def player_index(player: Player) -> int:
    """0 for p1, 1 for p2: the index of per-player pairs."""
    return 0 if player is Player.P1 else 1


def rules_of(catalog: Catalog) -> Pantheon:
    """The expansion's data. Raises: IllegalEvent when the catalog was loaded without it."""
    pantheon = catalog.pantheon
    if pantheon is None:
        raise IllegalEvent("Pantheon is not in the catalog (load it with the expansion)")
    return pantheon


def new_pantheon(catalog: Catalog) -> PantheonState:
    """The Pantheon at setup: six empty spaces and five full Mythology decks."""
    rules = rules_of(catalog)
    return PantheonState(
        spaces=(None,) * len(rules.space_costs),
        decks=tuple(rules.deck(m) for m in MYTHOLOGIES),
        tops=(None,) * len(MYTHOLOGIES),
    )


def check_setup_ids(catalog: Catalog, ids: tuple[str, ...], pantheon: bool) -> None:
    """A base game refuses the expansion's progress tokens and wonders.

    Raises:
        IllegalEvent: an id of the expansion in a base game.
    """
    rules = catalog.pantheon
    if pantheon or rules is None:
        return
    for any_id in ids:
        if any_id in rules.token_ids or any_id in rules.wonder_ids:
            raise IllegalEvent(f"setup: {catalog.name(any_id)} belongs to the Pantheon expansion")


def check_purple_card(state: GameState, card: Card) -> None:
    """Age III holds the Grand Temples with Pantheon, the guilds without.

    Raises:
        IllegalEvent: a guild in a Pantheon game or a Grand Temple in a base game.
    """
    if state.pantheon is not None and card.is_guild:
        name = state.catalog.name(card.id)
        raise IllegalEvent(f"{name} stays in the box: Pantheon plays Grand Temples, not guilds")
    if state.pantheon is None and card.is_temple:
        raise IllegalEvent(f"{state.catalog.name(card.id)} belongs to the Pantheon expansion")


def deal_tokens(state: GameState, event: Deal) -> PantheonState | None:
    """The tokens a Pantheon deal puts on its marked cards: 5 mythologies (at most 2 of
    each) in Age I, the 3 Offering tokens in Age II, none in Age III.

    Raises:
        IllegalEvent: tokens in a base game, or not the tokens the age needs.
    """
    pantheon = state.pantheon
    if pantheon is None:
        if event.tokens:
            raise IllegalEvent("deal: tokens are for Pantheon games")
        return None
    rules = rules_of(state.catalog)
    if event.age == 1:
        positions = rules.mythology_positions
        for token in event.tokens:
            if token not in MYTHOLOGIES:
                raise IllegalEvent(f"deal: {token!r} is not a mythology")
            if event.tokens.count(token) > rules.mythology_tokens_per_mythology:
                raise IllegalEvent(f"deal: the box has only 2 {token} Mythology tokens")
    elif event.age == 2:
        positions = rules.offering_positions
        if sorted(event.tokens) != sorted(str(v) for v in rules.offering_tokens):
            values = ", ".join(str(v) for v in rules.offering_tokens)
            raise IllegalEvent(f"deal: Age II needs the Offering tokens {values}")
    else:
        positions = ()
    if len(event.tokens) != len(positions):
        raise IllegalEvent(f"deal: age {event.age} needs {len(positions)} tokens")
    return evolve(pantheon, on_structure=tuple(zip(positions, event.tokens, strict=True)))


def replaced(items: tuple[_Item, ...], index: int, value: _Item) -> tuple[_Item, ...]:
    """`items` with `value` at `index`."""
    return (*items[:index], value, *items[index + 1 :])


def next_age(state: GameState, age: int) -> PantheonState | None:
    """The Pantheon as a new age begins: at Age II the Gate goes on the empty space (and
    every divinity is turned face up); the last age's tokens are gone with its structure."""
    pantheon = state.pantheon
    if pantheon is None:
        return None
    spaces = pantheon.spaces
    if age == rules_of(state.catalog).first_age and None in spaces:
        index = spaces.index(None)
        spaces = replaced(spaces, index, rules_of(state.catalog).gate)
    return evolve(pantheon, spaces=spaces, on_structure=())


def sanctuary_discount(catalog: Catalog, turn_city_wonders: tuple[str, ...]) -> int:
    """Coins off every activation: the Sanctuary's, when built."""
    return sum(catalog.wonder(w).pantheon_discount for w in turn_city_wonders)


def activation_price(
    state: GameState, player: Player, space: int, offerings: tuple[int, ...]
) -> int:
    """What `player` pays to activate the card on `space`: the space's price on their side,
    doubled for the Gate, less the Sanctuary's 2 coins and the Offering tokens handed in,
    never below 0.

    Raises:
        IllegalEvent: an empty space, or Offering tokens the player does not hold.
    """
    pantheon = state.pantheon
    assert pantheon is not None
    rules = rules_of(state.catalog)
    if not 1 <= space <= len(pantheon.spaces) or pantheon.spaces[space - 1] is None:
        raise IllegalEvent(f"No card lies on space {space} of the Pantheon")
    index = player_index(player)
    held = list(pantheon.offerings[index])
    for value in offerings:
        if value not in held:
            raise IllegalEvent(f"{player} holds no Offering token of {value}")
        held.remove(value)
    price = rules.space_cost(space, index)
    if pantheon.spaces[space - 1] == rules.gate:
        price *= rules.gate_multiplier
    price -= sanctuary_discount(state.catalog, state.city(player).wonders_built)
    return max(rules.min_cost, price - sum(offerings))
