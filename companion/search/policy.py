"""The heuristic policy: the moves of a turn, what each is worth at a glance, and the
evaluation of a position (wins within a turn chain are `forced.py`'s).

Rollouts follow these scores with a little noise instead of uniform random moves: build over
discard, complete science pairs, answer military pressure, take extra-turn wonders, resources
in age 1. A move that wins at once (6th science symbol, capital reached) scores above all.
"""

from __future__ import annotations

import math
import random
from enum import StrEnum

from companion.engine.cards import Card, CardId, Catalog, Color, Science, TokenId, Wonder
from companion.engine.decisions import decision_events
from companion.engine.events import (
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Destroy,
    Discard,
    Event,
    KeepLibraryToken,
    TakeEnkiToken,
    TakeProgress,
)
from companion.engine.pricing import affordable, cheapest_payment
from companion.engine.rules import accessible_cards, apply, available_library_tokens
from companion.engine.scoring import score_sheet
from companion.engine.state import (
    PANTHEON_DECISIONS,
    City,
    GameState,
    PendingKind,
    Player,
    Victory,
    opponent_of,
)

from .pantheon import pantheon_decisions, pantheon_moves, pantheon_score

__all__ = [
    "WIN",
    "Reason",
    "acting_player",
    "decisions",
    "decisive_move",
    "evaluate",
    "guarding_move",
    "library_draw",
    "light_event",
    "move_score",
    "moves",
    "near_win",
    "one_symbol_away",
    "policy_event",
    "reason",
    "redrawn_move",
    "science_wonder",
    "scored_moves",
    "scored_options",
    "shields_needed",
    "wins_with",
]

WIN = 100.0
"""The score of a move that wins at once: above every other consideration."""
BLOCK = 50.0
"""The score of taking the card the opponent would win with."""
NOISE = 1.5
"""Rollouts add a uniform 0..NOISE to each score, so that they explore near the heuristic."""
STRATEGY = TokenId("strategy")
LIBRARY_DRAW = 3


class Reason(StrEnum):
    """Why a move is good, in a few words (the coach shows them)."""

    WINS_SCIENCE = "sixth science symbol"
    WINS_MILITARY = "reaches the capital"
    BLOCKS_SCIENCE = "blocks a sixth symbol"
    BLOCKS_MILITARY = "blocks the capital"
    EXTRA_TURN = "extra turn"
    SCIENCE_PAIR = "science pair"
    NEW_SYMBOL = "new science symbol"
    SHIELDS = "answers the conflict"
    RESOURCES = "resources"
    CHAIN = "free through a chain"
    CHEAPEST_WONDER = "cheapest wonder"
    WONDER = "wonder"
    POINTS = "victory points"
    COINS = "coins"
    TOKEN = "progress token"
    DESTROY = "destroys production"
    STARTER = "who begins"
    DENIES = "takes a card from the opponent"
    LOSES = "lets the opponent win"


def acting_player(state: GameState) -> Player:
    """Who acts next: the player of the pending decision, else the current player."""
    pending = state.pending
    return pending.player if pending is not None else state.current


# --- The moves of a turn ---------------------------------------------------------------


def moves(state: GameState) -> list[Event]:
    """The legal actions of the current player in a dealt age (build when affordable,
    discard, each affordable wonder), without applying them (pricing only)."""
    player = state.current
    catalog = state.catalog
    city, opponent = state.city(player), state.city(opponent_of(player))
    wonders = [
        catalog.wonder(w)
        for w in city.wonders_unbuilt
        if affordable(catalog, city, opponent, catalog.wonder(w), city.coins)
    ]
    found: list[Event] = []
    for card_id in accessible_cards(state):
        card = catalog.card(card_id)
        if affordable(catalog, city, opponent, card, city.coins):
            found.append(Build(player, card_id))
        found.append(Discard(player, card_id))
        found += [BuildWonder(player, w.id, card_id) for w in wonders]
    if state.pantheon is not None:
        found += pantheon_moves(state)
    return found


