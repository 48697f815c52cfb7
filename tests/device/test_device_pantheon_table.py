"""The Pantheon at the table, screen by screen: a divinity scanned opens its activation
priced for the player to move, the decisions the expansion asks for are answered with the
buttons, and the wonder setup offers a Pantheon game. Positions are those of the golden
record (tests/records/pantheon/civilian_win.jsonl) after its first N events."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from luma.core.device import dummy

from companion.device import guided, present
from companion.device.controller import (
    Context,
    Mode,
    Press,
    Scan,
    UiState,
    initial,
    options,
    setup_event,
    step,
)
from companion.device.screens import render
from companion.device.words import Voice, move_label
from companion.engine.catalog import default_catalog
from companion.engine.events import Activate, Deal, PlaceDivinity, PlaceMinerva, Setup
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, PendingKind, Player
from companion.service.playback import read_record
from hardware.oled import Oled
from tests.device.test_device_screens_reference import assert_matches_reference

RECORD = Path(__file__).parents[1] / "records" / "pantheon" / "civilian_win.jsonl"
CATALOG = default_catalog(("pantheon",))
EVENTS = read_record(RECORD)


def after(count: int) -> GameState:
    """The golden game after its first `count` events."""
    state = new_game(CATALOG)
    for event in EVENTS[:count]:
        state = apply(state, event)
    return state


def scanned(state: GameState, *ids: str, count: int) -> UiState:
    """The screen after scanning `ids` on the game's natural screen."""
    ctx = Context(events=count)
    ui = initial(state, ctx)
    for any_id in ids:
        ui = step(ui, state, Scan(any_id), ctx).ui
    return ui


def test_a_divinity_scanned_offers_its_activation_with_each_offering_price() -> None:
    # event 46: Ann (p1) activates Hades on space 5 handing in her 2 and 4 Offering tokens.
    # Space 5 costs p1 7 coins, less the Sanctuary's 2: 5; with the 2 token 3, with the 4
    # token 1, with both 0 (never below 0). Ann has 4 coins: 5 is refused.
    state = after(46)
    ui = scanned(state, "hades", count=46)
    assert ui.mode is Mode.CARD and ui.card == "hades"
    shown = options(ui, state, Context(events=46))
    assert [(c.label, c.detail) for c in shown] == [
        ("Activate", "5 coins"),
        ("Offer 2", "3 coins"),
        ("Offer 4", "1 coin"),
        ("Offer 2+4", "0 coins"),
    ]
    assert shown[0].refusal == "Hades costs 5 coins, p1 has 4"
    assert [c.refusal for c in shown[1:]] == [None, None, None]
    assert shown[3].event == Activate(Player.P1, 5, (2, 4))


def test_the_gate_costs_twice_its_space() -> None:
    # event 57: Ann activates the Gate on space 2: 4 coins for p1, doubled 8, less the
    # Sanctuary's 2: 6. She has 7 coins and no Offering token left.
    state = after(57)
    shown = options(scanned(state, "gate", count=57), state, Context(events=57))
    assert [(c.label, c.detail, c.refusal) for c in shown] == [("Activate", "6 coins", None)]


@pytest.mark.parametrize(
    ("count", "divinity", "notice"),
    [
        (46, "enki", "Enki: not on the Pantheon"),  # activated by Ben at event 42
        (46, "zeus", "Zeus: not on the Pantheon"),  # still in its Mythology deck
        (5, "hades", "Hades: from age 2 on"),  # placed face down in age 1
    ],
)
def test_a_divinity_that_cannot_be_activated_is_refused_in_one_line(
    count: int, divinity: str, notice: str
) -> None:
    state = after(count)
    ui = scanned(state, divinity, count=count)
    assert ui.mode is Mode.IDLE and ui.notice == notice


def test_a_divinity_scanned_in_a_base_game_is_not_in_this_game() -> None:
    setup = EVENTS[0]
    assert isinstance(setup, Setup)
    wonders = CATALOG.rules.first_game_wonders
    base = Setup(setup.first_player, ("law", "strategy", "masonry", "economy", "theology"),
                 (tuple(wonders[0]), tuple(wonders[1])))  # fmt: skip
    state = apply(new_game(CATALOG), base)
    assert scanned(state, "hades", count=1).notice == "Hades: not in this game"


