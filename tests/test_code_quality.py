"""The whole tree passes ruff, ruff format and mypy, and the pure cores stay pure."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports; relative imports start with dots."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


# Each pure core, and the packages of ours it may import besides the standard library.
PURE_CORES = {
    "engine": ("companion.engine",),
    "family": ("companion.family", "companion.engine"),  # shares the engine's card colours
    "search": ("companion.search", "companion.engine"),
    "play": ("companion.play", "companion.search", "companion.engine"),
}


@pytest.mark.parametrize("core", sorted(PURE_CORES))
def test_pure_core_imports_only_the_standard_library_and_its_allies(core: str) -> None:
    paths = list((ROOT / "companion" / core).rglob("*.py"))
    assert len(paths) > 1, f"no {core} modules found"
    for path in paths:
        for name in imported_modules(path):
            relative = name[:1] == "." and name[:2] != ".."
            inside = relative or name.startswith(PURE_CORES[core])
            stdlib = name.split(".")[0] in sys.stdlib_module_names
            assert inside or stdlib, f"{path.name} imports {name}"


# Imports point one way: what the box decides and says knows nothing of the parts or the
# pages; the parts know nothing of the box; only the service wires them together.
FORBIDDEN = {
    "companion/device": ("web", "hardware", "companion.service", "companion.commands"),
    "hardware": ("web", "companion.device", "companion.service", "companion.commands"),
    "web": ("hardware", "companion.service", "companion.commands"),
    "companion/records": ("web", "hardware", "companion.device", "companion.service"),
    "companion/vision": ("web", "hardware", "companion.device", "companion.service"),
}


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_imports_point_one_way(folder: str) -> None:
    paths = list((ROOT / folder).rglob("*.py"))
    assert paths, f"no modules in {folder}"
    for path in paths:
        for name in imported_modules(path):
            for banned in FORBIDDEN[folder]:
                assert name != banned and not name.startswith(banned + "."), (
                    f"{path.relative_to(ROOT)} imports {name}"
                )


def test_only_the_service_and_the_web_command_import_the_parts_and_the_pages() -> None:
    allowed = {"companion/service/root.py", "companion/commands/web.py"}
    for path in (ROOT / "companion").rglob("*.py"):
        outside = [n for n in imported_modules(path) if n.split(".")[0] in ("web", "hardware")]
        relative = str(path.relative_to(ROOT))
        assert not outside or relative in allowed, f"{relative} imports {outside}"


SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b")


def test_the_journals_sql_is_written_only_behind_records() -> None:
    outside = [
        path
        for folder in ("companion", "web", "hardware")
        for path in (ROOT / folder).rglob("*.py")
        if "records" not in path.relative_to(ROOT).parts and SQL.search(path.read_text())
    ]
    assert outside == []


def test_imported_modules_sees_relative_and_absolute_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\nfrom . import cards\nfrom flask import Flask\n")
    assert imported_modules(module) == ["os", ".", "flask"]


@pytest.mark.parametrize(
    "command",
    [
        ("ruff", "check", "."),
        ("ruff", "format", "--check", "."),
        ("mypy",),
    ],
    ids=["ruff", "ruff-format", "mypy"],
)
def test_tool_passes(command: tuple[str, ...]) -> None:
    result = _run(str(BIN / command[0]), *command[1:])
    assert result.returncode == 0, result.stdout + result.stderr