def scored_moves(state: GameState) -> list[tuple[Event, float]]:
    """`moves(state)`, in the same order, each with its `move_score` (priced once per card
    and once per wonder: the rollouts' hot path)."""
    player = state.current
    catalog = state.catalog
    city, opponent = state.city(player), state.city(opponent_of(player))
    coins = city.coins
    wonders: list[tuple[Wonder, float, int]] = []
    for wonder_id in city.wonders_unbuilt:
        wonder = catalog.wonder(wonder_id)
        total = cheapest_payment(catalog, city, opponent, wonder).total
        if total <= coins:
            wonders.append((wonder, _wonder_value(state, player, wonder)[0], total))
    discard_base = -1.5 + 0.25 * (2 + city.count(Color.YELLOW)) + (1.0 if coins < 3 else 0.0)
    found: list[tuple[Event, float]] = []
    for card_id in accessible_cards(state):
        card = catalog.card(card_id)
        deny = _denial(state, player, card)[0]
        payment = cheapest_payment(catalog, city, opponent, card)
        if payment.total <= coins:
            value = _card_value(state, player, card)[0]
            if payment.chain:
                value += 0.5
            found.append((Build(player, card_id), value + deny - 0.25 * payment.total))
        found.append((Discard(player, card_id), discard_base + deny))
        for wonder, value, total in wonders:
            found.append((BuildWonder(player, wonder.id, card_id), value + deny - 0.2 * total))
    if state.pantheon is not None:
        found += [(e, pantheon_score(state, e) or 0.0) for e in pantheon_moves(state)]
    return found


def scored_options(state: GameState, rng: random.Random) -> list[tuple[Event, float]]:
    """The moves or answers legal now (a Great Library draw drawn from `rng`), each with
    its `move_score`."""
    if state.pending is None:
        return scored_moves(state)
    return [(event, move_score(state, event)[0]) for event in decisions(state, rng)]


def library_draw(state: GameState, rng: random.Random) -> tuple[TokenId, ...]:
    """A random Great Library draw: 3 of the tokens it may draw (fewer when fewer are left)."""
    tokens = sorted(available_library_tokens(state))
    return tuple(rng.sample(tokens, min(LIBRARY_DRAW, len(tokens))))


def decisions(state: GameState, rng: random.Random) -> list[Event]:
    """The answers to the pending decision (a Great Library draw is drawn from `rng`)."""
    pending = state.pending
    assert pending is not None
    if pending.kind is PendingKind.GREAT_LIBRARY:
        drawn = library_draw(state, rng)
        return [KeepLibraryToken(pending.player, drawn, t) for t in drawn]
    if pending.kind in PANTHEON_DECISIONS:
        return pantheon_decisions(state, pending, rng)
    return decision_events(state, pending)


# --- Scores at a glance ------------------------------------------------------------------


def move_score(state: GameState, event: Event) -> tuple[float, Reason | None]:
    """What `event` is worth to the player who acts, at a glance, and the main reason."""
    catalog = state.catalog
    player = acting_player(state)
    city, opponent = state.city(player), state.city(opponent_of(player))
    if state.pantheon is not None:
        pantheon = pantheon_score(state, event)
        if pantheon is not None:
            if pantheon < WIN:
                return pantheon, None
            science = apply(state, event).victory is Victory.SCIENCE
            return pantheon, Reason.WINS_SCIENCE if science else Reason.WINS_MILITARY
    match event:
        case Build():
            card = catalog.card(event.card)
            payment = cheapest_payment(catalog, city, opponent, card)
            value, why = _card_value(state, player, card)
            if payment.chain:
                value += 0.5
                why = why or Reason.CHAIN
            deny, deny_why = _denial(state, player, card)
            if deny > value:
                why = deny_why
            return value + deny - 0.25 * payment.total, why
        case Discard():
            card = catalog.card(event.card)
            deny, deny_why = _denial(state, player, card)
            gain = 2 + city.count(Color.YELLOW)
            poor = 1.0 if city.coins < 3 else 0.0
            return -1.5 + 0.25 * gain + poor + deny, deny_why or Reason.COINS
        case BuildWonder():
            wonder = catalog.wonder(event.wonder)
            payment = cheapest_payment(catalog, city, opponent, wonder)
            value, why = _wonder_value(state, player, wonder)
            deny, deny_why = _denial(state, player, catalog.card(event.card))
            if deny > value:
                why = deny_why
            return value + deny - 0.2 * payment.total, why
        case TakeProgress():
            return _token_value(state, player, event.token), Reason.TOKEN
        case KeepLibraryToken() | TakeEnkiToken():
            return _token_value(state, player, event.token), Reason.TOKEN
        case Destroy():
            card = catalog.card(event.card)
            return float(sum(card.produces)) + len(card.produces_one_of), Reason.DESTROY
        case BuildFromDiscard():
            value, why = _card_value(state, player, catalog.card(event.card))
            return value, why
        case ChooseStarter():
            return (0.5 if event.starter is player else 0.0), Reason.STARTER
    return 0.0, None