def test_the_divinities_drawn_are_scanned_then_one_is_placed_on_an_empty_space() -> None:
    # event 4: Ben turned up the Greek Mythology token; he draws Aphrodite and Hades and puts
    # Hades on space 5. All 6 spaces are empty: 2 divinities x 6 spaces = 12 options.
    state = after(4)
    assert state.pending is not None and state.pending.kind is PendingKind.DIVINITY
    ctx = Context(events=4)
    ui = initial(state, ctx)
    assert [c.label for c in options(ui, state, ctx)] == ["Aphrodite", "Hades", "Zeus"]
    assert present.view(ui, state, ctx).title == "Divinity"
    ui = step(ui, state, Scan("aphrodite"), ctx).ui
    assert step(ui, state, Scan("aphrodite"), ctx).ui.notice == "Aphrodite: already drawn"
    assert step(ui, state, Scan("enki"), ctx).ui.notice == "Enki: cannot be drawn"
    ui = step(ui, state, Scan("hades"), ctx).ui
    shown = options(ui, state, ctx)
    assert len(shown) == 12 and shown[0].label == "Space 1: Aphrodite"
    ui = step(ui, state, Scan("hades"), ctx).ui  # a scan points at the first Hades option
    assert shown[ui.cursor].label == "Space 1: Hades"
    for _ in range(4):
        ui = step(ui, state, Press("right"), ctx).ui
    done = step(ui, state, Press("select"), ctx)
    assert done.event == PlaceDivinity(Player.P2, ("aphrodite", "hades"), "hades", 5)  # type: ignore[arg-type]


def test_the_gate_scans_the_top_card_of_each_deck_then_activates_one() -> None:
    # event 58: the 5 decks each hold cards; the Gate turns up the top one of each
    state = after(58)
    ctx = Context(events=58)
    ui = scanned(state, "isis", "aphrodite", count=58)
    assert present.view(ui, state, ctx).subtitle == "Scan drawn 3/5"
    assert step(ui, state, Scan("isis"), ctx).ui.notice == "Isis: already drawn"
    assert step(ui, state, Scan("anubis"), ctx).ui.notice == "Anubis: cannot be drawn"
    ui = scanned(state, "mars", "baal", "ishtar", "aphrodite", "isis", count=58)
    # listed in the decks' order, whatever the order of the scans
    assert [c.label for c in options(ui, state, ctx)] == [
        "Isis", "Aphrodite", "Ishtar", "Baal", "Mars",
    ]  # fmt: skip


def test_neptune_and_minerva_say_where_on_the_track() -> None:
    # event 62: all 4 loot tokens are on the track: 4 to drop x 3 to apply
    state = after(62)
    neptune = options(initial(state, Context(events=62)), state, Context(events=62))
    assert len(neptune) == 12
    assert (neptune[0].label, neptune[0].detail) == ("Drop Ann 5", "use Ann 2")
    # event 81: the pawn is 2 toward Ann: every other space of the 19, capitals included
    state = after(81)
    minerva = options(initial(state, Context(events=81)), state, Context(events=81))
    labels = [c.label for c in minerva]
    assert len(labels) == 18 and "2 toward Ann" not in labels
    assert labels[0] == "9 toward Ann" and labels[8] == "In the middle"


def test_the_wonder_setup_offers_a_pantheon_draft_that_the_setup_records() -> None:
    state = new_game(CATALOG)
    ctx = Context()
    ui = step(initial(state, ctx), state, Press("select"), ctx).ui  # Player 1 begins
    assert [c.label for c in options(ui, state, ctx)] == [
        "Wonder draft", "First-game sets", "Pantheon draft",
    ]  # fmt: skip
    ui = step(step(ui, state, Press("left"), ctx).ui, state, Press("select"), ctx).ui
    assert ui.mode is Mode.DRAFT and ui.expansions == ("pantheon",)
    assert setup_event(ui, CATALOG).expansions == ("pantheon",)
    assert UiState.from_json(ui.to_json()) == ui  # kept across a restart
    base = new_game(default_catalog())
    assert len(options(step(initial(base, ctx), base, Press("select"), ctx).ui, base, ctx)) == 2


