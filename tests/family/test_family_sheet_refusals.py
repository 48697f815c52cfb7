"""A sheet that cannot be a real game is refused with one line saying what and where."""

from __future__ import annotations

from typing import Any

import pytest
from family_sheets import player, sheet

from companion.family.catalog import default_family_catalog
from companion.family.sheet import SheetError, read_table

ANN = player("Ann", "babylon", ["lumber_yard"], stages=2, coins=5, military=[1, 3, -1])
BOB = player("Bob", "giza")
CID = player("Cid", "rhodes")


def _refused(raw: Any) -> str:
    with pytest.raises(SheetError) as refused:
        read_table(default_family_catalog(), raw)
    message = str(refused.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ([], "a score sheet is a JSON object"),
        ({**sheet(ANN, BOB, CID), "game": "duel"}, "game: expected '7wonders', got 'duel'"),
        ({**sheet(ANN, BOB, CID), "variant": "solo"},
         "variant: expected 'base' or 'two-player', got 'solo'"),
        ({**sheet(ANN, BOB, CID), "colour": 1}, "sheet: unknown key 'colour'"),
        (sheet({**ANN, "cards": ["lumberyard"]}, BOB, CID),
         "players[0] (Ann): cards: unknown card 'lumberyard'"),
        (sheet(ANN, BOB, {**CID, "wonder": "colossus"}),
         "players[2] (Cid): wonder: unknown wonder 'colossus'"),
        (sheet(ANN, {**BOB, "cards": ["loom", "loom"]}, CID),
         "players[1] (Bob): cards: 'loom' is listed twice"),
        (sheet(ANN, BOB, {**CID, "side": "B", "stages": 3}),
         "players[2] (Cid): stages: The Colossus of Rhodes side B has 2 stages, not 3"),
        (sheet({**ANN, "military": [1, 2]}, BOB, CID),
         "players[0] (Ann): military: 2 is not a conflict token (1, 3, 5 or -1)"),
        (sheet({**ANN, "military": [5, 5, 5]}, BOB, CID),
         "players[0] (Ann): military: 3 tokens of 5, but Age 3 gives at most 2"),
        (sheet(ANN, BOB), "players: the base game is for 3 to 7 players, got 2"),
        (sheet(*[player(f"P{i}", "giza") for i in range(8)]),
         "players: the base game is for 3 to 7 players, got 8"),
        (sheet(ANN, BOB, {**CID, "name": "Ann"}), "players: name 'Ann' is used by 2 players"),
        (sheet(ANN, BOB, {**CID, "wonder": "giza"}), "players: wonder 'giza' is used by 2 players"),
        (sheet(ANN, {**BOB, "cards": ["spies_guild"]}, {**CID, "cards": ["spies_guild"]}),
         "players: 'spies_guild' is in 2 cities; the game has one"),
        (sheet(ANN, BOB, {**CID, "coins": -1}),
         "players[2] (Cid): coins: expected a whole number from 0, got -1"),
        (sheet(ANN, BOB, {**CID, "free_city": True}),
         "players: Cid is a Free City outside the two-player variant"),
        ({**sheet(ANN, BOB, CID), "variant": "two-player"},
         'players: the two-player variant has exactly 3 entries, one with "free_city": true '
         "(got 3 entries, 0 Free City)"),
        (sheet(ANN, BOB, {**CID, "name": ""}), "players[2]: name: expected a player's name"),
        (sheet(ANN, BOB, {**CID, "cards": "loom"}),
         "players[2] (Cid): cards: expected a list of card ids"),
        (sheet(ANN, BOB, {**CID, "edifice": {"pawns": [1]}}),
         'players[2] (Cid): edifice: given, but "edifice" is not in expansions'),
        ({**sheet(ANN, BOB, CID), "expansions": ["leaders"]},
         "expansions: unknown expansion 'leaders' (known: edifice)"),
    ],
)  # fmt: skip
def test_impossible_sheets_are_refused(raw: Any, expected: str) -> None:
    assert _refused(raw).startswith(expected)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (sheet({**ANN, "cards": ["Lumber Yard"]}, BOB, CID),
         "players[0] (Ann): cards: unknown card 'Lumber Yard' (did you mean 'lumber_yard'?)"),
        (sheet({**ANN, "cards": ["Skovhule"]}, BOB, CID),  # its Danish name
         "players[0] (Ann): cards: unknown card 'Skovhule' (did you mean 'forest_cave'?)"),
        (sheet(ANN, BOB, {**CID, "wonder": "Rhodes"}),
         "players[2] (Cid): wonder: unknown wonder 'Rhodes' (did you mean 'rhodes'?)"),
        (sheet(ANN, BOB, {**CID, "wonder": "atlantis"}),
         "players[2] (Cid): wonder: unknown wonder 'atlantis'"),
    ],
)  # fmt: skip
def test_a_name_given_for_an_id_gets_the_id_to_use(raw: Any, expected: str) -> None:
    assert _refused(raw) == expected
