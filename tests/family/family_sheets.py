"""Helpers that write base-game score sheets for the family tests."""

from __future__ import annotations

from typing import Any

from companion.family.catalog import default_family_catalog
from companion.family.scoring import Result, score_table
from companion.family.sheet import read_table


def player(
    name: str,
    wonder: str,
    cards: list[str] | None = None,
    *,
    side: str = "A",
    stages: int = 0,
    coins: int = 0,
    military: list[int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One player's entry of a sheet."""
    return {
        "name": name,
        "wonder": wonder,
        "side": side,
        "stages": stages,
        "cards": cards or [],
        "coins": coins,
        "military": military or [],
        **extra,
    }


def sheet(*players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A base-game sheet with these players in seating order."""
    return {"game": "7wonders", "variant": "base", "players": list(players), **extra}


def score(*players: dict[str, Any], **extra: Any) -> Result:
    """The result of a sheet with these players."""
    return score_table(read_table(default_family_catalog(), sheet(*players, **extra)))


def points(result: Result, name: str, category: str) -> int:
    """One player's points in one category."""
    found = next(p for p in result.players if p.name == name)
    return found.lines[category].points