def test_select_on_the_idle_screen_shows_the_pantheon_board_priced_for_the_player() -> None:
    # event 46, Ann (p1) to play with the Sanctuary: space n costs p1 n + 2 coins, less 2;
    # the Gate on space 2 costs 2 x 4 - 2 = 6; space 4 is empty (Enki activated)
    state = after(46)
    ctx = Context(events=46)
    ui = step(initial(state, ctx), state, Press("select"), ctx).ui
    assert ui.mode is Mode.PANTHEON
    assert present.view(ui, state, ctx).title == "Pantheon"
    assert [(c.label, c.detail) for c in options(ui, state, ctx)] == [
        ("1 Neptune", "1 coin"),
        ("2 Gate", "6 coins"),
        ("3 Ra", "3 coins"),
        ("4 empty", ""),
        ("5 Hades", "5 coins"),
        ("6 Minerva", "6 coins"),
    ]
    for _ in range(3):
        ui = step(ui, state, Press("right"), ctx).ui
    assert step(ui, state, Press("select"), ctx).ui.notice == "Nothing to activate here"
    ui = step(ui, state, Press("right"), ctx).ui
    chosen = step(ui, state, Press("select"), ctx).ui  # the same screen as a scan of Hades
    assert chosen.mode is Mode.CARD and chosen.card == "hades"
    assert step(chosen, state, Press("left", long=True), ctx).ui.mode is Mode.IDLE


def test_in_age_1_the_board_shows_only_the_mythology_of_each_divinity() -> None:
    # event 13: Hades (Greek) on 5, Minerva (Roman) on 6, Enki (Mesopotamian) on 4; the
    # prices are those p1 (to play) would pay: space n costs n + 2, less the Sanctuary's 2
    # (built at event 10): n
    state = after(13)
    ctx = Context(events=13)
    ui = step(initial(state, ctx), state, Press("select"), ctx).ui
    shown = options(ui, state, ctx)
    assert [(c.label, c.detail) for c in shown[3:]] == [
        ("4 Mesopotamian?", "4 coins"),
        ("5 Greek?", "5 coins"),
        ("6 Roman?", "6 coins"),
    ]
    ui = replace(ui, cursor=4)
    assert step(ui, state, Press("select"), ctx).ui.notice == "Nothing to activate here"


def test_the_board_and_the_activation_screens_as_drawn(tmp_path: Path) -> None:
    state = after(46)
    ctx = Context(events=46)
    board = step(initial(state, ctx), state, Press("select"), ctx).ui
    for name, ui in (("board", board), ("hades", scanned(state, "hades", count=46))):
        device = dummy(width=128, height=64, mode="1")
        Oled(device).show(render(present.view(ui, state, ctx)))
        assert_matches_reference(device.image, f"pantheon/{name}")


def test_guided_entry_asks_the_token_on_each_marked_card_after_the_cards() -> None:
    deal = EVENTS[1]
    assert isinstance(deal, Deal) and deal.age == 1
    cards = guided.deal_entries(CATALOG, Deal(1, deal.layout))  # the face-up cards only
    entry = guided.GuidedDeal.of(CATALOG, 1, cards, pantheon=True)
    # the marked cards of Age I: the outer cards of row 2 (of 3), the outer and middle
    # cards of row 4 (of 5)
    assert entry.titles() == ("Age 1: which token?", "Row 2, card 1 of 3")
    assert entry.token_choices() == ("egyptian", "greek", "mesopotamian", "phoenician", "roman")
    entry.answer_token("roman")
    entry.answer_token("roman")  # the box holds 2 Roman Mythology tokens, no more
    assert entry.titles()[1] == "Row 4, card 1 of 5"
    assert "roman" not in entry.token_choices()
    for token in ("greek", "egyptian", "greek"):
        entry.answer_token(token)
    assert entry.done
    assert entry.deal().tokens == ("roman", "roman", "greek", "egyptian", "greek")
    # a base game asks no token
    assert guided.GuidedDeal.of(CATALOG, 1, cards).deal().tokens == ()


