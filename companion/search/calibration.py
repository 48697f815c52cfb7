"""Win chances that mean what they say: a monotone map, per level, from the search's raw
estimate of a move's chance to win to the share of games won from such estimates.

The raw estimate (the mean reward of a move's node, or the evaluation right after a move
the search did not try) ranks the moves well but is not a frequency: measured against the
results of arena games it was off by up to 10 points in a tenth. The map is an isotonic
regression (pool adjacent violators) of the results of training games on their raw
estimates, fitted by benchmarks/win_calibration.py, which writes the fitted points into
`calibration_map.py`; between two points the map is linear, beyond the first and the last it
is flat. Fitted values stay within `LOWEST` and `HIGHEST`: only a forced line (1) and a move
that lets the opponent force a win (0) are certain, and those are never mapped.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .calibration_map import MAPS

__all__ = ["HIGHEST", "LOWEST", "Block", "Knots", "calibrated", "fit", "level_map", "pool"]

Knots = tuple[tuple[float, float], ...]
"""A map's points: (raw estimate, calibrated chance), the raw estimates increasing."""

LOWEST = 0.01
HIGHEST = 0.99
"""The range of a calibrated chance that is not certain."""


@dataclass(frozen=True, slots=True)
class Block:
    """Adjacent raw estimates pooled into one value: their weight, their mean raw estimate
    and their mean result."""

    weight: float
    raw: float
    result: float


def pool(points: Iterable[tuple[float, float, float]], min_weight: float = 0.0) -> list[Block]:
    """The isotonic regression of results on raw estimates: `points` are (raw estimate,
    result, weight); equal raw estimates are pooled first, then every pair of adjacent
    blocks whose results do not increase (pool adjacent violators), then each block lighter
    than `min_weight` with its right neighbour (the last with its left one). The blocks'
    results increase strictly from left to right.
    """
    merged: dict[float, list[float]] = {}
    for raw, result, weight in points:
        into = merged.setdefault(raw, [0.0, 0.0])
        into[0] += weight
        into[1] += weight * result
    blocks: list[Block] = []
    for raw in sorted(merged):
        weight, won = merged[raw]
        if weight <= 0:
            continue
        blocks.append(Block(weight, raw, won / weight))
        while len(blocks) > 1 and blocks[-2].result >= blocks[-1].result:
            right = blocks.pop()
            blocks[-1] = _joined(blocks[-1], right)
    return _heavy(blocks, min_weight)


def _heavy(blocks: list[Block], min_weight: float) -> list[Block]:
    """`blocks` with each one lighter than `min_weight` joined to its right neighbour (the
    last to its left one). Joining neighbours of an increasing sequence keeps it increasing:
    the joined result lies between theirs."""
    heavy: list[Block] = []
    for block in blocks:
        if heavy and heavy[-1].weight < min_weight:
            block = _joined(heavy.pop(), block)
        heavy.append(block)
    if len(heavy) > 1 and heavy[-1].weight < min_weight:
        last = heavy.pop()
        heavy[-1] = _joined(heavy[-1], last)
    return heavy


def _joined(left: Block, right: Block) -> Block:
    """Two blocks as one: weights added, means weighted."""
    weight = left.weight + right.weight
    raw = (left.raw * left.weight + right.raw * right.weight) / weight
    result = (left.result * left.weight + right.result * right.weight) / weight
    return Block(weight, raw, result)


def fit(pairs: Iterable[tuple[float, float]], min_weight: float = 0.0) -> Knots:
    """The map of (raw estimate, result) pairs, each of weight 1: a point per block of
    `pool`, its chance held within `LOWEST` and `HIGHEST` (rounded to 4 decimals)."""
    blocks = pool(((raw, result, 1.0) for raw, result in pairs), min_weight)
    return tuple((round(b.raw, 4), round(min(HIGHEST, max(LOWEST, b.result)), 4)) for b in blocks)


def calibrated(knots: Sequence[tuple[float, float]], raw: float) -> float:
    """The calibrated chance of a raw estimate: linear between the map's points, flat beyond
    them; the raw estimate itself when the map is empty."""
    if not knots:
        return raw
    at = bisect_right(knots, (raw, math.inf))  # the first point beyond `raw`
    if at == 0:
        return knots[0][1]
    if at == len(knots):
        return knots[-1][1]
    (x0, y0), (x1, y1) = knots[at - 1], knots[at]
    return y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


def level_map(name: str) -> Knots:
    """The fitted map of the level called `name` ("1" to "5"); empty (raw estimates kept)
    for a level no map was fitted for, such as a search variant."""
    return MAPS.get(name, ())
