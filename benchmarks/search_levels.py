"""The levels of the search player: matches between them (seats swapped on paired deals),
the CPU each side spends a move, and the Elo table drawn from the matches.

Run a match (each writes one JSON file), then the table from every file:

    .venv/bin/python benchmarks/search_levels.py match --a 2 --b 1 --games 400 --out m.json
    .venv/bin/python benchmarks/search_levels.py elo m1.json m2.json ...

`--expansion pantheon` plays Pantheon games (the deals with their tokens; each chance draw
of a divinity, of Enki or of the Gate drawn as `duel-companion arena --expansion pantheon`
draws it). Give `elo` the files of one game at a time (base or Pantheon): it adds up
the files of a pairing whatever their expansions.

Players: the levels 1 to 5 (`companion.search.player.LEVELS`), `greedy`, `random`, the
search variants in `VARIANTS` (named for what they change, to measure a change against the
level it would replace), and `cmd:PROGRAM ARGS...`, a program that speaks the engine protocol
(played as `duel-companion arena` plays it: shown the public record, a refused answer loses
the game), named in the file and the table by `--name-a`/`--name-b` (say `C++ 300`, for an
outside engine at a fixed budget among the anchors). A program's CPU is its own process's
and is not measured here (the table shows "-"). A match plays games 2k and 2k + 1 on the
setup and deals of `seed + k`, A as p1 then as p2, as `duel-companion arena` does; a shared
victory counts half. CPU per move: `time.process_time` around each of a side's answers.

Elo: the files of the same pairing are added together; each pairing's score s gives a
difference of -400 log10(1/s - 1), its 95 % interval from the Wilson interval of s (a score
of 0 or 1 gives an open bound). The table chains the ratings along the pairings given, the
first pairing's B at 0 (random, in the commands above): a player's rating is that of the
first rated player it met plus their difference. A chained rating's 95 % interval adds up
the variances of the steps of its chain (each step's standard error read off its interval
as if it were normal: the matches are independent).

Each file also records every answer of a level with a real choice (more than one move) as
[level, raw estimated chance to win of the move played, result, game]: the game is its
number in the match, from 0 (files written before it was recorded hold the first three
only). benchmarks/win_calibration.py fits and measures the levels' win-chance maps on them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.commands.arena import COMMAND
from companion.engine.cards import Catalog, TokenId
from companion.engine.catalog import default_catalog
from companion.engine.events import Event
from companion.engine.state import GameState, Player
from companion.play.arena import Forfeit, Outside, Seat, play_game, wilson
from companion.protocol import Program
from companion.search.mcts import PLAYOUTS, Settings
from companion.search.player import (
    LEVELS,
    Answer,
    Keeper,
    Level,
    greedy_event,
    root_events,
    suggest,
)


def _five(
    name: str, iterations: int = LEVELS["5"].iterations, keep: bool = False, **changes: Any
) -> Level:
    """Level 5 called `name`, with `iterations`, `keep` and its settings' `changes`."""
    settings = replace(PLAYOUTS, **changes)
    return replace(LEVELS["5"], name=name, iterations=iterations, keep=keep, settings=settings)


