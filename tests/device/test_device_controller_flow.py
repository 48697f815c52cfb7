"""The scan-and-confirm controller, driven input by input over real engine states."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.device.controller import (
    Context,
    Input,
    Mode,
    Press,
    Scan,
    Status,
    Step,
    Tick,
    UiState,
    initial,
    options,
    resume,
    setup_event,
    step,
)
from companion.device.screens import render
from companion.device.views import IdleView
from companion.engine.cards import CardId, Catalog, TokenId, WonderId
from companion.engine.events import (
    Build,
    BuildFromDiscard,
    BuildWonder,
    Destroy,
    Discard,
    Event,
    KeepLibraryToken,
    Setup,
    TakeProgress,
)
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, PendingKind, Player
from companion.service.playback import read_record

TOKENS = ("economy", "law", "architecture", "agriculture", "theology")
P1_WONDERS = ("the_statue_of_zeus", "the_sphinx", "the_appian_way", "the_pyramids")
P2_WONDERS = ("the_temple_of_artemis", "the_mausoleum", "the_great_lighthouse", "the_great_library")


def started(catalog: Catalog, *events: Event) -> GameState:
    """A game after the demo's setup and then `events`."""
    state = apply(
        new_game(catalog),
        Setup(
            Player.P1,
            tuple(TokenId(t) for t in TOKENS),
            (tuple(WonderId(w) for w in P1_WONDERS), tuple(WonderId(w) for w in P2_WONDERS)),
            ("Ann", "Ben"),
        ),
    )
    for event in events:
        state = apply(state, event)
    return state


def run(ui: UiState, state: GameState, *inputs: Input, ctx: Context | None = None) -> Step:
    """Feed inputs one by one; the game state stays as given (no event is applied)."""
    result = Step(ui, None)
    for given in inputs:
        result = step(result.ui, state, given, ctx or Context())
        ui = result.ui
    return result


@pytest.fixture
def idle(catalog: Catalog) -> tuple[UiState, GameState]:
    state = started(catalog)
    return initial(state, Context(events=1)), state


def test_a_scanned_card_shows_build_discard_and_each_wonder_with_prices(
    idle: tuple[UiState, GameState],
) -> None:
    ui, state = idle
    shown = run(ui, state, Scan("lumber_yard"))
    assert shown.ui.mode is Mode.CARD and shown.event is None
    choices = options(shown.ui, state)
    assert [c.label for c in choices[:2]] == ["Build", "Discard"]
    assert choices[0].detail == "free" and choices[1].detail == "+2 coins"
    assert len(choices) == 2 + len(P1_WONDERS)
    assert choices[0].event == Build(Player.P1, CardId("lumber_yard"))


def test_select_confirms_the_option_under_the_cursor(idle: tuple[UiState, GameState]) -> None:
    ui, state = idle
    done = run(ui, state, Scan("lumber_yard"), Press("right"), Press("select"))
    assert done.event == Discard(Player.P1, CardId("lumber_yard"))
    assert done.ui.mode is Mode.FEEDBACK
    assert "Ann +2 coins" in done.ui.lines


def test_left_wraps_to_the_last_option(idle: tuple[UiState, GameState]) -> None:
    ui, state = idle
    moved = run(ui, state, Scan("lumber_yard"), Press("left"))
    assert moved.ui.cursor == len(options(moved.ui, state)) - 1


@pytest.mark.parametrize(
    ("scanned", "reason"),
    [
        (None, "Unknown QR code"),
        ("arena", "Arena: age 3 card"),
        ("the_pyramids", "Pyramids: not an age card"),  # the OLED's short name
    ],
)
def test_a_wrong_scan_shows_one_line_and_changes_nothing(
    idle: tuple[UiState, GameState], scanned: str | None, reason: str
) -> None:
    ui, state = idle
    refused = run(ui, state, Scan(scanned))
    assert refused.event is None
    assert refused.ui.mode is Mode.IDLE
    assert refused.ui.notice == reason
    assert run(refused.ui, state, Press("left")).ui.notice == ""  # the next input clears it


def test_a_card_already_played_is_refused(catalog: Catalog) -> None:
    state = started(catalog, Build(Player.P1, CardId("lumber_yard")))
    refused = run(initial(state, Context(events=2)), state, Scan("lumber_yard"))
    assert refused.event is None
    assert refused.ui.notice == "Lumber Yard: already played"


