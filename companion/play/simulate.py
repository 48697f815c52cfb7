"""Random legal games from a seed, with the engine's invariants checked after every event.

Randomness lives here and in `playout`, never in the engine: the simulator draws the setup
(tokens, a wonder draft, the first player) and each age's structure from `random.Random(seed)`
and submits them as `setup` and `deal` events, so every simulated game is an ordinary game
record.
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
    Deal,
    Event,
    event_from_record,
    event_to_record,
)
from companion.engine.rules import (
    accessible_cards,
    apply,
    new_game,
)
from companion.engine.state import GameState, evolve, structure_from_cards
from companion.play.playout import random_game

VICTORY_KINDS = ("military", "science", "civilian", "shared")
MAX_EVENTS = 400
"""More events than any game can have: a longer game is a failure (the engine loops)."""


class InvariantError(AssertionError):
    """A simulated game broke an invariant of the rules."""


@dataclass
class Playout:
    """One simulated game: its events, the state after each (or the last one only, when
    played without history), and any failure."""

    events: list[Event] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)
    failure: str | None = None

    def record_lines(self) -> Iterator[str]:
        """The game record, one JSON line per event."""
        for event in self.events:
            yield json.dumps(event_to_record(event))


def play(
    catalog: Catalog, rng: random.Random, *, check: bool = True, history: bool = True
) -> Playout:
    """Play one random game to its end; with `check`, verify the invariants after every
    event and that the record replays to the same states. Without `history` (which the
    checks need), `states` holds the last state only."""
    game = Playout(states=[new_game(catalog)])
    dealt: list[CardId] = []

    def checked(before: GameState, event: Event, after: GameState) -> None:
        _check_event(game, dealt, before, event, after)

    try:
        random_game(
            rng,
            game.events,
            game.states,
            after_event=checked if check else None,
            max_events=MAX_EVENTS,
            history=history or check,
        )
        if len(game.events) > MAX_EVENTS:
            raise InvariantError(f"no end after {MAX_EVENTS} events")
        if check:
            _check_replay(catalog, game)
    except Exception as broken:  # any crash or refusal is a failure to report, with its record
        game.failure = f"event {len(game.events)}: {type(broken).__name__}: {broken}"
    return game


def _check_event(
    game: Playout, dealt: list[CardId], before: GameState, event: Event, after: GameState
) -> None:
    """The invariants after `event`, which `random_game` has just played."""
    if isinstance(event, Deal):
        dealt.extend(c for c in event.layout if c is not None)  # simulated deals are whole
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
        # the positions the rules keep open, against those the cards left and the layout give
        again = structure_from_cards(structure.age, structure.cards, structure.covering)
        fresh = evolve(state, structure=again)
        if accessible_cards(state) != accessible_cards(fresh):
            raise InvariantError("the accessible cards differ from the layout's")
    pantheon = state.pantheon
    if pantheon is not None:
        _check_pantheon(state)
    if len(placed) != len(dealt) or set(placed) != set(dealt):  # dealt cards are distinct
        lost = Counter(dealt) - Counter(placed)
        extra = Counter(placed) - Counter(dealt)
        raise InvariantError(f"cards not conserved: lost {sorted(lost)}, extra {sorted(extra)}")


def _check_pantheon(state: GameState) -> None:
    """Pantheon: every divinity in one place (a deck, the Pantheon, beside a city), coins on
    Astarte never negative, Offering tokens among the 3 of the box."""
    pantheon = state.pantheon
    rules = state.catalog.pantheon
    assert pantheon is not None and rules is not None
    where = [d for d in pantheon.spaces if d is not None and d != rules.gate]
    where += [d for deck in pantheon.decks for d in deck]
    where += [d for side in pantheon.activated for d in side if d != rules.gate]
    if sorted(where) != sorted(d.id for d in rules.divinities):
        raise InvariantError(f"divinities not conserved: {sorted(where)}")
    if min(pantheon.astarte) < 0:
        raise InvariantError(f"negative coins on Astarte: {pantheon.astarte}")
    held = sorted(v for side in pantheon.offerings for v in side)
    if any(held.count(v) > list(rules.offering_tokens).count(v) for v in held):
        raise InvariantError(f"Offering tokens not conserved: {held}")


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
        game = play(catalog, random.Random(seed + number), check=check, history=check)
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
