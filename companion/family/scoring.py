"""End-of-game scoring of the base game, every number with its reason.

The categories come in the rulebook's order (seed 002, "Optælling af point"): military,
treasury, wonders, civilian, science, commercial, guilds, then Edifice when it is played.
Science places every wildcard (Scientists Guild, Babylon, a Scientists Guild copied by
Olympia) where it scores most, trying every placement; Olympia B copies the neighbour's guild
worth most to it. The player with most points wins; a tie goes to most coins, then is shared.
In the two-player variant the Free City is scored as a neighbour but not ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

from companion.engine.cards import Color
from companion.engine.plural import plural
from companion.family.cards import SYMBOLS, Counted, FamilyCard, PointsPer, Symbol, Where
from companion.family.table import DEBT_TOKENS, City, Table

CATEGORIES = ("military", "treasury", "wonders", "civilian", "science", "commercial", "guilds")
EDIFICE = "edifice"
COINS_PER_POINT = 3
POINTS_PER_SET = 7


@dataclass(frozen=True, slots=True)
class Part:
    """Some points of a category and why: 'Altar: 2 VP'."""

    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class Line:
    """One category of one player: the parts that add up to it, and notes that explain a
    choice made for the player (where a wildcard went, which guild Olympia copied)."""

    parts: tuple[Part, ...] = ()
    notes: tuple[str, ...] = ()
    points: int = field(init=False)
    """The category's points: the sum of its parts."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", sum([part.points for part in self.parts]))


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One city's score: a line per category, the total, and whether it is ranked."""

    name: str
    lines: dict[str, Line]
    coins: int
    ranked: bool
    total: int = field(init=False)
    """The sum of every category."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum([line.points for line in self.lines.values()]))


@dataclass(frozen=True, slots=True)
class Result:
    """Every city's score in sheet order, and the winners' names (several when shared)."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]

    @property
    def ranked(self) -> tuple[PlayerScore, ...]:
        """The players who can win (every city but the Free City)."""
        return tuple(p for p in self.players if p.ranked)


@dataclass(frozen=True, slots=True)
class Science:
    """The best science of a city: its points, the chosen symbol of each wildcard, notes."""

    line: Line
    choices: tuple[Symbol, ...]


def score_table(table: Table) -> Result:
    """Score every city of the table and name the winners."""
    players = tuple(_score_city(table, i) for i in range(len(table.cities)))
    return Result(players=players, winners=winners(players))


def winners(players: Sequence[PlayerScore]) -> tuple[str, ...]:
    """The ranked players with most points; a tie goes to most coins, then is shared."""
    ranked = [p for p in players if p.ranked]
    best = max((p.total, p.coins) for p in ranked)
    return tuple(p.name for p in ranked if (p.total, p.coins) == best)


def _score_city(table: Table, index: int) -> PlayerScore:
    city = table.cities[index]
    left, right = table.neighbours(index)
    guilds, science = _guilds_and_science(city, left, right)
    lines = {
        "military": military(city),
        "treasury": treasury(city),
        "wonders": wonders(city),
        "civilian": civilian(city),
        "science": science.line,
        "commercial": commercial(city),
        "guilds": guilds,
    }
    if table.projects is not None:
        lines[EDIFICE] = edifice(city, table)
    return PlayerScore(city.name, lines, city.coins, ranked=not city.free_city)


# --- The categories --------------------------------------------------------------------------


def military(city: City) -> Line:
    """The sum of the conflict tokens (victories +1/+3/+5 by age, defeats -1)."""
    parts = []
    for value in sorted(set(city.military), reverse=True):
        taken = city.military.count(value)
        kind = "victory token" if value > 0 else "defeat token"
        parts.append(Part(value * taken, f"{plural(taken, kind)} of {value:+d}"))
    return Line(tuple(parts))