def test_an_unaffordable_build_is_refused_with_its_price(catalog: Catalog) -> None:
    state = started(catalog)
    state = replace(state, cities=(replace(state.cities[0], coins=0), state.cities[1]))
    ui = initial(state, Context(events=1))
    shown = run(ui, state, Scan("lumber_yard"))  # free: always affordable
    assert options(shown.ui, state)[0].refusal is None
    costly = run(ui, state, Scan("stone_pit"))  # 1 coin printed on the card
    refused = run(costly.ui, state, Press("select"))
    assert refused.event is None
    assert refused.ui.notice == "Costs 1 coin, has 0"
    assert refused.ui.mode is Mode.CARD


def test_scanning_a_wonder_on_the_card_screen_points_at_it(
    idle: tuple[UiState, GameState],
) -> None:
    ui, state = idle
    pointed = run(ui, state, Scan("lumber_yard"), Scan("the_sphinx"))
    chosen = options(pointed.ui, state)[pointed.ui.cursor]
    assert chosen.event == BuildWonder(Player.P1, WonderId("the_sphinx"), CardId("lumber_yard"))
    assert pointed.event is None


def test_long_left_leaves_the_card_without_an_event(idle: tuple[UiState, GameState]) -> None:
    ui, state = idle
    back = run(ui, state, Scan("lumber_yard"), Press("left", long=True))
    assert back.ui.mode is Mode.IDLE and back.event is None


def test_undo_asks_first_and_a_short_left_keeps_the_action(catalog: Catalog) -> None:
    last = Build(Player.P1, CardId("lumber_yard"))
    state = started(catalog, last)
    ctx = Context(events=2, last=last)
    asked = run(initial(state, ctx), state, Press("select", long=True), ctx=ctx)
    assert asked.ui.mode is Mode.UNDO and not asked.undo
    assert not run(asked.ui, state, Press("left"), ctx=ctx).undo
    assert run(asked.ui, state, Press("select"), ctx=ctx).undo


def test_nothing_to_undo_before_the_first_action(catalog: Catalog) -> None:
    state = new_game(catalog)
    ui = UiState(mode=Mode.IDLE)
    refused = step(ui, started(catalog), Press("select", long=True), Context(events=1))
    assert refused.ui.notice == "Nothing to undo" and not refused.undo
    assert state.pending is None


def before_first(catalog: Catalog, kind: type) -> tuple[GameState, int]:
    """The state of the demo game just before its first event of `kind`, and its index."""
    events = read_record()
    state = new_game(catalog)
    for index, event in enumerate(events):
        if isinstance(event, kind):
            return state, index
        state = apply(state, event)
    raise AssertionError(f"no {kind.__name__} in the demo game")


def test_the_progress_token_prompt_takes_a_scanned_token(catalog: Catalog) -> None:
    state, index = before_first(catalog, TakeProgress)
    assert state.pending is not None and state.pending.kind is PendingKind.PROGRESS
    ui = initial(state, Context(events=index))
    assert ui.mode is Mode.PROMPT
    token = state.board_tokens[-1]
    pointed = run(ui, state, Scan(token))
    assert pointed.event is None
    done = run(pointed.ui, state, Press("select"))
    assert done.event == TakeProgress(state.pending.player, token)


def test_the_prompt_refuses_a_token_not_on_the_board(catalog: Catalog) -> None:
    state, index = before_first(catalog, TakeProgress)
    missing = next(t.id for t in catalog.progress_tokens if t.id not in state.board_tokens)
    refused = run(initial(state, Context(events=index)), state, Scan(missing))
    assert refused.event is None and "not a choice here" in refused.ui.notice


def test_the_great_library_draws_three_scanned_tokens_then_keeps_one(catalog: Catalog) -> None:
    state, index = before_first(catalog, KeepLibraryToken)
    event = read_record()[index]
    assert isinstance(event, KeepLibraryToken)
    ui = initial(state, Context(events=index))
    drawn = run(ui, state, *(Scan(t) for t in event.drawn))
    assert drawn.ui.tokens == event.drawn and drawn.event is None
    assert [c.label for c in options(drawn.ui, state)] == [catalog.name(t) for t in event.drawn]
    kept = run(drawn.ui, state, Scan(event.token), Press("select"))
    assert kept.event == event


def test_the_mausoleum_offers_the_discard_pile(catalog: Catalog) -> None:
    state, index = before_first(catalog, BuildFromDiscard)
    ui = initial(state, Context(events=index))
    choices = options(ui, state)
    assert {c.event.card for c in choices if isinstance(c.event, BuildFromDiscard)} == set(
        state.discard
    )


