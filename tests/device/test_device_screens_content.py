"""Screen checks that do not depend on exact pixels: the QR code reads, long texts end with an
ellipsis inside the screen, and every kind of screen renders in every language."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import zxingcpp
from luma.core.device import dummy
from PIL import Image

from companion.device import present
from companion.device.controller import Context, Mode, UiState
from companion.device.screens import (
    ELLIPSIS,
    WIDTH,
    fit,
    fit_line,
    load_fonts,
    printable,
    render,
    text_width,
    wrap_address,
)
from companion.device.views import ChoiceView, EndView, IdleView, MessageView, Option, PhoneView
from companion.engine.cards import Catalog
from companion.engine.events import Build, BuildWonder, Discard
from companion.engine.state import PANTHEON_DECISIONS, GameState, PendingKind
from companion.records.replay import replay_record

LANGUAGES = ("en", "nb", "sv", "da")
DEMO_RECORD = Path(__file__).parents[2] / "companion" / "demo" / "game.jsonl"
RECORDS = Path(__file__).parents[1] / "records"
LONG = "Föreningen för penningutlånare och Alexandra-Margrethe"


def read_qr(image: Image.Image, scale: int = 4) -> list[str]:
    """The texts of the QR codes zxing-cpp finds in the screen, enlarged `scale` times."""
    size = (image.width * scale, image.height * scale)
    big = image.convert("L").resize(size, Image.Resampling.NEAREST)
    return [found.text for found in zxingcpp.read_barcodes(np.asarray(big))]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/games/1/score",
        "http://192.168.1.23:8000/games/12/score",
        "http://duel-companion.local:8000/games/1234/score",
    ],
)
def test_the_end_screens_qr_code_reads_as_the_score_url(url: str) -> None:
    assert read_qr(render(EndView("Ben", "military", (0, 0), url))) == [url]


def test_the_qr_code_keeps_reading_under_a_banner() -> None:
    url = "http://192.168.1.23:8000/games/12/score"
    shown = EndView("Ben", "science", (30, 12), url, notice="The game is over", status="x")
    assert read_qr(render(shown)) == [url]


def test_the_qr_modules_are_whole_pixels() -> None:
    image = render(EndView("Ben", "civilian", (59, 64), "http://127.0.0.1:8000/games/1/score"))
    square = np.asarray(image.crop((WIDTH - 64, 0, WIDTH, 64)).convert("L")) > 0
    dark_rows = np.flatnonzero((~square).any(axis=1))
    dark_cols = np.flatnonzero((~square).any(axis=0))
    side = dark_rows[-1] - dark_rows[0] + 1
    assert side == dark_cols[-1] - dark_cols[0] + 1
    assert side % 29 == 0 and side // 29 >= 2  # version 3: 29 modules of 2x2 pixels
    top, left = dark_rows[0], dark_cols[0]
    inner = square[top : top + side, left : left + side]
    blocks = inner.reshape(29, side // 29, 29, side // 29)
    assert (blocks.min(axis=(1, 3)) == blocks.max(axis=(1, 3))).all()


def test_no_qr_code_without_a_url() -> None:
    assert read_qr(render(EndView("Ben", "civilian", (59, 64), ""))) == []


@pytest.mark.parametrize("font_name", ["text", "title", "bold"])
def test_a_long_text_is_cut_with_an_ellipsis_inside_its_width(font_name: str) -> None:
    font = getattr(load_fonts(), font_name)
    for width in (30, 61, 100, WIDTH):
        shown = fit(LONG, font, width)
        assert shown.endswith(ELLIPSIS)
        assert LONG.startswith(shown[:-1].rstrip())
        assert 0 < text_width(shown, font) <= width
    assert fit("Law", font, WIDTH) == "Law"


def test_a_refusal_keeps_its_reason_and_shortens_the_name() -> None:
    font = load_fonts().text
    line = fit_line(f"{LONG}: already played", font, WIDTH - 2)
    assert line.endswith(": already played")
    assert ELLIPSIS in line and text_width(line, font) <= WIDTH - 2


def test_characters_outside_the_fonts_become_question_marks() -> None:
    assert printable("Zoë 🎲 Łukasz") == "Zoë ? ?ukasz"
    render(IdleView(1, 20, "🎲" * 40, (7, 7), 0, (), (), 0, ("🎲", "Łu")))


def lit_columns(image: Image.Image, top: int, bottom: int) -> np.ndarray:
    """The x of every lit pixel between the rows top and bottom (exclusive)."""
    rows = np.asarray(image.convert("L"))[top:bottom] > 0
    return np.flatnonzero(rows.any(axis=0))


def test_a_long_card_name_ends_in_three_dots_inside_the_screen() -> None:
    image = render(ChoiceView(LONG, "Ann: 6 coins", (Option("Build", "4 coins"),), 0))
    columns = lit_columns(image, 0, 10)
    assert columns[-1] < WIDTH
    # the ellipsis: three single lit columns two pixels apart at the end of the title
    assert list(columns[-3:]) == [columns[-1] - 4, columns[-1] - 2, columns[-1]]


def test_an_option_name_is_cut_before_its_price() -> None:
    option = Option("The Temple of Artemis and Friends", "12 coins")
    image = render(ChoiceView("Caravansery", "Ann: 6 coins", (option,), 0))
    row = np.asarray(image.convert("L"))[20:27, : WIDTH - 6] > 0  # the lit cursor line
    text = np.flatnonzero((~row).any(axis=0))  # columns with dark text
    price_left = WIDTH - 7 - text_width("12 coins", load_fonts().text)
    label = text[text < price_left - 1]
    assert label[-1] <= price_left - 4  # a gap between the cut name and the price
    assert list(label[-3:]) == [label[-1] - 4, label[-1] - 2, label[-1]]  # the ellipsis
    assert text[-1] < WIDTH - 7


# --- every screen in every language, from real game states --------------------------------


@pytest.fixture(scope="module")
def demo_states(catalog: Catalog) -> list[GameState]:
    return replay_record(DEMO_RECORD.read_text(encoding="utf-8").splitlines(), catalog)


def screens_of_a_game(states: list[GameState]) -> list[tuple[UiState, GameState]]:
    """One screen state per kind: setup, idle, card, each prompt, feedback, undo, help, end."""
    first = states[0]
    shown: list[tuple[UiState, GameState]] = [
        (UiState(mode=Mode.FIRST_PLAYER), first),
        (UiState(mode=Mode.WONDER_SETUP), first),
        (UiState(mode=Mode.DRAFT, revealed=("the_pyramids", "the_sphinx")), first),
        (
            UiState(
                mode=Mode.DRAFT,
                revealed=("the_pyramids", "the_sphinx", "the_colossus", "the_mausoleum"),
            ),
            first,
        ),
        (UiState(mode=Mode.TOKENS, tokens=("law", "economy")), first),
        (
            UiState(mode=Mode.START, tokens=("law", "economy", "masonry", "theology", "urbanism")),
            first,
        ),
    ]
    kinds: set[PendingKind] = set()
    for before in states:
        if before.pending is not None and before.pending.kind not in kinds:
            kinds.add(before.pending.kind)
            shown.append((UiState(mode=Mode.PROMPT), before))
    assert kinds == set(PendingKind) - PANTHEON_DECISIONS  # the base game's records
    carded = [
        (UiState(mode=Mode.CARD, card=str(e.card)), s)
        for s, e in _events(states)
        if isinstance(e, Build | Discard | BuildWonder) and s.pending is None
    ]
    shown.extend(carded[:: max(1, len(carded) // 6)])
    middle = states[len(states) // 2]
    shown += [
        (UiState(mode=Mode.IDLE), middle),
        (UiState(mode=Mode.IDLE, notice="Unknown QR code", status="camera lost"), middle),
        (UiState(mode=Mode.FEEDBACK, lines=("Ann builds Lumber Yard", "Ann -2 coins")), middle),
        (UiState(mode=Mode.HELP), middle),
        (UiState(mode=Mode.UNDO), middle),
        (UiState(mode=Mode.END), states[-1]),
    ]
    return shown


def _events(states: list[GameState]) -> list[tuple[GameState, object]]:
    lines = DEMO_RECORD.read_text(encoding="utf-8").splitlines()
    from companion.records.replay import read_events

    events = [event for _, event in read_events(lines)]
    return list(zip(states, events, strict=False))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_kind_renders_in_every_language(
    demo_states: list[GameState], language: str
) -> None:
    context = Context(
        language=language, events=3, score_url="http://127.0.0.1:8000/games/1/score", pairing="4821"
    )
    kinds = set()
    for ui, state in screens_of_a_game(demo_states):
        shown = present.view(ui, state, context)
        kinds.add(type(shown).__name__)
        image = render(shown)
        assert image.size == (128, 64) and image.mode == "1"
        assert image.getbbox() is not None, f"{ui.mode} draws nothing"
        if ui.mode is Mode.CARD:
            assert isinstance(shown, ChoiceView)
            assert shown.title == state.catalog.name(str(ui.card), language)
    assert kinds == {"ChoiceView", "IdleView", "MessageView", "HelpView", "EndView"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_of_the_catalog_is_drawable(catalog: Catalog, language: str) -> None:
    ids = [
        *(c.id for c in catalog.cards),
        *(w.id for w in catalog.wonders),
        *(t.id for t in catalog.progress_tokens),
    ]
    for name in (catalog.name(i, language) for i in ids):
        assert printable(name) == name, f"{name!r} has characters the fonts lack"


@pytest.mark.parametrize("record", sorted(p.name for p in RECORDS.glob("simulated_*.jsonl")))
def test_the_end_screen_names_the_winner_and_the_victory(catalog: Catalog, record: str) -> None:
    states = replay_record((RECORDS / record).read_text(encoding="utf-8").splitlines(), catalog)
    last = states[-1]
    shown = present.view(UiState(mode=Mode.END), last, Context(score_url="http://h/games/1"))
    assert isinstance(shown, EndView)
    assert last.victory is not None and shown.victory == last.victory.value
    if last.shared:  # simulated_shared_victory.jsonl: a civilian tie on blue cards too
        assert shown.winner == "" and shown.victory == "civilian"
    else:
        assert shown.victory in record  # simulated_<victory>_win.jsonl
        assert shown.winner in last.names
    assert read_qr(render(shown)) == ["http://h/games/1"]


def test_the_undo_question_names_the_last_action(demo_states: list[GameState]) -> None:
    (state, event), *_ = [(s, e) for s, e in _events(demo_states) if isinstance(e, Build)]
    after = demo_states[demo_states.index(state) + 1]
    context = Context(last=event, events=5)  # type: ignore[arg-type]
    shown = present.view(UiState(mode=Mode.UNDO), after, context)
    assert isinstance(shown, MessageView) and shown.title == "Undo?"
    assert shown.lines[0].endswith(after.catalog.name(str(event.card)))


def test_an_unaffordable_option_is_blocked_and_says_so(demo_states: list[GameState]) -> None:
    poor = [
        (replace(ui, cursor=0), state)
        for ui, state in screens_of_a_game(demo_states)
        if ui.mode is Mode.CARD
    ]
    found = False
    for ui, state in poor:
        shown = present.view(ui, state, Context())
        assert isinstance(shown, ChoiceView)
        for option in shown.options:
            if option.blocked:
                found = True
                coins = state.city(state.current).coins
                assert option.note == f"Costs {option.detail}, has {coins}"
                assert option.detail.endswith("coins")
    assert found


@pytest.mark.parametrize(
    ("url", "lines"),
    [
        ("http://127.0.0.1:8000/", ["127.0.0.1", ":8000"]),
        ("http://192.168.178.100:8000/", ["192.168.178.", "100:8000"]),
        ("http://192.168.1.23:8000/", ["192.168.1.23", ":8000"]),
        ("http://duel.local:8000/", ["duel.local", ":8000"]),
        ("http://10.0.0.2/", ["10.0.0.2"]),
    ],
)
def test_the_phone_screen_breaks_its_address_before_the_port(url: str, lines: list[str]) -> None:
    # 12 characters a line beside the QR code (62 pixels of the 5x8 font)
    address = url.removeprefix("http://").removesuffix("/")
    assert wrap_address(address, load_fonts().text, 62, 2) == lines
    device = dummy(width=128, height=64, mode="1")
    device.display(render(PhoneView(url, "482193")))
    second_line = device.image.crop((0, 20, 62, 28)).getbbox()
    assert (second_line is not None) == (len(lines) == 2)
