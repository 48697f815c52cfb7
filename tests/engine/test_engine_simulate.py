"""Random playouts: invariants, replay and undo equality, failing games as records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import companion.play.simulate as simulate_module
from companion.cli import main as cli
from companion.engine.rules import apply
from companion.play.simulate import InvariantError, play, simulate
from companion.records.replay import replay_record


@pytest.mark.parametrize("seed", range(8))
def test_random_games_keep_every_invariant(catalog: Any, seed: int) -> None:
    game = play(catalog, random.Random(seed))
    assert game.failure is None
    assert game.states[-1].finished


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_replay_and_undo_give_the_live_states(catalog: Any, seed: int, cut: float) -> None:
    game = play(catalog, random.Random(seed), check=False)
    lines = list(game.record_lines())
    k = max(1, int(cut * len(lines)))
    assert replay_record(lines[:k], catalog)[-1] == game.states[k]
    undone = replay_record([*lines[:k], '{"type": "undo"}'], catalog)[-1]
    assert undone == game.states[k - 1]
    assert apply(game.states[k - 1], game.events[k - 1]) == game.states[k]


def test_a_failing_game_is_written_as_a_record_that_replays(
    catalog: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    real = simulate_module.check_invariants

    def breaks_at_event_30(state: Any, dealt: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 30:
            raise InvariantError("broken on purpose")
        real(state, dealt)

    monkeypatch.setattr(simulate_module, "check_invariants", breaks_at_event_30)
    tally = simulate(catalog, 2, 7, failures_dir=tmp_path)
    assert tally.failures == 1
    (path,) = tally.failed_records
    assert path == tmp_path / "seed-7.jsonl"
    states = replay_record(path.read_text().splitlines(), catalog)
    assert len(states) == 31
    assert tally.victories.total() == 1


def test_simulate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli(["simulate", "--games", "3", "--seed", "11", "--json",
                  "--failures", str(tmp_path)])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["games"] == 3 and data["failures"] == 0
    assert set(data["victories"]) == {"military", "science", "civilian", "shared"}
    assert sum(data["victories"].values()) == 3
    assert data["games_per_second"] > 0 and data["seconds"] >= 0


def test_a_game_without_history_is_the_same_game_with_its_last_state_only(catalog: Any) -> None:
    full = play(catalog, random.Random(5), check=False)
    lean = play(catalog, random.Random(5), check=False, history=False)
    assert lean.events == full.events
    assert len(full.states) == len(full.events) + 1  # the new game, then one per event
    assert lean.states == [full.states[-1]] and lean.states[0].finished


def test_simulate_is_deterministic_for_a_seed(catalog: Any) -> None:
    one = list(play(catalog, random.Random(42), check=False).record_lines())
    two = list(play(catalog, random.Random(42), check=False).record_lines())
    assert one == two


def test_simulate_without_checks_plays_the_same_games_and_says_which_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.engine_loader import engine_is_compiled

    runs = []
    for flags in ([], ["--no-checks"]):
        status = cli(["simulate", "--games", "12", "--seed", "5", "--json",
                      "--failures", str(tmp_path), *flags])  # fmt: skip
        assert status == 0
        runs.append(json.loads(capsys.readouterr().out))
    checked, bare = runs
    assert checked["checked"] is True and bare["checked"] is False
    assert bare["victories"] == checked["victories"]  # the same 12 games
    assert bare["games_per_second"] > 0
    assert 0 <= bare["cpu_seconds"] <= bare["seconds"] + 0.01  # one thread: CPU within wall
    assert bare["engine"] == ("compiled" if engine_is_compiled() else "pure")
