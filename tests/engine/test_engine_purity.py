"""The engine is pure: standard library only; its values are frozen and slotted."""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

import companion.engine
from companion.engine import events, state
from companion.engine.cards import Color

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
    # no __dict__ per instance: slots in the pure engine, a native class when compiled
    assert kind.__dictoffset__ == 0
    assert "__slots__" in kind.__dict__ or state.COMPILED
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


def test_a_city_built_by_position_and_evolved_keeps_every_field() -> None:
    from companion.engine.cards import CardId, Resource, Science, TokenId, WonderId

    values: dict[str, Any] = {  # every field a value of its type that no other field holds
        "coins": 1,
        "cards": (CardId("altar"),),
        "wonders_built": (WonderId("piraeus"),),
        "wonders_unbuilt": (WonderId("the_colossus"),),
        "tokens": frozenset({TokenId("law")}),
        "produces": (1, 0, 0, 0, 0),
        "choices": ((Resource.GLASS,),),
        "fixed_price": frozenset({Resource.CLAY}),
        "chain_symbols": frozenset({"moon"}),
        "colors": (0, 2, 0, 0, 0, 0, 0),
        "symbols": frozenset({Science.GLOBE}),
        "tucked": (CardId("baths"),),
    }
    names = [f.name for f in dataclasses.fields(state.City)]
    assert set(names) == set(values)
    built = state.City(*(values[name] for name in names))
    assert built == state.City(**values)
    assert state.evolve(built, coins=5) == state.City(**{**values, "coins": 5})


def test_the_working_copy_rebuilds_every_field_of_the_state(catalog: Any) -> None:
    # Every field holds a value no other field holds: a field set from the wrong one in the
    # rules' working copy (`Turn.state`, fields passed by position) makes the states differ.
    from companion.engine.cards import TokenId, WonderId
    from companion.engine.turn import Turn

    P1, P2 = state.Player.P1, state.Player.P2
    before = state.GameState(
        catalog=catalog,
        phase=state.Phase.PLAYING,
        age=2,
        current=P2,
        cities=(state.City(coins=1), state.City(coins=2)),
        names=("Ann", "Ben"),
        position=3,
        loot=frozenset({6}),
        board_tokens=(TokenId("law"),),
        boxed_tokens=frozenset({TokenId("urbanism")}),
        boxed_wonders=(WonderId("piraeus"),),
        structure=state.structure_from_cards(2, (None,) * 20),
        taken=5,
        discard=("baths",),  # type: ignore[arg-type]
        pending=state.Pending(state.PendingKind.DESTROY, P1),
        winner=P1,
        shared=True,
        victory=state.Victory.SCIENCE,
    )
    assert Turn(before, P1).state() == before


def test_adding_cards_updates_every_summary(catalog: Any) -> None:
    from companion.engine.rules import city_of

    built = city_of(catalog, ["caravansery", "stone_reserve", "scriptorium", "lumber_yard"])
    assert built.cards == ("caravansery", "stone_reserve", "scriptorium", "lumber_yard")
    assert built.produces == (1, 0, 0, 0, 0)
    assert built.choices == (("wood", "clay", "stone"),)
    assert built.fixed_price == {"stone"}
    assert built.chain_symbols == {"book"}
    assert built.symbols == {"quill"}
    assert (built.count(Color.YELLOW), built.count(Color.GREEN), built.count(Color.BROWN)) == (
        2, 1, 1,
    )  # fmt: skip
    assert (built.coins, built.wonders_built, built.tucked, built.tokens) == (7, (), (), set())
