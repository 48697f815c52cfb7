"""Build: compile the rules engine (companion/engine) with mypyc when it can.

Everything else is in pyproject.toml. The engine's modules are compiled to C extensions
beside their sources, and `compiled.txt` lists each with the SHA-256 of the source it was
compiled from, so that `companion.engine_loader` runs the compiled engine only while it is
current and falls back to the pure-Python sources otherwise. Set DUEL_COMPANION_PURE_ENGINE=1
to build without compiling; without a C compiler the build also goes on, pure (the
extensions are optional).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ENGINE_DIR = Path("companion") / "engine"
NOT_COMPILED = {"__init__.py", "events.py"}
"""events.py stays Python: mypyc (2.x) misreads a ClassVar default in a dataclass."""

GROUP = "companion.engine.native"
"""The shared library of the compiled modules, kept inside the package (not top level)."""


def engine_sources() -> list[str]:
    """The engine modules to compile, as paths."""
    return sorted(str(path) for path in ENGINE_DIR.glob("*.py") if path.name not in NOT_COMPILED)


class BuildExt(build_ext):
    """build_ext that writes compiled.txt beside the compiled engine."""

    def run(self) -> None:
        super().run()
        built = [ext for ext in self.extensions if os.path.exists(self.get_ext_fullpath(ext.name))]
        if len(built) != len(self.extensions):  # an optional build failed: stay pure
            return
        lines = []
        for source in engine_sources():
            digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
            lines.append(f"{Path(source).stem} {digest}\n")
        targets = {Path(self.get_ext_fullpath("companion.engine.rules")).parent}
        if self.inplace or getattr(self, "editable_mode", False):
            targets.add(ENGINE_DIR)
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / "compiled.txt").write_text("".join(lines), encoding="ascii")


def extensions() -> list[object]:
    """The compiled engine, or nothing when the pure engine is asked for."""
    if os.environ.get("DUEL_COMPANION_PURE_ENGINE", "") not in ("", "0"):
        return []
    from mypyc.build import mypycify

    # The project's mypy settings apply (the engine is strict); the sections for the other
    # packages' libraries are unused here, which is no error.
    options = ["--no-warn-unused-configs"]
    compiled = mypycify([*options, *engine_sources()], opt_level="3", group_name=GROUP)
    for extension in compiled:
        extension.optional = True  # no C compiler: install the pure engine
    return list(compiled)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
