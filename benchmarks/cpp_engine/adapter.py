"""The open C++ engine for 7 Wonders Duel (indjev99/7-Wonders-Duel-AI) as a player of the
engine protocol (docs/engine-protocol.md): its MCTS agent that does not branch on card
reveals, through the driver built by build.sh (README.md beside this file).

    python3 benchmarks/cpp_engine/adapter.py --bin OUT --playouts 300
    python3 benchmarks/cpp_engine/adapter.py --bin OUT --seconds 0.175

Each request's record (public information only) becomes one line of the driver: the setup,
the deals as far as they are known (a `reveal` line fills its position), the Great Library
draws and every move as the engine's action; the driver replays them in the engine's own
game state and answers its agent's move, which becomes the record line answered. It needs no
package but this checkout's `companion` (the catalog as the companion loads it), so any
Python 3.11 runs it; nothing but protocol answers on standard output. `--log FILE` appends
one JSON line per answer: the engine's CPU seconds and playouts for it.

The engine's objects are matched to the catalog's ids by name (`ENGINE_NAMES`), and at start
the adapter checks the engine's list against the catalog: every card, wonder and token, its
age and colour, and the three layouts (which positions are face up, which cover which). Any
difference stops it with the reason.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.engine.catalog import load_catalog  # noqa: E402

# The engine's object names (src/game/objects.cpp) and the catalog's ids. Every card, wonder
# and progress token of the base game, and nothing else (the engine's "Looting 1" and
# "Looting 2" are the military tokens, which no record names).
ENGINE_NAMES: dict[str, str] = {
    # brown
    "Lumber Yard": "lumber_yard", "Logging Camp": "logging_camp", "Clay Pool": "clay_pool",
    "Clay Pit": "clay_pit", "Quarry": "quarry", "Stone Pit": "stone_pit",
    "Sawmill": "sawmill", "Brickyard": "brickyard", "Shelf Quarry": "shelf_quarry",
    # grey
    "Glassworks": "glassworks", "Press": "press", "Glassblower": "glass_blower",
    "Drying Room": "drying_room",
    # blue
    "Theater": "theater", "Altar": "altar", "Baths": "baths", "Statue": "statue",
    "Temple": "temple", "Aqueduct": "aqueduct", "Rostrum": "rostrum",
    "Courthouse": "courthouse", "Gardens": "gardens", "Pantheon": "pantheon",
    "Senate": "senate", "Palace": "palace", "Town Hall": "town_hall", "Obelisk": "obelisk",
    # red
    "Stable": "stable", "Garrison": "garrison", "Palisade": "palisade",
    "Guard Tower": "guard_tower", "Horse Breeders": "horse_breeders", "Barracks": "barracks",
    "Archery Range": "archery_range", "Parade Ground": "parade_ground", "Walls": "walls",
    "Fortifications": "fortifications", "Siege Workshop": "siege_workshop",
    "Circus": "circus", "Arsenal": "arsenal", "Pretorium": "pretorium",
    # green
    "Scriptorium": "scriptorium", "Pharmacist": "pharmacist", "Workshop": "workshop",
    "Apothecary": "apothecary", "Library": "library", "Dispensary": "dispensary",
    "School": "school", "Laboratory": "laboratory", "University": "university",
    "Observatory": "observatory", "Academy": "academy", "Study": "study",
    # yellow
    "Tavern": "tavern", "Stone Reserve": "stone_reserve", "Clay Reserve": "clay_reserve",
    "Wood Reserve": "wood_reserve", "Brewery": "brewery", "Forum": "forum",
    "Caravansery": "caravansery", "Customs House": "customs_house",
    "Lighthouse": "lighthouse", "Arena": "arena", "Chamber of Commerce": "chamber_of_commerce",
    "Port": "port", "Armory": "armory",
    # guilds
    "Merchants Guild": "merchants_guild", "Shipowners Guild": "shipowners_guild",
    "Builders Guild": "builders_guild", "Magistrates Guild": "magistrates_guild",
    "Scientists Guild": "scientists_guild", "Moneylenders Guild": "moneylenders_guild",
    "Tacticians Guild": "tacticians_guild",
    # progress tokens
    "Agriculture": "agriculture", "Architecture": "architecture", "Economy": "economy",
    "Law": "law", "Masonry": "masonry", "Mathematics": "mathematics",
    "Philosophy": "philosophy", "Strategy": "strategy", "Theology": "theology",
    "Urbanism": "urbanism",
    # wonders
    "The Appian Way": "the_appian_way", "Circus Maximus": "circus_maximus",
    "The Colossus": "the_colossus", "The Great Library": "the_great_library",
    "The Great Lighthouse": "the_great_lighthouse",
    "The Hanging Gardens": "the_hanging_gardens", "The Mausoleum": "the_mausoleum",
    "Piraeus": "piraeus", "The Pyramids": "the_pyramids", "The Sphinx": "the_sphinx",
    "The Statue of Zeus": "the_statue_of_zeus",
    "The Temple of Artemis": "the_temple_of_artemis",
}  # fmt: skip

ENGINE_UNUSED = frozenset({"Looting 1", "Looting 2"})
"""Engine objects no record names: the military (looting) tokens."""

# The engine's object types (src/game/object_types.h) by the catalog's card colours.
ENGINE_TYPES = {"brown": 0, "grey": 1, "blue": 2, "red": 3, "green": 4, "yellow": 5}
ENGINE_TYPES |= {"purple": 6, "token": 7, "wonder": 8}

# The engine's actions (src/game/action.h).
PLAY, GAME_TOKEN, BOX_TOKEN, FROM_DISCARD, DESTROY, SELECT_WONDER, START_PLAYER = range(7)
BUILD, DISCARD = -1, -2
UNKNOWN, GUILD_BACK = -1, -2  # a deal's entries the driver reads besides object ids

PLAYERS = ("p1", "p2")


class Mismatch(Exception):
    """The engine and the catalog disagree (a name, an age, a colour, a layout)."""


class Unanswerable(Exception):
    """A request the adapter cannot answer: one line saying why."""


@dataclass(frozen=True)
class Catalog:
    """What the adapter checks and translates: every id with its kind ("card", "wonder",
    "token"), each card's age (guilds 3) and colour, and the layouts: per age, the face-up
    positions and, per position, the positions it covers."""

    kinds: dict[str, str]
    ages: dict[str, int]
    colours: dict[str, str]
    face_up: dict[int, frozenset[int]]
    covers: dict[int, dict[int, frozenset[int]]]


def read_catalog() -> Catalog:
    """The base game's catalog as the companion loads it (`load_catalog`, from this
    checkout's data/: a plain Python has no installed `companion.data`), in the terms the
    adapter checks and translates."""
    catalog = load_catalog(ROOT / "data", ())
    kinds = {c.id: "card" for c in catalog.cards}
    kinds |= {w.id: "wonder" for w in catalog.wonders}
    kinds |= {t.id: "token" for t in catalog.progress_tokens}
    ages = {c.id: c.age for c in catalog.cards}
    colours = {c.id: c.color.value for c in catalog.cards}
    layouts = {age: catalog.layout(age).positions for age in (1, 2, 3)}
    face_up = {
        age: frozenset(p.index for p in positions if p.face_up)
        for age, positions in layouts.items()
    }
    covers = {
        age: {p.index: frozenset(p.covers) for p in positions} for age, positions in layouts.items()
    }
    return Catalog(kinds, ages, colours, face_up, covers)


@dataclass(frozen=True)
class Engine:
    """The engine's objects as the driver lists them, matched to the catalog: the engine id
    of each catalog id and back, and the engine type of each."""

    ids: dict[str, int]
    names: dict[int, str]
    types: dict[int, int]


def matched(lines: Iterable[str], catalog: Catalog) -> Engine:
    """The engine of the driver's `objects` listing, checked against `catalog`.

    Raises:
        Mismatch: an engine name not in ENGINE_NAMES, a catalog id it lacks, an age, a colour
            or a layout that differs.
    """
    ids: dict[str, int] = {}
    types: dict[int, int] = {}
    slots: dict[int, dict[int, tuple[bool, frozenset[int]]]] = {1: {}, 2: {}, 3: {}}
    problems: list[str] = []
    for line in lines:
        words = line.split()
        if words[:1] == ["slot"]:
            age, position, face_up = int(words[1]), int(words[2]), words[3] == "1"
            slots[age][position] = (face_up, frozenset(int(w) for w in words[4:]))
            continue
        if words[:1] != ["object"]:
            raise Mismatch(f"unexpected line from the driver: {line!r}")
        number, kind, deck, name = int(words[1]), int(words[2]), words[3], " ".join(words[4:])
        if name in ENGINE_UNUSED:
            continue
        if name not in ENGINE_NAMES:
            problems.append(f"the engine's {name!r} has no catalog id")
            continue
        ours = ENGINE_NAMES[name]
        ids[ours] = number
        types[number] = kind
        problems += _object_problems(name, ours, kind, deck, catalog)
    problems += [f"the engine has no {ours!r}" for ours in sorted(set(catalog.kinds) - set(ids))]
    for age in (1, 2, 3):
        for position, covers in catalog.covers[age].items():
            face_up = position in catalog.face_up[age]
            if slots[age].get(position) != (face_up, covers):
                problems.append(f"age {age} position {position}: the layouts differ")
    if problems:
        raise Mismatch("; ".join(problems))
    return Engine(ids, {n: ours for ours, n in ids.items()}, types)


def _object_problems(name: str, ours: str, kind: int, deck: str, catalog: Catalog) -> list[str]:
    """What differs between the engine's object `name` (type `kind`, in `deck`) and the
    catalog's `ours`."""
    if ours not in catalog.kinds:
        return [f"{ours!r} (the engine's {name!r}) is not in the catalog"]
    what = catalog.kinds[ours]
    if what == "card":
        colour = catalog.colours[ours]
        problems = []
        if kind != ENGINE_TYPES.get(colour):
            problems.append(f"{ours}: the engine's type {kind} is not {colour}")
        expected = "guild" if colour == "purple" else str(catalog.ages[ours])
        if deck != expected:
            problems.append(f"{ours}: the engine's deck {deck} is not {expected}")
        return problems
    if kind != ENGINE_TYPES[what] or deck != what:
        return [f"{ours}: the engine's type {kind} / deck {deck} is not a {what}"]
    return []