VARIANTS: dict[str, Level] = {
    "4-age": replace(LEVELS["4"], name="4-age", settings=Settings(age_bound=True)),
    "full-200": Level("full-200", 200, settings=Settings(exploration=0.7, plies=0)),
    "full-400": Level("full-400", 400, settings=Settings(exploration=0.7, plies=0)),
    "full-800": Level("full-800", 800, settings=Settings(exploration=0.7, plies=0)),
    "full-200-age": Level(
        "full-200-age", 200, settings=Settings(exploration=0.7, plies=0, age_bound=True)
    ),
    "full-400-age": Level(
        "full-400-age", 400, settings=Settings(exploration=0.7, plies=0, age_bound=True)
    ),
    "trunc-6000": Level("trunc-6000", 6000),
    "full-3000": Level("full-3000", 3000, settings=Settings(exploration=0.7, plies=0)),
    "full-3000-age": Level(
        "full-3000-age", 3000, settings=Settings(exploration=0.7, plies=0, age_bound=True)
    ),
    "5-mean": _five("5-mean", by_mean=True),
    "5-redraw": _five("5-redraw", redraw=True),
    "5-random-expansion": _five("5-random-expansion", scored_expansion=False),
    "5-keep": replace(LEVELS["5"], name="5-keep", keep=True),
    "5-bias": _five("5-bias", bias=1.0),
    "5-shaped": _five("5-shaped", shaped=0.3),
    "5-1k": replace(LEVELS["5"], name="5-1k", iterations=1000),
    # twice level 5's iterations: how much more a search gains against itself
    "5-6k": replace(LEVELS["5"], name="5-6k", iterations=6000),
    "5-1k-decisive": _five("5-1k-decisive", 1000, decisive=True),
    "5-1k-guard": _five("5-1k-guard", 1000, guard=True),
    "5-1k-sharp": _five("5-1k-sharp", 1000, decisive=True, guard=True),
    "5-1k-military": _five("5-1k-military", 1000, military=0.5),
    "5-1k-sharp-military": _five(
        "5-1k-sharp-military", 1000, decisive=True, guard=True, military=0.5
    ),
    # 2,760 and 2,820 iterations: the CPU of level 5's 3,000 (8.5 and 6.4 % dearer each)
    "5-sharp": _five("5-sharp", 2760, decisive=True, guard=True),
    "5-decisive": _five("5-decisive", 2820, decisive=True),
    "5-sharp-military": _five("5-sharp-military", decisive=True, guard=True, military=0.5),
    "5-1k-keep": replace(LEVELS["5"], name="5-1k-keep", iterations=1000, keep=True),
    "5-1k-bias": _five("5-1k-bias", 1000, bias=1.0),
    "5-1k-shaped": _five("5-1k-shaped", 1000, shaped=0.3),
    "5-1k-mean": _five("5-1k-mean", 1000, by_mean=True),
    "5-1k-keep-bias": _five("5-1k-keep-bias", 1000, keep=True, bias=1.0),
    "5-1k-c05": _five("5-1k-c05", 1000, exploration=0.5),
    "5-c05": _five("5-c05", exploration=0.5),
    "5-1k-value": _five("5-1k-value", 1000, age_value=True),
    "5-2k-value": _five("5-2k-value", 2000, age_value=True),
    "5-2k-value-c035": _five("5-2k-value-c035", 2000, age_value=True, exploration=0.35),
    "5-value-c035": _five("5-value-c035", 6000, age_value=True, exploration=0.35),
    "5-value": _five("5-value", 6000, age_value=True),
    # the C++ engine's own search choices (BENCHMARKS.md, "its own search choices")
    "5-cpplike": _five(
        "5-cpplike", exploration=0.75, by_mean=True, scored_expansion=False, redraw=True
    ),
    # two of them without the redraw's cost (BENCHMARKS.md, "which of its choices")
    "5-cpplike-lean": _five("5-cpplike-lean", by_mean=True, scored_expansion=False),
    # twice level 5's iterations (twice its CPU): what playouts twice as cheap would buy
    "5-cpplike-lean-6k": _five("5-cpplike-lean-6k", 6000, by_mean=True, scored_expansion=False),
    # the C++ engine's free choices with a playout without a plan, as its playouts play
    "5-plain": _five("5-plain", by_mean=True, scored_expansion=False, plain=True),
    # the redraw at level 5's CPU a move (it costs 11 to 15 % more an iteration)
    "5-redraw-2650": _five("5-redraw-2650", 2650, redraw=True),
    # time management (BENCHMARKS.md, "spend the CPU where the move is hard"): a search
    # stopped once its choice is settled, the budget raised to spend level 5's mean CPU a move
    # in games against the C++ engine (6,000 spent about a fifth more there)
    "5-tm": _five("5-tm", 4500, stop_decided=True, stop_least=300, stop_ratio=3.0),
    "5-tm-6000": _five("5-tm-6000", 6000, stop_decided=True, stop_least=500, stop_ratio=3.0),
    # the same with the redraw, its budget cut by its 12 % dearer iterations (38 of 100 at
    # equal CPU against the C++ engine, on the deals where level 5 won 35)
    "5-redraw-tm": _five(
        "5-redraw-tm", 4000, redraw=True, stop_decided=True, stop_least=300, stop_ratio=3.0
    ),
    # RAVE (all moves as first) in the tree, equivalence constants 100 and 500 (self-play screen)
    "5-1k-rave": _five("5-1k-rave", 1000, rave=100.0),
    "5-1k-rave500": _five("5-1k-rave500", 1000, rave=500.0),
    # progressive widening: a node's children grow as 2 (n + 1) ** exponent (self-play screen)
    "5-1k-widen": _five("5-1k-widen", 1000, widening=0.5),
    "5-1k-widen25": _five("5-1k-widen25", 1000, widening=0.25),
    "5-widen": _five("5-widen", widening=0.5),
}
"""Search variants measured against the levels (see BENCHMARKS.md, "Search levels")."""

