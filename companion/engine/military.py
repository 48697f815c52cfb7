"""The conflict pawn: shields move it, loot tokens take coins, the capital wins at once."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import MilitaryTrack
from .state import Player


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """The result of moving the pawn: new position, loot tokens left, coins each player
    loses (p1, p2), and whether the pawn reached a capital."""

    position: int
    loot: frozenset[int]
    lost: tuple[int, int]
    supremacy: bool

    def __init__(
        self, position: int, loot: frozenset[int], lost: tuple[int, int], supremacy: bool
    ) -> None:
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "lost", lost)
        object.__setattr__(self, "supremacy", supremacy)


def initial_loot(track: MilitaryTrack) -> frozenset[int]:
    """The loot tokens at setup, as signed zone distances (positive: on p2's side)."""
    firsts = [zone.first for zone in track.zones if zone.loot]
    return frozenset(firsts) | frozenset(-d for d in firsts)


def move_pawn(
    track: MilitaryTrack, position: int, loot: frozenset[int], player: Player, shields: int
) -> Move:
    """Move the pawn `shields` spaces toward `player`'s opponent's capital; every loot token
    whose zone the pawn enters for the first time makes that opponent lose its coins (the
    caller takes what it can). Reaching the capital (distance 9) is military supremacy."""
    sign = 1 if player is Player.P1 else -1
    target = position + sign * shields
    target = max(-track.capital, min(track.capital, target))
    lost = [0, 0]
    left = loot
    if loot:
        reached = target * sign  # distance on the opponent's side
        for zone in track.zones:
            key = sign * zone.first
            if zone.loot and key in left and reached >= zone.first:
                left = left - {key}
                lost[1 if player is Player.P1 else 0] += zone.loot
    return Move(target, left, (lost[0], lost[1]), abs(target) >= track.capital)


def military_points(track: MilitaryTrack, position: int) -> tuple[int, int]:
    """End-of-game VP (p1, p2): the player the pawn moved away from scores 0, 2, 5 or 10
    by the zone it stands in."""
    points = track.points_at(abs(position))
    if position > 0:
        return (points, 0)
    if position < 0:
        return (0, points)
    return (0, 0)


def weaker_side(position: int) -> Player | None:
    """The player whose side the pawn is on (None on the centre space)."""
    if position > 0:
        return Player.P2
    if position < 0:
        return Player.P1
    return None
