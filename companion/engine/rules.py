"""The rules: `apply(state, event)` returns the next state or refuses the event.

One rules code serves two ways of knowing the table. With a `deal` event for the current
age the engine knows the structure and enforces which cards are accessible; without one
(table mode, the device), a card is accepted when it belongs to the current age and has not
been taken before, and the age ends after 20 cards. Refusals raise `IllegalEvent` with a
one-line message and change nothing (states are immutable).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import (
    NO_RESOURCES,
    Card,
    CardId,
    Catalog,
    Color,
    Layout,
    Rules,
    TokenId,
    Wonder,
    WonderId,
)
from .events import (
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Deal,
    Destroy,
    Discard,
    Event,
    IllegalEvent,
    KeepLibraryToken,
    Setup,
    TakeProgress,
)
from .military import initial_loot, move_pawn, weaker_side
from .pricing import cheapest_payment
from .science import has_supremacy, makes_pair
from .scoring import count_in, score_sheet
from .state import (
    COLOR_INDEX,
    City,
    GameState,
    Pending,
    PendingKind,
    Phase,
    Player,
    Structure,
    Victory,
    constructor,
    evolve,
)

__all__ = [
    "IllegalEvent",
    "accessible_cards",
    "apply",
    "available_library_tokens",
    "check_draft",
    "city_of",
    "draft_pickers",
    "is_accessible",
    "is_face_up",
    "legal_events",
    "new_game",
    "was_taken",
]

_make_state = constructor(GameState)
_make_city = constructor(City)
_make_structure = constructor(Structure)

CARDS_PER_AGE = 20
DISCARD_COINS = 2
URBANISM_COINS = 4
STRATEGY_SHIELDS = 1
MAUSOLEUM = WonderId("the_mausoleum")
GREAT_LIBRARY = WonderId("the_great_library")
LIBRARY_DRAW = 3
STRATEGY = TokenId("strategy")
THEOLOGY = TokenId("theology")
URBANISM = TokenId("urbanism")

_BROWN = COLOR_INDEX[Color.BROWN]
_GREY = COLOR_INDEX[Color.GREY]
_YELLOW = COLOR_INDEX[Color.YELLOW]


def new_game(catalog: Catalog) -> GameState:
    """The state before the setup event: the next event must be `setup`."""
    return GameState(catalog=catalog)


def apply(state: GameState, event: Event) -> GameState:
    """Return the state after `event`; raise IllegalEvent and change nothing if refused.

    Raises:
        IllegalEvent: the event is not legal now (wrong player, unknown or unavailable id,
            unaffordable, out of order with a pending decision, game over...).
    """
    if state.phase is not Phase.PLAYING:
        if state.phase is Phase.FINISHED:
            raise IllegalEvent("The game is over")
        if isinstance(event, Setup):
            return _setup(state, event)
        raise IllegalEvent("The game is not set up yet: the first event must be setup")
    if isinstance(event, Setup):
        raise IllegalEvent("The game is already set up")
    pending = state.pending
    if pending is not None:
        return _answer(state, pending, event)
    match event:
        case Build():
            return _build(state, event)
        case Discard():
            return _discard(state, event)
        case BuildWonder():
            return _build_wonder(state, event)
        case Deal():
            return _deal(state, event)
        case _:
            raise IllegalEvent(f"No {event.type} decision is pending")


# --- Setup and deal --------------------------------------------------------------------


def _setup(state: GameState, event: Setup) -> GameState:
    """Set the first player, the board's tokens, 4 wonders each and 7 coins each."""
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
    cities = (
        City(coins=rules.starting_coins, wonders_unbuilt=event.wonders[0]),
        City(coins=rules.starting_coins, wonders_unbuilt=event.wonders[1]),
    )
    return evolve(
        state,
        phase=Phase.PLAYING,
        age=1,
        current=event.first_player,
        cities=cities,
        names=event.players,
        loot=initial_loot(catalog.track),
        board_tokens=tokens,
    )


