"""The controller decides and the presenter draws, with imports in one direction: the
presenter, the screens' options, the words and the views never import the controller, and
no module of the device hides an import inside a function to get round a cycle."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

import companion.device
from companion.device.controller import Step
from companion.device.views import View

DEVICE_DIR = Path(companion.device.__file__).parent
BELOW_THE_CONTROLLER = ("present", "choices", "words", "ui", "views", "screens")


def imports(path: Path, *, nested: bool) -> set[str]:
    """Modules imported by a file: at module level, or (nested=True) inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    roots = functions if nested else [tree]
    for root in roots:
        for node in ast.walk(root) if nested else ast.iter_child_nodes(root):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
    return found


@pytest.mark.parametrize("module", BELOW_THE_CONTROLLER)
def test_the_modules_below_the_controller_never_import_it(module: str) -> None:
    path = DEVICE_DIR / f"{module}.py"
    everything = imports(path, nested=False) | imports(path, nested=True)
    assert "companion.device.controller" not in everything


@pytest.mark.parametrize("module", ["controller", "present", "choices", "words", "ui"])
def test_no_device_import_is_hidden_in_a_function(module: str) -> None:
    hidden = {m for m in imports(DEVICE_DIR / f"{module}.py", nested=True) if "companion" in m}
    assert not hidden


def test_a_step_carries_a_typed_view() -> None:
    hints = typing.get_type_hints(Step)
    assert hints["view"] == View | None