def shields_needed(state: GameState, player: Player) -> int:
    """Shields `player` still needs to reach the opponent's capital."""
    sign = 1 if player is Player.P1 else -1
    return state.catalog.track.capital - sign * state.position


def one_symbol_away(state: GameState, city: City) -> bool:
    """Whether one more different science symbol gives `city` science supremacy."""
    return len(city.symbols) + 1 >= state.catalog.rules.science_supremacy


def _card_value(state: GameState, player: Player, card: Card) -> tuple[float, Reason | None]:
    """The worth of building `card` for `player`, ignoring its price."""
    city = state.city(player)
    age = state.age
    value = 1.0 + 0.8 * card.points
    why: Reason | None = Reason.POINTS if card.points >= 3 else None
    if card.science is not None:
        if card.science in city.symbols:
            if state.board_tokens:
                value += 3.0
                why = Reason.SCIENCE_PAIR
        else:
            if one_symbol_away(state, city):
                return WIN, Reason.WINS_SCIENCE
            value += 2.0 + 0.6 * len(city.symbols)
            why = Reason.NEW_SYMBOL
    if card.shields:
        shields = card.shields + (1 if STRATEGY in city.tokens and card.color is Color.RED else 0)
        needed = shields_needed(state, player)
        if shields >= needed:
            return WIN, Reason.WINS_MILITARY
        behind = max(0, 9 - needed)  # 9 - needed < 0: the pawn is on our side
        pressure = max(0, needed - 9)
        value += shields * (1.0 + 0.5 * pressure + 0.1 * behind)
        if pressure or shields >= 2:
            why = why or Reason.SHIELDS
    production = sum(card.produces) + len(card.produces_one_of)
    if production and age < 3:
        value += production * (1.8 if age == 1 else 1.0)
        why = why or Reason.RESOURCES
    if card.fixed_price:
        value += 1.0 if age < 3 else 0.3
    if card.coins:
        value += 0.25 * card.coins
    if card.chain_symbol is not None and age < 3:
        value += 0.6
    if card.guild is not None:
        value += 2.5
        why = why or Reason.POINTS
    return value, why


def _denial(state: GameState, player: Player, card: Card) -> tuple[float, Reason | None]:
    """The worth of keeping `card` from the opponent: their 6th symbol or their capital."""
    opponent = state.city(opponent_of(player))
    new_symbol = card.science is not None and card.science not in opponent.symbols
    if new_symbol and one_symbol_away(state, opponent):
        return BLOCK, Reason.BLOCKS_SCIENCE
    if card.shields:
        shields = card.shields + (1 if STRATEGY in opponent.tokens else 0)
        if shields >= shields_needed(state, opponent_of(player)):
            return BLOCK, Reason.BLOCKS_MILITARY
    if card.science is not None and card.science in opponent.symbols and state.board_tokens:
        return 0.8, Reason.DENIES
    return 0.0, None


def _wonder_value(state: GameState, player: Player, wonder: Wonder) -> tuple[float, Reason]:
    """The worth of building `wonder` for `player`, ignoring its price."""
    city, opponent = state.city(player), state.city(opponent_of(player))
    value = 1.5 + 0.8 * wonder.points + 0.25 * wonder.coins + 0.15 * wonder.opponent_loses
    why = Reason.WONDER
    if wonder.shields:
        if wonder.shields >= shields_needed(state, player):
            return WIN, Reason.WINS_MILITARY
        value += 1.2 * wonder.shields
    if wonder.extra_turn or "theology" in city.tokens:
        value += 2.5
        why = Reason.EXTRA_TURN
    if wonder.destroys is not None and opponent.count(wonder.destroys):
        value += 1.2
    if wonder.produces_one_of and state.age < 3:
        value += 1.5
    if wonder.builds_from_discard and state.discard:
        value += 1.5
    if wonder.draws_tokens:
        value += 2.0
    return value, why