def _deal(state: GameState, event: Deal) -> GameState:
    """Record the structure of the current age, before its first card is taken."""
    if event.age != state.age:
        raise IllegalEvent(f"deal: this is age {state.age}, not age {event.age}")
    if state.structure is not None:
        raise IllegalEvent(f"deal: age {state.age} is already dealt")
    if state.taken:
        raise IllegalEvent(f"deal: cards of age {state.age} have already been taken")
    catalog = state.catalog
    guilds = 0
    for card_id in event.layout:
        try:
            card = catalog.card(card_id)
        except KeyError:
            raise IllegalEvent(f"deal: unknown card {card_id!r}") from None
        if card.age != event.age:
            raise IllegalEvent(f"deal: {card_id!r} is not an age {event.age} card")
        guilds += card.color is Color.PURPLE
    if len(set(event.layout)) != CARDS_PER_AGE or len(event.layout) != CARDS_PER_AGE:
        raise IllegalEvent(f"deal: {CARDS_PER_AGE} different cards needed")
    if event.age == 3 and guilds != catalog.rules.guilds_in_age_3:  # 17 + 3 guilds
        raise IllegalEvent(f"deal: age 3 has {catalog.rules.guilds_in_age_3} guilds, not {guilds}")
    covered_by, accessible = _layout_tables(catalog.layout(event.age))
    return evolve(state, structure=Structure(event.age, event.layout, covered_by, accessible))


def _layout_tables(layout: Layout) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """What covers each position of `layout`, and the positions open at the start (worked
    out once per layout: a deal is on every simulated game's path)."""
    found = _LAYOUT_TABLES.get(id(layout))
    if found is None or found[0] is not layout:
        covered_by = tuple(p.covered_by for p in layout.positions)
        found = (layout, covered_by, tuple(sorted(layout.initially_accessible())))
        _LAYOUT_TABLES[id(layout)] = found
    return found[1], found[2]


_LAYOUT_TABLES: dict[int, tuple[Layout, tuple[tuple[int, ...], ...], tuple[int, ...]]] = {}
"""Layout tables by id of the layout, which each entry holds (so an id is never reused)."""


# --- Draft -----------------------------------------------------------------------------


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


# --- Taking a card from the structure ------------------------------------------------------


def is_accessible(state: GameState, index: int) -> bool:
    """Whether the card at layout position `index` is still there and uncovered."""
    structure = state.structure
    if structure is None or structure.cards[index] is None:
        return False
    cards = structure.cards
    position = state.catalog.layout(structure.age).positions[index]
    return all(cards[i] is None for i in position.covered_by)


def is_face_up(state: GameState, index: int) -> bool:
    """Whether the card at `index` shows its face: dealt face up, or uncovered since (a
    face-down card is turned over as soon as the action that freed it is done)."""
    structure = state.structure
    if structure is None:
        return False
    position = state.catalog.layout(structure.age).positions[index]
    return position.face_up or all(structure.cards[i] is None for i in position.covered_by)


def accessible_cards(state: GameState) -> tuple[CardId, ...]:
    """The cards that may be taken now in a dealt age, in layout order (empty in table
    mode, where the engine does not know the table)."""
    structure = state.structure
    if structure is None:
        return ()
    cards = structure.cards
    found: list[CardId] = []
    for index in _accessible(structure):
        card = cards[index]
        if card is not None:
            found.append(card)
    return tuple(found)


def _accessible(structure: Structure) -> tuple[int, ...]:
    """The positions whose card may be taken now (kept in the structure, else worked out)."""
    if structure.accessible is not None:
        return structure.accessible
    cards = structure.cards
    return tuple(
        index
        for index, covers in enumerate(structure.covered_by)
        if cards[index] is not None and all(cards[above] is None for above in covers)
    )


def was_taken(state: GameState, card_id: CardId) -> bool:
    """Whether `card_id` has been taken from a structure (it is in a city, under a wonder
    or in the discard pile)."""
    one, two = state.cities
    return (
        card_id in one.cards
        or card_id in two.cards
        or card_id in state.discard
        or card_id in one.tucked
        or card_id in two.tucked
    )