def driver_line(
    record: Sequence[dict[str, Any]],
    drawn: Sequence[str] | None,
    engine: Engine,
    budget: tuple[str, float],
    seed: int,
    samples: int,
) -> str:
    """The driver's `move` line for a request of `record` (and a Great Library's `drawn`).

    Raises:
        Unanswerable: a record the driver cannot replay (an expansion, an unknown id, ...).
    """
    if not record or record[0].get("type") != "setup":
        raise Unanswerable("the record begins with the setup")

    def number(ours: object) -> int:
        if not isinstance(ours, str) or ours not in engine.ids:
            raise Unanswerable(f"unknown id {ours!r}")
        return engine.ids[ours]

    def seat(player: object) -> int:
        if player not in PLAYERS:
            raise Unanswerable(f"unknown player {player!r}")
        return PLAYERS.index(str(player))

    setup = record[0]
    if setup.get("expansions"):
        raise Unanswerable("the C++ engine plays the base game only")
    wonders = setup["wonders"]
    words = [f"move {budget[0]} {budget[1]!r} {seed} {samples}"]
    words.append(f"first {seat(setup['first_player'])}")
    tokens = [number(t) for t in setup["progress_tokens"]]
    words.append(f"tokens {len(tokens)} " + " ".join(map(str, tokens)))
    words.append("wonders " + " ".join(str(number(w)) for w in wonders["p1"] + wonders["p2"]))
    deals: dict[int, list[int]] = {}
    draws: list[list[int]] = []
    moves: list[tuple[int, int, int]] = []
    for line in record[1:]:
        kind = line.get("type")
        if kind == "deal":
            deals[line["age"]] = [_entry(e, number) for e in line["layout"]]
        elif kind == "reveal":
            age = max(deals) if deals else 0
            if age == 0:
                raise Unanswerable("a reveal before any deal")
            deals[age][line["position"]] = number(line["card"])
        else:
            if kind == "great_library":
                draws.append([number(t) for t in line["drawn"]])
            moves.append(_action(line, number, seat, engine))
    if drawn is not None:
        draws.append([number(t) for t in drawn])
    for age, layout in sorted(deals.items()):
        words.append(f"deal {age} " + " ".join(map(str, layout)))
    for draw in draws:
        words.append(f"draw {len(draw)} " + " ".join(map(str, draw)))
    words.append(f"moves {len(moves)}")
    words += [f"{t} {a} {b}" for t, a, b in moves]
    words.append("end")
    return " ".join(words)