def treasury(city: City) -> Line:
    """1 VP per 3 coins; the remainder is lost."""
    points, left = divmod(city.coins, COINS_PER_POINT)
    return Line((Part(points, f"{plural(city.coins, 'coin')} / 3 = {points} ({left} left over)"),))


def wonders(city: City) -> Line:
    """The points of the built stages."""
    return Line(
        tuple(
            Part(stage.points, f"{city.wonder.name} stage {number}")
            for number, stage in enumerate(city.built_stages, 1)
            if stage.points
        )
    )


def civilian(city: City) -> Line:
    """The printed points of the blue cards."""
    return Line(tuple(Part(c.points, c.name) for c in city.by_color.get(Color.BLUE, ())))


def commercial(city: City) -> Line:
    """The Age III yellow cards' points, counted on the cities each card names."""
    return Line(
        tuple(
            _counted_points(card, card.points_per, city, city, city)
            for card in city.by_color.get(Color.YELLOW, ())
            if card.points_per is not None
        )
    )


def edifice(city: City, table: Table) -> Line:
    """The signed Edifice line: the reward points of the built projects the player took part
    in, the penalty points of the failed ones they did not, or the debt token taken instead."""
    parts = []
    for project in table.projects or ():
        age = project.age
        if age in city.edifice.pawns:
            if project.built and project.reward_points:
                parts.append(Part(project.reward_points, f"Age {age} project built: reward"))
        elif age in city.edifice.debts:
            parts.append(Part(DEBT_TOKENS[age], f"Age {age} debt token"))
        elif not project.built and project.penalty_points:
            parts.append(Part(-project.penalty_points, f"Age {age} project failed: penalty"))
    return Line(tuple(parts))


# --- Guilds and science (which Olympia's copy links) -----------------------------------------


def _guilds_and_science(city: City, left: City, right: City) -> tuple[Line, Science]:
    """The guilds line and the best science, with Olympia B's best copied guild if built."""
    own = tuple(
        _counted_points(card, card.points_per, city, left, right)
        for card in city.by_color.get(Color.PURPLE, ())
        if card.points_per is not None
    )
    wildcards = _wildcards(city)
    science = best_science(city, wildcards)
    if not any(stage.copies_guild for stage in city.built_stages):
        return Line(own), science
    options = _copy_options(city, left, right, wildcards, science)
    if not options:
        return Line(own, ("no guild in the neighbours' cities to copy",)), science
    best = max(options, key=lambda option: option[0])  # first of equals: left neighbour first
    worth, guild, owner, part, science = best
    others = [f"{g.name} ({o.name}) +{w}" for w, g, o, _, _ in options if g is not guild]
    note = f"{city.wonder.name} copies {guild.name} from {owner.name}: +{worth} VP"
    note += f" (other choices: {', '.join(others)})" if others else ""
    parts = own if part is None else (*own, part)
    return Line(parts, (note,)), science


CopyOption = tuple[int, FamilyCard, City, Part | None, Science]


def _copy_options(
    city: City, left: City, right: City, wildcards: tuple[str, ...], science: Science
) -> list[CopyOption]:
    """Each neighbour guild Olympia can copy, with what it is worth to Olympia: its guild
    points counted as if in Olympia's city, or the science a copied wildcard adds to
    `science`, the best without a copy."""
    base = science.line.points
    owned = {card.id for card in city.cards}
    options: list[CopyOption] = []
    for owner in (left, right):
        for guild in owner.by_color.get(Color.PURPLE, ()):
            if guild.id in owned:
                continue
            if guild.is_scientists_guild:
                source = f"{guild.name} copied from {owner.name}"
                more = best_science(city, (*wildcards, source))
                options.append((more.line.points - base, guild, owner, None, more))
            elif guild.points_per is not None:
                part = _counted_points(guild, guild.points_per, city, left, right, copied=True)
                options.append((part.points, guild, owner, part, science))
            owned.add(guild.id)  # the same guild in both neighbours is one choice
    return options


