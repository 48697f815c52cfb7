"""A learned value of the position at the end of age 1 or age 2: the chance that p1 wins
when both players play on as the light playouts do (`policy.light_event`).

Level 5's playouts can stop at the end of the age (`mcts.Settings.age_value`) and score the
position with `value` instead of playing the later ages out: a playout to the end of age 1
costs about a third of one to the end of the game, and the fitted value estimates the mean
result of light play from that position with far less noise than one playout's 0 or 1.

The model is logistic, one per age end: `features` are the differences between p1's side and
p2's (VP now, coins, science, military, wonders, production, trade, chains, tokens, who
begins the next age), so the chance for p2 is one minus the chance for p1 when the cities
swap. The weights are fitted by benchmarks/fit_value.py on the results of light games
(BENCHMARKS.md, "a learned value at the end of the age"); the script writes WEIGHTS.
"""

from __future__ import annotations

import math
from typing import Final

from companion.engine.scoring import civilian_ranks
from companion.engine.state import City, GameState, PendingKind, Player

__all__ = ["FEATURES", "WEIGHTS", "features", "side_features", "value"]

FEATURES: Final[tuple[str, ...]] = (
    "vp",
    "coins",
    "symbols",
    "symbols_over_2",
    "symbols_over_3",
    "symbols_over_4",
    "pairs",
    "tokens",
    "military",
    "military_over_2",
    "military_over_5",
    "wonders_built",
    "wonders_unbuilt",
    "unbuilt_extra_turns",
    "brown",
    "grey",
    "choices",
    "trade",
    "chains",
    "starter",
)
"""What `side_features` measures of one player, in order (p1's minus p2's is `features`):
total VP now (the civilian count: blue, green, yellow, purple, wonders, tokens, coins over
3 and the conflict), coins, distinct science symbols (Law counts) and how far they pass 2, 3
and 4, symbols held twice (cards and Law), progress tokens, the pawn's distance into the
opponent's half and how far it passes 2 and 5, wonders built and unbuilt (the eighth is
boxed), unbuilt wonders that give another turn, brown production (wood, clay, stone), grey
(glass, papyrus), producers of a choice, resources bought for 1 coin, chain symbols, and 1
for the player who begins the next age."""

WEIGHTS: Final[dict[int, tuple[float, ...]]] = {
    1: (
        0.03489,  # vp
        0.05863,  # coins
        0.13746,  # symbols
        0.91363,  # symbols_over_2
        0.50297,  # symbols_over_3
        0.04169,  # symbols_over_4
        0.00000,  # pairs
        0.34981,  # tokens
        0.07788,  # military
        -0.13190,  # military_over_2
        1.43247,  # military_over_5
        0.10673,  # wonders_built
        0.02830,  # wonders_unbuilt
        0.14441,  # unbuilt_extra_turns
        0.39700,  # brown
        0.50754,  # grey
        0.73894,  # choices
        0.57803,  # trade
        0.12769,  # chains
        0.13413,  # starter
    ),
    2: (
        0.07239,  # vp
        0.03003,  # coins
        0.03240,  # symbols
        -0.09410,  # symbols_over_2
        1.85783,  # symbols_over_3
        1.21186,  # symbols_over_4
        -0.06047,  # pairs
        0.22277,  # tokens
        0.05966,  # military
        0.11876,  # military_over_2
        0.28304,  # military_over_5
        0.27063,  # wonders_built
        0.23620,  # wonders_unbuilt
        0.08016,  # unbuilt_extra_turns
        0.24714,  # brown
        0.35974,  # grey
        0.52847,  # choices
        0.32797,  # trade
        0.08173,  # chains
        0.17225,  # starter
    ),
}
"""The fitted weights of `FEATURES` at the end of age 1 and of age 2 (written by
benchmarks/fit_value.py)."""


def side_features(state: GameState, player: Player, vp: int, starter: Player) -> list[float]:
    """`FEATURES` of `player`'s side of `state`, given its total VP now and who begins the
    next age."""
    catalog = state.catalog
    city: City = state.city(player)
    symbols = len(city.symbols)
    seen: set[object] = set()
    pairs = 0
    for card_id in city.cards:
        science = catalog.card(card_id).science
        if science is None:
            continue
        if science in seen:
            pairs += 1
        else:
            seen.add(science)
    sign = 1 if player is Player.P1 else -1
    military = max(0, sign * state.position)
    unbuilt = city.wonders_unbuilt
    extra = 0
    for wonder_id in unbuilt:
        if catalog.wonder(wonder_id).extra_turn:
            extra += 1
    produces = city.produces
    return [
        float(vp),
        float(city.coins),
        float(symbols),
        float(max(0, symbols - 2)),
        float(max(0, symbols - 3)),
        float(max(0, symbols - 4)),
        float(pairs),
        float(len(city.tokens)),
        float(military),
        float(max(0, military - 2)),
        float(max(0, military - 5)),
        float(len(city.wonders_built)),
        float(len(unbuilt)),
        float(extra),
        float(produces[0] + produces[1] + produces[2]),
        float(produces[3] + produces[4]),
        float(len(city.choices)),
        float(len(city.fixed_price)),
        float(len(city.chain_symbols)),
        1.0 if player is starter else 0.0,
    ]


def features(state: GameState) -> list[float]:
    """p1's `side_features` minus p2's. Who begins the next age: the chooser of a pending
    next-age decision (a light playout's chooser takes the first turn), else the current
    player."""
    pending = state.pending
    if pending is not None and pending.kind is PendingKind.NEXT_AGE:
        starter = pending.player
    else:
        starter = state.current
    ranks = civilian_ranks(state)
    one = side_features(state, Player.P1, ranks[0][0], starter)
    two = side_features(state, Player.P2, ranks[1][0], starter)
    return [a - b for a, b in zip(one, two, strict=True)]


def value(state: GameState, player: Player) -> float:
    """The chance that `player` wins from `state`, a position at the end of age 1 or 2 (a
    later position is valued with age 2's weights)."""
    weights = WEIGHTS[min(state.age, 2)]
    z = 0.0
    for weight, x in zip(weights, features(state), strict=True):
        z += weight * x
    z = max(-30.0, min(30.0, z))
    chance = 1.0 / (1.0 + math.exp(-z))
    return chance if player is Player.P1 else 1.0 - chance