def _token_value(state: GameState, player: Player, token_id: TokenId) -> float:
    """The worth of a progress token for `player`."""
    token = state.catalog.token(token_id)
    city = state.city(player)
    value = 0.8 * token.points + 0.3 * token.coins
    if token.science is not None:
        if one_symbol_away(state, city):
            return WIN
        value += 3.0 + 0.6 * len(city.symbols)
    value += 0.8 * token.points_per_token * (len(city.tokens) + 1)
    later = 3 - state.age
    value += 0.6 * token.waives_on_wonders * len(city.wonders_unbuilt) / 2
    value += 0.8 * token.waives_on_blue * later
    value += 1.2 * token.extra_shields_on_red * (later + 1)
    value += 0.5 * token.coins_per_chain * (later + 0.5)
    value += 1.5 if token.receives_trade else 0.0
    value += 0.8 * len(city.wonders_unbuilt) if token.wonders_extra_turn else 0.0
    return value


def reason(state: GameState, event: Event) -> Reason | None:
    """The main reason for `event` (None when nothing stands out)."""
    return move_score(state, event)[1]


# --- Rollout policy and evaluation -------------------------------------------------------


def policy_event(state: GameState, rng: random.Random) -> Event | None:
    """The rollout's next event: the best score after a little noise (a win always); None
    when the engine does not know the table (no deal: no card to choose from).

    Each legal option's `move_score` gets its own `rng.random() * NOISE`, the best wins. On a
    turn this builds one event (the choice's) and prices a card or wonder only when its best
    possible score could win, which chooses as scoring every option first would (the
    rollouts' hot path)."""
    if state.pending is not None:
        options = scored_options(state, rng)
        if not options:
            return None
        best: Event = options[0][0]
        best_score = -math.inf
        for event, score in options:
            noisy = score + rng.random() * NOISE
            if noisy > best_score:
                best, best_score = event, noisy
        return best
    player = state.current
    catalog = state.catalog
    city, opponent = state.city(player), state.city(opponent_of(player))
    coins = city.coins
    wonders = [catalog.wonder(w) for w in city.wonders_unbuilt]
    wonder_values = [_wonder_value(state, player, w)[0] for w in wonders]
    wonder_totals: list[int | None] = [None] * len(wonders)  # priced when first needed
    discard_base = -1.5 + 0.25 * (2 + city.count(Color.YELLOW)) + (1.0 if coins < 3 else 0.0)
    draw = rng.random
    top = -math.inf
    chosen: CardId | None = None
    action = _DISCARD
    chosen_wonder = 0
    for card_id in accessible_cards(state):
        card = catalog.card(card_id)
        deny = _denial(state, player, card)[0]
        noise = draw() * NOISE
        value = _card_value(state, player, card)[0]
        if value + 0.5 + deny + noise > top:  # a build's best: free through a chain
            payment = cheapest_payment(catalog, city, opponent, card)
            if payment.total <= coins:
                if payment.chain:
                    value += 0.5
                noisy = value + deny - 0.25 * payment.total + noise
                if noisy > top:
                    top, chosen, action = noisy, card_id, _BUILD
        noisy = discard_base + deny + draw() * NOISE
        if noisy > top:
            top, chosen, action = noisy, card_id, _DISCARD
        for index, value in enumerate(wonder_values):
            noise = draw() * NOISE
            if value + deny + noise <= top:  # no better even for free
                continue
            total = wonder_totals[index]
            if total is None:
                total = cheapest_payment(catalog, city, opponent, wonders[index]).total
                wonder_totals[index] = total
            if total <= coins:
                noisy = value + deny - 0.2 * total + noise
                if noisy > top:
                    top, chosen, action, chosen_wonder = noisy, card_id, _WONDER, index
    if chosen is None:
        return None
    if action == _BUILD:
        return Build(player, chosen)
    if action == _WONDER:
        return BuildWonder(player, wonders[chosen_wonder].id, chosen)
    return Discard(player, chosen)


_BUILD, _DISCARD, _WONDER = 0, 1, 2
"""The kinds of a turn's move in `policy_event`."""


WONDER_SHARE = 0.5
BUILD_SHARE = 0.85
"""A light playout's turn: a wonder below WONDER_SHARE of a uniform draw, a build below
BUILD_SHARE, else a discard (a wonder or a build it cannot afford falls to the next)."""
SCIENCE_MINDED = 0.5
"""How often a player of a light playout goes for science (builds a green card it can)."""
ECONOMY_AGE = 1
"""The age in which a light playout's player first builds production or trade it can afford."""


