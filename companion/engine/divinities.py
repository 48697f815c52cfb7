"""The Pantheon expansion's turn and decisions: activating a divinity or the Gate, each
divinity's effect, and the answers to the decisions they ask for (docs/pantheon.md).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Final, TypeVar

from .actions import complete_wonder
from .cards import MYTHOLOGIES, CardId, Color, DivinityId, TokenId
from .decisions import available_library_tokens
from .effects import add_card, add_shields, construct, gain_symbol, gain_token, remove_card
from .events import (
    Activate,
    DiscardFromStructure,
    Event,
    GateActivation,
    HadesBuild,
    IllegalEvent,
    IsisWonder,
    NeptuneLoot,
    PlaceDivinity,
    PlaceMinerva,
    PlaceSnake,
    StealCard,
    StealWonder,
    TakeEnkiToken,
    TheaterActivation,
    UnbuildWonder,
)
from .pantheon_board import collect_freed_tokens, pay, place_divinity, take_structure_token
from .pantheon_rules import activation_price, player_index, replaced, rules_of
from .state import (
    COLOR_INDEX,
    GameState,
    Pending,
    PendingKind,
    Player,
    evolve,
    with_coins,
)
from .structure import CARDS_PER_AGE, UNKNOWN, place_name, remove_from_structure
from .turn import Turn, end_turn

__all__ = ["activate", "activations", "answer_pantheon", "apply_divinity", "pantheon_events"]

ENKI_DRAW: Final = 2


def activate(state: GameState, event: Activate) -> GameState:
    """The player activates the card on a space of the Pantheon instead of taking a card:
    pays its price, takes it beside their city and applies its effect.

    Raises:
        IllegalEvent: not a Pantheon game, before Age II, not the player's turn, an empty
            space, Offering tokens not held, or a price above the coins.
    """
    pantheon = state.pantheon
    if pantheon is None:
        raise IllegalEvent("activate: this game is played without Pantheon")
    rules = rules_of(state.catalog)
    if state.age < rules.first_age:
        raise IllegalEvent("Divinities can be activated from Age II on")
    if event.player is not state.current:
        raise IllegalEvent(f"It is {state.current}'s turn, not {event.player}'s")
    price = activation_price(state, event.player, event.space, event.offerings)
    card = pantheon.spaces[event.space - 1]
    assert card is not None
    turn = Turn(state, event.player)
    coins = pay(turn, price, state.catalog.name(card))
    turn.city = with_coins(turn.city, coins)
    index = player_index(event.player)
    after = turn.pantheon
    assert after is not None
    offerings = list(after.offerings[index])
    for value in event.offerings:
        offerings.remove(value)
    spaces = list(after.spaces)
    spaces[event.space - 1] = None
    turn.pantheon = evolve(
        after,
        spaces=tuple(spaces),
        offerings=_pair(after.offerings, index, tuple(offerings)),
        activated=_pair(after.activated, index, (*after.activated[index], card)),
    )
    if card == rules.gate:
        if any(after.decks):
            turn.pending = Pending(PendingKind.GATE, event.player, False)
    else:
        apply_divinity(turn, DivinityId(card))
    if not turn.finished and turn.pending is None:
        end_turn(turn, extra_turn=False)
    return turn.state()


_T = TypeVar("_T")


def _pair(pair: tuple[_T, _T], index: int, value: _T) -> tuple[_T, _T]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def apply_divinity(turn: Turn, divinity_id: DivinityId) -> None:
    """The effect of a divinity activated by the acting player (paid, or free through the
    Gate or the Divine Theater); a decision it needs is left pending."""
    catalog = turn.catalog
    divinity = rules_of(catalog).divinity(divinity_id)
    player = turn.player
    index = player_index(player)
    city, opponent = turn.city, turn.opponent
    kind: PendingKind | None = None
    if divinity.coins:  # Tanit
        turn.city = with_coins(city, city.coins + divinity.coins)
    if divinity.coins_on_card:  # Astarte
        pantheon = turn.pantheon
        assert pantheon is not None
        astarte = pantheon.astarte[index] + divinity.coins_on_card
        turn.pantheon = evolve(pantheon, astarte=_pair(pantheon.astarte, index, astarte))
    if divinity.shields:  # Mars: not a red card, so Strategy adds nothing
        add_shields(turn, divinity.shields)
    if divinity.science is not None:  # Ishtar
        gain_symbol(turn, divinity.science)
    if divinity.draws_tokens and available_library_tokens(turn.state()):  # Enki
        kind = PendingKind.ENKI
    if divinity.copies_opponent_science and opponent.colors[COLOR_INDEX[Color.GREEN]]:
        kind = PendingKind.SNAKE  # Nisaba
    if divinity.steals and any(opponent.colors[COLOR_INDEX[c]] for c in divinity.steals):
        kind = PendingKind.BAAL
    if divinity.builds_from_discard and turn.discard:
        kind = PendingKind.HADES
    structure_left = turn.structure is not None and turn.taken < CARDS_PER_AGE
    if divinity.discards_from_structure and structure_left:  # (the last card, the Theater)
        kind = PendingKind.ZEUS
    if divinity.unbuilds_wonder and (city.wonders_built or opponent.wonders_built):
        kind = PendingKind.ANUBIS
    if divinity.builds_wonder_from_discard and _isis_possible(turn):
        kind = PendingKind.ISIS
    if divinity.steals_unbuilt_wonder and opponent.wonders_unbuilt:
        kind = PendingKind.RA
    if divinity.places_minerva_pawn:
        kind = PendingKind.MINERVA
    if divinity.discards_loot and turn.loot:
        kind = PendingKind.NEPTUNE
    if kind is not None and not turn.finished:
        turn.pending = Pending(kind, player, False)


def _isis_possible(turn: Turn) -> bool:
    """Isis needs a card in the discard pile, an unbuilt wonder, and fewer than 7 built."""
    one, two = turn.cities
    built = len(one.wonders_built) + len(two.wonders_built)
    return (
        bool(turn.discard and turn.city.wonders_unbuilt) and built < turn.catalog.rules.max_wonders
    )


def answer_pantheon(turn: Turn, event: Event) -> None:
    """Apply the event that answers a Pantheon decision (the checks of `rules._answer` done).

    Raises:
        IllegalEvent: an answer the decision does not allow.
    """
    match event:
        case PlaceDivinity():
            place_divinity(turn, event)
        case TakeEnkiToken():
            _enki(turn, event)
        case PlaceSnake():
            _snake(turn, event)
        case StealCard():
            _baal(turn, event)
        case HadesBuild():
            _hades(turn, event)
        case DiscardFromStructure():
            _zeus(turn, event)
        case UnbuildWonder():
            _anubis(turn, event)
        case IsisWonder():
            _isis(turn, event)
        case StealWonder():
            _ra(turn, event)
        case PlaceMinerva():
            _minerva(turn, event)
        case NeptuneLoot():
            _neptune(turn, event)
        case GateActivation():
            _gate(turn, event)
        case TheaterActivation():
            _theater(turn, event)


def _label(turn: Turn, any_id: str) -> str:
    catalog = turn.catalog
    known = catalog.is_card(any_id) or catalog.is_wonder(any_id) or catalog.is_token(any_id)
    return catalog.name(any_id) if known else repr(any_id)


def _enki(turn: Turn, event: TakeEnkiToken) -> None:
    """Enki: keep one of the 2 tokens drawn onto Enki; the other goes back to those set aside."""
    available = available_library_tokens(turn.base)
    wanted = min(ENKI_DRAW, len(available))
    drawn = event.drawn
    if len(set(drawn)) != len(drawn) or len(drawn) != wanted:
        raise IllegalEvent(f"enki: {wanted} different tokens must be drawn")
    for token in drawn:
        if token not in available:
            raise IllegalEvent(f"enki: {token!r} cannot be drawn (on the board, owned or unknown)")
    if event.token not in drawn:
        raise IllegalEvent(f"enki: {event.token!r} was not drawn")
    gain_token(turn, TokenId(event.token))


def _snake(turn: Turn, event: PlaceSnake) -> None:
    """Nisaba: the opponent's green card's symbol counts for the player too."""
    opponent = turn.opponent
    catalog = turn.catalog
    if event.card not in opponent.cards:
        raise IllegalEvent(f"{_label(turn, event.card)} is not in {turn.player.opponent}'s city")
    card = catalog.card(event.card)
    if card.science is None:
        raise IllegalEvent(f"{catalog.name(card.id)} is not a green card")
    pantheon = turn.pantheon
    assert pantheon is not None
    turn.pantheon = evolve(pantheon, snake=card.id)
    gain_symbol(turn, card.science)


def _baal(turn: Turn, event: StealCard) -> None:
    """Baal: an opponent's brown or grey card moves into the player's city."""
    catalog = turn.catalog
    opponent = turn.opponent
    if event.card not in opponent.cards:
        raise IllegalEvent(f"{_label(turn, event.card)} is not in {turn.player.opponent}'s city")
    card = catalog.card(event.card)
    steals = rules_of(catalog).divinity("baal").steals
    if card.color not in steals:
        raise IllegalEvent(f"{catalog.name(card.id)} is not a brown or grey card")
    turn.opponent = remove_card(opponent, card)
    turn.city = add_card(turn.city, card, turn.city.coins)


def _hades(turn: Turn, event: HadesBuild) -> None:
    """Hades: build a card of the discard pile for free, with its effects (as the Mausoleum)."""
    if event.card not in turn.discard:
        raise IllegalEvent(f"{_label(turn, event.card)} is not in the discard pile")
    index = turn.discard.index(event.card)
    turn.discard = turn.discard[:index] + turn.discard[index + 1 :]
    construct(turn, turn.catalog.card(event.card), turn.city.coins)


def _zeus(turn: Turn, event: DiscardFromStructure) -> None:
    """Zeus: a card of the structure, face up or down, goes to the discard pile; its token
    and those of the cards it frees go to the player."""
    structure = turn.structure
    assert structure is not None
    catalog = turn.catalog
    layout = catalog.layout(structure.age)
    if not 0 <= event.position < len(structure.dealt) or structure.gone >> event.position & 1:
        raise IllegalEvent(f"zeus: no card lies at position {event.position}")
    card = structure.dealt[event.position]
    if card is None or card in UNKNOWN:
        where = place_name(layout, event.position)
        raise IllegalEvent(f"Scan the card at {where} first")
    after = remove_from_structure(structure, event.position, catalog)
    turn.structure = after
    turn.taken += 1
    turn.discard = (*turn.discard, CardId(card))
    pantheon = turn.pantheon
    assert pantheon is not None
    for position, token in pantheon.on_structure:
        if position == event.position:
            take_structure_token(turn, position, token)
    collect_freed_tokens(turn, after.open & ~structure.open & ~(1 << event.position))


def _anubis(turn: Turn, event: UnbuildWonder) -> None:
    """Anubis: a built wonder is unbuilt again; its card goes to the discard pile, its
    lasting effects (VP, production) stop."""
    for owner in (turn.player, turn.player.opponent):
        index = player_index(owner)
        city = turn.cities[index]
        if event.wonder in city.wonders_built:
            at = city.wonders_built.index(event.wonder)
            wonder = turn.catalog.wonder(event.wonder)
            choices = list(city.choices)
            if wonder.produces_one_of:
                choices.remove(wonder.produces_one_of)
            turn.cities[index] = evolve(
                city,
                wonders_built=city.wonders_built[:at] + city.wonders_built[at + 1 :],
                wonders_unbuilt=(*city.wonders_unbuilt, wonder.id),
                tucked=city.tucked[:at] + city.tucked[at + 1 :],
                choices=tuple(choices),
            )
            turn.discard = (*turn.discard, city.tucked[at])
            return
    raise IllegalEvent(f"{_label(turn, event.wonder)} is not a built wonder")


def _isis(turn: Turn, event: IsisWonder) -> None:
    """Isis: one of the player's wonders is built for free with a card of the discard pile,
    with all its effects."""
    if event.wonder not in turn.city.wonders_unbuilt:
        raise IllegalEvent(f"{_label(turn, event.wonder)} is not one of {turn.player}'s wonders")
    if event.card not in turn.discard:
        raise IllegalEvent(f"{_label(turn, event.card)} is not in the discard pile")
    index = turn.discard.index(event.card)
    turn.discard = turn.discard[:index] + turn.discard[index + 1 :]
    wonder = turn.catalog.wonder(event.wonder)
    turn.extra_turn = complete_wonder(turn, wonder, event.card, turn.city.coins)


def _ra(turn: Turn, event: StealWonder) -> None:
    """Ra: one of the opponent's unbuilt wonders becomes the player's."""
    opponent = turn.opponent
    if event.wonder not in opponent.wonders_unbuilt:
        raise IllegalEvent(
            f"{_label(turn, event.wonder)} is not an unbuilt wonder of {turn.player.opponent}"
        )
    turn.opponent = evolve(
        opponent, wonders_unbuilt=tuple(w for w in opponent.wonders_unbuilt if w != event.wonder)
    )
    turn.city = evolve(turn.city, wonders_unbuilt=(*turn.city.wonders_unbuilt, event.wonder))


def _minerva(turn: Turn, event: PlaceMinerva) -> None:
    """Minerva: the Minerva pawn goes on a space of the track other than the conflict pawn's."""
    rules = rules_of(turn.catalog)
    capital = turn.catalog.track.capital
    most = capital if rules.minerva_on_capital else capital - 1
    if not -most <= event.position <= most:
        raise IllegalEvent(f"minerva: the track runs from {-most} to {most}")
    if event.position == turn.position and not rules.minerva_on_pawn:
        raise IllegalEvent("minerva: not on the conflict pawn's space")
    pantheon = turn.pantheon
    assert pantheon is not None
    turn.pantheon = evolve(pantheon, minerva=event.position)