def test_destroy_offers_the_opponents_cards_of_the_wonders_colour(catalog: Catalog) -> None:
    state, index = before_first(catalog, Destroy)
    assert state.pending is not None
    ui = initial(state, Context(events=index))
    targets = [c.event.card for c in options(ui, state) if isinstance(c.event, Destroy)]
    wonder = catalog.wonder(state.city(state.pending.player).wonders_built[-1])
    opponent = state.city(state.pending.player.opponent)
    assert targets and all(catalog.card(c).color == wonder.destroys for c in targets)
    assert set(targets) <= set(opponent.cards)


def test_the_draft_follows_abba_baab_and_gives_the_last_wonder(catalog: Catalog) -> None:
    state = new_game(catalog)
    ui = initial(state)
    ui = run(ui, state, Press("right"), Press("select")).ui  # Player 2 begins
    ui = run(ui, state, Press("select")).ui  # the draft
    first_round = ("the_pyramids", "the_sphinx", "the_colossus", "piraeus")
    ui = run(ui, state, *(Scan(w) for w in first_round)).ui
    # A (p2) picks 1, B (p1) picks 2, A gets the last
    ui = run(ui, state, Scan("the_colossus"), Press("select")).ui
    ui = run(ui, state, Scan("the_pyramids"), Press("select")).ui
    ui = run(ui, state, Scan("piraeus"), Press("select")).ui
    assert ui.picks == ("the_colossus", "the_pyramids", "piraeus", "the_sphinx")
    second_round = ("the_mausoleum", "the_great_library", "the_appian_way", "circus_maximus")
    ui = run(ui, state, *(Scan(w) for w in second_round)).ui
    for wonder in ("the_mausoleum", "the_great_library", "the_appian_way"):
        ui = run(ui, state, Scan(wonder), Press("select")).ui
    assert ui.mode is Mode.TOKENS
    ui = run(ui, state, *(Scan(t) for t in TOKENS)).ui
    assert ui.mode is Mode.START
    event = setup_event(ui, catalog)
    assert event.first_player is Player.P2
    assert event.wonders == (
        ("the_pyramids", "piraeus", "the_mausoleum", "circus_maximus"),
        ("the_colossus", "the_sphinx", "the_great_library", "the_appian_way"),
    )
    assert event.players == ("", "")  # unnamed (the screens say Player 1 / Player 2)
    done = run(ui, state, Press("select"))
    assert done.event == event
    apply(state, event)  # the rules accept it


def test_the_first_game_sets_need_only_the_tokens(catalog: Catalog) -> None:
    state = new_game(catalog)
    ui = run(initial(state), state, Press("select"), Press("right"), Press("select")).ui
    assert ui.mode is Mode.TOKENS
    ui = run(ui, state, *(Scan(t) for t in TOKENS)).ui
    event = setup_event(ui, catalog)
    assert event.wonders == catalog.rules.first_game_wonders


def test_setup_refuses_a_token_twice_and_a_card_as_token(catalog: Catalog) -> None:
    state = new_game(catalog)
    ui = run(initial(state), state, Press("select"), Press("right"), Press("select")).ui
    twice = run(ui, state, Scan("law"), Scan("law"))
    assert twice.ui.tokens == ("law",) and twice.ui.notice == "Law: already scanned"
    card = run(twice.ui, state, Scan("lumber_yard"))
    assert card.ui.tokens == ("law",) and "not a progress token" in card.ui.notice


def test_a_status_shows_on_every_screen_until_the_part_is_back(
    idle: tuple[UiState, GameState],
) -> None:
    ui, state = idle
    lost = run(ui, state, Status("camera lost"), Scan("lumber_yard"))
    assert lost.ui.status == "camera lost"
    assert run(lost.ui, state, Status(None)).ui.status == ""


