"""The compiled engine (mypyc) and the pure-Python one play the very same games.

The whole suite runs against whichever engine this install runs (the compiled one when it is
built and current); CI runs tests/engine and tests/records once more with
DUEL_COMPANION_PURE_ENGINE=1. The tests here compare the two directly, in subprocesses.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import engine_loader
from companion.engine import military, pricing, state
from companion.engine.cards import Resource
from companion.play import playout
from companion.play.simulate import play

REPO = Path(__file__).resolve().parents[2]

GAMES_300_DIGEST = "d32dbc4cfe22a2950751837b40d78bddf656b30a6a34d611c769740c9967b5b1"
"""SHA-256 of the records of the 300 bare random games of seeds 0..299 (each line and a
newline), as the engine as first written (commit 2d790a4, pure Python, random.Random's own
choice and shuffle) played them: every later engine, compiled or not, must play them alike."""


def games_digest(catalog: Any, games: int) -> str:
    """The SHA-256 of the records of the bare random games of seeds 0..games-1."""
    digest = hashlib.sha256()
    for seed in range(games):
        for line in play(catalog, random.Random(seed), check=False).record_lines():
            digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def test_300_random_games_are_the_games_the_first_engine_played(catalog: Any) -> None:
    assert games_digest(catalog, 300) == GAMES_300_DIGEST


DIGEST_SCRIPT = """
import json, random, hashlib
from companion.engine.catalog import default_catalog
from companion.engine_loader import engine_is_compiled
from companion.play.simulate import play
catalog = default_catalog()
digest = hashlib.sha256()
for seed in range(60):
    game = play(catalog, random.Random(seed))  # every invariant checked
    assert game.failure is None, game.failure
    for line in game.record_lines():
        digest.update(line.encode() + b"\\n")
print(json.dumps({"compiled": engine_is_compiled(), "digest": digest.hexdigest()}))
"""


def run_engine(pure: bool, script: str = DIGEST_SCRIPT) -> dict[str, Any]:
    """Run `script` (by default: play 60 checked games) in a new process, with the pure
    engine or the default one; the JSON object it prints."""
    env = {k: v for k, v in os.environ.items() if k != engine_loader.PURE_ENV}
    if pure:
        env[engine_loader.PURE_ENV] = "1"
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def test_both_engines_play_the_same_checked_games() -> None:
    pure = run_engine(pure=True)
    default = run_engine(pure=False)
    assert pure["compiled"] is False
    assert default["compiled"] is engine_loader.compiled_is_current()
    assert default["digest"] == pure["digest"]


def test_a_compiled_build_here_is_current() -> None:
    """A build whose sources changed since is never run (the pure engine runs instead); CI
    builds afresh and checks that the engine compiled (.ci/run)."""
    if not (engine_loader.PACKAGE_DIR / engine_loader.MANIFEST).exists():
        pytest.skip("no compiled engine built here (pure Python install)")
    if not engine_loader.compiled_is_current():
        pytest.skip(
            "the compiled engine is older than its sources, so the pure one runs: rebuild "
            "with `.venv/bin/python -m pip install -e .` to test the compiled one"
        )
    # current: it runs, unless the pure engine is asked for (CI's second run)
    assert engine_loader.engine_is_compiled() is not engine_loader.pure_requested()


BUILT_AT_EVERY_EVENT = [
    state.Pending,
    state.City,
    state.Structure,
    state.GameState,
    military.Move,
    pricing.Payment,
    pricing.Purchase,
]


@pytest.mark.parametrize("kind", BUILT_AT_EVERY_EVENT)
def test_each_own_init_takes_every_field_in_declaration_order(kind: type) -> None:
    # its own __init__ (compiled with the class: direct stores), not the one dataclasses
    # would generate (interpreted code even in a compiled module)
    assert not kind.__dataclass_params__.init  # type: ignore[attr-defined]
    names = tuple(f.name for f in dataclasses.fields(kind))
    assert own_init_parameters(kind) == names


def own_init_parameters(kind: type) -> tuple[str, ...]:
    """The parameters of the class's `__init__` in its source (a compiled class does not
    show them to `inspect`)."""
    path = REPO.joinpath(*kind.__module__.split(".")).with_suffix(".py")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == kind.__name__:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    return tuple(a.arg for a in item.args.args[1:])
    raise AssertionError(f"{kind.__name__} has no __init__ of its own")


def test_a_payment_is_checked_as_the_class_says() -> None:
    # 3 coins printed + 2 wood bought at 2 = 7 in all, not 6
    bought = ((Resource.WOOD, 2, 2),)
    made = pricing.Payment(7, 3, 4, bought, 0, False, (), ())
    assert made == pricing.Payment(total=7, card_coins=3, trade=4, bought=bought)
    with pytest.raises(ValueError, match="total 6 is not card coins"):
        pricing.Payment(6, 3, 4, bought, 0, False, (), ())


@pytest.mark.parametrize("seed", range(5))
def test_playout_draws_are_those_of_random_random(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for size in [1, 2, 3, 5, 7, 8, 20, 23, 100, 1000]:
        items = list(range(size))
        assert playout.choice(ours, items) == theirs.choice(items)
        mine, standard = items[:], items[:]
        playout.shuffle(ours, mine)
        theirs.shuffle(standard)
        assert mine == standard
    # the pool method (at most 5 of at most 21 items) written out, and the rest
    for size, k in [(7, 3), (5, 3), (3, 3), (4, 0), (21, 5), (30, 3), (10, 8)]:
        items = list(range(size))
        assert playout.sample(ours, items, k) == theirs.sample(items, k)
    assert ours.getstate() == theirs.getstate()  # the same number of bits drawn


def test_choice_from_nothing_is_an_index_error() -> None:
    with pytest.raises(IndexError):
        playout.choice(random.Random(0), [])
