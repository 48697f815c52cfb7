"""The rules of 7 Wonders Duel: pure functions over frozen values, standard library only."""

from __future__ import annotations
