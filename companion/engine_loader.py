"""Which rules engine runs: the compiled one (mypyc) when it is built and current, else the
pure-Python one, from the same source files.

`pip install` (and `scripts/bootstrap.sh`) compiles the modules of `companion/engine` with
mypyc when a C compiler is there (see setup.py), and writes `compiled.txt` beside them: one
line per compiled module with the SHA-256 of the source it was compiled from. The compiled
modules sit beside their sources and Python would import them first, so `companion/__init__`
installs `EngineFinder`, which decides once, at the first import of an engine module:

- the environment variable `DUEL_COMPANION_PURE_ENGINE` set (to anything but "" or "0"):
  pure Python;
- else the compiled modules, if every module listed in `compiled.txt` has its compiled file
  and its source still has the listed digest;
- else (not built, or a source edited since the build: a stale build never runs) pure Python.

Either way every engine module comes from one side: a compiled module calls the other
compiled modules directly, so the two are never mixed.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

PURE_ENV = "DUEL_COMPANION_PURE_ENGINE"
"""Set to 1 to run (and, when installing, build) the pure-Python engine."""

MANIFEST = "compiled.txt"
"""Written by the build beside the compiled modules: `module sha256` per line."""

ENGINE = "companion.engine"
ENGINE_DIR = Path(__file__).parent / "engine"


def pure_requested(environ: os._Environ[str] | dict[str, str] = os.environ) -> bool:
    """Whether the environment asks for the pure-Python engine."""
    return environ.get(PURE_ENV, "") not in ("", "0")


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file, as `compiled.txt` lists it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_is_current(engine_dir: Path = ENGINE_DIR) -> bool:
    """Whether a compiled engine is built for the sources as they are now."""
    try:
        lines = (engine_dir / MANIFEST).read_text(encoding="ascii").splitlines()
    except OSError:
        return False
    if not lines:
        return False
    for line in lines:
        module, _, digest = line.partition(" ")
        source = engine_dir / f"{module}.py"
        built = any((engine_dir / f"{module}{suffix}").is_file() for suffix in EXTENSION_SUFFIXES)
        if not built or not source.is_file() or source_digest(source) != digest:
            return False
    return True


class EngineFinder:
    """A meta path finder that loads every engine module from its source unless the
    compiled engine is chosen (then the ordinary finders load the compiled modules)."""

    def __init__(self, engine_dir: Path = ENGINE_DIR) -> None:
        self.engine_dir = engine_dir
        self.compiled: bool | None = None
        """None until the first engine module is imported, then the choice made."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of an engine module's source file when the pure engine runs, else None."""
        if not name.startswith(ENGINE + "."):
            return None
        if self.compiled is None:
            self.compiled = not pure_requested() and compiled_is_current(self.engine_dir)
        if self.compiled:
            return None
        source = self.engine_dir / f"{name.rpartition('.')[2]}.py"
        if not source.is_file():
            return None
        return spec_from_file_location(name, source)


def install() -> None:
    """Put the finder first on `sys.meta_path` (once)."""
    if not any(isinstance(finder, EngineFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, EngineFinder())


def engine_is_compiled() -> bool:
    """Whether the engine running in this process is the compiled one."""
    from companion.engine import rules

    return not (rules.__file__ or "").endswith(".py")
