"""The levels differ as the Elo table of BENCHMARKS.md ("Elo of the levels") says: small
seeded matches, each tally inside the range that the table's interval implies (5 against 4
takes about 70 s of CPU)."""

from __future__ import annotations

from math import comb

import pytest

from companion.engine.cards import Catalog
from companion.play.arena import arena


def binomial_at_most(count: int, games: int, rate: float) -> float:
    """The chance of at most `count` wins in `games` games won with chance `rate` each."""
    return sum(comb(games, k) * rate**k * (1 - rate) ** (games - k) for k in range(count + 1))


def implied_range(games: int, low: float, high: float) -> tuple[int, int]:
    """The wins a match of `games` games gives with 99 % chance when A's score lies within
    `low` to `high`: at least the 0.5 % point of low's tally, at most the 99.5 % point of
    high's."""
    least = max(k for k in range(games + 1) if binomial_at_most(k - 1, games, low) <= 0.005)
    most = min(k for k in range(games + 1) if 1 - binomial_at_most(k, games, high) <= 0.005)
    return least, most


def test_the_implied_range_worked_by_hand() -> None:
    # 2 games won with chance 1/2 each: 0, 1, 2 wins with 1/4, 1/2, 1/4; neither end is
    # below 0.5 %, so every tally is in range; won with 0.99: 0 wins has 0.0001 (out)
    assert implied_range(2, 0.5, 0.5) == (0, 2)
    assert implied_range(2, 0.99, 0.99) == (1, 2)


@pytest.mark.parametrize(
    ("a", "b", "games", "low", "high"),
    [
        # A's score and its 95 % interval in the table (400 games, seed 5000); the range
        # implied, and the tally of seed 0 (the same on every machine: budgets count
        # iterations, not seconds)
        ("1", "random", 40, 0.924, 0.967),  # 95.0 %: 32-40 wins; seed 0: 37
        ("1", "greedy", 60, 0.319, 0.413),  # 36.5 %, below greedy: 10-35; seed 0: 24
        ("2", "1", 40, 0.829, 0.896),  # 86.6 %: 27-40; seed 0: 35
        ("3", "2", 30, 0.718, 0.802),  # 76.2 %: 15-29; seed 0: 25
        ("5", "4", 10, 0.790, 0.864),  # 83.0 %: 4-10; seed 0: 10 (70 s of CPU)
    ],
)
def test_a_seeded_match_scores_as_the_elo_table_says(
    catalog: Catalog, a: str, b: str, games: int, low: float, high: float
) -> None:
    tally = arena(catalog, a, b, games, 0)
    least, most = implied_range(games, low, high)
    assert least <= tally.wins + tally.shared / 2 <= most
