"""One wording for the OLED and the phone (companion.device.words): coins, prices, events
with their reasons, and one refusal per cause."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.device import present, words
from companion.device.choices import options
from companion.device.controller import Context, Mode, Press, Scan, UiState, step
from companion.device.screens import ELLIPSIS, label_room, load_fonts, message_lines, text_width
from companion.device.views import MessageView, Option
from companion.device.words import Voice
from companion.engine.cards import CardId, Catalog, WonderId
from companion.engine.effects import city_of
from companion.engine.events import BuildWonder, Discard
from companion.engine.rules import apply
from companion.engine.state import GameState, Phase, Player


@pytest.mark.parametrize(
    ("amount", "signed", "expected"),
    [
        (1, False, "1 coin"),
        (-1, False, "-1 coin"),
        (0, False, "0 coins"),
        (12, False, "12 coins"),
        (1, True, "+1 coin"),  # the phone once wrote "+1 coins"
        (-3, True, "-3 coins"),
    ],
)
def test_coins_are_worded_for_one_and_many(amount: int, signed: bool, expected: str) -> None:
    assert words.coins(amount, signed=signed) == expected


def zeus_table(catalog: Catalog) -> GameState:
    """Player 2 to play, the pawn 2 spaces toward player 1, who has 7 coins and no card; the
    loot token of 2 coins waits on player 1's side at space 3."""
    return GameState(
        catalog=catalog,
        phase=Phase.PLAYING,
        age=1,
        current=Player.P2,
        cities=(
            city_of(catalog, coins=7),
            city_of(catalog, coins=20, wonders_unbuilt=["the_statue_of_zeus"]),
        ),
        position=-2,
        loot=frozenset({3, 6, -3, -6}),
    )


def test_the_statue_of_zeus_feedback_keeps_the_loot_reason_on_the_oled(catalog: Catalog) -> None:
    before = zeus_table(catalog)
    event = BuildWonder(Player.P2, WonderId("the_statue_of_zeus"), CardId("lumber_yard"))
    after = apply(before, event)
    lines = words.told(Voice.oled(after), before, after, event)
    # the wonder costs 1 wood 1 clay 1 stone 2 papyrus, 2 coins each (player 1 has no
    # brown or grey card): 5 x 2 = 10 coins; its shield moves the pawn from -2 to -3, onto
    # the loot token of 2 coins on player 1's side
    assert lines == (
        "Player 2 builds Statue of Zeus with Lumber Yard",
        "Player 2 -10 coins",
        "Pawn 1 toward Player 1",
        "Loot: Player 1 -2 coins",
    )
    shown = message_lines(MessageView("Done", lines), load_fonts())
    assert not any(ELLIPSIS in line for line in shown), shown


def test_the_phone_log_says_what_the_oled_says_with_full_names(catalog: Catalog) -> None:
    before = zeus_table(catalog)
    event = BuildWonder(Player.P2, WonderId("the_statue_of_zeus"), CardId("lumber_yard"))
    after = apply(before, event)
    voice = Voice.page(after, given={"p1": "Ann", "p2": "Ben"})
    assert words.log_text(words.told(voice, before, after, event)) == (
        "Ben builds The Statue of Zeus with Lumber Yard "
        "(Ben -10 coins; Pawn 1 toward Ann; Loot: Ann -2 coins)"
    )


def test_a_discard_of_one_coin_is_worded_in_the_singular_on_the_phone(catalog: Catalog) -> None:
    before = replace(zeus_table(catalog), current=Player.P1)
    after = apply(before, Discard(Player.P1, CardId("lumber_yard")))
    voice = Voice.page(after)
    line = words.log_text(
        words.told(voice, before, after, Discard(Player.P1, CardId("lumber_yard")))
    )
    assert line == "Player 1 discards Lumber Yard (Player 1 +2 coins)"  # 2 + 0 yellow cards


def test_an_unaffordable_option_has_one_wording_before_and_after_select(
    catalog: Catalog,
) -> None:
    state = replace(zeus_table(catalog), current=Player.P1)
    poor = replace(state, cities=(city_of(catalog, coins=0), state.cities[1]))
    ui = UiState(mode=Mode.IDLE, events=1)
    ctx = Context(events=1)
    card = step(ui, poor, Scan("stone_pit"), ctx)  # 1 coin printed on the card
    shown = present.view(card.ui, poor, ctx)
    build = shown.options[0]  # type: ignore[union-attr]
    assert build.blocked and build.note == "Costs 1 coin, has 0"
    refused = step(card.ui, poor, Press("select"), ctx)
    assert refused.event is None and refused.ui.notice == build.note
    assert options(card.ui, poor, ctx)[0].refusal == build.note


def test_every_wonder_has_an_oled_name_that_fits_beside_a_two_digit_price(
    catalog: Catalog,
) -> None:
    fonts = load_fonts()
    for wonder in catalog.wonders:
        name = catalog.short_name(wonder.id)
        option = Option(name, words.coins(12), blocked=True)  # the widest case
        assert text_width(name, fonts.text) <= label_room(option, fonts), name


def test_the_great_lighthouse_is_named_whole_on_the_oled(catalog: Catalog) -> None:
    # the full name, "The Great Lighthouse", was cut to "The Great Lig..." beside its price
    assert catalog.short_name("the_great_lighthouse") == "Gr. Lighthouse"
    assert catalog.name("the_great_lighthouse") == "The Great Lighthouse"