def _entry(entry: object, number: Any) -> int:
    """A deal's entry for the driver: an engine id, or UNKNOWN, or GUILD_BACK."""
    if entry is None:
        return UNKNOWN
    if entry == "guild":
        return GUILD_BACK
    return int(number(entry))


def _action(line: dict[str, Any], number: Any, seat: Any, engine: Engine) -> tuple[int, int, int]:
    """The engine's action of a record line that is a player's move or decision."""
    kind = line.get("type")
    if kind == "build":
        return PLAY, number(line["card"]), BUILD
    if kind == "discard":
        return PLAY, number(line["card"]), DISCARD
    if kind == "wonder":
        return PLAY, number(line["card"]), number(line["wonder"])
    if kind == "progress":
        return GAME_TOKEN, number(line["token"]), -100
    if kind == "great_library":
        return BOX_TOKEN, number(line["token"]), -100
    if kind == "mausoleum":
        return FROM_DISCARD, number(line["card"]), -100
    if kind == "destroy":
        card = number(line["card"])
        return DESTROY, card, engine.types[card]
    if kind == "next_age":
        return START_PLAYER, seat(line["starter"]), -100
    raise Unanswerable(f"a record line the C++ engine does not play: {kind!r}")


def event_of(
    answer: str, player: str, drawn: Sequence[str] | None, engine: Engine
) -> tuple[dict[str, Any], float, float]:
    """The record line of the driver's `answer` for `player`, the CPU seconds and the
    playouts it reported.

    Raises:
        Unanswerable: an error of the driver, or a move of the other player.
    """
    words = answer.split()
    if words[:1] == ["error"]:
        raise Unanswerable("the C++ engine: " + " ".join(words[1:]))
    if words[:1] != ["action"] or len(words) != 7:
        raise Unanswerable(f"the driver answered {answer!r}")
    kind, one, two = int(words[1]), int(words[2]), int(words[3])
    cpu, playouts, actor = float(words[4]), float(words[5]), int(words[6])
    if PLAYERS[actor] != player:
        raise Unanswerable(f"{PLAYERS[actor]} acts now, not {player}")

    def ours(n: int) -> str:
        if n not in engine.names:
            raise Unanswerable(f"the engine answered object {n}, which has no catalog id")
        return engine.names[n]

    event: dict[str, Any] = {"player": player}
    if kind == PLAY and two == BUILD:
        event |= {"type": "build", "card": ours(one)}
    elif kind == PLAY and two == DISCARD:
        event |= {"type": "discard", "card": ours(one)}
    elif kind == PLAY:
        event |= {"type": "wonder", "wonder": ours(two), "card": ours(one)}
    elif kind == GAME_TOKEN:
        event |= {"type": "progress", "token": ours(one)}
    elif kind == BOX_TOKEN:
        event |= {"type": "great_library", "drawn": list(drawn or ()), "token": ours(one)}
    elif kind == FROM_DISCARD:
        event |= {"type": "mausoleum", "card": ours(one)}
    elif kind == DESTROY:
        event |= {"type": "destroy", "card": ours(one)}
    elif kind == START_PLAYER:
        event |= {"type": "next_age", "starter": PLAYERS[one]}
    else:
        raise Unanswerable(f"the engine answered an action of type {kind}")
    event = {"type": event.pop("type"), **event}
    return event, cpu, playouts


