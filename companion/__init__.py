"""Duel Companion: bookkeeping for a physical game of 7 Wonders Duel."""

from __future__ import annotations

__version__ = "0.1.0"
