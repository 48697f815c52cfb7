"""The coach screen: the search's top three moves with chances and reasons."""

from __future__ import annotations

from pathlib import Path

from luma.core.device import dummy

from companion.device.coach import coach_view
from companion.device.screens import load_fonts, render, wrap
from companion.engine.cards import Catalog
from companion.records.replay import replay_record
from companion.search.player import Level, suggest

RECORD = Path(__file__).resolve().parents[1] / "records" / "simulated_civilian_win.jsonl"
QUICK = Level("quick", 30)


def test_the_coach_shows_the_searchs_top_three_with_chances(catalog: Catalog) -> None:
    lines = RECORD.read_text().splitlines()[:12]
    state = replay_record(lines, catalog)[-1]
    view = coach_view(state, QUICK, 2, seconds=None)
    answer = suggest(state, QUICK, 2)
    assert view.title == "Coach" and view.subtitle == "Ben to play"  # the setup names p2 Ben
    assert len(view.options) == 3
    for option, move in zip(view.options, answer.moves, strict=False):
        assert option.detail == f"{round(100 * move.win)}%"
        card = catalog.name(move.event.card)  # type: ignore[union-attr]
        assert card in option.label
        assert option.note == (str(move.reason) if move.reason else "")
    image = render(view)
    assert image.size == (128, 64) and image.getbbox() is not None


def test_the_coach_says_when_there_is_nothing_to_advise(catalog: Catalog) -> None:
    state = replay_record(RECORD.read_text().splitlines(), catalog)[-1]
    view = coach_view(state, QUICK)
    assert (view.options, view.subtitle, view.hint) == ((), "Nothing to advise", "The game is over")


def test_without_the_deal_the_coach_says_what_to_do_in_full(catalog: Catalog) -> None:
    state = replay_record(RECORD.read_text().splitlines()[:1], catalog)[-1]  # the setup alone
    view = coach_view(state, QUICK)
    assert view.hint == "Needs the cards of age 1: play with guided entry (or the overhead camera)"
    # wrapped at 25 characters on three lines of the screen, nothing cut
    fonts = load_fonts()
    assert wrap(view.hint, fonts.text, 128, 4) == [
        "Needs the cards of age 1:",
        "play with guided entry",
        "(or the overhead camera)",
    ]
    device = dummy(width=128, height=64, mode="1")
    device.display(render(view))
    # the three lines are drawn, the row after them is dark
    for top in (20, 29, 38):
        assert device.image.crop((0, top, 128, top + 8)).getbbox() is not None
    assert device.image.crop((0, 47, 128, 64)).getbbox() is None
