"""Fit the learned value of the end of an age (companion/search/value.py) on light games.

    .venv/bin/python benchmarks/fit_value.py --games 200000 --held-out 50000 --write

Each game starts from the dealt age 1 of a random game's setup and draft (`simulate.play`
with the seed `seed + game`), then both players play as level 5's playouts do
(`policy.light_event`, each player science-minded or not at random for the whole game, the
next ages dealt at random). The position at each age end (a next-age decision pending) is
kept with the game's result for p1 (1, 0.5 or 0). A logistic model without intercept on
`value.features` (p1's side minus p2's) is fitted per age end by Newton's method with a
small ridge penalty, on the first `--games` games; the next `--held-out` games measure it:
log loss and Brier score against a constant (the training games' mean result) and against
the old hand-tuned `policy.evaluate`. With `--write`, the weights replace `WEIGHTS` in
value.py (recompile the package afterwards). Prints one JSON object.

    .venv/bin/python benchmarks/fit_value.py --truth 400 --playouts 64

measures instead how well the value in value.py (and `evaluate`) predicts what a search's
playouts estimate: for the first age-1 end and age-2 end of `--truth` light games (seeds
900000 on), the mean result of `--playouts` light playouts from that position (the level 5
playout, `mcts._playout`, each with its own players' leanings and deals), and the share of
the variance of that mean across positions the value explains (R2, the mean's own sampling
variance taken out of both).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

from companion.engine.catalog import default_catalog
from companion.engine.state import GameState, PendingKind, Player
from companion.play.simulate import play
from companion.search.mcts import _playout, step
from companion.search.policy import SCIENCE_MINDED, evaluate, light_event
from companion.search.value import FEATURES, features, value

VALUE_PY = Path(__file__).resolve().parent.parent / "companion" / "search" / "value.py"
RIDGE = 1.0
"""The L2 penalty on the weights (the sum of squares times RIDGE / 2 is added to the loss)."""


def start_of_game(seed: int) -> GameState:
    """The first position of age 1 with its structure dealt, after a random setup and draft."""
    catalog = default_catalog()
    for state in play(catalog, random.Random(seed), check=False).states:
        if state.structure is not None and state.age == 1:
            return state
    raise RuntimeError(f"seed {seed}: no dealt age 1")


def light_game(seed: int) -> tuple[list[GameState], float]:
    """The age-end positions of one light game from `seed`'s start, and p1's result."""
    state = start_of_game(seed)
    rng = random.Random(seed * 7919 + 1)
    science = (rng.random() < SCIENCE_MINDED, rng.random() < SCIENCE_MINDED)
    ends: list[GameState] = []
    while not state.finished:
        pending = state.pending
        if pending is not None and pending.kind is PendingKind.NEXT_AGE:
            ends.append(state)
        state = step(state, light_event(state, rng, science), rng)
    result = 0.5 if state.shared else 1.0 if state.winner is Player.P1 else 0.0
    return ends, result


def collect(first: int, count: int) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per age end: features, results and the old evaluation's chance, over `count` games."""
    rows: dict[int, list[list[float]]] = {1: [], 2: []}
    results: dict[int, list[float]] = {1: [], 2: []}
    old: dict[int, list[float]] = {1: [], 2: []}
    for game in range(first, first + count):
        ends, result = light_game(game)
        for state in ends:
            rows[state.age].append(features(state))
            results[state.age].append(result)
            old[state.age].append(evaluate(state, Player.P1))
    return {
        age: (np.array(rows[age]), np.array(results[age]), np.array(old[age])) for age in (1, 2)
    }


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression without intercept (soft targets allowed), ridge RIDGE, Newton."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + RIDGE * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + RIDGE * np.eye(len(w))
        delta = np.linalg.solve(hessian, gradient)
        w -= delta
        if np.max(np.abs(delta)) < 1e-9:
            break
    return w


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Log loss and Brier score of the chances `p` against the results `y`."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    log_loss = float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    return {"log_loss": round(log_loss, 4), "brier": round(float(np.mean((q - y) ** 2)), 4)}


