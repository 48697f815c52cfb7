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


def test_the_search_section_keeps_other_results_and_the_notes(tmp_path: Path) -> None:
    import json

    import search_player

    page = tmp_path / "BENCHMARKS.md"
    page.write_text(
        "# Benchmarks\n\n## Search player\n\nold tables\n\nWhat these runs show:\n\n- a note\n"
        "\n## Web\n\nold web\n"
    )
    store = tmp_path / "store.json"
    arena = {"kind": "arena", "a": "normal", "b": "random", "games": 10, "seed": 0, "wins": 9,
             "losses": 1, "shared": 0, "score": 0.9, "interval": [0.6, 0.98], "seconds": 50.0,
             "cpu_seconds": 20.0}  # fmt: skip
    table = {"kind": "table", "level": "normal", "iterations": 200, "seconds_limit": 1.0,
             "phone_seconds_limit": 0.9, "positions": 30, "clients": 3,
             "box": {"p50": 0.4, "p95": 0.9, "max": 1.2},
             "phone": {"p50": 0.5, "p95": 1.1, "max": 1.3}, "cut_by_clock": 2, "searches": 30,
             "phone_requests": 300, "phone_failures": 0, "process_cpu_percent": 80.0,
             "camera_fps": 14.0, "load_before": [2.0, 2.5, 3.0], "load_after": [2.2, 2.4, 3.0],
             "cores": 2}  # fmt: skip
    first, second = tmp_path / "a.json", tmp_path / "t.json"
    first.write_text(json.dumps(arena))
    second.write_text(json.dumps(table))
    search_player.write([first], store, page)
    search_player.write([second], store, page)  # the arena row is kept from the store
    text = page.read_text()
    assert "| normal | random | 10 | 9 | 1 | 0 | 90.0% | 60.0% to 98.0% | 2.0 |" in text  # 20/10
    row = "| normal (200 iterations) | 1 s / 0.9 s | 30 | 2.0 / 2.2 | 80 % | 14.0 | 2 of 30 |"
    row += " 0.40 s |"
    assert row + " 0.90 s | 1.20 s | 0.50 s | 1.10 s | met |" in text
    assert text.endswith("What these runs show:\n\n- a note\n\n## Web\n\nold web\n")
    assert "old tables" not in text
    again = {**table, "box": {"p50": 0.5, "p95": 1.5, "max": 2.0}}
    second.write_text(json.dumps(again))
    search_player.write([second], store, page)  # the same run again replaces its row
    text = page.read_text()
    assert text.count("| normal (200 iterations) |") == 1
    assert (
        row.replace("0.40", "0.50") + " 1.50 s | 2.00 s | 0.50 s | 1.10 s | **not met** |" in text
    )