class _Turn:
    """The parts of the state that an event changes, gathered in a mutable working copy so
    that the new state is built once, at the end (copying a `GameState` is the engine's
    main cost)."""

    __slots__ = (
        "age",
        "base",
        "board_tokens",
        "boxed_tokens",
        "boxed_wonders",
        "cities",
        "current",
        "discard",
        "loot",
        "pending",
        "phase",
        "player",
        "position",
        "shared",
        "structure",
        "taken",
        "victory",
        "winner",
    )  # fmt: skip

    def __init__(self, state: GameState, player: Player) -> None:
        self.base = state
        self.player = player
        self.cities = list(state.cities)
        self.position = state.position
        self.loot = state.loot
        self.structure = state.structure
        self.taken = state.taken
        self.discard = state.discard
        self.board_tokens = state.board_tokens
        self.boxed_tokens = state.boxed_tokens
        self.boxed_wonders = state.boxed_wonders
        self.pending: Pending | None = state.pending
        self.current = state.current
        self.age = state.age
        self.phase = state.phase
        self.winner = state.winner
        self.shared = state.shared
        self.victory = state.victory

    @property
    def catalog(self) -> Catalog:
        return self.base.catalog

    @property
    def city(self) -> City:
        """The acting player's city."""
        return self.cities[0 if self.player is Player.P1 else 1]

    @city.setter
    def city(self, city: City) -> None:
        self.cities[0 if self.player is Player.P1 else 1] = city

    @property
    def opponent(self) -> City:
        """The other player's city."""
        return self.cities[1 if self.player is Player.P1 else 0]

    @opponent.setter
    def opponent(self, city: City) -> None:
        self.cities[1 if self.player is Player.P1 else 0] = city

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def state(self) -> GameState:
        """The new state."""
        base = self.base
        return _make_state(  # every field, in declaration order
            base.catalog,
            self.phase,
            self.age,
            self.current,
            (self.cities[0], self.cities[1]),
            base.names,
            self.position,
            self.loot,
            self.board_tokens,
            self.boxed_tokens,
            self.boxed_wonders,
            self.structure,
            self.taken,
            self.discard,
            self.pending,
            self.winner,
            self.shared,
            self.victory,
        )


def _take(state: GameState, player: Player, card_id: CardId) -> tuple[_Turn, Card]:
    """Check that `player` may take `card_id` now; return the turn without it and the card."""
    if player is not state.current:
        raise IllegalEvent(f"It is {state.current}'s turn, not {player}'s")
    catalog = state.catalog
    if not catalog.is_card(card_id):
        raise IllegalEvent(f"Unknown card {card_id!r}")
    card = catalog.card(card_id)
    if card.age != state.age:
        raise IllegalEvent(
            f"{catalog.name(card_id)} is an age {card.age} card, not age {state.age}"
        )
    structure = state.structure
    if structure is not None:
        cards = structure.cards
        try:
            index = cards.index(card_id)
        except ValueError:
            if was_taken(state, card_id):
                raise IllegalEvent(f"{catalog.name(card_id)} has already been taken") from None
            raise IllegalEvent(
                f"{catalog.name(card_id)} is not in the age {state.age} structure"
            ) from None
        accessible = _accessible(structure)
        if index not in accessible:
            raise IllegalEvent(f"{catalog.name(card_id)} is covered")
        structure = _without(structure, index, accessible, catalog)
    else:
        if was_taken(state, card_id):
            raise IllegalEvent(f"{catalog.name(card_id)} has already been taken")
        if card.age == 3:
            _check_age_3_mix(state, card)
    turn = _Turn(state, player)
    turn.structure = structure
    turn.taken += 1
    return turn, card


def _without(
    structure: Structure, index: int, accessible: tuple[int, ...], catalog: Catalog
) -> Structure:
    """The structure once the card at `index` is taken: the cards it covered are freed
    when nothing else covers them."""
    cards = list(structure.cards)
    cards[index] = None
    covered_by = structure.covered_by
    now = list(accessible)
    now.remove(index)
    for below in catalog.layout(structure.age).positions[index].covers:
        for above in covered_by[below]:
            if cards[above] is not None:
                break
        else:
            now.append(below)
    now.sort()
    return _make_structure(structure.age, tuple(cards), covered_by, tuple(now))