Chooser = Callable[[GameState, Sequence[TokenId] | None], Event]
Answering = Callable[[GameState, Sequence[TokenId] | None], Answer]


def answering(level: Level, seed: int) -> Answering:
    """A level's answers through one game: `suggest`'s, or a `Keeper`'s for a level that
    keeps its tree between its answers."""
    if level.keep:
        return Keeper(level, seed, raw=True).answer
    return lambda state, drawn: suggest(state, level, seed, drawn=drawn, raw=True)


def chooser(level: Level, seed: int) -> Chooser:
    """The move a level plays (the first of its answers), for a referee."""
    answers = answering(level, seed)
    return lambda state, drawn: answers(state, drawn).moves[0].event


Estimate = tuple[str, Player, float]
"""A level's estimated chance to win with the move it plays: the level, the player it is
for, the search's raw estimate (before `companion.search.calibration`'s map)."""


def player(name: str, seed: int, clock: list[float], estimates: list[Estimate]) -> Chooser:
    """The player `name`, drawing from `seed`; each answer's CPU time is added to `clock`
    (`clock[0]` seconds, `clock[1]` answers), and a level's raw estimated chance to win with
    the move it plays to `estimates` (with the level and the player it is for)."""
    rng = random.Random(seed)
    level = VARIANTS.get(name) or LEVELS.get(name)
    answers = answering(level, seed) if level is not None else None

    def choose(state: GameState, drawn: Sequence[TokenId] | None) -> Event:
        start = time.process_time()
        if answers is not None:
            answer = answers(state, drawn)
            event = answer.moves[0].event
            if len(answer.moves) > 1:  # a real choice
                estimates.append((name, answer.player, answer.moves[0].win))
        elif name == "greedy":
            event = greedy_event(state, rng, drawn)
        elif name == "random":
            event = rng.choice(root_events(state, drawn))
        else:
            raise SystemExit(f"unknown player {name!r}")
        clock[0] += time.process_time() - start
        clock[1] += 1
        return event

    return choose


PROGRAM_TIMEOUT = 60.0
"""Seconds a program has to answer (a refused answer loses it the game)."""


def program(name: str, label: str) -> tuple[Outside, Program]:
    """The outside player of `name` (`cmd:PROGRAM ARGS...`), started, called `label`."""
    try:
        command = shlex.split(name[len(COMMAND) :])
    except ValueError as bad:
        raise SystemExit(f"{name!r}: {bad}") from None
    if not command:
        raise SystemExit(f"{name!r} names no program")
    process = Program(command, PROGRAM_TIMEOUT)
    try:
        process.start()
    except OSError as bad:
        raise SystemExit(f"cannot start {command[0]}: {bad.strerror or bad}") from None
    return Outside(label, process.ask), process