def write(weights: dict[int, np.ndarray]) -> None:
    """Replace the WEIGHTS constant in value.py."""
    lines = ["WEIGHTS: Final[dict[int, tuple[float, ...]]] = {"]
    for age in (1, 2):
        lines.append(f"    {age}: (")
        lines += [
            f"        {w:.5f},  # {name}" for w, name in zip(weights[age], FEATURES, strict=True)
        ]
        lines.append("    ),")
    lines.append("}")
    text = VALUE_PY.read_text(encoding="utf-8")
    new, count = re.subn(
        r"WEIGHTS: Final\[dict\[int, tuple\[float, \.\.\.\]\]\] = \{\n.*?\n\}",
        "\n".join(lines),
        text,
        count=1,
        flags=re.DOTALL,
    )
    if count != 1:
        raise SystemExit("value.py: WEIGHTS not found")
    VALUE_PY.write_text(new, encoding="utf-8")


def truth(games: int, playouts: int) -> dict[str, object]:
    """How well `value` and `evaluate` predict the mean result of `playouts` light playouts
    from the first age-1 and age-2 end of `games` light games."""
    report: dict[str, object] = {"games": games, "playouts": playouts}
    for age in (1, 2):
        means: list[float] = []
        chances: dict[str, list[float]] = {"value": [], "evaluate": []}
        for game in range(900_000, 900_000 + games):
            ends = [s for s in light_game(game)[0] if s.age == age]
            if not ends:
                continue
            rng = random.Random(game)
            results = []
            for _ in range(playouts):
                end = _playout(ends[0], rng)[0]
                results.append(0.5 if end.shared else 1.0 if end.winner is Player.P1 else 0.0)
            means.append(sum(results) / playouts)
            chances["value"].append(value(ends[0], Player.P1))
            chances["evaluate"].append(evaluate(ends[0], Player.P1))
        m = np.array(means)
        noise = float(np.mean(m * (1 - m))) / (playouts - 1)
        spread = float(np.var(m)) - noise
        found: dict[str, object] = {"positions": len(m), "variance": round(spread, 4)}
        for name, chance in chances.items():
            error = float(np.mean((np.array(chance) - m) ** 2)) - noise
            found[name] = {"mse": round(error, 4), "r2": round(1 - error / spread, 3)}
        report[f"age_{age}"] = found
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000, help="games to fit on")
    parser.add_argument("--held-out", type=int, default=50_000, help="games to measure on")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--write", action="store_true", help="write the weights to value.py")
    parser.add_argument("--truth", type=int, default=0, help="games to measure value.py on")
    parser.add_argument("--playouts", type=int, default=64, help="playouts a position (--truth)")
    args = parser.parse_args()
    if args.truth:
        print(json.dumps(truth(args.truth, args.playouts), indent=1))
        return 0
    start = time.process_time()
    train = collect(args.seed, args.games)
    test = collect(args.seed + args.games, args.held_out)
    report: dict[str, object] = {"games": args.games, "held_out": args.held_out}
    weights: dict[int, np.ndarray] = {}
    for age in (1, 2):
        x, y, _ = train[age]
        weights[age] = fit(x, y)
        tx, ty, told = test[age]
        model = 1.0 / (1.0 + np.exp(-(tx @ weights[age])))
        report[f"age_{age}"] = {
            "positions": [len(y), len(ty)],
            "p1_mean_result": round(float(np.mean(y)), 4),
            "model": scores(model, ty),
            "constant": scores(np.full(len(ty), np.mean(y)), ty),
            "evaluate": scores(told, ty),
            "weights": dict(zip(FEATURES, (round(float(w), 4) for w in weights[age]), strict=True)),
        }
    report["cpu_seconds"] = round(time.process_time() - start, 1)
    if args.write:
        write(weights)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