def _check_age_3_mix(state: GameState, card: Card) -> None:
    """Age 3 lays out 17 age cards and 3 guilds: refuse a 4th guild or an 18th other card
    (table mode, where no deal says which cards are out)."""
    catalog = state.catalog
    guilds_in_age = catalog.rules.guilds_in_age_3
    guilds, others = _age_3_seen(state)
    if card.is_guild and guilds >= guilds_in_age:
        raise IllegalEvent(
            f"Age 3 has only {guilds_in_age} guilds: {catalog.name(card.id)} cannot be a 4th"
        )
    most = CARDS_PER_AGE - guilds_in_age
    if not card.is_guild and others >= most:
        raise IllegalEvent(
            f"Age 3 has only {most} cards besides the guilds: {catalog.name(card.id)} "
            f"cannot be an {most + 1}th"
        )


def _age_3_seen(state: GameState) -> tuple[int, int]:
    """Guilds and other age 3 cards taken so far (in cities, under wonders, discarded)."""
    one, two = state.cities
    catalog = state.catalog
    guilds = others = 0
    for card_id in (*one.cards, *two.cards, *one.tucked, *two.tucked, *state.discard):
        card = catalog.card(card_id)
        if card.is_guild:
            guilds += 1
        elif card.age == 3:
            others += 1
    return guilds, others


# --- The three actions -----------------------------------------------------------------


def _build(state: GameState, event: Build) -> GameState:
    """Construct the building: pay its cheapest price (free through a chain, Urbanism +4)."""
    turn, card = _take(state, event.player, event.card)
    player = event.player
    city, opponent = turn.city, turn.opponent
    payment = cheapest_payment(state.catalog, city, opponent, card)
    if payment.total > city.coins:
        raise IllegalEvent(
            f"{state.catalog.name(card.id)} costs {payment.total} coins, {player} has {city.coins}"
        )
    coins = city.coins - payment.total
    if payment.chain and URBANISM in city.tokens:
        coins += URBANISM_COINS
    if payment.to_opponent:
        turn.opponent = evolve(opponent, coins=opponent.coins + payment.to_opponent)
    _construct(turn, card, coins)
    if not turn.finished and turn.pending is None:
        _end_turn(turn, extra_turn=False)
    return turn.state()


def _discard(state: GameState, event: Discard) -> GameState:
    """Discard the card for 2 coins + 1 per yellow card in the city."""
    turn, card = _take(state, event.player, event.card)
    city = turn.city
    turn.city = evolve(city, coins=city.coins + DISCARD_COINS + city.colors[_YELLOW])
    turn.discard = (*turn.discard, card.id)
    _end_turn(turn, extra_turn=False)
    return turn.state()


def _build_wonder(state: GameState, event: BuildWonder) -> GameState:
    """Construct a wonder with the card tucked under it, and apply the wonder's effects."""
    player = event.player
    catalog = state.catalog
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
    turn, card = _take(state, player, event.card)
    wonder = catalog.wonder(event.wonder)
    opponent = turn.opponent
    payment = cheapest_payment(catalog, city, opponent, wonder)
    if payment.total > city.coins:
        raise IllegalEvent(
            f"{catalog.name(wonder.id)} costs {payment.total} coins, {player} has {city.coins}"
        )
    turn.city = evolve(
        city,
        coins=city.coins - payment.total + wonder.coins,
        wonders_built=(*city.wonders_built, wonder.id),
        wonders_unbuilt=tuple(w for w in city.wonders_unbuilt if w != wonder.id),
        tucked=(*city.tucked, card.id),
        choices=(*city.choices, wonder.produces_one_of) if wonder.produces_one_of else city.choices,
    )
    if payment.to_opponent or wonder.opponent_loses:
        turn.opponent = evolve(
            opponent,
            coins=max(0, opponent.coins + payment.to_opponent - wonder.opponent_loses),
        )
    _limit_wonders(turn)
    if wonder.shields:
        _shields(turn, wonder.shields)
        if turn.finished:
            return turn.state()
    extra = wonder.extra_turn or THEOLOGY in city.tokens
    turn.pending = _wonder_decision(turn, wonder, extra)
    if turn.pending is None:
        _end_turn(turn, extra_turn=extra)
    return turn.state()


def _limit_wonders(turn: _Turn) -> None:
    """As soon as the 7th wonder is built, the last unbuilt one goes back to the box."""
    one, two = turn.cities
    if len(one.wonders_built) + len(two.wonders_built) < turn.catalog.rules.max_wonders:
        return
    left = one.wonders_unbuilt + two.wonders_unbuilt
    if left:
        turn.cities = [evolve(one, wonders_unbuilt=()), evolve(two, wonders_unbuilt=())]
        turn.boxed_wonders = turn.boxed_wonders + left