def match(
    a: str,
    b: str,
    games: int,
    seed: int,
    expansions: tuple[str, ...] = (),
    names: tuple[str | None, str | None] = (None, None),
) -> dict[str, object]:
    """`games` games of `a` against `b` (seats swapped on paired deals) with `expansions`:
    A's results and both sides' CPU per move (none for a program). `names` label the players
    in the result (a program's command is no name for a table)."""
    label_a, label_b = names[0] or a, names[1] or b
    if label_a == label_b:
        raise SystemExit("the two players need different names (--name-a, --name-b)")
    catalog = default_catalog(expansions)
    results: list[str] = []
    clocks = {a: [0.0, 0.0], b: [0.0, 0.0]} if a != b else {a: [0.0, 0.0]}
    calibration: list[tuple[str, float, float, int]] = []
    programs: dict[str, tuple[Outside, Program]] = {}
    for name, label in ((a, label_a), (b, label_b)):
        if name.startswith(COMMAND) and name not in programs:
            programs[name] = program(name, label)
    try:
        for number in range(games):
            results.append(_game(catalog, (a, b), number, seed, clocks, calibration, programs))
            print(f"{number + 1}/{games} {results[-1]}", file=sys.stderr, flush=True)
    finally:
        for _, process in programs.values():
            process.close()
    wins = results.count("win") + results.count("forfeit win")
    losses = results.count("loss") + results.count("forfeit loss")
    shared = results.count("shared")
    score = (wins + shared / 2) / games
    low, high = wilson(score, games)
    labels = {a: label_a, b: label_b}
    cpu = {
        labels[name]: (c[0] / c[1] if c[1] else 0.0)
        for name, c in clocks.items()
        if name not in programs
    }
    return {
        "a": label_a, "b": label_b, "games": games, "seed": seed,
        "expansions": list(expansions), "wins": wins, "losses": losses, "shared": shared,
        "forfeits": sum(r.startswith("forfeit") for r in results), "score": score,
        "interval": [low, high], "cpu_per_move": cpu, "calibration": calibration,
        "results": results,
    }  # fmt: skip


def _game(
    catalog: Catalog,
    pair: tuple[str, str],
    number: int,
    seed: int,
    clocks: dict[str, list[float]],
    calibration: list[tuple[str, float, float, int]],
    programs: dict[str, tuple[Outside, Program]],
) -> str:
    """Game `number` of a match: A's result ("win", "loss", "shared", or "forfeit win" /
    "forfeit loss" when a program's answer was refused)."""
    a, b = pair
    pair_seed = seed + number // 2
    a_seat = Player.P1 if number % 2 == 0 else Player.P2
    estimates: list[Estimate] = []

    def seat(name: str, seed: int) -> Seat:
        if name in programs:
            return programs[name][0]
        return player(name, seed, clocks[name], estimates)

    one, two = seat(a, pair_seed * 2 + 1), seat(b, pair_seed * 2 + 2)
    players = (one, two) if a_seat is Player.P1 else (two, one)
    try:
        final, _ = play_game(catalog, players, pair_seed)
    except Forfeit as lost:
        print(f"game {number}: forfeit by {lost.player.value}: {lost.reason}", file=sys.stderr)
        return "forfeit loss" if lost.player is a_seat else "forfeit win"
    for name, who, win in estimates:
        result = 0.5 if final.shared else float(final.winner is who)
        calibration.append((name, win, result, number))
    return "shared" if final.shared else "win" if final.winner is a_seat else "loss"


