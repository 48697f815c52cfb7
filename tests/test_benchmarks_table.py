"""The table benchmark's harness runs end to end (one position): the lead re-runs it from main
after other work lands, so a change that breaks its wiring fails here, not at measuring time.
Its numbers are not checked (speed is for BENCHMARKS.md, never for tests)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from table_hint import run_table


def test_one_hint_at_the_table_with_the_camera_and_the_pages_running() -> None:
    result = run_table(1, seed=0, clients=1, level_name="easy", seconds=None)
    assert result["positions"] == 1 and result["searches"] == 1  # the OLED coach searched once
    box, phone = result["box"], result["phone"]
    assert isinstance(box, dict) and isinstance(phone, dict)
    assert 0 < box["p50"] == box["max"] and phone["p50"] > 0  # one time each
    assert result["cut_by_clock"] == 0  # no clock limit: the whole budget was searched
    assert result["phone_failures"] == 0
    assert result["camera_frames"] > 0  # the camera decoded (before and while it searched)
    assert isinstance(result["camera_fps"], float)  # 0 when no frame ended within one hint
