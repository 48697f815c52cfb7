"""Random legal games built through the engine, as game-record objects (a test helper)."""

from __future__ import annotations

import random
from typing import Any

from companion.engine.cards import Catalog
from companion.engine.events import Deal, Event, Setup, event_from_record, event_to_record
from companion.engine.rules import apply, legal_events, new_game
from companion.engine.state import GameState, Phase, Player


def setup_event(catalog: Catalog, rng: random.Random, names: tuple[str, str]) -> Setup:
    tokens = rng.sample([t.id for t in catalog.progress_tokens], 5)
    wonders = rng.sample([w.id for w in catalog.wonders], 8)
    return Setup(
        first_player=rng.choice([Player.P1, Player.P2]),
        progress_tokens=tuple(tokens),
        wonders=(tuple(wonders[:4]), tuple(wonders[4:])),
        players=names,
    )


def deal_event(catalog: Catalog, rng: random.Random, age: int) -> Deal:
    plain = [c.id for c in catalog.cards if c.age == age and not c.is_guild]
    guilds = [c.id for c in catalog.cards if c.is_guild] if age == 3 else []
    count = catalog.rules.guilds_in_age_3 if age == 3 else 0
    layout = rng.sample(plain, 20 - count) + rng.sample(guilds, count)
    rng.shuffle(layout)
    return Deal(age=age, layout=tuple(layout))


def next_event(state: GameState, rng: random.Random) -> Event:
    if state.structure is None and state.taken == 0 and state.pending is None:
        return deal_event(state.catalog, rng, state.age)
    return rng.choice(legal_events(state))


def playout(
    catalog: Catalog,
    seed: int,
    *,
    events: int | None = None,
    names: tuple[str, str] = ("Ann", "Ben"),
) -> list[dict[str, Any]]:
    """The records of a random legal game from `seed`: to its end, or its first `events`."""
    rng = random.Random(seed)
    state = new_game(catalog)
    chosen: list[Event] = [setup_event(catalog, rng, names)]
    state = apply(state, chosen[0])
    while state.phase is not Phase.FINISHED and (events is None or len(chosen) < events):
        event = next_event(state, rng)
        state = apply(state, event)
        chosen.append(event)
    return [event_to_record(e) for e in chosen]


# Seeds known to end with each kind of victory; `finished_seed` starts its search there.
SEEDS = {"civilian": 0, "military": 28, "science": 201}


def finished_seed(catalog: Catalog, victory: str, start: int | None = None) -> int:
    """The first seed from `start` whose random game ends with this kind of victory."""
    start = SEEDS.get(victory, 0) if start is None else start
    for seed in range(start, start + 500):
        records = playout(catalog, seed)
        state = new_game(catalog)
        for record in records:
            state = apply(state, event_from_record(record))
        if state.victory is not None and state.victory.value == victory and not state.shared:
            return seed
    raise LookupError(f"no {victory} victory in 500 seeds")
