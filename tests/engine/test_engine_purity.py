"""The engine is pure: standard library only; its values are frozen and slotted."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

import companion.engine
from companion.engine import events, state

ENGINE_DIR = Path(companion.engine.__file__).parent


def imported_modules(path: Path) -> list[str]:
    """Module names imported by a file ("." prefix for relative imports)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


def test_engine_imports_only_the_standard_library() -> None:
    for path in ENGINE_DIR.rglob("*.py"):
        for name in imported_modules(path):
            relative = name[:1] == "." and name[:2] != ".."
            inside = relative or name.startswith("companion.engine")
            stdlib = name.split(".")[0] in sys.stdlib_module_names
            assert inside or stdlib, f"{path.name} imports {name}"


@pytest.mark.parametrize(
    "kind",
    [state.City, state.GameState, state.Pending, state.Structure, events.Build, events.Setup,
     events.KeepLibraryToken, events.ChooseStarter],
)  # fmt: skip
def test_state_and_event_types_are_frozen_and_slotted(kind: type) -> None:
    params = kind.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen
    assert "__slots__" in kind.__dict__
    assert dataclasses.is_dataclass(kind)


def test_engine_uses_no_clock_randomness_or_logging() -> None:
    for path in ENGINE_DIR.rglob("*.py"):
        for name in imported_modules(path):
            assert name.split(".")[0] not in {"random", "time", "datetime", "logging"}, path.name


def test_evolve_changes_only_the_named_fields_and_refuses_unknown_ones() -> None:
    city = state.City(coins=3)
    changed = state.evolve(city, coins=5)
    assert (changed.coins, city.coins) == (5, 3)
    assert changed.cards == city.cards
    with pytest.raises(TypeError, match="no field"):
        state.evolve(city, coinz=1)


def test_player_opponent() -> None:
    assert state.Player.P1.opponent is state.Player.P2
    assert state.Player.P2.opponent is state.Player.P1
