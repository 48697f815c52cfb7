"""Which rules engine runs: the compiled one (mypyc) when it is built and current, else the
pure-Python one, from the same source files.

`pip install` (and `scripts/bootstrap.sh`) compiles the modules `compiled_sources` lists (the
engine's, the search player's, and the simulator's hot path `companion/play/playout.py`) with mypyc
when a C compiler is there (see setup.py), and writes `compiled.txt` in `companion/`: one line
per compiled module, its path and the SHA-256 of the source it was compiled from. Compiled
modules sit beside their sources and Python would import them first, so `companion/__init__`
installs `EngineFinder`, which decides once, at the first import of one of these modules:

- the environment variable `DUEL_COMPANION_PURE_ENGINE` set (to anything but "" or "0"):
  pure Python;
- else the compiled modules, if every module listed in `compiled.txt` has its compiled file
  and its source still has the listed digest;
- else (not built, or a source edited since the build: a stale build never runs) pure Python.

Either way every one of these modules comes from the same side: compiled modules call each
other directly, so the two are never mixed.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

PURE_ENV = "DUEL_COMPANION_PURE_ENGINE"
"""Set to 1 to run (and, when installing, build) the pure-Python engine."""

MANIFEST = "compiled.txt"
"""Written by the build in `companion/`: `path sha256` per compiled module."""

PACKAGE = "companion"
PACKAGE_DIR = Path(__file__).parent

COMPILED_FOLDERS = ("engine", "search")
"""The pure cores compiled whole: the rules engine and the search player (which spends its
time in the engine and in its own move scoring)."""

NOT_COMPILED = frozenset(
    {
        "engine/__init__.py",
        "search/__init__.py",
        "engine/catalog.py",
        "engine/catalog_json.py",
        "engine/pantheon_catalog.py",
        "search/calibration_map.py",
    }
)
"""The packages' `__init__` stay Python (they hold no code), and so does the catalog's loading
from data/ (read once, no hot path), and the search's fitted win-chance maps (data a benchmark
rewrites: a refit takes effect without a rebuild)."""


def compiled_sources(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The modules mypyc compiles, as paths relative to `companion/`, in order."""
    cores = [
        f"{folder}/{path.name}"
        for folder in COMPILED_FOLDERS
        for path in sorted((package_dir / folder).glob("*.py"))
    ]
    return [path for path in cores if path not in NOT_COMPILED] + ["play/playout.py"]


def module_name(relative: str) -> str:
    """`engine/rules.py` -> `companion.engine.rules`."""
    return f"{PACKAGE}.{relative.removesuffix('.py').replace('/', '.')}"


def pure_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the environment asks for the pure-Python engine."""
    return environ.get(PURE_ENV, "") not in ("", "0")


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file, as `compiled.txt` lists it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_text(package_dir: Path = PACKAGE_DIR) -> str:
    """What the build writes into `compiled.txt` for the sources as they are."""
    return "".join(
        f"{relative} {source_digest(package_dir / relative)}\n"
        for relative in compiled_sources(package_dir)
    )


def compiled_is_current(package_dir: Path = PACKAGE_DIR) -> bool:
    """Whether a compiled engine is built for the sources as they are now."""
    try:
        lines = (package_dir / MANIFEST).read_text(encoding="ascii").splitlines()
    except OSError:
        return False
    if not lines:
        return False
    for line in lines:
        relative, _, digest = line.partition(" ")
        source = package_dir / relative
        stem = str(source.with_suffix(""))
        built = any(Path(stem + suffix).is_file() for suffix in EXTENSION_SUFFIXES)
        if not built or not source.is_file() or source_digest(source) != digest:
            return False
    return True


class EngineFinder:
    """A meta path finder that loads the compiled-or-pure modules from their sources unless
    the compiled engine is chosen (then the ordinary finders load the compiled modules)."""

    def __init__(self, package_dir: Path = PACKAGE_DIR) -> None:
        self.package_dir = package_dir
        self.sources = {module_name(r): package_dir / r for r in compiled_sources(package_dir)}
        self.compiled: bool | None = None
        """None until the first of these modules is imported, then the choice made."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of the module's source file when the pure engine runs, else None."""
        source = self.sources.get(name)
        if source is None:
            return None
        if self.compiled is None:
            self.compiled = not pure_requested() and compiled_is_current(self.package_dir)
        if self.compiled:
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