def elo(score: float) -> float:
    """The Elo difference of a score rate (infinite at 0 or 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def combined(matches: list[dict[str, object]]) -> list[dict[str, object]]:
    """The matches with those of the same pairing (A and B) added together, in the order
    each pairing first appears (CPU per move averaged over the games)."""
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    for m in matches:
        key = (str(m["a"]), str(m["b"]))
        games = int(m["games"])  # type: ignore[call-overload]
        cpu: dict[str, float] = m["cpu_per_move"]  # type: ignore[assignment]
        into = pairs.setdefault(key, {"a": key[0], "b": key[1], "games": 0, "wins": 0,
                                      "losses": 0, "shared": 0, "cpu_games": {},
                                      "calibration": []})  # fmt: skip
        into["games"] += games
        for count in ("wins", "losses", "shared"):
            into[count] += int(m[count])  # type: ignore[call-overload]
        for name, seconds in cpu.items():
            into["cpu_games"][name] = into["cpu_games"].get(name, 0.0) + seconds * games
        into["calibration"] += m.get("calibration", [])
    for m in pairs.values():
        score = (m["wins"] + m["shared"] / 2) / m["games"]
        m["score"], m["interval"] = score, list(wilson(score, m["games"]))
        m["cpu_per_move"] = {n: t / m["games"] for n, t in m.pop("cpu_games").items()}
    return list(pairs.values())


def table(matches: list[dict[str, object]]) -> str:
    """The Markdown table of the pairings (A's score, interval, Elo difference with its
    interval, CPU per move) and the chained ratings."""
    lines = [
        "| A | B | games | A's score | 95 % interval | Elo A - B | 95 % interval | "
        "CPU s/move A | CPU s/move B |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    ratings: dict[str, float] = {}
    variances: dict[str, float] = {}  # of each rating, the chain's steps' added up
    for m in matches:
        a, b = str(m["a"]), str(m["b"])
        score = float(m["score"])  # type: ignore[arg-type]
        low, high = m["interval"]  # type: ignore[misc]
        cpu: dict[str, float] = m["cpu_per_move"]  # type: ignore[assignment]
        lines.append(
            f"| {a} | {b} | {m['games']} | {score:.1%} | {low:.1%} to {high:.1%} | "
            f"{elo(score):+.0f} | {elo(low):+.0f} to {elo(high):+.0f} | "
            f"{_seconds(cpu.get(a))} | {_seconds(cpu.get(b))} |"
        )
        # the step's standard error, read off its 95 % interval as if it were normal
        step = (elo(high) - elo(low)) / (2 * 1.96)
        if not ratings:
            ratings[b], variances[b] = 0.0, 0.0
        if b in ratings and a not in ratings:
            ratings[a], variances[a] = ratings[b] + elo(score), variances[b] + step**2
        elif a in ratings and b not in ratings:
            ratings[b], variances[b] = ratings[a] - elo(score), variances[a] + step**2
    lines += ["", "| player | Elo (chained) | 95 % interval |", "| --- | --- | --- |"]
    for name, rating in ratings.items():
        half = 1.96 * math.sqrt(variances[name])
        bounds = f"{rating - half:+.0f} to {rating + half:+.0f}" if math.isfinite(half) else "open"
        lines.append(f"| {name} | {rating:+.0f} | {bounds if half else '(anchor)'} |")
    return "\n".join(lines)


SCORES = {"win": 1.0, "forfeit win": 1.0, "shared": 0.5, "loss": 0.0, "forfeit loss": 0.0}
"""A's score in a game of each result."""


def outcomes(m: dict[str, Any]) -> list[float | None]:
    """A's score in each game of a match, in order: from its `results`, else (files written
    before they were recorded) from the results of A's estimates (None for a game in which A
    had no real choice).

    Raises:
        ValueError: a result it does not know, or estimates without their game's number.
    """
    if "results" in m:
        unknown = [r for r in m["results"] if r not in SCORES]
        if unknown:
            raise ValueError(f"a result not known: {unknown[0]!r}")
        return [SCORES[result] for result in m["results"]]
    scores: list[float | None] = [None] * int(m["games"])
    for entry in m.get("calibration", []):
        if len(entry) != 4:
            raise ValueError("no game-by-game results (written before they were recorded)")
        name, _, result, game = entry
        if name == m["a"]:
            scores[game] = result
    return scores


