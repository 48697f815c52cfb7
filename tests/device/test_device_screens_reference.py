"""Every kind of screen drawn through luma's dummy device and compared with its reference image.

The references are tests/device/reference/<name>.png. A mismatch writes <name>.actual.png
beside the reference (git ignores it); `UPDATE_REFERENCE=1` rewrites the references: look at
them (e.g. scaled 4x) before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.device import present
from companion.device.family_scan import Reading, base_game_cards
from companion.device.family_scan import view as reading_view
from companion.device.screens import render
from companion.device.ui import Context, Mode, UiState
from companion.device.views import (
    BUTTON_MAP,
    ChoiceView,
    EndView,
    HelpView,
    IdleView,
    Loot,
    MessageView,
    Option,
    PhoneView,
    View,
)
from companion.device.words import (
    BACK_TITLE,
    BOX,
    CAMERA_READS_DEAL,
    GUIDED_SKIP,
    GUILD_BACK,
    IDLE_HINT,
    NEW_GAME_QUESTION,
    PLAIN_BACK,
    REVEAL_ASK,
    REVEAL_TITLE,
    SEE_BOTH,
    SEE_PHONE,
    THINKING,
    already_read,
    to_take,
)
from companion.engine.catalog import default_catalog
from companion.engine.rules import new_game
from companion.engine.state import Player

REFERENCE = Path(__file__).parent / "reference"
PRICES = (("wood", 2), ("clay", 3), ("stone", 2), ("glass", 4), ("papyrus", 1))
ALL_LOOT = (Loot(-8, -6, 5), Loot(-5, -3, 2), Loot(3, 5, 2), Loot(6, 8, 5))
CARD_OPTIONS = (
    Option("Build", "4 coins", note="buys 1 wood 1 glass"),
    Option("Discard", "+3 coins"),
    Option("Pyramids", "free"),
    Option("Artemis Temple", "9 coins", blocked=True, note="Costs 9 coins, has 6"),
    Option("Great Library", "6 coins", note="buys 1 wood 2 papyrus"),
)
URL = "http://192.168.1.23:8000/games/12/score"
HINT = IDLE_HINT
SETUP = new_game(default_catalog())
KNOWN = ("Ben", "Ann", "Konstantina Alexandrou", "Cleo")  # remembered, most recent first

SCREENS: dict[str, View] = {
    # the presenter's own screens: the ready screen with named sides, and Player 2's name list
    "setup_ready_named": present.view(
        UiState(mode=Mode.START, names=("Ann", "Konstantina Alexandrou")), SETUP, Context()
    ),
    "setup_players": present.view(
        UiState(mode=Mode.PLAYERS, names=("Ann", ""), naming=1, cursor=1),
        SETUP,
        Context(known=KNOWN),
    ),
    # unnamed under the cursor: where new names are typed
    "setup_players_unnamed": present.view(
        UiState(mode=Mode.PLAYERS, names=("", ""), naming=0, cursor=0), SETUP, Context()
    ),
    # solo: the box's pick in the draft is the only option (the wonders offered after
    # Player 1 took The Pyramids)
    "draft_box_pick": present.view(
        UiState(
            mode=Mode.DRAFT,
            picks=("the_pyramids",),
            revealed=("the_sphinx", "the_pyramids", "the_appian_way", "the_great_library"),
        ),
        SETUP,
        Context(box=Player.P2),
    ),
    "idle_start": IdleView(
        1,
        20,
        "Player 1",
        (7, 7),
        0,
        ALL_LOOT,
        tuple((r, 2) for r, _ in PRICES),
        0,
        ("P1", "P2"),
        hint=HINT,
    ),
    "idle_solo_box": IdleView(
        1, 17, BOX, (7, 4), 1, ALL_LOOT, PRICES, 1, ("P1", "P2"), hint="build Lumber Yard"
    ),
    "idle_solo_box_wonder": IdleView(
        2,
        9,
        BOX,
        (5, 11),
        -2,
        ALL_LOOT,
        PRICES,
        1,
        ("P1", "P2"),
        hint="Pyramids with Stable",
    ),
    "idle_age_2": IdleView(
        2, 13, "Ben", (12, 4), 4, ALL_LOOT[:3], PRICES, 1, ("Ann", "Ben"), hint=HINT
    ),
    "idle_pawn_in_capital": IdleView(
        3, 2, "Ann", (31, 0), 9, ALL_LOOT[:2], PRICES, 0, ("Ann", "Ben"), hint=HINT
    ),
    "idle_camera_lost": IdleView(
        1,
        18,
        "Ann",
        (5, 7),
        -1,
        ALL_LOOT,
        PRICES,
        0,
        ("Ann", "Ben"),
        hint=HINT,
        status="camera lost",
    ),
    "idle_long_name": IdleView(
        1, 1, "Alexandra-Margrethe", (12, 10), 0, (), PRICES, 0, ("Alex", "Bo"), hint=HINT
    ),
    "card_build": ChoiceView("Caravansery", "Ann: 6 coins", CARD_OPTIONS, 0),
    "card_discard": ChoiceView("Caravansery", "Ann: 6 coins", CARD_OPTIONS, 1),
    "card_wonder_scrolled": ChoiceView("Caravansery", "Ann: 6 coins", CARD_OPTIONS, 4),
    "card_not_affordable": ChoiceView("Caravansery", "Ann: 6 coins", CARD_OPTIONS, 3),
    "card_chain": ChoiceView(
        "Statue",
        "Ben: 3 coins",
        (
            Option("Build", "chain", note="Free through a chain"),
            Option("Discard", "+2 coins"),
        ),
        0,
    ),
    "card_refused": ChoiceView(
        "Caravansery", "Ann: 6 coins", CARD_OPTIONS, 3, notice="Costs 9 coins, has 6"
    ),
    "refused_long_name": IdleView(
        2,
        9,
        "Ann",
        (3, 8),
        -2,
        ALL_LOOT,
        PRICES,
        0,
        ("Ann", "Ben"),
        notice="Föreningen för penningutlånare: already played",
    ),
    "draft_scanning": ChoiceView(
        "Draft round 1",
        "Scan wonder 3/4",
        (),
        0,
        hint="Scan the wonders shown:",
        seen=("The Pyramids", "The Temple of Artemis"),
    ),
    "draft_pick": ChoiceView(
        "Draft",
        "Player 2 picks",
        tuple(Option(n) for n in ("The Temple of Artemis", "The Sphinx", "The Mausoleum")),
        0,
    ),
    "board_tokens_scanning": ChoiceView(
        "Progress tokens",
        "Scan token 3/5",
        (),
        0,
        hint="Scan the board's tokens:",
        seen=("Law", "Masonry"),
    ),
    # guided entry (the presenter's words: tests/device/test_device_controller_guided.py)
    "guided_deal": ChoiceView(
        "Age 1: 2/12 cards", "Scan row 3, card 1 of 4", (Option(GUIDED_SKIP),), 0
    ),
    "guided_refused": ChoiceView(
        "Age 1: 2/12 cards",
        "Scan row 3, card 1 of 4",
        (Option(GUIDED_SKIP),),
        0,
        notice="Sawmill: age 2 card",
    ),
    "guided_guild_back": ChoiceView(
        BACK_TITLE,
        "Row 2, card 1 of 3",
        (Option(PLAIN_BACK), Option(GUILD_BACK), Option(GUIDED_SKIP)),
        1,
    ),
    # the overhead camera (the presenter's words: tests/device/test_device_overhead.py)
    "table_deal": ChoiceView(
        "Age 1: 0/12 cards",
        "Scan row 1, card 1 of 2",
        (Option(GUIDED_SKIP, note=CAMERA_READS_DEAL),),
        0,
    ),
    "table_list": ChoiceView(
        "Ben: 7 coins",
        to_take(6),
        (
            Option("Guard Tower", "free"),
            Option("Press", "1 coin"),
            Option("Stone Reserve", "3 coins", blocked=True, note="Costs 3 coins, has 2"),
            Option("Logging Camp", "1 coin"),
            Option("Garrison", "2 coins", note="buys 1 clay"),
            Option("Clay Reserve", "3 coins", blocked=True, note="Costs 3 coins, has 2"),
        ),
        4,
    ),
    "table_refused": ChoiceView(
        "Ben: 7 coins",
        to_take(6),
        (Option("Guard Tower", "free"), Option("Press", "1 coin")),
        0,
        notice="Clay Pool: still covered",
    ),
    "feedback_turned": MessageView(
        "Done", ("Ann builds Clay Reserve", "Ann -3 coins", "Turned up: Theater")
    ),
    "reveal": MessageView(REVEAL_TITLE, (REVEAL_ASK, "Row 4, card 5 of 5")),
    "reveal_refused": MessageView(
        REVEAL_TITLE, (REVEAL_ASK, "Row 4, card 5 of 5"), "Press: already face up"
    ),
    "prompt_destroy": ChoiceView(
        "Destroy", "Ann destroys one", tuple(Option(n) for n in ("Clay Pool", "Quarry")), 1
    ),
    "prompt_mausoleum": ChoiceView(
        "Mausoleum",
        "Ben builds one",
        tuple(Option(n) for n in ("Baths", "Palisade", "Glassworks", "Library", "Senate")),
        3,
    ),
    "prompt_library_keep": ChoiceView(
        "Great Library",
        "Ann keeps one",
        tuple(Option(n) for n in ("Agriculture", "Philosophy", "Theology")),
        0,
    ),
    "prompt_progress": ChoiceView(
        "Progress token",
        "Ben takes one",
        tuple(Option(n) for n in ("Agriculture", "Architecture", "Economy", "Law", "Theology")),
        2,
    ),
    "prompt_next_age": ChoiceView(
        "End of age 1", "Ben chooses", (Option("Ann begins"), Option("Ben begins")), 1
    ),
    "feedback": MessageView(
        "Done",
        (
            "Ann builds Garrison",
            "Ann -2 coins",
            "Pawn 1 toward Ben",
            "Loot: Ben -2 coins",
        ),
    ),
    "feedback_long": MessageView(
        "Done",
        (
            "Ann builds Artemis Temple with Caravansery",
            "Ann +12 coins",
            "Ben -3 coins",
            "Ann takes Economy",
            "Extra turn: Ann",
            "End of age 1",
        ),
    ),
    "undo": MessageView("Undo?", ("Ann builds Lumber Yard", "select: undo it", "left/right: keep")),
    "help": HelpView(BUTTON_MAP, pairing="482193", phone=SEE_PHONE),
    "help_coach": HelpView(BUTTON_MAP, pairing="482193", phone=SEE_BOTH),
    "coach_thinking": MessageView("Coach", (THINKING,)),
    "coach_top_three": ChoiceView(
        "Coach",
        "Player 2 to play",
        (
            Option("Discard Stone Pit", "79%", note="coins"),
            Option("Discard Theater", "76%", note="coins"),
            Option("Circus Maximus with Baths", "73%", note="extra turn"),
        ),
        0,
    ),
    "phone": PhoneView("http://192.168.1.23:8000/", "K7QM-4XRT"),
    "phone_localhost": PhoneView("http://127.0.0.1:8000/", "K7QM-4XRT"),  # broken before the port
    "new_game": MessageView("New game?", NEW_GAME_QUESTION),
    "end_civilian": EndView("Ben", "civilian", (59, 64), URL),
    "end_shared": EndView("", "civilian", (61, 61), URL),
    "end_long_winner": EndView(
        "Alexandra-Margrethe", "science", (40, 22), URL, status="camera lost"
    ),
}

# Reading a 7 Wonders base game's cities with the camera (companion.device.family_scan)
ANN = ("lumber_yard", "loom", "baths", "scriptorium", "sawmill", "forum", "palace")
NAMES = ("Ann", "Bob", "Cid", "Dee")
SCREENS |= {
    "reading_city": reading_view(
        Reading(NAMES, (ANN, (), (), ()), current=0, last="palace"), base_game_cards().name_of
    ),
    "reading_refused": reading_view(
        Reading(NAMES, (ANN, ("haven",), (), ()), 1, last="haven", notice=already_read("Haven")),
        base_game_cards().name_of,
    ),
    "reading_removed": reading_view(
        Reading(NAMES, (ANN, ("haven",), ("altar",), ()), 2, last="theater", removed=True),
        base_game_cards().name_of,
        status="camera lost",
    ),
    "reading_done": reading_view(
        Reading(NAMES, (ANN, ("haven",), ("altar",), ()), 4), base_game_cards().name_of
    ),
}


def lit(image: Image.Image) -> Image.Image:
    """A mode "1" image whose lit pixels are 255 (drawing may store 1), for ImageChops."""
    return image.convert("L").point(lambda value: 255 if value else 0).convert("1")


def assert_matches_reference(image: Image.Image, name: str) -> None:
    """Compare with tests/device/reference/<name>.png (see the module docstring)."""
    expected_path = REFERENCE / f"{name}.png"
    actual_path = REFERENCE / f"{name}.actual.png"
    if os.environ.get("UPDATE_REFERENCE") == "1":
        REFERENCE.mkdir(exist_ok=True)
        image.convert("1").save(expected_path)
        actual_path.unlink(missing_ok=True)
        return
    assert expected_path.exists(), f"no reference {expected_path.name}: run UPDATE_REFERENCE=1"
    with Image.open(expected_path) as opened:
        expected = lit(opened)
    actual = lit(image)
    difference = ImageChops.difference(actual, expected).getbbox()
    if difference is not None or actual.size != expected.size:
        actual.save(actual_path)
        pytest.fail(f"{name}: pixels differ in {difference}; see {actual_path}")
    actual_path.unlink(missing_ok=True)


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reference(name: str) -> None:
    device = dummy(width=128, height=64, mode="1")
    device.display(render(SCREENS[name]))
    assert device.image.size == (128, 64)
    assert_matches_reference(device.image, name)


def test_every_reference_belongs_to_a_screen() -> None:
    names = {p.stem for p in REFERENCE.glob("*.png") if not p.stem.endswith(".actual")}
    assert names == set(SCREENS)


def test_a_changed_screen_fails_and_leaves_the_actual_image(tmp_path: Path) -> None:
    if os.environ.get("UPDATE_REFERENCE") == "1":
        pytest.skip("the references are being rewritten")
    changed = render(SCREENS["idle_age_2"]).copy()
    changed.putpixel((64, 40), 1 - int(changed.getpixel((64, 40)) or 0))
    with pytest.raises(pytest.fail.Exception, match="pixels differ"):
        assert_matches_reference(changed, "idle_age_2")
    actual = REFERENCE / "idle_age_2.actual.png"
    assert actual.exists()
    actual.unlink()