def _wonder_decision(turn: _Turn, wonder: Wonder, extra: bool) -> Pending | None:
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
    return None


# --- Constructing a card: effects ----------------------------------------------------------


def _add_card(city: City, card: Card, coins: int) -> City:
    """The city with `card` added, `coins` coins and its summaries updated."""
    colors = city.colors
    index = COLOR_INDEX[card.color]
    produces = city.produces
    if card.produces != NO_RESOURCES:
        w, c, s, g, p = produces
        aw, ac, as_, ag, ap = card.produces
        produces = (w + aw, c + ac, s + as_, g + ag, p + ap)
    return _make_city(  # every field, in declaration order
        coins,
        (*city.cards, card.id),
        city.wonders_built,
        city.wonders_unbuilt,
        city.tokens,
        produces,
        (*city.choices, card.produces_one_of) if card.produces_one_of else city.choices,
        city.fixed_price | card.fixed_price if card.fixed_price else city.fixed_price,
        city.chain_symbols | {card.chain_symbol} if card.chain_symbol else city.chain_symbols,
        (*colors[:index], colors[index] + 1, *colors[index + 1 :]),
        city.symbols | {card.science} if card.science else city.symbols,
        city.tucked,
    )


def _construct(turn: _Turn, card: Card, coins: int) -> None:
    """Add a paid-for card to the acting city (left with `coins` coins) and apply its
    effects: coins, shields, science. May end the game or ask for a progress token."""
    before = turn.city
    city = _add_card(before, card, coins)
    gained = card.coins
    if card.coins_per is not None:  # counted once, in the builder's city, the card included
        gained += card.coins_per.coins * count_in(city, card.coins_per.counts)
    if card.guild is not None:  # counted in the city that has the most
        counts = card.guild.counts
        gained += card.guild.coins * max(count_in(city, counts), count_in(turn.opponent, counts))
    if gained:
        city = evolve(city, coins=city.coins + gained)
    turn.city = city
    if card.shields:
        _shields(turn, card.shields + (STRATEGY_SHIELDS if STRATEGY in city.tokens else 0))
    elif card.science is not None:
        if has_supremacy(city, turn.catalog.rules.science_supremacy):
            _win(turn, turn.player, Victory.SCIENCE)
        elif makes_pair(before, card.science) and turn.board_tokens:
            turn.pending = Pending(PendingKind.PROGRESS, turn.player)


def _shields(turn: _Turn, shields: int) -> None:
    """Move the conflict pawn; apply loot; military supremacy ends the game."""
    move = move_pawn(turn.catalog.track, turn.position, turn.loot, turn.player, shields)
    if move.lost != (0, 0):
        one, two = turn.cities
        turn.cities = [
            evolve(one, coins=max(0, one.coins - move.lost[0])) if move.lost[0] else one,
            evolve(two, coins=max(0, two.coins - move.lost[1])) if move.lost[1] else two,
        ]
    turn.position = move.position
    turn.loot = move.loot
    if move.supremacy:
        _win(turn, turn.player, Victory.MILITARY)


def _win(turn: _Turn, player: Player | None, victory: Victory) -> None:
    """End the game at once (player None: a shared victory)."""
    turn.phase = Phase.FINISHED
    turn.winner = player
    turn.shared = player is None
    turn.victory = victory
    turn.pending = None


# --- End of a turn, of an age, of the game ----------------------------------------------


def _end_turn(turn: _Turn, *, extra_turn: bool) -> None:
    """Pass the turn (or keep it for an extra turn), ending the age after its 20th card."""
    player = turn.player
    turn.pending = None
    if turn.taken < CARDS_PER_AGE:
        turn.current = player if extra_turn else player.opponent
        return
    # The age is over: an extra turn is lost.
    if turn.age == 3:
        _civilian_end(turn)
        return
    chooser = weaker_side(turn.position) or player
    turn.current = chooser
    turn.pending = Pending(PendingKind.NEXT_AGE, chooser)