def paired(x: dict[str, Any], y: dict[str, Any], games: int | None = None) -> dict[str, object]:
    """Two matches on the same deals (same seed, same opponent) compared game by game (the
    first `games` of each, else all both played): the games compared, those where X scored
    more and those where Y did, and the two-sided sign test's p of those (a shared victory
    against a win or a loss counts as a difference)."""
    if x["seed"] != y["seed"] or x["b"] != y["b"]:
        raise SystemExit("paired matches need the same seed and the same opponent")
    both = list(zip(outcomes(x), outcomes(y), strict=False))[:games]
    pairs = [(a, b) for a, b in both if a is not None and b is not None]
    x_more = sum(a > b for a, b in pairs)
    y_more = sum(b > a for a, b in pairs)
    n = x_more + y_more
    tail = sum(math.comb(n, k) for k in range(min(x_more, y_more) + 1)) / 2**n
    return {"x": x["a"], "y": y["a"], "games": len(pairs), "x_more": x_more,
            "y_more": y_more, "p": min(1.0, 2 * tail)}  # fmt: skip


MATCH_KEYS = ("a", "b", "seed", "games")  # what every match file holds


def _match_file(path: Path) -> dict[str, Any]:
    """A match file written by `match`, or a one-line refusal of an unreadable one."""
    try:
        m = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as bad:
        raise SystemExit(f"{path}: not a match file ({bad})") from None
    missing = [key for key in MATCH_KEYS if not isinstance(m, dict) or key not in m]
    if missing:
        raise SystemExit(f"{path}: not a match file (no {', '.join(missing)})")
    return dict(m)


def _seconds(cpu: float | None) -> str:
    """A side's CPU a move for the table ("-" for a program, whose CPU is not measured)."""
    return "-" if cpu is None else f"{cpu:.4f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parts = parser.add_subparsers(dest="part", required=True)
    one = parts.add_parser("match", help="one match, written as JSON")
    one.add_argument("--a", required=True)
    one.add_argument("--b", required=True)
    one.add_argument("--games", type=int, default=40)
    one.add_argument("--seed", type=int, default=0)
    one.add_argument("--out", type=Path)
    one.add_argument("--name-a", help="A's name in the file (for a cmd: program)")
    one.add_argument("--name-b", help="B's name in the file (for a cmd: program)")
    one.add_argument("--expansion", action="append", default=[], choices=["pantheon"])
    many = parts.add_parser("elo", help="the table from match files")
    many.add_argument("files", nargs="+", type=Path)
    two = parts.add_parser("paired", help="two matches on the same deals, game by game")
    two.add_argument("x", type=Path)
    two.add_argument("y", type=Path)
    two.add_argument("--games", type=int, help="only the first GAMES games of each")
    args = parser.parse_args(argv)
    if args.part == "paired":
        x, y = _match_file(args.x), _match_file(args.y)
        for path, m in ((args.x, x), (args.y, y)):
            try:
                outcomes(m)
            except ValueError as bad:
                raise SystemExit(f"{path}: {bad}") from None
        print(json.dumps(paired(x, y, args.games)))
        return 0
    if args.part == "match":
        expansions = tuple(dict.fromkeys(args.expansion))
        names = (args.name_a, args.name_b)
        result = match(args.a, args.b, args.games, args.seed, expansions, names)
        text = json.dumps(result)
        if args.out is not None:
            args.out.write_text(text + "\n", encoding="utf-8")
        print(text)
        return 0
    matches = combined([_match_file(path) for path in args.files])
    print(table(matches))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
