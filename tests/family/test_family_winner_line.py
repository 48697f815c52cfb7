"""The score pad's winner line, worded once (companion.device.words) for the command, the pad
page, the saved pad and the history: a tie on points said with the coins that broke it, a
shared victory, and no winner at all while every score is still 0."""

from __future__ import annotations

from family_sheets import player, score

from companion.device.words import PAD_PROMPT, pad_winner
from companion.family import dice


def test_one_winner_is_named() -> None:
    # Ann: the Palace, 8; Bob: 9 coins, 3; Cid: nothing.
    result = score(player("Ann", "giza", ["palace"]), player("Bob", "rhodes", coins=9),
                   player("Cid", "ephesus"))  # fmt: skip
    assert pad_winner(result) == "Winner: Ann"


def test_a_tie_on_points_says_the_coins_that_broke_it() -> None:
    # Ann: the Palace (8) and 9 coins (3): 11 with 9 coins. Bob: 33 coins, 11 with 33 coins.
    # Cid: 32 coins, 10. Bob wins the tie on 11, on coins: 33 to Ann's 9 (Cid is not tied).
    result = score(player("Ann", "giza", ["palace"], coins=9), player("Bob", "rhodes", coins=33),
                   player("Cid", "ephesus", coins=32))  # fmt: skip
    assert [p.total for p in result.players] == [11, 11, 10]
    assert pad_winner(result) == "Tie on 11: Bob wins on coins, 33 to 9"


def test_a_tie_on_points_and_coins_is_a_shared_victory() -> None:
    # Ann and Bob: 9 coins each, 3 points; Cid: 3 coins, 1.
    result = score(player("Ann", "giza", coins=9), player("Bob", "rhodes", coins=9),
                   player("Cid", "ephesus", coins=3))  # fmt: skip
    assert pad_winner(result) == "Shared victory: Ann, Bob"


def test_an_empty_pad_has_no_winner_but_a_prompt() -> None:
    names = [f"Player {n}" for n in range(1, 8)]
    wonders = ["alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes"]
    result = score(*(player(n, w) for n, w in zip(names, wonders, strict=True)))
    assert pad_winner(result) == PAD_PROMPT == "Enter the cities to see who wins."


def test_a_dice_tie_is_broken_on_unused_coins() -> None:
    # Ann: warehouse 5 and 2 unused coins; Bob: market 5 and 4 unused coins: 5 each.
    scored = dice.score_dice({"game": "7wonders-dice", "players": [
        {"name": "Ann", "warehouse": 5, "unused_coins": 2},
        {"name": "Bob", "market": 5, "unused_coins": 4},
    ]})  # fmt: skip
    assert pad_winner(scored.result) == "Tie on 5: Bob wins on coins, 4 to 2"