def _civilian_end(turn: _Turn) -> None:
    """After the last card of age 3: most VP wins, then most blue VP, else shared."""
    sheet = score_sheet(turn.state())
    one, two = sheet.p1, sheet.p2
    winner: Player | None = None
    if (one.total, one.blue) > (two.total, two.blue):
        winner = Player.P1
    elif (one.total, one.blue) < (two.total, two.blue):
        winner = Player.P2
    _win(turn, winner, Victory.CIVILIAN)


# --- Pending decisions -------------------------------------------------------------------


def _answer(state: GameState, pending: Pending, event: Event) -> GameState:
    """Apply the event that answers the pending decision; refuse anything else."""
    if event.type != pending.kind.value:
        raise IllegalEvent(f"{pending.player} must first {_ASKS[pending.kind]}")
    player = getattr(event, "player", None)
    if player is not pending.player:
        raise IllegalEvent(f"It is {pending.player}'s choice: {_ASKS[pending.kind]}")
    if isinstance(event, ChooseStarter):
        return _choose_starter(state, event)
    turn = _Turn(state, pending.player)
    turn.pending = None
    match event:
        case TakeProgress():
            _take_progress(turn, event)
        case Destroy():
            _destroy(turn, event)
        case BuildFromDiscard():
            _build_from_discard(turn, event)
        case KeepLibraryToken():
            _keep_library_token(turn, event)
    if not turn.finished and turn.pending is None:
        _end_turn(turn, extra_turn=pending.extra_turn)
    elif turn.pending is not None:  # a Mausoleum card that makes a pair: the turn goes on
        turn.pending = evolve(turn.pending, extra_turn=pending.extra_turn)
    return turn.state()


_ASKS = {
    PendingKind.PROGRESS: "choose a progress token",
    PendingKind.DESTROY: "choose a card to destroy",
    PendingKind.MAUSOLEUM: "choose a card from the discard pile",
    PendingKind.GREAT_LIBRARY: "choose a Great Library token",
    PendingKind.NEXT_AGE: "choose who begins the next age",
}


def _gain_token(turn: _Turn, token_id: TokenId) -> None:
    """Add a progress token to the city: its coins now, Law's symbol (maybe supremacy)."""
    token = turn.catalog.token(token_id)
    city = turn.city
    city = evolve(
        city,
        tokens=city.tokens | {token_id},
        coins=city.coins + token.coins,
        symbols=city.symbols | {token.science} if token.science else city.symbols,
    )
    turn.city = city
    if token.science is not None and has_supremacy(city, turn.catalog.rules.science_supremacy):
        _win(turn, turn.player, Victory.SCIENCE)


def _take_progress(turn: _Turn, event: TakeProgress) -> None:
    """Take one of the progress tokens still on the board."""
    if event.token not in turn.board_tokens:
        catalog = turn.catalog
        name = catalog.name(event.token) if catalog.is_token(event.token) else repr(event.token)
        raise IllegalEvent(f"{name} is not on the board")
    turn.board_tokens = tuple(t for t in turn.board_tokens if t != event.token)
    _gain_token(turn, event.token)


def _destroy(turn: _Turn, event: Destroy) -> None:
    """Put an opponent's card of the wonder's colour on the discard pile."""
    catalog = turn.catalog
    color = catalog.wonder(turn.city.wonders_built[-1]).destroys
    opponent = turn.opponent
    if event.card not in opponent.cards:
        label = catalog.name(event.card) if catalog.is_card(event.card) else repr(event.card)
        raise IllegalEvent(f"{label} is not in {turn.player.opponent}'s city")
    card = catalog.card(event.card)
    if card.color is not color:
        raise IllegalEvent(f"{catalog.name(card.id)} is not a {color} card")
    turn.opponent = _remove_card(opponent, card)
    turn.discard = (*turn.discard, card.id)


def _remove_card(city: City, card: Card) -> City:
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


def _build_from_discard(turn: _Turn, event: BuildFromDiscard) -> None:
    """The Mausoleum: build a card of the discard pile for free, with all its effects."""
    catalog = turn.catalog
    if event.card not in turn.discard:
        label = catalog.name(event.card) if catalog.is_card(event.card) else repr(event.card)
        raise IllegalEvent(f"{label} is not in the discard pile")
    index = turn.discard.index(event.card)
    turn.discard = turn.discard[:index] + turn.discard[index + 1 :]
    _construct(turn, catalog.card(event.card), turn.city.coins)


