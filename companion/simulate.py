"""Random legal games from a seed, with the engine's invariants checked after every event.

Randomness lives here, never in the engine: the simulator draws the setup (tokens, a wonder
draft, the first player) and each age's structure from `random.Random(seed)` and submits them
as `setup` and `deal` events, so every simulated game is an ordinary game record.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from companion.engine.cards import CardId, Catalog
from companion.engine.events import (
    Build,
    BuildWonder,
    Deal,
    Discard,
    Event,
    KeepLibraryToken,
    Setup,
    event_from_record,
    event_to_record,
)
from companion.engine.pricing import cheapest_payment
from companion.engine.rules import (
    accessible_cards,
    apply,
    available_library_tokens,
    check_draft,
    draft_pickers,
    legal_events,
    new_game,
)
from companion.engine.state import GameState, PendingKind, Player, evolve

VICTORY_KINDS = ("military", "science", "civilian", "shared")
MAX_EVENTS = 400
"""More events than any game can have: a longer game is a failure (the engine loops)."""


WONDER_CHANCE = 0.3
"""How often a random turn tries to build a wonder (then a building, else a discard)."""


class InvariantError(AssertionError):
    """A simulated game broke an invariant of the rules."""


def random_setup(catalog: Catalog, rng: random.Random) -> Setup:
    """A setup drawn at random: 5 tokens on the board, a wonder draft, the first player."""
    tokens = [t.id for t in catalog.progress_tokens]
    rng.shuffle(tokens)
    first = rng.choice((Player.P1, Player.P2))
    wonders = [w.id for w in catalog.wonders]
    rng.shuffle(wonders)
    per_round = len(catalog.rules.draft_order) // 2
    revealed = (wonders[:per_round], wonders[per_round : 2 * per_round])
    picks: list[tuple[Player, str]] = []
    for number, picker in enumerate(draft_pickers(catalog.rules, first)):
        left = [w for w in revealed[number // per_round] if w not in {p for _, p in picks}]
        picks.append((picker, rng.choice(left)))
    allocated = check_draft(catalog, first, revealed, picks)
    return Setup(
        first_player=first,
        progress_tokens=tuple(tokens[: catalog.rules.tokens_on_board]),
        wonders=allocated,
        players=("Ann", "Ben"),
    )


def random_deal(catalog: Catalog, rng: random.Random, age: int) -> Deal:
    """An age's structure: the deck less 3 random cards (plus 3 random guilds in age 3),
    shuffled into layout order."""
    deck = [c.id for c in catalog.age_deck(age)]
    rng.shuffle(deck)
    deck = deck[catalog.rules.removed_per_age :]
    if age == 3:
        guilds = [c.id for c in catalog.guilds]
        deck += rng.sample(guilds, catalog.rules.guilds_in_age_3)
    rng.shuffle(deck)
    return Deal(age=age, layout=tuple(deck))


def random_turn(state: GameState, rng: random.Random) -> tuple[Event, GameState]:
    """A random legal event for the state (a structure must be dealt), and the state after it."""
    pending = state.pending
    if pending is not None:
        if pending.kind is PendingKind.GREAT_LIBRARY:
            drawn = tuple(rng.sample(available_library_tokens(state), 3))
            event: Event = KeepLibraryToken(pending.player, drawn, rng.choice(drawn))
        else:
            event = rng.choice(legal_events(state))
        return event, apply(state, event)
    player = state.current
    card = rng.choice(accessible_cards(state))
    city, opponent = state.city(player), state.city(player.opponent)
    catalog = state.catalog
    if city.wonders_unbuilt and rng.random() < WONDER_CHANCE:
        wonder = rng.choice(city.wonders_unbuilt)
        price = cheapest_payment(catalog, city, opponent, catalog.wonder(wonder)).total
        if price <= city.coins:
            event = BuildWonder(player, wonder, card)
            return event, apply(state, event)
    if cheapest_payment(catalog, city, opponent, catalog.card(card)).total <= city.coins:
        event = Build(player, card)
    else:
        event = Discard(player, card)
    return event, apply(state, event)


@dataclass
class Playout:
    """One simulated game: its events, the state after each, and any failure."""

    events: list[Event] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)
    failure: str | None = None

    def record_lines(self) -> Iterator[str]:
        """The game record, one JSON line per event."""
        for event in self.events:
            yield json.dumps(event_to_record(event))


def play(catalog: Catalog, rng: random.Random, *, check: bool = True) -> Playout:
    """Play one random game to its end; with `check`, verify the invariants after every
    event and that the record replays to the same states."""
    game = Playout(states=[new_game(catalog)])
    dealt: list[CardId] = []
    try:
        _submit(game, random_setup(catalog, rng), dealt, check)
        while not game.states[-1].finished:
            state = game.states[-1]
            if state.structure is None and state.pending is None:
                event: Event = random_deal(catalog, rng, state.age)
                _submit(game, event, dealt, check)
            else:
                event, after = random_turn(state, rng)
                _submit(game, event, dealt, check, after)
            if len(game.events) > MAX_EVENTS:
                raise InvariantError(f"no end after {MAX_EVENTS} events")
        if check:
            _check_replay(catalog, game)
    except Exception as broken:  # any crash or refusal is a failure to report, with its record
        game.failure = f"event {len(game.events)}: {type(broken).__name__}: {broken}"
    return game


def _submit(
    game: Playout,
    event: Event,
    dealt: list[CardId],
    check: bool,
    after: GameState | None = None,
) -> None:
    game.events.append(event)  # recorded first, so a failing event is in the record
    before = game.states[-1]
    if after is None:
        after = apply(before, event)
    if isinstance(event, Deal):
        dealt.extend(c for c in event.layout if c is not None)  # simulated deals are whole
    game.states.append(after)
    if check:
        check_invariants(after, dealt)
        if event_from_record(json.loads(json.dumps(event_to_record(event)))) != event:
            raise InvariantError(f"{event.type} does not survive its record")
        if game.states[-2] is not before or apply(before, event) != after:
            raise InvariantError("undo does not restore the previous state")


def check_invariants(state: GameState, dealt: list[CardId]) -> None:
    """Card conservation, coins never negative, pawn on the track, at most 7 wonders, the
    accessible cards as the layout says.

    Raises:
        InvariantError: naming the broken invariant.
    """
    one, two = state.cities
    if one.coins < 0 or two.coins < 0:
        raise InvariantError(f"negative coins: {one.coins}, {two.coins}")
    capital = state.catalog.track.capital
    if not -capital <= state.position <= capital:
        raise InvariantError(f"pawn off the track: {state.position}")
    built = len(one.wonders_built) + len(two.wonders_built)
    if built > state.catalog.rules.max_wonders:
        raise InvariantError(f"{built} wonders built")
    placed: list[CardId] = [*one.cards, *two.cards, *one.tucked, *two.tucked, *state.discard]
    structure = state.structure
    if structure is not None:
        placed += [c for c in structure.cards if c is not None]
        # the accessible positions the rules keep up to date, against the layout itself
        fresh = evolve(state, structure=evolve(structure, accessible=None))
        if accessible_cards(state) != accessible_cards(fresh):
            raise InvariantError("the accessible cards differ from the layout's")
    if len(placed) != len(dealt) or set(placed) != set(dealt):  # dealt cards are distinct
        lost = Counter(dealt) - Counter(placed)
        extra = Counter(placed) - Counter(dealt)
        raise InvariantError(f"cards not conserved: lost {sorted(lost)}, extra {sorted(extra)}")


def _check_replay(catalog: Catalog, game: Playout) -> None:
    """The record, read back from its JSON lines, replays to the very same states."""
    state = new_game(catalog)
    for number, line in enumerate(game.record_lines(), start=1):
        state = apply(state, event_from_record(json.loads(line)))
        if state != game.states[number]:
            raise InvariantError(f"replay differs from the live game after event {number}")


def victory_kind(state: GameState) -> str:
    """ "military", "science", "civilian" or "shared" for a finished game."""
    if state.shared:
        return "shared"
    return state.victory.value if state.victory is not None else "unfinished"


@dataclass
class Tally:
    """The results of a batch of games."""

    games: int = 0
    failures: int = 0
    victories: Counter[str] = field(default_factory=Counter)
    failed_records: list[Path] = field(default_factory=list)


def simulate(
    catalog: Catalog, games: int, seed: int, *, failures_dir: Path, check: bool = True
) -> Tally:
    """Play `games` random games from `seed` (game i uses seed `seed + i`); write each
    failing game's record into `failures_dir`."""
    tally = Tally(victories=Counter(dict.fromkeys(VICTORY_KINDS, 0)))
    for number in range(games):
        game = play(catalog, random.Random(seed + number), check=check)
        tally.games += 1
        if game.failure is None:
            tally.victories[victory_kind(game.states[-1])] += 1
            continue
        tally.failures += 1
        failures_dir.mkdir(parents=True, exist_ok=True)
        path = failures_dir / f"seed-{seed + number}.jsonl"
        path.write_text("".join(line + "\n" for line in game.record_lines()), encoding="utf-8")
        tally.failed_records.append(path)
    return tally