def light_event(
    state: GameState,
    rng: random.Random,
    science: tuple[bool, bool],
    redraw: bool = False,
    decisive: bool = False,
    guard: bool = False,
    military: tuple[bool, bool] = (False, False),
    plain: bool = False,
) -> Event:
    """A light playout's next event: cheap and random, but with a plan. A decision: Law
    for a science-minded player, else a random answer, and who begins the next age is the
    chooser; the Mausoleum's card is a green one for a science-minded player. A turn: a
    science-minded player (`science[0]` for p1) builds a green card it can afford, else a
    wonder that leads to one (`science_wonder`); in age 1 a player builds a brown, grey or
    yellow card it can afford; else a random accessible card goes to a random affordable
    wonder, a build or the discard pile (WONDER_SHARE, BUILD_SHARE). With `redraw`, a
    build it cannot afford is drawn again instead of discarded (`_last_move`).

    With `decisive`, before all that, a player who can win at once does (`decisive_move`);
    with `guard`, a player whose opponent could win at once with an accessible card takes
    that card away (`guarding_move`). A military-minded player (`military[0]` for p1)
    takes Strategy when offered a token and builds a red card it can afford before anything
    but a win or a guard. With `plain`, age 1 has no plan either (no brown, grey or yellow
    card first)."""
    pending = state.pending
    if pending is not None:
        actor = pending.player
        if pending.kind is PendingKind.NEXT_AGE:
            return ChooseStarter(actor, actor)
        options = decisions(state, rng)
        if decisive:
            for option in options:
                if _wins_with_option(state, actor, option):
                    return option
        if military[0 if actor is Player.P1 else 1]:
            for option in options:
                if getattr(option, "token", None) == STRATEGY:
                    return option
        if science[0 if actor is Player.P1 else 1]:
            catalog = state.catalog
            for option in options:
                if getattr(option, "token", None) == LAW:
                    return option
                if (
                    isinstance(option, BuildFromDiscard)
                    and catalog.card(option.card).color is Color.GREEN
                ):
                    return option
        return options[int(rng.random() * len(options))]
    player = state.current
    catalog = state.catalog
    city, opponent = state.city(player), state.city(opponent_of(player))
    cards = accessible_cards(state)
    if decisive:
        winning = decisive_move(state, cards)
        if winning is not None:
            return winning
    if guard:
        guarding = guarding_move(state, cards, rng)
        if guarding is not None:
            return guarding
    if military[0 if player is Player.P1 else 1]:
        start = int(rng.random() * len(cards))
        build = _build_of(catalog, player, city, opponent, cards, start, _RED)
        if build is not None:
            return build
    scientist = science[0 if player is Player.P1 else 1]
    if scientist or (state.age == ECONOMY_AGE and not plain):
        start = int(rng.random() * len(cards))
        build = _build_of(
            catalog, player, city, opponent, cards, start, _GREEN if scientist else _ECONOMY
        )
        if build is not None:
            return build
        if scientist and city.wonders_unbuilt:
            combo = science_wonder(state, cards[start])
            if combo is not None:
                return combo
    return _last_move(catalog, player, city, opponent, cards, rng, redraw)


MOST_SHIELDS = 4
"""The most shields one card or wonder gives (an age-3 red card's 3 plus Strategy's 1): a
player further from the capital cannot win by military in one move."""


def near_win(state: GameState, player: Player, city: City) -> bool:
    """Whether one card could win for `player` (`city` its city): its pawn within
    MOST_SHIELDS of the capital, or a 6th different symbol one away."""
    return shields_needed(state, player) <= MOST_SHIELDS or one_symbol_away(state, city)


def wins_with(state: GameState, player: Player, city: City, card: Card) -> bool:
    """Whether building `card` wins at once for `player` (`city` its city), price aside: its
    shields reach the capital, or its symbol is the 6th different one, or it makes a pair
    while Law is on the board and Law would be the 6th."""
    if card.shields:
        shields = card.shields + (1 if STRATEGY in city.tokens else 0)
        return shields >= shields_needed(state, player)
    symbol = card.science
    if symbol is None or not one_symbol_away(state, city):
        return False
    return symbol not in city.symbols or LAW in state.board_tokens


def _wins_with_option(state: GameState, player: Player, option: Event) -> bool:
    """Whether a decision's answer wins at once: Law as the 6th different symbol (a pair's
    token, the Great Library's), or a card from the discard pile (the Mausoleum) that
    `wins_with`."""
    city = state.city(player)
    if getattr(option, "token", None) == LAW:
        return one_symbol_away(state, city)
    if isinstance(option, BuildFromDiscard):
        return wins_with(state, player, city, state.catalog.card(option.card))
    return False


