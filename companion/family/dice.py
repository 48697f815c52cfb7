"""7 Wonders Dice (seed 003): one score sheet per player, totals and the winner.

The players enter what their sheets show, building by building; the pad adds them up, works
out the barracks (each attack's printed points minus the defence the attacked city had), adds
the Agora bonus of the first player to complete it, and breaks ties on the most unused circled
coins, then shares the victory. It warns when a player has taken a third bonus, which ends the
game. The sheet format is in docs/scorepad.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.family.scoring import Line, Part, PlayerScore, Result
from companion.family.sheet import SheetError

GAME = "7wonders-dice"
ENTERED = ("warehouse", "gold_reserve", "wonder", "market", "university", "guild_court")
"""Buildings whose points the players read off their sheets as they are."""
BUILDINGS = ("warehouse", "gold_reserve", "wonder", "barracks", "agora", "market", "university",
             "guild_court")  # fmt: skip
AGORA_BONUS = 3  # the first player to cross every box of their Agora
MAX_DEFENCE = 2  # the seed's table: no defence, 1 or 2 defence
BONUSES_TO_END = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 7
PLAYER_KEYS = frozenset(
    {*ENTERED, "name", "barracks", "agora", "agora_first", "unused_coins", "bonuses"}
)


@dataclass(frozen=True, slots=True)
class DiceResult:
    """The scores, the winners and the warnings (a third bonus ends the game)."""

    result: Result
    warnings: tuple[str, ...]


def score_dice(sheet: Any) -> DiceResult:
    """Score a 7 Wonders Dice sheet.

    Raises:
        SheetError: the sheet is malformed or cannot be a real game.
    """
    if not isinstance(sheet, dict):
        raise SheetError("a score sheet is a JSON object")
    if unknown := sheet.keys() - {"game", "players"}:
        raise SheetError(f"sheet: unknown key {min(unknown)!r}")
    players = sheet.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise SheetError("players: expected a list of player objects")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SheetError(f"players: Dice is scored for 2 to 7 players, got {len(players)}")
    names = [p.get("name") for p in players]
    for name in names:
        if names.count(name) > 1:
            raise SheetError(f"players: name {name!r} is used by {names.count(name)} players")
    firsts = [p.get("name") for p in players if p.get("agora_first") is True]
    if len(firsts) > 1:
        raise SheetError(f"players: only one player completes the Agora first, not {firsts}")
    scored = tuple(_player(p, f"players[{i}]") for i, p in enumerate(players))
    best = max((score.total, score.coins) for score, _ in scored)
    winners = tuple(s.name for s, _ in scored if (s.total, s.coins) == best)
    warnings = tuple(
        f"{score.name} took a third bonus: the game ends"
        for score, bonuses in scored
        if bonuses >= BONUSES_TO_END
    )
    return DiceResult(Result(tuple(s for s, _ in scored), winners), warnings)


def _number(raw: dict[str, Any], key: str, where: str) -> int:
    value = raw.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SheetError(f"{where}: {key}: expected a whole number from 0, got {value!r}")
    return value


def _player(raw: dict[str, Any], where: str) -> tuple[PlayerScore, int]:
    """One player's score (unused circled coins as the tie-break) and bonuses taken."""
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SheetError(f"{where}: name: expected a player's name")
    where = f"{where} ({name})"
    if unknown := raw.keys() - PLAYER_KEYS:
        raise SheetError(f"{where}: unknown key {min(unknown)!r}")
    lines = {key: Line((Part(_number(raw, key, where), "as entered"),)) for key in ENTERED}
    lines["barracks"] = _barracks(raw.get("barracks", []), where)
    agora = [Part(_number(raw, "agora", where), "as entered")]
    first = raw.get("agora_first", False)
    if not isinstance(first, bool):
        raise SheetError(f"{where}: agora_first: expected true or false, got {first!r}")
    if first:
        agora.append(Part(AGORA_BONUS, "first to complete the Agora"))
    lines["agora"] = Line(tuple(agora))
    ordered = {key: lines[key] for key in BUILDINGS}
    coins = _number(raw, "unused_coins", where)
    return PlayerScore(name, ordered, coins, ranked=True), _number(raw, "bonuses", where)


def _barracks(raw: Any, where: str) -> Line:
    """Each attack: the points printed in the box minus the defence the attacked city had
    crossed in earlier rounds (seed 003: none, 1 or 2), never below zero."""
    if not isinstance(raw, list):
        raise SheetError(f"{where}: barracks: expected a list of [printed points, defence]")
    parts = []
    for n, attack in enumerate(raw, 1):
        valid = (
            isinstance(attack, list)
            and len(attack) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in attack)
        )
        if not valid:
            raise SheetError(f"{where}: barracks: attack {n}: expected [printed points, defence]")
        printed, defence = attack
        if defence > MAX_DEFENCE:
            raise SheetError(f"{where}: barracks: attack {n}: defence {defence} (at most 2)")
        parts.append(Part(max(0, printed - defence), f"attack {n}: {printed} - {defence} defence"))
    return Line(tuple(parts))