def available_library_tokens(state: GameState) -> tuple[TokenId, ...]:
    """The progress tokens the Great Library may draw: not on the board, owned or boxed."""
    owned = state.cities[0].tokens | state.cities[1].tokens
    return tuple(
        t.id
        for t in state.catalog.progress_tokens
        if t.id not in state.board_tokens and t.id not in owned and t.id not in state.boxed_tokens
    )


def _keep_library_token(turn: _Turn, event: KeepLibraryToken) -> None:
    """The Great Library: keep one of the 3 tokens drawn; the other 2 go back to the box."""
    available = available_library_tokens(turn.base)
    drawn = event.drawn
    wanted = min(LIBRARY_DRAW, len(available))
    if len(set(drawn)) != len(drawn) or len(drawn) != wanted:
        raise IllegalEvent(f"great_library: {wanted} different tokens must be drawn")
    for token in drawn:
        if token not in available:
            raise IllegalEvent(
                f"great_library: {token!r} cannot be drawn (on the board, owned or unknown)"
            )
    if event.token not in drawn:
        raise IllegalEvent(f"great_library: {event.token!r} was not drawn")
    turn.boxed_tokens = turn.boxed_tokens | {t for t in drawn if t != event.token}
    _gain_token(turn, event.token)


def _choose_starter(state: GameState, event: ChooseStarter) -> GameState:
    """Begin the next age with the chosen player."""
    return evolve(
        state,
        age=state.age + 1,
        current=event.starter,
        structure=None,
        taken=0,
        pending=None,
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
        city = _add_card(city, catalog.card(card_id), coins)
    for wonder_id in wonders_built:
        wonder = catalog.wonder(wonder_id)
        choices = (
            (*city.choices, wonder.produces_one_of) if wonder.produces_one_of else city.choices
        )
        city = evolve(city, wonders_built=(*city.wonders_built, wonder.id), choices=choices)
    law = [catalog.token(t).science for t in tokens if catalog.token(t).science]
    return evolve(city, symbols=city.symbols | frozenset(s for s in law if s is not None))


# --- Legal events ------------------------------------------------------------------------


def legal_events(state: GameState) -> list[Event]:
    """Every legal event now, except `setup` and `deal` (which carry hidden information).

    In table mode every unseen card of the age counts as takeable. Great Library events
    list every draw of 3 available tokens.
    """
    if state.phase is not Phase.PLAYING:
        return []
    pending = state.pending
    if pending is not None:
        return _decisions(state, pending)
    player = state.current
    if state.structure is not None:
        cards = accessible_cards(state)
    else:
        catalog = state.catalog
        cards = tuple(
            c.id for c in catalog.cards if c.age == state.age and not was_taken(state, c.id)
        )
    found: list[Event] = []
    for card in cards:
        options: list[Event] = [Build(player, card), Discard(player, card)]
        options += [BuildWonder(player, w, card) for w in state.city(player).wonders_unbuilt]
        for event in options:
            try:
                apply(state, event)
            except IllegalEvent:
                continue
            found.append(event)
    return found


def _decisions(state: GameState, pending: Pending) -> list[Event]:
    """The events that answer `pending`."""
    player = pending.player
    catalog = state.catalog
    match pending.kind:
        case PendingKind.PROGRESS:
            return [TakeProgress(player, t) for t in state.board_tokens]
        case PendingKind.DESTROY:
            color = catalog.wonder(state.city(player).wonders_built[-1]).destroys
            return [
                Destroy(player, c)
                for c in state.city(player.opponent).cards
                if catalog.card(c).color is color
            ]
        case PendingKind.MAUSOLEUM:
            return [BuildFromDiscard(player, c) for c in dict.fromkeys(state.discard)]
        case PendingKind.GREAT_LIBRARY:
            tokens = available_library_tokens(state)
            draws = _combinations(tokens, min(LIBRARY_DRAW, len(tokens)))
            return [KeepLibraryToken(player, d, t) for d in draws for t in d]
        case PendingKind.NEXT_AGE:
            return [ChooseStarter(player, Player.P1), ChooseStarter(player, Player.P2)]


def _combinations(items: tuple[TokenId, ...], size: int) -> list[tuple[TokenId, ...]]:
    return list(combinations(items, size))
