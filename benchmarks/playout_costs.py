"""Where a level-5 playout's time goes: CPU microseconds per call of its parts, on this build.

    .venv/bin/python benchmarks/playout_costs.py --games 20 --rounds 5

Over the states of `--games` random games (a dealt structure, no pending decision): the
rules' `apply` of the event a light playout would play there, `light_event` itself, and the
copy that every `apply` makes of the state (`Turn(state)` and `Turn.state()`, with nothing
changed); then whole light playouts from one position (a world drawn, played to the end) with
their events, a world's draw, and a deal of the next age (`random_layout` and `apply` of the
deal). CPU time (`time.process_time`); each figure is the median of `--rounds` runs. Prints
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from companion.engine.catalog import default_catalog
from companion.engine.events import Deal, Event
from companion.engine.rules import apply
from companion.engine.state import GameState
from companion.engine.turn import Turn
from companion.engine_loader import engine_is_compiled
from companion.play.simulate import play
from companion.search.determinize import Worlds, random_layout
from companion.search.mcts import _playout
from companion.search.policy import light_event


def per_call(run: Callable[[], int], rounds: int) -> float:
    """The median over `rounds` of CPU microseconds per call (`run` returns its calls)."""
    found = []
    for _ in range(rounds):
        start = time.process_time()
        calls = run()
        found.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=2000)
    args = parser.parse_args()
    count: int = args.playouts
    catalog = default_catalog()
    games = [play(catalog, random.Random(seed), check=False) for seed in range(args.games)]
    states = [
        s for game in games for s in game.states[3:-1] if s.structure is not None and not s.pending
    ]
    rng = random.Random(0)
    pairs: list[tuple[GameState, Event, tuple[bool, bool]]] = []
    for index, state in enumerate(states):
        science = (index % 2 == 0, index % 3 == 0)
        pairs.append((state, light_event(state, rng, science), science))

    def applies() -> int:
        for state, event, _ in pairs:
            apply(state, event)
        return len(pairs)

    def policies() -> int:
        for state, _, science in pairs:
            light_event(state, rng, science)
        return len(pairs)

    def copies() -> int:
        for state, _, _ in pairs:
            Turn(state, state.current).state()
        return len(pairs)

    worlds = Worlds(games[3].states[3])
    events = [0]

    def playouts() -> int:
        events[0] = 0
        for _ in range(count):
            events[0] += _playout(worlds.draw(rng), rng)[1]
        return count

    def draws() -> int:
        for _ in range(count):
            worlds.draw(rng)
        return count

    waiting = next(
        s for s in games[3].states if s.age == 2 and s.structure is None and not s.pending
    )
    deal = Deal(2, random_layout(waiting, rng))

    def layouts() -> int:
        for _ in range(count):
            random_layout(waiting, rng)
        return count

    def deals() -> int:
        for _ in range(count):
            apply(waiting, deal)
        return count

    playout = per_call(playouts, args.rounds)
    per_playout = events[0] / count
    result = {
        "compiled": engine_is_compiled(),
        "positions": len(pairs),
        "apply_us": per_call(applies, args.rounds),
        "light_event_us": per_call(policies, args.rounds),
        "state_copy_us": per_call(copies, args.rounds),
        "playout_us": playout,
        "playout_events": per_playout,
        "playout_us_per_event": playout / per_playout,
        "world_draw_us": per_call(draws, args.rounds),
        "random_layout_us": per_call(layouts, args.rounds),
        "deal_apply_us": per_call(deals, args.rounds),
    }
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in result.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