def decisive_move(state: GameState, cards: tuple[CardId, ...]) -> Event | None:
    """A move that wins at once for the player whose turn it is, if it has one it can pay
    for: an accessible card that `wins_with`, else a wonder whose shields reach the capital
    (built with the first accessible card). None otherwise; cheap when the player is not
    `near_win`."""
    player = state.current
    city = state.city(player)
    if not near_win(state, player, city):
        return None
    catalog = state.catalog
    opponent = state.city(opponent_of(player))
    coins = city.coins
    for card_id in cards:
        card = catalog.card(card_id)
        if wins_with(state, player, city, card) and _affordable(
            catalog, city, opponent, card, coins
        ):
            return Build(player, card_id)
    needed = shields_needed(state, player)
    for wonder_id in city.wonders_unbuilt:
        wonder = catalog.wonder(wonder_id)
        if wonder.shields >= needed and _affordable(catalog, city, opponent, wonder, coins):
            return BuildWonder(player, wonder_id, cards[0])
    return None


def guarding_move(state: GameState, cards: tuple[CardId, ...], rng: random.Random) -> Event | None:
    """When the opponent could win at once on its next turn with an accessible card it can
    pay for now (`wins_with`), the player whose turn it is takes that card (one at random
    when there are several): builds it if it can, else puts it under a random wonder it can
    pay for, else discards it. None when there is no such card; cheap when the opponent is
    not `near_win`."""
    player = state.current
    other = opponent_of(player)
    rival = state.city(other)
    if not near_win(state, other, rival):
        return None
    catalog = state.catalog
    city = state.city(player)
    threats = [
        card
        for card in (catalog.card(c) for c in cards)
        if wins_with(state, other, rival, card)
        and _affordable(catalog, rival, city, card, rival.coins)
    ]
    if not threats:
        return None
    card = threats[int(rng.random() * len(threats))]
    coins = city.coins
    if _affordable(catalog, city, rival, card, coins):
        return Build(player, card.id)
    wonders = [
        w
        for w in city.wonders_unbuilt
        if _affordable(catalog, city, rival, catalog.wonder(w), coins)
    ]
    if wonders:
        return BuildWonder(player, wonders[int(rng.random() * len(wonders))], card.id)
    return Discard(player, card.id)


def redrawn_move(state: GameState, cards: tuple[CardId, ...], rng: random.Random) -> Event:
    """`light_event`'s last move with `redraw`, for the player whose turn it is
    (`_last_move`)."""
    player = state.current
    city, opponent = state.city(player), state.city(opponent_of(player))
    return _last_move(state.catalog, player, city, opponent, cards, rng, True)


def _last_move(
    catalog: Catalog, player: Player, city: City, opponent: City,
    cards: tuple[CardId, ...], rng: random.Random, redraw: bool,
) -> Event:  # fmt: skip
    """`light_event`'s last move: a random accessible card among `cards`, then a wonder below
    WONDER_SHARE of a uniform draw (one it cannot afford falls to the build), a build below
    BUILD_SHARE, else a discard. A build it cannot afford goes to the discard pile, or with
    `redraw` is drawn again, card and roll: a card is then discarded by choice only, not for
    want of coins."""
    coins = city.coins
    unbuilt = city.wonders_unbuilt
    while True:
        card = catalog.card(cards[int(rng.random() * len(cards))])
        roll = rng.random()
        if roll < WONDER_SHARE and unbuilt:
            wonder = catalog.wonder(unbuilt[int(rng.random() * len(unbuilt))])
            if _affordable(catalog, city, opponent, wonder, coins):
                return BuildWonder(player, wonder.id, card.id)
        if roll < BUILD_SHARE and _affordable(catalog, city, opponent, card, coins):
            return Build(player, card.id)
        if roll >= BUILD_SHARE or not redraw:
            return Discard(player, card.id)