def _wildcards(city: City) -> tuple[str, ...]:
    """The city's own science wildcards, named for the reasons."""
    found = [card.name for card in city.by_color.get(Color.PURPLE, ()) if card.is_scientists_guild]
    found += [
        f"{city.wonder.name} stage {number}"
        for number, stage in enumerate(city.built_stages, 1)
        if stage.science is Symbol.ANY
    ]
    return tuple(found)


def best_science(city: City, wildcards: tuple[str, ...]) -> Science:
    """The science points of the green cards with every wildcard placed where the total is
    highest (every placement is tried; equal totals keep the first in compass, gear, tablet
    order), with a note per wildcard comparing its other choices."""
    counts = city.symbols
    best: tuple[Symbol, ...] = ()
    if wildcards:
        best_points = -1
        for choice in product(SYMBOLS, repeat=len(wildcards)):
            points = science_points(_with(counts, choice))
            if points > best_points:
                best, best_points = choice, points
    final = _with(counts, best)
    parts = [
        Part(n * n, f"{n} x {symbol.value}: {n}x{n}")
        for symbol, n in zip(SYMBOLS, final, strict=True)
        if n
    ]
    sets = min(final)
    if sets:
        parts.append(
            Part(POINTS_PER_SET * sets, f"{plural(sets, 'set')} of three different symbols x 7")
        )
    notes = tuple(_wildcard_note(name, counts, best, i) for i, name in enumerate(wildcards))
    return Science(Line(tuple(parts), notes), best)


def science_points(counts: Sequence[int]) -> int:
    """Each symbol's count squared, plus 7 per set of three different symbols."""
    return sum(n * n for n in counts) + POINTS_PER_SET * min(counts)


def _with(counts: Sequence[int], choice: Sequence[Symbol]) -> Sequence[int]:
    if not choice:
        return counts
    return [n + choice.count(symbol) for symbol, n in zip(SYMBOLS, counts, strict=True)]


def _wildcard_note(name: str, counts: Sequence[int], best: tuple[Symbol, ...], index: int) -> str:
    """'Scientists Guild counted as a gear: 31 VP (as a compass 26, as a tablet 26)'."""
    chosen = best[index]
    alternatives = []
    for symbol in SYMBOLS:
        if symbol is not chosen:
            other = (*best[:index], symbol, *best[index + 1 :])
            alternatives.append(f"as a {symbol.value} {science_points(_with(counts, other))}")
    total = science_points(_with(counts, best))
    return f"{name} counted as a {chosen.value}: {total} VP ({', '.join(alternatives)})"


# --- Counting -------------------------------------------------------------------------------


def _counted_points(
    card: FamilyCard,
    rule: PointsPer,
    city: City,
    left: City,
    right: City,
    *,
    copied: bool = False,
) -> Part:
    """`rule.points` VP per counted item in the cities the card names, with the counts. A
    `copied` guild (Olympia B) is scored as if built in `city`: it is one of its cards."""
    where = {Where.OWN: city, Where.LEFT: left, Where.RIGHT: right}
    counted = [(where[w], _count(where[w], rule.counts)) for w in rule.cities]
    if copied and Where.OWN in rule.cities and card.color in rule.counts:
        counted = [(c, n + 1 if c is city else n) for c, n in counted]
    items = sum(n for _, n in counted)
    what = "/".join(c.value.replace("_", " ") for c in rule.counts)
    if not isinstance(rule.counts[0], Counted):
        what += " cards"
    cities = " + ".join(f"{n} in {c.name}'s city" for c, n in counted)
    name = f"{card.name} (copied)" if copied else card.name
    points = rule.points * items
    return Part(points, f"{name}: {rule.points} VP x {what} ({cities})")


def _count(city: City, counts: tuple[Color | Counted, ...]) -> int:
    total = 0
    for item in counts:
        if item is Counted.WONDER_STAGES:
            total += city.stages
        elif item is Counted.DEFEAT_TOKENS:
            total += city.defeats
        else:
            total += city.colors.get(item, 0)
    return total
