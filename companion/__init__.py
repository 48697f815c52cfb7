"""Duel Companion: bookkeeping for a physical game of 7 Wonders Duel."""

from __future__ import annotations

from companion import engine_loader

__version__ = "0.1.0"

engine_loader.install()  # the compiled engine when built and current, else pure Python
