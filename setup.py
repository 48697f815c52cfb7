"""Build: compile the rules engine (companion/engine), the search player (companion/search)
and the simulator's hot path (companion/play/playout.py) with mypyc when it can.

Everything else is in pyproject.toml. The modules are compiled to C extensions beside their
sources, and `companion/compiled.txt` lists each with the SHA-256 of the source it was
compiled from, so that `companion.engine_loader` runs the compiled engine only while it is
current and falls back to the pure-Python sources otherwise. Set DUEL_COMPANION_PURE_ENGINE=1
to build without compiling; without a C compiler the build also goes on, pure (the
extensions are optional).
"""

from __future__ import annotations

import os
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

PACKAGE_DIR = Path("companion")

GROUP = "companion.engine.native"
"""The shared library of the compiled modules, kept inside the package (not top level)."""


def _loader() -> Any:
    """companion/engine_loader.py, read without importing the package: the one list of the
    compiled modules and the manifest's format."""
    spec = spec_from_file_location("engine_loader", PACKAGE_DIR / "engine_loader.py")
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


loader = _loader()


class BuildExt(build_ext):
    """build_ext that writes compiled.txt beside the compiled modules."""

    def run(self) -> None:
        super().run()
        built = [e for e in self.extensions if os.path.exists(self.get_ext_fullpath(e.name))]
        if not built or len(built) != len(self.extensions):  # an optional build failed: pure
            return
        targets = {Path(self.get_ext_fullpath("companion.compiled")).parent}  # companion/
        if self.inplace or getattr(self, "editable_mode", False):
            targets.add(PACKAGE_DIR)
        for target in targets:
            target.mkdir(parents=True, exist_ok=True)
            (target / loader.MANIFEST).write_text(
                loader.manifest_text(PACKAGE_DIR),
                encoding="ascii",
            )


def extensions() -> list[object]:
    """The compiled modules, or nothing when the pure engine is asked for."""
    if loader.pure_requested():
        return []
    from mypyc.build import mypycify

    sources = [str(PACKAGE_DIR / r) for r in loader.compiled_sources(PACKAGE_DIR)]
    # The project's mypy settings apply (the engine is strict); the sections for the other
    # packages' libraries are unused here, which is no error.
    options = ["--no-warn-unused-configs"]
    compiled = mypycify([*options, *sources], opt_level="3", group_name=GROUP)
    for extension in compiled:
        extension.optional = True  # no C compiler: install the pure engine
    return list(compiled)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