class Driver:
    """The driver program, started once and restarted if it ends."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.process: subprocess.Popen[str] | None = None

    def ask(self, line: str) -> list[str]:
        """The driver's answer to `line`: one line, or the `objects` listing up to `end`."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()
        lines = []
        while True:
            got = process.stdout.readline()
            if not got:
                self.process = None
                raise Unanswerable("the driver ended")
            lines.append(got.strip())
            if not line.startswith("objects") or lines[-1] == "end":
                return lines[:-1] if line.startswith("objects") else lines

    def close(self) -> None:
        if self.process is not None:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait()


def answer(
    text: str,
    driver: Driver,
    engine: Engine,
    options: argparse.Namespace,
    log: TextIO | None,
) -> dict[str, Any]:
    """The protocol answer to one request line."""
    try:
        asked = json.loads(text)
    except json.JSONDecodeError as bad:
        return {"error": f"not valid JSON ({bad.msg})"}
    if not isinstance(asked, dict):
        return {"error": "expected a JSON object"}
    record, player, drawn = asked.get("record"), asked.get("player"), asked.get("drawn")
    if not isinstance(record, list) or not all(isinstance(r, dict) for r in record):
        return {"error": '"record" must be a list of record lines'}
    if player not in PLAYERS:
        return {"error": '"player" must be "p1" or "p2"'}
    if options.playouts is not None:
        budget = ("playouts", float(options.playouts))
    else:
        budget = ("seconds", float(options.seconds or asked.get("seconds") or 1.0))
    seed = (options.seed * 1_000_003 + zlib.crc32(text.encode())) & 0x7FFFFFFF
    try:
        line = driver_line(record, drawn, engine, budget, seed, options.samples)
        event, cpu, playouts = event_of(driver.ask(line)[0], player, drawn, engine)
    except (Unanswerable, KeyError, TypeError, ValueError, IndexError) as bad:
        return {"error": str(bad) or type(bad).__name__}
    if log is not None:
        log.write(json.dumps({"event": event, "cpu": cpu, "playouts": playouts}) + "\n")
        log.flush()
    if options.verbose:
        print(f"{event['type']} {cpu:.4f} CPU s, {playouts:.0f} playouts", file=sys.stderr)
    return {"event": event}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the driver built by build.sh")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, help="the agent's iterations a move")
    budget.add_argument(
        "--seconds", type=float, help="the agent's CPU seconds a move (default: the request's)"
    )
    parser.add_argument(
        "--samples", type=int, default=4,
        help="random deals searched when an age's cards are not known yet (default 4)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="added to each answer's seed")
    parser.add_argument("--log", help="append one JSON line per answer: CPU s, playouts")
    parser.add_argument("--verbose", action="store_true", help="each answer's cost on stderr")
    options = parser.parse_args(argv)
    driver = Driver(options.bin)
    try:
        engine = matched(driver.ask("objects"), read_catalog())
    except (Mismatch, Unanswerable, OSError) as bad:
        print(f"adapter: {bad}", file=sys.stderr)
        return 1
    log = open(options.log, "a", encoding="utf-8") if options.log else None  # noqa: SIM115
    try:
        for text in sys.stdin:
            if text.strip():
                print(json.dumps(answer(text, driver, engine, options, log)), flush=True)
    finally:
        driver.close()
        if log is not None:
            log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
