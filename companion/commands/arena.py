"""`duel-companion arena --a PLAYER --b PLAYER --games N --seed S [--seconds T] [--timeout T]
[--expansion pantheon] [--json]`: full games between two players, seats swapped on paired
deals (game 2k has A as p1, game 2k + 1 the same setup and deals with A as p2), and A's
wins, losses and shared victories with the 95 % Wilson interval of A's score rate (a shared
victory counts half).

A player is a search level, `greedy`, `random` (B only), or `cmd:PROGRAM ARGS...`: a program
that speaks the engine protocol (docs/engine-protocol.md), shown the public record only; a
refused answer (an illegal move, an error, no answer in time, not JSON, its end) loses it the
game, and the reason is printed. `--expansion pantheon` deals Pantheon games (the tokens
on the deals, the divinities' draws drawn by the arena as the Great Library's).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time

from companion.engine.catalog import EXPANSIONS, default_catalog
from companion.engine.plural import plural
from companion.play.arena import PLAYERS, Outside, arena
from companion.protocol import Program
from companion.search.player import LEVEL_CHOICES

HELP = "Play full games between two players (search levels, greedy, random, programs)."

COMMAND = "cmd:"
"""The prefix of a program that speaks the engine protocol."""
TIMEOUT = 30.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--a, --b, --games, --seed, --seconds, --timeout, --expansion, --json."""
    parser.add_argument(
        "--a", required=True, help=f"player A: {', '.join(LEVEL_CHOICES)} or 'cmd:PROGRAM ARGS...'"
    )
    parser.add_argument(
        "--b", required=True, help=f"player B: {', '.join(PLAYERS)} or 'cmd:PROGRAM ARGS...'"
    )
    parser.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    parser.add_argument(
        "--seconds", type=float, help="time to think sent to a program with each request"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=TIMEOUT,
        help=f"seconds a program has to answer (default {TIMEOUT:g})",
    )
    parser.add_argument(
        "--expansion",
        choices=EXPANSIONS,
        action="append",
        default=[],
        help="play with an expansion (pantheon)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def main(args: argparse.Namespace) -> int:
    """Play the games and print A's tally; 2 with one line on bad arguments."""
    if not args.a.startswith(COMMAND) and args.a not in LEVEL_CHOICES:
        choices = ", ".join(LEVEL_CHOICES)
        return _refuse(f"--a must be one of {choices} or cmd:PROGRAM, not {args.a!r}")
    if not args.b.startswith(COMMAND) and args.b not in PLAYERS:
        return _refuse(f"--b must be one of {', '.join(PLAYERS)} or cmd:PROGRAM, not {args.b!r}")
    if args.games < 1:
        return _refuse("--games must be at least 1")
    if args.seconds is not None and not args.seconds > 0:
        return _refuse("--seconds must be more than 0")
    if not args.timeout > 0:
        return _refuse("--timeout must be more than 0")
    programs: list[Program] = []
    players: list[str | Outside] = []
    for option, given in (("--a", args.a), ("--b", args.b)):
        if not given.startswith(COMMAND):
            players.append(given)
            continue
        try:
            command = shlex.split(given[len(COMMAND) :])
        except ValueError as bad:
            return _refuse(f"{option}: {bad}")
        if not command:
            return _refuse(f"{option}: cmd: names no program")
        program = Program(command, args.timeout)
        try:
            program.start()
        except OSError as bad:
            return _refuse(f"{option}: cannot start {command[0]}: {bad.strerror or bad}")
        programs.append(program)
        players.append(Outside(given, program.ask, args.seconds))
    start = time.perf_counter()
    try:
        catalog = default_catalog(tuple(dict.fromkeys(args.expansion)))
        tally = arena(catalog, players[0], players[1], args.games, args.seed)
    finally:
        for program in programs:
            program.close()
    seconds = time.perf_counter() - start
    low, high = tally.interval
    forfeits = [{"game": f.game, "player": f.side, "reason": f.reason} for f in tally.forfeits]
    if args.json:
        print(
            json.dumps(
                {
                    "a": args.a,
                    "b": args.b,
                    "games": tally.games,
                    "seed": args.seed,
                    "wins": tally.wins,
                    "losses": tally.losses,
                    "shared": tally.shared,
                    "score": round(tally.score, 4),
                    "interval": [round(low, 4), round(high, 4)],
                    "victories": tally.victories,
                    "forfeits": forfeits,
                    "seconds": round(seconds, 1),
                }
            )
        )
    else:
        for lost in tally.forfeits:
            name = args.a if lost.side == "a" else args.b
            print(f"game {lost.game}: {lost.side.upper()} ({name}) forfeits: {lost.reason}")
        print(
            f"{args.a} against {args.b}: {plural(tally.wins, 'win')}, "
            f"{plural(tally.losses, 'loss', 'losses')}, "
            f"{tally.shared} shared in {plural(tally.games, 'game')} ({seconds:.0f} s)"
        )
        print(f"score {tally.score:.1%}, 95 % interval {low:.1%} to {high:.1%}")
    return 0


def _refuse(reason: str) -> int:
    print(reason, file=sys.stderr)
    return 2
