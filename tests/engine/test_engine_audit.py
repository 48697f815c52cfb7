"""Rules audit: one test per rule of RULES.md that had no test or a weak one.

Every expected number is worked out by hand from the rulebook in a comment beside it; the
rule -> test table in docs/engine.md points here.
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_positions import city, discard, play, position

from companion.engine.cards import Catalog
from companion.engine.rules import IllegalEvent
from companion.engine.state import Player

P1, P2 = Player.P1, Player.P2


def destroy(player: str, card: str) -> dict[str, Any]:
    return {"type": "destroy", "player": player, "card": card}


def mausoleum(player: str, card: str) -> dict[str, Any]:
    return {"type": "mausoleum", "player": player, "card": card}


def library(player: str, drawn: list[str], token: str) -> dict[str, Any]:
    return {"type": "great_library", "player": player, "drawn": drawn, "token": token}


# --- Setup: 17 age cards + 3 guilds in age 3 ---------------------------------------------------


@pytest.mark.parametrize("guilds", [0, 2])
def test_an_age_3_deal_needs_exactly_3_guilds(catalog: Catalog, guilds: int) -> None:
    # Setup 6: 3 of the 20 age 3 cards are removed, 3 guilds added: 17 + 3 = 20, never fewer.
    others = [c.id for c in catalog.age_deck(3)][: 20 - guilds]
    layout = others + [g.id for g in catalog.guilds][:guilds]
    with pytest.raises(IllegalEvent, match=f"age 3 has 3 guilds, not {guilds}"):
        play(position(catalog, age=3), {"type": "deal", "age": 3, "layout": layout})


def test_table_mode_refuses_an_18th_age_3_card_that_is_not_a_guild(catalog: Catalog) -> None:
    # Only 17 of the 20 age 3 cards are in play; the other 3 places hold guilds.
    rich = city(catalog, coins=99)
    state = position(catalog, rich, rich, age=3)
    deck = [c.id for c in catalog.age_deck(3)]
    for number, card in enumerate(deck[:17]):
        state = play(state, discard("p1" if number % 2 == 0 else "p2", card))
    with pytest.raises(IllegalEvent, match="only 17 cards besides the guilds"):
        play(state, discard("p2", deck[17]))
    after = play(state, discard("p2", catalog.guilds[0].id))  # a guild is still welcome
    assert after.taken == 18
