"""The fitted maps of `calibration`, per level: written by benchmarks/win_calibration.py
(never by hand; refit when a level's search changes). Data only: not compiled, so a refit
takes effect without a rebuild."""

from __future__ import annotations

MAPS: dict[str, tuple[tuple[float, float], ...]] = {}
