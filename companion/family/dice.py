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
from companion.family.sheet import SheetError, player_name, shown, whole_number

GAME = "7wonders-dice"
ENTERED = ("warehouse", "gold_reserve", "wonder", "market", "university", "guild_court")
"""Buildings whose points the players read off their sheets as they are."""
BUILDINGS = ("warehouse", "gold_reserve", "wonder", "barracks", "agora", "market", "university",
             "guild_court")  # fmt: skip
AGORA_BONUS = 3  # the first player to cross every box of their Agora
MAX_DEFENCE = 2  # the seed's table: no defence, 1 or 2 defence
BONUSES_TO_END = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 7
MAX_ENTERED = 200  # points of one building, circled coins: a real sheet stays far below
MAX_ATTACKS = 50  # attacks of one player's barracks
MAX_PRINTED = 50  # the points printed in a barracks box
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
    names = [player_name(p, f"players[{i}]") for i, p in enumerate(players)]
    for name in names:
        if names.count(name) > 1:
            raise SheetError(f"players: name {name!r} is used by {names.count(name)} players")
    firsts = [name for name, p in zip(names, players, strict=True) if p.get("agora_first") is True]
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
    high = BONUSES_TO_END if key == "bonuses" else MAX_ENTERED  # a third bonus ends the game
    return whole_number(raw.get(key, 0), where, key, high)


def _player(raw: dict[str, Any], where: str) -> tuple[PlayerScore, int]:
    """One player's score (unused circled coins as the tie-break) and bonuses taken."""
    name = player_name(raw, where)
    where = f"{where} ({name})"
    if unknown := raw.keys() - PLAYER_KEYS:
        raise SheetError(f"{where}: unknown key {min(unknown)!r}")
    lines = {key: Line((Part(_number(raw, key, where), "as entered"),)) for key in ENTERED}
    lines["barracks"] = _barracks(raw.get("barracks", []), where)
    agora = [Part(_number(raw, "agora", where), "as entered")]
    first = raw.get("agora_first", False)
    if not isinstance(first, bool):
        raise SheetError(f"{where}: agora_first: expected true or false, got {shown(first)}")
    if first:
        agora.append(Part(AGORA_BONUS, "first to complete the Agora"))
    lines["agora"] = Line(tuple(agora))
    ordered = {key: lines[key] for key in BUILDINGS}
    coins = _number(raw, "unused_coins", where)
    return PlayerScore(name, ordered, coins, ranked=True), _number(raw, "bonuses", where)


def _barracks(raw: Any, where: str) -> Line:
    """Each attack: the points printed in the box minus the defence the attacked city had
    crossed in earlier rounds (seed 003: none, 1 or 2), never below zero."""
    if not isinstance(raw, list) or len(raw) > MAX_ATTACKS:
        raise SheetError(f"{where}: barracks: expected a list of [printed points, defence]")
    parts = []
    for n, attack in enumerate(raw, 1):
        valid = (
            isinstance(attack, list)
            and len(attack) == 2
            and all(type(v) is int and 0 <= v <= MAX_PRINTED for v in attack)
        )
        if not valid:
            raise SheetError(f"{where}: barracks: attack {n}: expected [printed points, defence]")
        printed, defence = attack
        if defence > MAX_DEFENCE:
            raise SheetError(f"{where}: barracks: attack {n}: defence {defence} (at most 2)")
        parts.append(Part(max(0, printed - defence), f"attack {n}: {printed} - {defence} defence"))
    return Line(tuple(parts))
