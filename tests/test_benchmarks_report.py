"""The benchmark scripts' shared report helper rewrites only its own section."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from report import machine, stop, write_section

PAGE = "# Benchmarks\n\nIntro.\n\n## Engine\n\nold engine\n\n## Web\n\nold web\n"


def test_a_section_is_replaced_and_the_others_kept(tmp_path: Path) -> None:
    page = tmp_path / "BENCHMARKS.md"
    page.write_text(PAGE)
    write_section("## Engine\n\nnew engine\nsecond line\n", page)
    assert page.read_text() == (
        "# Benchmarks\n\nIntro.\n\n## Engine\n\nnew engine\nsecond line\n\n## Web\n\nold web\n"
    )


def test_the_last_section_is_replaced_to_the_end(tmp_path: Path) -> None:
    page = tmp_path / "BENCHMARKS.md"
    page.write_text(PAGE)
    write_section("## Web\n\nnew web", page)
    assert (
        page.read_text()
        == "# Benchmarks\n\nIntro.\n\n## Engine\n\nold engine\n\n## Web\n\nnew web\n"
    )


def test_a_new_section_is_appended(tmp_path: Path) -> None:
    page = tmp_path / "BENCHMARKS.md"
    page.write_text(PAGE)
    write_section("## Vision\n\nfresh\n", page)
    assert page.read_text() == PAGE + "\n## Vision\n\nfresh\n"


def test_a_section_needs_its_heading(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="heading"):
        write_section("Vision\n\nno heading\n", tmp_path / "BENCHMARKS.md")


def test_the_machine_names_cores_and_python() -> None:
    described = machine()
    assert "cores" in described
    assert "Python 3." in described


def test_stop_ends_a_running_service() -> None:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stop(process)
    assert process.returncode == -signal.SIGTERM
