"""Speed of pricing: one card or wonder for one player, and everything accessible plus 4 wonders.

Cities are drawn from a fixed seed: random cards of the earlier ages and of the current one,
0-2 built wonders and some progress tokens, with the summaries `City` keeps. A second set of
"heavy" positions gives the builder all four choice producers, Masonry and Architecture, the
worst case of the search. Each call is timed on its own with `perf_counter_ns`, garbage
collection off; "uncached" clears the pricing caches before every call, "cached" prices the
same position again (caches warm), as a device does when it redraws a screen.

Run: .venv/bin/python benchmarks/pricing_speed.py [--positions N] [--seed S] [--write]
(--write replaces the "## Pricing" section of BENCHMARKS.md with the results.)

    .venv/bin/python benchmarks/pricing_speed.py --catalogs [--rounds R]

prices the same base-game positions with the base catalog and with the catalog that holds
the Pantheon expansion (the one `run_service` loads, so that the setup can offer it), in
turn, `R` rounds each, and prints the medians of each measurement per catalog.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from report import machine, write_section

from companion.engine.cards import Card, Catalog, Color, TokenId, Wonder
from companion.engine.catalog import default_catalog, default_data_dir, load_catalog
from companion.engine.pricing import cheapest_payment, clear_caches
from companion.engine.state import City

TOKENS = ("masonry", "architecture", "economy", "urbanism", "agriculture", "law")
PRODUCERS = ("forum", "caravansery")
PRODUCING_WONDERS = ("the_great_lighthouse", "piraeus")


@dataclass(frozen=True)
class Position:
    """One player's turn: their city, the opponent's, what is accessible, their 4 wonders."""

    city: City
    opponent: City
    cards: tuple[Card, ...]
    wonders: tuple[Wonder, ...]


def city_of(catalog: Catalog, cards: Sequence[Card], wonders: Sequence[Wonder],
            tokens: Sequence[str]) -> City:  # fmt: skip
    """A city with the summaries of the state contract (brown and grey production only)."""
    produces = [0] * 5
    for card in cards:
        if card.color in (Color.BROWN, Color.GREY):
            produces = [a + b for a, b in zip(produces, card.produces, strict=True)]
    w, c, s, g, p = produces
    choices = tuple(x.produces_one_of for x in cards if x.produces_one_of) + tuple(
        x.produces_one_of for x in wonders if x.produces_one_of
    )
    return City(
        cards=tuple(card.id for card in cards),
        wonders_built=tuple(wonder.id for wonder in wonders),
        tokens=frozenset(TokenId(t) for t in tokens),
        produces=(w, c, s, g, p),
        choices=choices,
        fixed_price=frozenset(r for card in cards for r in card.fixed_price),
        chain_symbols=frozenset(card.chain_symbol for card in cards if card.chain_symbol),
    )


def random_position(catalog: Catalog, rng: random.Random, heavy: bool) -> Position:
    """A plausible turn of age 2 or 3."""
    age = rng.choice((2, 3))
    earlier = [c for c in catalog.cards if c.age < age and not c.is_guild]
    current = list(catalog.age_deck(age)) + (list(catalog.guilds) if age == 3 else [])
    rng.shuffle(earlier)
    rng.shuffle(current)
    accessible = tuple(current[: rng.randint(6, 10)])
    rest = earlier + current[10:]
    owned = rest[: rng.randint(5, 12)]
    opponent_owned = rest[12 : 12 + rng.randint(5, 12)]
    wonders = list(catalog.wonders)
    rng.shuffle(wonders)
    built = wonders[4 : 4 + rng.randint(0, 2)]
    tokens = [t for t in TOKENS if rng.random() < 0.2]
    if heavy:
        owned = [c for c in owned if c.id not in PRODUCERS]
        owned += [catalog.card(c) for c in PRODUCERS]
        built = [catalog.wonder(w) for w in PRODUCING_WONDERS]
        wonders = [w for w in wonders if w.id not in PRODUCING_WONDERS]
        tokens = ["masonry", "architecture"]
        # a builder with almost nothing of their own: every resource is missing
        owned = [c for c in owned if c.color not in (Color.BROWN, Color.GREY)]
    opponent = city_of(catalog, opponent_owned, wonders[6:8], ["economy"] if heavy else [])
    city = city_of(catalog, owned, built, tokens)
    return Position(city, opponent, accessible, tuple(wonders[:4]))


def price_all(catalog: Catalog, pos: Position) -> None:
    """Price every accessible card and the 4 wonders of a position."""
    targets: tuple[Card | Wonder, ...] = (*pos.cards, *pos.wonders)
    for target in targets:
        cheapest_payment(catalog, pos.city, pos.opponent, target)


def one_target(catalog: Catalog, positions: Sequence[Position], clear: bool) -> list[int]:
    """Nanoseconds to price one card or wonder, each timed on its own, 5 times."""
    samples = []
    for pos in positions:
        targets: tuple[Card | Wonder, ...] = (*pos.cards, *pos.wonders)
        for target in targets:
            cheapest_payment(catalog, pos.city, pos.opponent, target)  # warm (if cached)
            for _ in range(5):
                if clear:
                    clear_caches()
                start = time.perf_counter_ns()
                cheapest_payment(catalog, pos.city, pos.opponent, target)
                samples.append(time.perf_counter_ns() - start)
    return samples


def everything(catalog: Catalog, positions: Sequence[Position], clear: bool) -> list[int]:
    """Nanoseconds to price all accessible cards plus the 4 wonders of a position, 5 times."""
    samples = []
    for pos in positions:
        price_all(catalog, pos)
        for _ in range(5):
            if clear:
                clear_caches()
            start = time.perf_counter_ns()
            price_all(catalog, pos)
            samples.append(time.perf_counter_ns() - start)
    return samples


def row(name: str, samples: Sequence[int]) -> str:
    """A Markdown table row: median, p90, p99 and max in microseconds."""
    ordered = sorted(samples)
    cells = (
        statistics.median(ordered),
        ordered[int(0.90 * (len(ordered) - 1))],
        ordered[int(0.99 * (len(ordered) - 1))],
        ordered[-1],
    )
    return f"| {name} | {len(samples)} | " + " | ".join(f"{v / 1e3:.1f}" for v in cells) + " |"


def measure(catalog: Catalog, plain: Sequence[Position], heavy: Sequence[Position]) -> list[str]:
    """The results table, one row per measurement, and the verdicts on the targets."""
    lines = [
        "| measurement (µs) | samples | median | p90 | p99 | max |",
        "|---|---|---|---|---|---|",
    ]
    medians: dict[tuple[str, bool], list[float]] = {}
    p99s: dict[tuple[str, bool], list[int]] = {}
    gc.disable()
    try:
        for name, positions in (("random", plain), ("heavy", heavy)):
            for kind, run in (("one target", one_target), ("accessible + 4 wonders", everything)):
                for clear in (True, False):
                    samples = run(catalog, positions, clear)
                    state = "uncached" if clear else "cached"
                    lines.append(row(f"{kind}, {name} positions, {state}", samples))
                    medians.setdefault((kind, clear), []).append(statistics.median(samples))
                    p99s.setdefault((kind, clear), []).append(
                        sorted(samples)[int(0.99 * (len(samples) - 1))]
                    )
    finally:
        gc.enable()
    one = max(medians[("one target", True)]) / 1e3
    every = max(medians[("accessible + 4 wonders", True)]) / 1e3
    every_p99 = max(p99s[("accessible + 4 wonders", True)]) / 1e3
    lines += [
        "",
        f"- Target: one card or wonder, median under 20 µs: uncached median at most {one:.1f} µs "
        f"({'met' if one < 20 else 'NOT met'}).",
        f"- Target: everything accessible plus 4 wonders under 500 µs: uncached median at most "
        f"{every:.0f} µs, p99 at most {every_p99:.0f} µs "
        f"({'met' if every_p99 < 500 else 'NOT met'}).",
    ]
    return lines


def catalogs(plain: Sequence[Position], heavy: Sequence[Position], rounds: int) -> list[str]:
    """The same base-game positions priced with the base catalog and with the Pantheon one,
    in turn for `rounds` rounds: the median of each measurement per catalog (µs)."""
    which = {"base catalog": default_catalog(), "Pantheon catalog": default_catalog(("pantheon",))}
    found: dict[tuple[str, str], list[int]] = {}
    gc.disable()
    try:
        for _ in range(rounds):
            for name, catalog in which.items():
                for kind, positions in (("random", plain), ("heavy", heavy)):
                    for label, run in (("one target", one_target),
                                       ("accessible + 4 wonders", everything)):  # fmt: skip
                        samples = run(catalog, positions, True)
                        key = (f"{label}, {kind} positions, uncached", name)
                        found.setdefault(key, []).extend(samples)
    finally:
        gc.enable()
    lines = [
        "| measurement (µs, median) | base catalog | Pantheon catalog | difference |",
        "|---|---|---|---|",
    ]
    for measurement in dict.fromkeys(m for m, _ in found):
        base = statistics.median(found[(measurement, "base catalog")]) / 1e3
        both = statistics.median(found[(measurement, "Pantheon catalog")]) / 1e3
        lines.append(f"| {measurement} | {base:.2f} | {both:.2f} | {(both - base) / base:+.1%} |")
    loads: dict[tuple[str, ...], list[float]] = {(): [], ("pantheon",): []}
    for _ in range(rounds):
        for expansions, times in loads.items():
            start = time.process_time()
            load_catalog(default_data_dir(), expansions)
            times.append(time.process_time() - start)
    base, both = (statistics.median(t) * 1e3 for t in loads.values())
    lines.append(
        f"| loading the catalog once (CPU ms, not µs) | {base:.1f} | {both:.1f} | "
        f"{(both - base) / base:+.1%} |"
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md ## Pricing")
    compare = "base positions priced with the base and the Pantheon catalog"
    parser.add_argument("--catalogs", action="store_true", help=compare)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    catalog = default_catalog()
    rng = random.Random(args.seed)
    plain = [random_position(catalog, rng, heavy=False) for _ in range(args.positions)]
    heavy = [random_position(catalog, rng, heavy=True) for _ in range(args.positions // 3)]
    if args.catalogs:
        print("\n".join(catalogs(plain, heavy, args.rounds)))
        return 0
    command = "python benchmarks/pricing_speed.py" + " ".join(
        ["", f"--positions {args.positions}", f"--seed {args.seed}"]
    )
    lines = [
        "`cheapest_payment` for one player (`companion/engine/pricing.py`), by "
        "`benchmarks/pricing_speed.py`. Command (from the repository root, venv python):",
        "",
        "    .venv/bin/" + command + (" --write" if args.write else ""),
        "",
        f"Machine: {machine()}; shared with other work while measuring, so the tails "
        "(p99, max) include other processes' noise. "
        f"{len(plain)} random positions of ages 2 and 3 (6-10 accessible cards, 4 wonders, "
        f"random tokens) and {len(heavy)} heavy ones (all four choice producers, Masonry and "
        "Architecture, no brown or grey cards, opponent with Economy). Every call is timed on "
        "its own (`perf_counter_ns`, gc off), 5 times. *Uncached*: every pricing cache "
        "cleared before the call (the first time a question is asked); *cached*: the same "
        "call again (a screen redrawn, the rules checking a build just priced): for one "
        "target the answer to the last question, found by identity; for a whole screen the "
        "`lru_cache`s, since only the last question is kept.",
        "",
        *measure(catalog, plain, heavy),
    ]
    print("\n".join(lines))
    if args.write:
        write_section("## Pricing\n\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
