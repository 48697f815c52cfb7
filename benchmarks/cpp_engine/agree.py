"""Whether the C++ engine's rules and ours agree: games of two of our players, each position
where a player is asked replayed in the driver (budget "none"), and compared with our state:
the player to act, each player's coins and victory points, the military lead, and the
number of legal answers (a card one side could pay for and the other not would change it).

    .venv/bin/python benchmarks/cpp_engine/agree.py --bin build/cpp-engine/duel-driver \
        --games 60 --players random,greedy --seed 7000

Prints each difference (at most 20) and a count; exits 1 if any. When the next age is not
dealt yet (who begins it is asked first) the engine waits for that age's reveals: only the
numbers are compared there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from adapter import Driver, driver_line, matched, read_catalog

from companion.engine.catalog import default_catalog
from companion.engine.events import KeepLibraryToken
from companion.engine.rules import apply, new_game
from companion.engine.scoring import score_sheet
from companion.engine.state import PendingKind, Player
from companion.play.arena import make_player, play_game
from companion.play.referee import request
from companion.search.determinize import needs_deal
from companion.search.player import root_events
from companion.search.policy import acting_player

SHOWN = 20
"""Differences printed at most."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the driver built by build.sh")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", default="random,greedy", help="two of our players")
    parser.add_argument("--seed", type=int, default=7000, help="game k is dealt from seed + k")
    options = parser.parse_args(argv)
    names = options.players.split(",")
    catalog = default_catalog(())
    driver = Driver(options.bin)
    engine = matched(driver.ask("objects"), read_catalog())
    checked = differences = 0
    for number in range(options.games):
        seed = options.seed + number
        seats = (make_player(names[0], seed), make_player(names[-1], seed + 1))
        _, events = play_game(catalog, seats, seed)
        state = new_game(catalog)
        for index, event in enumerate(events):
            state = apply(state, event)
            if event.type in ("setup", "deal", "reveal") or state.finished or needs_deal(state):
                continue
            player = acting_player(state)
            drawn = None
            pending = state.pending
            if pending is not None and pending.kind is PendingKind.GREAT_LIBRARY:
                answered = events[index + 1]
                assert isinstance(answered, KeepLibraryToken)
                drawn = list(answered.drawn)
            asked = request(events[: index + 1], state, player, drawn=drawn)
            line = driver_line(asked["record"], drawn, engine, ("none", 0.0), 0, 1)
            got = driver.ask(line)[0]
            checked += 1
            words = got.split()
            sheet = score_sheet(state)
            ours: list[object] = [state.cities[0].coins, state.position, sheet.p1.total]
            ours += [state.cities[1].coins, -state.position, sheet.p2.total]
            if words[:1] == ["ready"] and words[3] == "-1":  # the next age not dealt yet
                theirs: list[object] = [int(w) for w in words[4:]]
            elif words[:1] == ["ready"]:
                theirs = [int(w) for w in words[4:]]
                theirs += [(Player.P1, Player.P2)[int(words[1])], int(words[3])]
                ours += [player, len(root_events(state, drawn))]
            else:
                theirs = [got]
            if ours != theirs:
                differences += 1
                if differences <= SHOWN:
                    print(f"game {number} event {index} ({event.type}): ours {ours}, C++ {theirs}")
    driver.close()
    print(f"{checked} positions of {options.games} games, {differences} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