def _neptune(turn: Turn, event: NeptuneLoot) -> None:
    """Neptune: discard a loot token unused, then apply another (none when none is left):
    the activating player's opponent loses its coins, whichever side it lay on."""
    if event.discarded not in turn.loot:
        raise IllegalEvent(f"neptune: no loot token lies at {event.discarded}")
    left = turn.loot - {event.discarded}
    if event.applied is None:
        if left:
            raise IllegalEvent("neptune: choose a loot token to apply")
        turn.loot = left
        return
    if event.applied not in left:
        raise IllegalEvent(f"neptune: no other loot token lies at {event.applied}")
    zone = turn.catalog.track.zone_at(abs(event.applied))
    assert zone is not None
    opponent = turn.opponent
    turn.opponent = with_coins(opponent, max(0, opponent.coins - zone.loot))
    turn.loot = left - {event.applied}


def _gate(turn: Turn, event: GateActivation) -> None:
    """The Gate: the top card of each Mythology deck is turned up; one is activated for
    free, the others go back on top of their decks."""
    pantheon = turn.pantheon
    assert pantheon is not None
    revealed: list[DivinityId | None] = [None] * len(MYTHOLOGIES)
    for divinity in event.revealed:
        deck = _deck_of(turn, divinity)
        if deck < 0 or revealed[deck] is not None:
            raise IllegalEvent(f"gate: {divinity!r} is not the top card of a deck")
        top = pantheon.tops[deck]
        if top is not None and top != divinity:
            raise IllegalEvent(f"gate: {turn.catalog.name(top)} lies on top of its deck")
        revealed[deck] = divinity
    for deck, cards in enumerate(pantheon.decks):
        if cards and revealed[deck] is None:
            raise IllegalEvent(f"gate: the top card of the {MYTHOLOGIES[deck]} deck is missing")
    if event.divinity not in event.revealed:
        raise IllegalEvent(f"gate: {event.divinity!r} was not revealed")
    tops = tuple(
        top if d is None else (None if d == event.divinity else d)
        for top, d in zip(pantheon.tops, revealed, strict=True)
    )
    turn.pantheon = evolve(pantheon, tops=tops)
    _activate_from_deck(turn, event.divinity)


