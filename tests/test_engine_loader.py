"""Choosing the engine: the compiled modules only when built for the sources as they are."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import engine_loader
from companion.engine_loader import EngineFinder, compiled_is_current, pure_requested

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def fake_package(root: Path, *, built: bool = True) -> Path:
    """A companion/ folder with two compiled-or-pure modules and, if `built`, their
    extension files and a manifest for the sources as written."""
    (root / "engine").mkdir(parents=True)
    (root / "engine" / "__init__.py").write_text("")
    (root / "engine" / "rules.py").write_text("ANSWER = 'pure rules'\n")
    (root / "search").mkdir()
    (root / "search" / "__init__.py").write_text("")
    (root / "search" / "mcts.py").write_text("ANSWER = 'pure search'\n")
    (root / "play").mkdir()
    (root / "play" / "playout.py").write_text("ANSWER = 'pure playout'\n")
    if built:
        for relative in engine_loader.compiled_sources(root):
            (root / relative).with_suffix(SUFFIX).write_bytes(b"not really compiled")
        (root / engine_loader.MANIFEST).write_text(engine_loader.manifest_text(root))
    return root


def test_the_compiled_modules_are_the_engines_the_searchs_and_the_playout(
    tmp_path: Path,
) -> None:
    root = fake_package(tmp_path / "companion")
    compiled = ["engine/rules.py", "search/mcts.py", "play/playout.py"]  # no __init__.py
    assert engine_loader.compiled_sources(root) == compiled
    manifest = (root / engine_loader.MANIFEST).read_text().splitlines()
    assert [line.split()[0] for line in manifest] == compiled


def test_a_search_source_edited_after_the_build_makes_it_stale(tmp_path: Path) -> None:
    root = fake_package(tmp_path / "companion")
    (root / "search" / "mcts.py").write_text("ANSWER = 'edited search'\n")
    assert not compiled_is_current(root)


def test_the_fitted_win_chance_maps_are_data_a_refit_leaves_the_build_current(
    tmp_path: Path,
) -> None:
    root = fake_package(tmp_path / "companion")
    (root / "search" / "calibration_map.py").write_text("MAPS = {}\n")
    assert "search/calibration_map.py" not in engine_loader.compiled_sources(root)
    (root / engine_loader.MANIFEST).write_text(engine_loader.manifest_text(root))
    (root / "search" / "calibration_map.py").write_text("MAPS = {'3': ((0.5, 0.4),)}\n")
    assert compiled_is_current(root)


def test_a_build_for_the_current_sources_is_current(tmp_path: Path) -> None:
    assert compiled_is_current(fake_package(tmp_path / "companion"))


def test_no_build_is_not_current(tmp_path: Path) -> None:
    assert not compiled_is_current(fake_package(tmp_path / "companion", built=False))


def test_a_source_edited_after_the_build_makes_it_stale(tmp_path: Path) -> None:
    root = fake_package(tmp_path / "companion")
    (root / "engine" / "rules.py").write_text("ANSWER = 'edited'\n")
    assert not compiled_is_current(root)


def test_a_missing_compiled_module_makes_the_build_unusable(tmp_path: Path) -> None:
    root = fake_package(tmp_path / "companion")
    (root / "play" / "playout.py").with_suffix(SUFFIX).unlink()
    assert not compiled_is_current(root)


@pytest.mark.parametrize(
    ("value", "pure"), [(None, False), ("", False), ("0", False), ("1", True), ("yes", True)]
)
def test_the_environment_variable_asks_for_the_pure_engine(value: str | None, pure: bool) -> None:
    environ = {} if value is None else {engine_loader.PURE_ENV: value}
    assert pure_requested(environ) is pure


def test_the_finder_loads_sources_when_the_build_is_stale(tmp_path: Path) -> None:
    root = fake_package(tmp_path / "companion")
    (root / "play" / "playout.py").write_text("ANSWER = 'edited playout'\n")
    finder = EngineFinder(root)
    spec = finder.find_spec("companion.play.playout", None)
    assert spec is not None and spec.origin == str(root / "play" / "playout.py")
    assert finder.compiled is False
    assert finder.find_spec("companion.engine.catalog", None) is None  # not one of them


def test_the_finder_leaves_a_current_build_to_the_ordinary_finders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(engine_loader.PURE_ENV, raising=False)
    finder = EngineFinder(fake_package(tmp_path / "companion"))
    assert finder.find_spec("companion.engine.rules", None) is None
    assert finder.compiled is True


def test_the_finder_loads_sources_when_asked_for_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(engine_loader.PURE_ENV, "1")
    root = fake_package(tmp_path / "companion")
    spec = EngineFinder(root).find_spec("companion.engine.rules", None)
    assert spec is not None and spec.origin == str(root / "engine" / "rules.py")


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="CI builds the engine fresh")
def test_ci_runs_the_compiled_engine() -> None:
    # A fresh clone's bootstrap compiles the engine; a silent fall back to pure Python would
    # leave the compiled engine untested.
    assert not pure_requested() and engine_loader.engine_is_compiled()


@pytest.mark.skipif(pure_requested(), reason="this run is the pure fallback already")
def test_the_engine_search_and_records_tests_pass_on_the_pure_fallback() -> None:
    # The same tests on the pure-Python engine and search, which a box without a C compiler
    # runs.
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/engine",
               "tests/search/test_search_player.py", "tests/search/test_search_ponder.py",
               "tests/journal/test_journal_game.py"]  # fmt: skip
    env = {**os.environ, engine_loader.PURE_ENV: "1"}
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1]
