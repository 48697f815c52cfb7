"""The five Duel games of stats_games.py and two score pads, for the exports.

pad  saved             game                         players (seat order): total, rank
1    2026-04-03 20:00  7 Wonders with Edifice       Ann 7 (2), Bob 8 (1, wins), Cid 1 (3)
2    2026-04-04 21:30  7 Wonders, two-player        Ann 2 (2), Bob 2 (1, wins on coins)

Pad 1: Ann Giza A, one stage (3 points), Temple (3), 4 coins (1); Bob Rhodes B, no stage,
Palace (8); Cid Ephesus A, no stage, 3 coins (1); the three Edifice projects failed without
penalty points (edifice 0 for all). Pad 2: Ann Babylon A, no stage, Altar (2); Bob
Alexandria A, no stage, 6 coins (2); the Free City (Olympia) has Baths: not ranked.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from stats_games import Clock, build_journal

from companion.engine.cards import Catalog
from companion.family.catalog import default_family_catalog
from companion.records.journal import Journal
from companion.records.pads import save_pad

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
from family_sheets import player, sheet

FAILED = {"built": False, "penalty_points": 0}
EDIFICE: dict[str, Any] = sheet(
    player("Ann", "giza", ["temple"], stages=1, coins=4, edifice={"pawns": [], "debts": []}),
    player("Bob", "rhodes", ["palace"], side="B", edifice={"pawns": [], "debts": []}),
    player("Cid", "ephesus", coins=3, edifice={"pawns": [], "debts": []}),
    expansions=["edifice"],
    edifice={"projects": [{"age": age, **FAILED} for age in (1, 2, 3)]},
)
TWO_PLAYER: dict[str, Any] = {
    **sheet(
        player("Ann", "babylon", ["altar"]),
        player("Bob", "alexandria", coins=6),
        player("Free City", "olympia", ["baths"], free_city=True),
    ),
    "variant": "two-player",
}


def build(catalog: Catalog, path: Path) -> Journal:
    """The journal of stats_games.py with the two pads above."""
    clock = Clock()
    journal = build_journal(catalog, path, clock)
    clock.now = datetime(2026, 4, 3, 20, 0, tzinfo=UTC)
    save_pad(journal, default_family_catalog(), EDIFICE)
    clock.now = datetime(2026, 4, 4, 21, 30, tzinfo=UTC)
    save_pad(journal, default_family_catalog(), TWO_PLAYER)
    return journal