def _theater(turn: Turn, event: TheaterActivation) -> None:
    """The Divine Theater: a divinity of one deck, looked at whole, is activated for free;
    the others go back in an order the engine does not know."""
    deck = _deck_of(turn, event.divinity)
    if deck < 0:
        raise IllegalEvent(f"theater: {event.divinity!r} is in no Mythology deck")
    pantheon = turn.pantheon
    assert pantheon is not None
    turn.pantheon = evolve(pantheon, tops=replaced(pantheon.tops, deck, None))
    _activate_from_deck(turn, event.divinity)


def _deck_of(turn: Turn, divinity: str) -> int:
    """The deck (index in `MYTHOLOGIES`) that holds `divinity`, -1 if none does."""
    pantheon = turn.pantheon
    assert pantheon is not None
    for index, cards in enumerate(pantheon.decks):
        if divinity in cards:
            return index
    return -1


def _activate_from_deck(turn: Turn, divinity: DivinityId) -> None:
    """Take `divinity` out of its deck, beside the player's city, and apply its effect."""
    pantheon = turn.pantheon
    assert pantheon is not None
    deck = _deck_of(turn, divinity)
    index = player_index(turn.player)
    decks = list(pantheon.decks)
    decks[deck] = tuple(d for d in decks[deck] if d != divinity)
    turn.pantheon = evolve(
        pantheon,
        decks=tuple(decks),
        activated=_pair(pantheon.activated, index, (*pantheon.activated[index], divinity)),
    )
    apply_divinity(turn, divinity)


