"""Speed of pricing: one card or wonder for one player, and everything accessible plus 4 wonders.

Cities are drawn from a fixed seed: random cards of the earlier ages and of the current one,
0-2 built wonders and some progress tokens, with the summaries `City` keeps. A second set of
"heavy" positions gives the builder all four choice producers, Masonry and Architecture, the
worst case of the search. Each call is timed on its own with `perf_counter_ns`, garbage
collection off; "uncached" clears the pricing caches before every call, "cached" prices the
same position again (caches warm), as a device does when it redraws a screen.

Run: .venv/bin/python benchmarks/pricing_speed.py [--positions N] [--seed S]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.catalog import default_catalog
from companion.engine.cards import Card, Catalog, Color, TokenId, Wonder
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


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    catalog = default_catalog()
    rng = random.Random(args.seed)
    plain = [random_position(catalog, rng, heavy=False) for _ in range(args.positions)]
    heavy = [random_position(catalog, rng, heavy=True) for _ in range(args.positions // 3)]
    print(f"machine: {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}")
    print(f"positions: {len(plain)} random + {len(heavy)} heavy, seed {args.seed}")
    print()
    print("| measurement (µs) | samples | median | p90 | p99 | max |")
    print("|---|---|---|---|---|---|")
    gc.disable()
    try:
        for name, positions in (("random", plain), ("heavy", heavy)):
            for clear in (True, False):
                state = "uncached" if clear else "cached"
                samples = one_target(catalog, positions, clear)
                print(row(f"one target, {name}, {state}", samples))
            for clear in (True, False):
                state = "uncached" if clear else "cached"
                samples = everything(catalog, positions, clear)
                print(row(f"accessible + 4 wonders, {name}, {state}", samples))
    finally:
        gc.enable()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