def test_a_lost_camera_is_said_once_in_full_then_leaves_the_prices_on_the_idle_screen(
    idle: tuple[UiState, GameState],
) -> None:
    ui, state = idle
    lost = run(ui, state, Status("camera lost"))
    assert isinstance(lost.view, IdleView) and lost.view.notice == "camera lost"
    banner = render(lost.view).crop((0, 55, 128, 64))
    assert banner.getpixel((127, 8)) == 255  # the lit bar of the notice
    calm = run(lost.ui, state, Press("right"))  # any input: the notice has been read
    assert isinstance(calm.view, IdleView) and calm.view.notice == ""
    assert calm.view.status == "camera lost"
    # the price row is drawn as without a lost part; the top bar carries the mark
    fine = run(ui, state, Press("right")).view
    assert fine is not None
    drawn, before = render(calm.view), render(fine)
    assert drawn.crop((0, 51, 128, 64)).tobytes() == before.crop((0, 51, 128, 64)).tobytes()
    assert drawn.crop((0, 0, 128, 11)).tobytes() != before.crop((0, 0, 128, 11)).tobytes()
    # the button map says which part is lost
    help_view = run(calm.ui, state, Press("right", long=True)).view
    assert help_view is not None and help_view.status == "camera lost"


def test_feedback_gives_way_after_its_time(idle: tuple[UiState, GameState]) -> None:
    ui, state = idle
    done = run(ui, state, Scan("lumber_yard"), Press("select"))
    later = started(state.catalog, Build(Player.P1, CardId("lumber_yard")))
    ctx = Context(events=2)
    timed = step(done.ui, later, Tick(100.0), ctx)
    assert timed.ui.mode is Mode.FEEDBACK  # the timer starts at the first tick
    assert step(timed.ui, later, Tick(101.0), ctx).ui.mode is Mode.FEEDBACK
    assert step(timed.ui, later, Tick(105.0), ctx).ui.mode is Mode.IDLE


def test_a_scan_during_feedback_is_used_at_once(catalog: Catalog) -> None:
    state = started(catalog, Build(Player.P1, CardId("lumber_yard")))
    feedback = UiState(mode=Mode.FEEDBACK, lines=("x",), events=2)
    shown = step(feedback, state, Scan("stone_pit"), Context(events=2))
    assert shown.ui.mode is Mode.CARD and shown.ui.card == "stone_pit"


def test_the_screen_state_survives_json(idle: tuple[UiState, GameState]) -> None:
    ui, state = idle
    shown = run(ui, state, Scan("lumber_yard"), Press("right"), Press("right", long=True))
    assert shown.ui.mode is Mode.HELP
    assert UiState.from_json(shown.ui.to_json()) == replace(shown.ui, status="")


def test_a_saved_screen_is_resumed_only_if_it_matches_the_journal(
    idle: tuple[UiState, GameState],
) -> None:
    ui, state = idle
    card = run(ui, state, Scan("lumber_yard"), Press("right"), ctx=Context(events=1)).ui
    assert resume(card, state, Context(events=1)) == card
    assert resume(card, state, Context(events=2)).mode is Mode.IDLE  # stale: derived
    with pytest.raises(ValueError, match="not a saved screen state"):
        UiState.from_json({"mode": "idle"})


@pytest.mark.parametrize(("language", "name"), [("nb", "Sagbruk"), ("da", "Tømmerplads")])
def test_names_are_shown_in_the_configured_language(
    idle: tuple[UiState, GameState], language: str, name: str
) -> None:
    from companion.device.present import ChoiceView

    ui, state = idle
    ctx = Context(language=language, events=1)
    shown = run(ui, state, Scan("lumber_yard"), ctx=ctx)
    assert isinstance(shown.view, ChoiceView) and shown.view.title == name
    wrong = run(ui, state, Scan("arena"), ctx=ctx)
    assert wrong.ui.notice.startswith(state.catalog.name("arena", language))


def test_the_great_library_draw_lists_the_tokens_scanned_so_far(catalog: Catalog) -> None:
    from companion.device.controller import library_pool, settle
    from companion.device.present import view
    from companion.device.views import ChoiceView
    from companion.engine.events import BuildWonder

    events = read_record()
    library = next(
        i
        for i, e in enumerate(events)
        if isinstance(e, BuildWonder) and e.wonder == WonderId("the_great_library")
    )
    state = new_game(catalog)
    for event in events[: library + 1]:
        state = apply(state, event)
    assert state.pending is not None and state.pending.kind is PendingKind.GREAT_LIBRARY
    context = Context()
    ui = settle(state, context)
    drawn = library_pool(state)[:2]
    for token in drawn:
        ui = step(ui, state, Scan(token), context).ui
    shown = view(ui, state, context)
    assert isinstance(shown, ChoiceView)
    assert shown.hint == "Scan the tokens drawn:"
    assert shown.seen == tuple(catalog.name(t) for t in drawn)
    scanned = "scanned: " + ", ".join(catalog.name(t) for t in drawn)
    assert shown.options and all(o.note == scanned for o in shown.options)  # the bottom line