def activations(state: GameState) -> list[Event]:
    """The activations the current player can pay for now, with each set of Offering tokens
    that changes the price (none, then more and more of them)."""
    pantheon = state.pantheon
    if pantheon is None or state.age < rules_of(state.catalog).first_age:
        return []
    player = state.current
    held = pantheon.offerings[player_index(player)]
    offers = sorted({c for n in range(len(held) + 1) for c in combinations(sorted(held), n)})
    found: list[Event] = []
    for space, card in enumerate(pantheon.spaces, start=1):
        if card is None:
            continue
        seen: set[int] = set()
        for offer in offers:
            price = activation_price(state, player, space, offer)
            if price in seen:
                continue
            seen.add(price)
            event = Activate(player, space, offer)
            try:
                activate(state, event)
            except IllegalEvent:
                continue
            found.append(event)
    return found


def pantheon_events(state: GameState, pending: Pending) -> list[Event]:
    """The events that answer a Pantheon decision (Enki and the Gate: each draw listed, as
    the Great Library's)."""
    player = pending.player
    catalog = state.catalog
    pantheon = state.pantheon
    assert pantheon is not None
    city, opponent = state.city(player), state.city(player.opponent)
    match pending.kind:
        case PendingKind.DIVINITY:
            return _placements(state, player)
        case PendingKind.ENKI:
            available = available_library_tokens(state)
            draws = combinations(available, min(ENKI_DRAW, len(available)))
            return [TakeEnkiToken(player, d, t) for d in draws for t in d]
        case PendingKind.SNAKE:
            return [PlaceSnake(player, c) for c in opponent.cards if catalog.card(c).science]
        case PendingKind.BAAL:
            steals = rules_of(catalog).divinity("baal").steals
            return [StealCard(player, c) for c in opponent.cards if catalog.card(c).color in steals]
        case PendingKind.HADES:
            return [HadesBuild(player, c) for c in dict.fromkeys(state.discard)]
        case PendingKind.ZEUS:
            structure = state.structure
            assert structure is not None
            return [
                DiscardFromStructure(player, i)
                for i, c in enumerate(structure.cards)
                if c is not None and c not in UNKNOWN
            ]
        case PendingKind.ANUBIS:
            built = city.wonders_built + opponent.wonders_built
            return [UnbuildWonder(player, w) for w in built]
        case PendingKind.ISIS:
            cards = dict.fromkeys(state.discard)
            return [IsisWonder(player, w, c) for w in city.wonders_unbuilt for c in cards]
        case PendingKind.RA:
            return [StealWonder(player, w) for w in opponent.wonders_unbuilt]
        case PendingKind.MINERVA:
            capital = catalog.track.capital
            return [
                PlaceMinerva(player, p) for p in range(-capital, capital + 1) if p != state.position
            ]
        case PendingKind.NEPTUNE:
            found: list[Event] = []
            for d in sorted(state.loot):
                others: list[int | None] = [*sorted(state.loot - {d})]
                found += [NeptuneLoot(player, d, a) for a in others or [None]]
            return found
        case PendingKind.GATE:
            options = [
                [top] if top is not None else list(cards)
                for top, cards in zip(pantheon.tops, pantheon.decks, strict=True)
                if cards
            ]
            return [
                GateActivation(player, tuple(revealed), d)
                for revealed in product(*options)
                for d in revealed
            ]
        case PendingKind.THEATER:
            return [TheaterActivation(player, d) for deck in pantheon.decks for d in deck]
    return []


def _placements(state: GameState, player: Player) -> list[Event]:
    """Every draw of the pending Mythology token's deck, divinity kept and empty space."""
    pantheon = state.pantheon
    assert pantheon is not None
    deck_index = MYTHOLOGIES.index(pantheon.to_place[0])
    deck = pantheon.decks[deck_index]
    top = pantheon.tops[deck_index]
    draws = [d for d in combinations(deck, min(2, len(deck))) if top is None or top in d]
    spaces = [n for n, card in enumerate(pantheon.spaces, start=1) if card is None]
    return [PlaceDivinity(player, d, kept, n) for d in draws for kept in d for n in spaces]