def test_guided_entry_offers_each_offering_token_once_in_age_2() -> None:
    deal = EVENTS[28]
    assert isinstance(deal, Deal) and deal.age == 2
    cards = guided.deal_entries(CATALOG, Deal(2, deal.layout))
    entry = guided.GuidedDeal.of(CATALOG, 2, (*cards, "token:4"), pantheon=True)
    assert entry.token_choices() == ("2", "3")
    state = after(28)
    ui = UiState(mode=Mode.GUIDED, dealt=entry.entries)
    # no skip: an age of a Pantheon game without its deal would lose its tokens
    assert [c.label for c in options(ui, state)] == ["Offering 2", "Offering 3"]


def test_a_pantheon_age_with_tokens_cannot_be_skipped_and_age_3_can() -> None:
    first = after(28)  # Age II, nothing dealt yet
    assert first.age == 2 and first.structure is None
    assert [c.label for c in options(UiState(mode=Mode.GUIDED), first)] == []
    third = after(65)  # the record's Age III deal is its line 66
    assert third.age == 3 and third.structure is None
    assert [c.label for c in options(UiState(mode=Mode.GUIDED), third)] == ["Skip: no deal"]


def test_table_mode_enters_a_pantheon_game_by_guided_scans(tmp_path: Path) -> None:
    # Table mode tells the box the cards taken, not where they lie, so not which card holds
    # a token: the setup says so beside "Pantheon draft", and each age of a Pantheon game
    # begins with the guided entry (face-up cards, then the tokens), not the idle screen.
    from companion.service.loop import App
    from companion.service.playback import FrameRecorder
    from companion.service.root import open_journal

    app = App(CATALOG, open_journal(tmp_path / "j.sqlite"), FrameRecorder(None))  # table mode
    app.start(welcome=False)
    app.handle(Press("select"))  # Player 1 begins
    assert app.ui.mode is Mode.WONDER_SETUP
    labels = [(c.label, c.detail) for c in options(app.ui, app.state, app.context())]
    assert labels[2] == ("Pantheon draft", "asks each age's cards")
    guided_ctx = Context(guided=True)
    assert options(app.ui, app.state, guided_ctx)[2].detail == "with the expansion"
    first = EVENTS[0]
    assert isinstance(first, Setup)
    app.handle(Press("right"))
    app.handle(Press("right"))
    app.handle(Press("select"))
    for wonder in (*first.wonders[0][:2], *first.wonders[1][:2]):  # round 1: p1 p2 p2 p1
        app.handle(Scan(wonder))
    for _ in range(4):
        app.handle(Press("select"))
    for wonder in (*first.wonders[1][2:], *first.wonders[0][2:]):
        app.handle(Scan(wonder))
    for _ in range(4):
        app.handle(Press("select"))
    for token in first.progress_tokens:
        app.handle(Scan(token))
    assert app.ui.mode is Mode.START
    app.handle(Press("select"))
    while app.ui.mode is Mode.FEEDBACK:
        app.handle(Press("left"))
    assert app.state.pantheon is not None
    assert app.ui.mode is Mode.GUIDED
    assert app.view is not None and app.view.title.startswith("Age 1")
    # a base game in the same table mode starts on the idle screen, as before
    base = App(default_catalog(), open_journal(tmp_path / "b.sqlite"), FrameRecorder(None))
    base.start(welcome=False)
    assert not base.context().guided
    app.journal.close()
    base.journal.close()


def test_the_coach_words_pantheon_moves() -> None:
    voice = Voice.oled(after(46))
    assert move_label(voice, Activate(Player.P1, 5, (2, 4))) == "Activate space 5, offer 2+4"
    placed = PlaceDivinity(Player.P2, ("aphrodite", "hades"), "hades", 5)  # type: ignore[arg-type]
    assert move_label(voice, placed) == "Hades on space 5"
    assert move_label(voice, PlaceMinerva(Player.P2, -1)) == "Minerva 1 toward Ann"
