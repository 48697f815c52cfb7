"""A score sheet of any family game in, its scores out (as values or as the documented JSON).

`score_sheet` reads the `"game"` key: `"7wonders"` (the base game, its two-player variant
and Edifice) or `"7wonders-dice"`. The JSON shapes are in docs/scorepad.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.family import dice, sheet
from companion.family.cards import FamilyCatalog
from companion.family.scoring import Result, score_table
from companion.family.sheet import SheetError

GAMES = (sheet.GAME, dice.GAME)

CATEGORY_LABELS = {
    "military": "Military", "treasury": "Treasury", "wonders": "Wonder", "civilian": "Civilian",
    "science": "Science", "commercial": "Commercial", "guilds": "Guilds", "edifice": "Edifice",
    # 7 Wonders Dice's buildings (companion.family.dice), in the order of its sheet
    "warehouse": "Warehouse", "gold_reserve": "Gold reserve", "wonder": "Wonder",
    "barracks": "Barracks", "agora": "Agora", "market": "Market", "university": "University",
    "guild_court": "Guild court",
}  # fmt: skip
"""Each row of a score table as the pad and the command name it (the keys are the JSON's)."""


@dataclass(frozen=True, slots=True)
class Pad:
    """A scored sheet: which game, every player's score and the winners, any warnings."""

    game: str
    result: Result
    warnings: tuple[str, ...] = ()


def score_sheet(catalog: FamilyCatalog, raw: Any) -> Pad:
    """Score a parsed sheet of any family game.

    Raises:
        SheetError: the sheet is malformed or cannot be a real game.
    """
    game = raw.get("game") if isinstance(raw, dict) else None
    if game == dice.GAME:
        scored = dice.score_dice(raw)
        return Pad(game, scored.result, scored.warnings)
    if game == sheet.GAME or not isinstance(raw, dict):
        return Pad(sheet.GAME, score_table(sheet.read_table(catalog, raw)))
    known = " or ".join(repr(g) for g in GAMES)
    raise SheetError(f"game: expected {known}, got {game!r}")


def nothing_scored(result: Result) -> bool:
    """Whether every category of every player is 0: a pad where nothing was entered yet."""
    return all(line.points == 0 for p in result.players for line in p.lines.values())


def check_scored(pad: Pad) -> None:
    """Refuse to keep a pad where nothing was entered (every score 0).

    Raises:
        SheetError: every score on the pad is 0.
    """
    if nothing_scored(pad.result):
        raise SheetError("Nothing to save: every score on the pad is 0")


def pad_to_json(pad: Pad) -> dict[str, Any]:
    """The `scorepad --json` object: ranked players in sheet order, their category scores
    and totals, the winners' names (several for a shared victory), and Dice's warnings."""
    found: dict[str, Any] = {
        "game": pad.game,
        "players": [
            {
                "name": player.name,
                "scores": {key: line.points for key, line in player.lines.items()},
                "total": player.total,
            }
            for player in pad.result.ranked
        ],
        "winners": list(pad.result.winners),
    }
    if pad.game == dice.GAME:
        found["warnings"] = list(pad.warnings)
    return found


def reasons_to_json(pad: Pad) -> list[dict[str, Any]]:
    """Where every number came from, per player (the Free City included, marked unranked):
    each category's parts (points and reason) and notes (wildcards, Olympia's copy)."""
    return [
        {
            "name": player.name,
            "ranked": player.ranked,
            "lines": {
                key: {
                    "points": line.points,
                    "parts": [{"points": p.points, "reason": p.reason} for p in line.parts],
                    "notes": list(line.notes),
                }
                for key, line in player.lines.items()
            },
        }
        for player in pad.result.players
    ]