def science_wonder(state: GameState, tucked: CardId) -> BuildWonder | None:
    """A science-minded light playout's wonder, when no green card can be built now: a wonder
    that gives another turn (or any wonder with Theology), affordable, built with a card
    whose taking uncovers a green card the player can still afford once the wonder is paid
    (the extra turn takes it); else the Mausoleum, affordable, while a green card lies in
    the discard pile (built with `tucked`). None when neither is there."""
    structure = state.structure
    if structure is None:
        return None
    player = state.current
    catalog = state.catalog
    city, opponent = state.city(player), state.city(opponent_of(player))
    coins = city.coins
    theology = THEOLOGY in city.tokens
    # The greens a taking would uncover (with the card taken), before any wonder is priced.
    positions = catalog.layout(structure.age).positions
    dealt, gone, covering = structure.dealt, structure.gone, structure.covering
    uncovered: list[tuple[CardId, Card]] = []
    open_ = structure.open
    index = 0
    while open_:
        if open_ & 1:
            taken = gone | 1 << index
            for below in positions[index].covers:
                freed = dealt[below]
                if covering[below] & ~taken or freed is None or not catalog.is_card(freed):
                    continue
                green = catalog.card(freed)
                card = dealt[index]
                if green.color is Color.GREEN and card is not None:
                    uncovered.append((card, green))
        open_ >>= 1
        index += 1
    for wonder_id in city.wonders_unbuilt:
        wonder = catalog.wonder(wonder_id)
        if wonder.builds_from_discard:
            if any(catalog.card(c).color is Color.GREEN for c in state.discard) and _affordable(
                catalog, city, opponent, wonder, coins
            ):
                return BuildWonder(player, wonder_id, tucked)
            continue
        if not uncovered or not (wonder.extra_turn or theology):
            continue
        left = coins - cheapest_payment(catalog, city, opponent, wonder).total
        if left < 0:
            continue
        for card, green in uncovered:
            if _affordable(catalog, city, opponent, green, left):
                return BuildWonder(player, wonder_id, card)
    return None


def _affordable(
    catalog: Catalog, city: City, opponent: City, item: Card | Wonder, coins: int
) -> bool:
    """Whether `city` can pay for `item` now."""
    return affordable(catalog, city, opponent, item, coins)


def _build_of(
    catalog: Catalog, player: Player, city: City, opponent: City,
    cards: tuple[CardId, ...], start: int, colours: frozenset[Color],
) -> Build | None:  # fmt: skip
    """The build of the first card among `cards` (from `start` on, round) of `colours` that
    `city` can pay for now; None if there is none."""
    coins = city.coins
    for offset in range(len(cards)):
        card = catalog.card(cards[(start + offset) % len(cards)])
        if card.color in colours and _affordable(catalog, city, opponent, card, coins):
            return Build(player, card.id)
    return None


_RED = frozenset({Color.RED})
_GREEN = frozenset({Color.GREEN})
_ECONOMY = frozenset({Color.BROWN, Color.GREY, Color.YELLOW})
LAW = TokenId("law")
THEOLOGY = TokenId("theology")


SCALE = 7.0
"""VP difference worth a 73 % chance (logistic): the spread of a game's outcome."""


def evaluate(state: GameState, player: Player) -> float:
    """The chance that `player` wins, estimated from the position (1, 0.5 or 0 when over):
    the score difference, with pressure toward a military or science supremacy."""
    if state.finished:
        if state.shared:
            return 0.5
        return 1.0 if state.winner is player else 0.0
    sheet = score_sheet(state)
    mine, theirs = state.city(player), state.city(opponent_of(player))
    diff = float(sheet.of(player).total - sheet.of(opponent_of(player)).total)
    sign = 1 if player is Player.P1 else -1
    diff += 0.7 * sign * state.position
    diff += _science_pressure(mine) - _science_pressure(theirs)
    diff += _assets(mine, state.age) - _assets(theirs, state.age)
    return 1.0 / (1.0 + math.exp(-diff / SCALE))


_PRODUCTION_WORTH = (0.0, 2.5, 1.5, 0.3)
"""VP-like worth of a unit of production (or a choice producer) in ages 1, 2, 3: what it
saves on the cards still to come."""


def _assets(city: City, age: int) -> float:
    """VP-like worth of what scores nothing yet: production, chains, wonders to come."""
    worth = _PRODUCTION_WORTH[age] * (sum(city.produces) + len(city.choices))
    if age < 3:
        worth += 0.5 * len(city.chain_symbols)
    return worth + 0.05 * city.coins


def _science_pressure(city: City) -> float:
    """VP-like worth of the science symbols held, growing toward supremacy."""
    count = len(city.symbols - {Science.LAW}) + (Science.LAW in city.symbols)
    return (0.0, 0.0, 1.0, 2.5, 5.0, 9.0, 14.0)[min(count, 6)]
