"""A real browser on the pages served by waitress: what a person sees on a phone.

Screenshots of a phone-sized viewport go to a temporary folder; with UPDATE_REFERENCE=1 they
are written to docs/screenshots/ (committed), to be looked at before committing.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import tempfile
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from conftest import CIVILIAN, CODE, MILITARY, PLAYING
from flask import Flask
from PIL import Image

from companion.engine.cards import Catalog
from companion.records.game import Game, import_record
from companion.records.journal import Journal
from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
# Without these flags chromium stalls on a machine with no network.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("UPDATE_REFERENCE") == "1"
    else Path(tempfile.gettempdir()) / "duel-companion-screenshots"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    app.config["POLL_SECONDS"] = 0.2
    with WebServer(app, "127.0.0.1", 0, threads=4) as running:
        yield running


def phone(browser: Any, scheme: str = "light") -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, color_scheme=scheme)
    return context.new_page()


def wait_for_seq(page: Any, seq: str) -> None:
    """Wait until the page has swapped in the board of `seq` (its poll saw the change)."""
    pattern = re.compile(rf"^{seq}/")
    board = playwright_api.expect(page.locator("#board"))
    board.to_have_attribute("data-seq", pattern, timeout=10000)


def shot(page: Any, name: str, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(page.screenshot(full_page=full_page)))
    image.convert("RGB").quantize(64).save(SCREENSHOTS / name, optimize=True)  # small commits


def test_final_scoring_shows_the_pad_and_opens_a_row(browser: Any, server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/games/{CIVILIAN}/score")
    view = json.loads(page.context.request.get(f"{server.url}/games/{CIVILIAN}/score.json").text())
    winner = view["players"][view["result"]["winner"]]
    assert page.inner_text("#result .winner") == f"{winner} wins: civilian victory"
    total = page.locator(".pad-total").inner_text().split()
    assert total == ["Total", str(view["total"]["p1"]), str(view["total"]["p2"])]
    blue = page.locator("details.row-blue")
    first_source = view["rows"][0]["sources"]["p1"][0]["text"]
    assert not page.get_by_text(first_source, exact=True).first.is_visible()
    blue.locator("summary").click()  # a tap opens the row
    assert page.get_by_text(first_source, exact=True).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "score-light.png")
    page.context.close()


def test_final_scoring_in_the_dark(browser: Any, server: WebServer) -> None:
    page = phone(browser, "dark")
    page.goto(f"{server.url}/games/{MILITARY}/score")
    assert "military supremacy" in page.inner_text("#result")
    assert "capital" in page.inner_text("#result .moment")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 20, 15)"  # the dark palette
    page.locator("details.row-military summary").click()
    shot(page, "score-dark-military.png")
    page.context.close()


def test_live_page_follows_events_as_they_are_added(
    browser: Any,
    server: WebServer,
    journal: Journal,
    catalog: Catalog,
    records: dict[str, list[dict[str, Any]]],
) -> None:
    from journal_playout import next_event

    page = phone(browser)
    page.goto(f"{server.url}/games/{PLAYING}")
    game = Game(catalog, journal, PLAYING)
    first_text = page.inner_text("#recent li")
    rng = random.Random(5)
    for _ in range(3):
        event = next_event(game.state, rng)
        game.submit(event)
        seq = str(game.seq)
        wait_for_seq(page, seq)
        coins = [str(city.coins) for city in game.state.cities]
        shown = [page.inner_text(f"#city-{p} .coins").split()[0] for p in ("p1", "p2")]
        assert shown == coins
    assert page.inner_text("#recent li") != first_text
    live = json.loads(page.context.request.get(f"{server.url}/games/{PLAYING}.json").text())
    assert page.inner_text("#turn") == live["turn_text"]
    pawn = page.locator(".track li.pawn")
    assert pawn.count() == 1
    shot(page, "live-light.png")
    game.undo()  # an undo refreshes the board too
    wait_for_seq(page, str(game.seq))
    page.context.close()


def test_live_page_in_the_dark_and_undo_from_the_phone(
    browser: Any, server: WebServer, journal: Journal
) -> None:
    page = phone(browser, "dark")
    page.goto(f"{server.url}/games/{PLAYING}")
    before = page.inner_text("#recent li")
    shot(page, "live-dark.png")
    page.locator("details.actions summary").click()
    form = page.locator("form").first
    form.locator("input[name=pairing_code]").fill(CODE)
    form.locator("button").click()
    page.wait_for_url(f"{server.url}/games/{PLAYING}")
    assert journal.rows(PLAYING)[-1].is_undo
    assert page.inner_text("#recent li") != before


def test_history_and_log(browser: Any, server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/history")
    duel_games = page.locator("ul.games").first  # the score pads follow in a list of their own
    assert duel_games.locator("li").count() == 4
    assert "Cleo vs Dag" in duel_games.inner_text()
    shot(page, "history-light.png")
    page.goto(f"{server.url}/games/{CIVILIAN}/log")
    assert page.locator(".log li").first.inner_text().split(" ", 1)[1].startswith("Setup: ")
    page.context.close()


def test_several_phones_polling_do_not_starve_plain_requests(
    browser: Any, server: WebServer
) -> None:
    import urllib.request

    pages = [phone(browser) for _ in range(8)]  # twice the waitress threads
    for page in pages:
        page.goto(f"{server.url}/games/{PLAYING}")
    answers = []

    def fetch() -> None:
        with urllib.request.urlopen(f"{server.url}/games/{CIVILIAN}/score", timeout=10) as r:
            answers.append(r.status)

    threads = [threading.Thread(target=fetch) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answers == [200] * 10
    for page in pages:
        page.context.close()


def test_history_times_are_shown_in_the_phones_time_zone(
    browser: Any, server: WebServer, client: Any
) -> None:
    context = browser.new_context(viewport=PHONE, timezone_id="Asia/Tokyo")
    page = context.new_page()
    page.goto(f"{server.url}/history")
    newest = client.get("/history.json").get_json()["games"][0]
    utc = datetime.fromisoformat(newest["started"].replace("Z", "+00:00"))
    shown = page.locator("time[data-local]").first
    assert shown.inner_text() == utc.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%Y-%m-%d %H:%M")
    assert shown.get_attribute("title") == newest["started_text"]  # UTC on a long press
    context.close()


def test_review_shows_the_chart_and_the_costliest_moves(
    browser: Any, server: WebServer, journal: Journal, catalog: Catalog
) -> None:
    # a game of the search player (normal, Ann) against the one-move greedy player (Ben), as
    # `companion.play.arena.play_game` played it from seed 3: a review as after a game at the table
    played = (Path(__file__).parent / "games" / "normal_vs_greedy.jsonl").read_text()
    game = import_record(catalog, journal, played.splitlines())
    page = phone(browser)
    page.goto(f"{server.url}/games/{game}/review")
    # The search goes through every move in a worker: the page says so and reloads itself
    # until the review is there.
    chart = page.locator(".review-chart img")
    playwright_api.expect(chart).to_be_visible(timeout=300_000)
    assert page.evaluate("document.querySelector('.review-chart img').naturalWidth") > 0  # drawn
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#costliest-p1 li").count() >= 1
    assert "From here on" in page.inner_text("#turning-point")
    shot(page, "review-light.png")
    page.context.close()


def test_the_coach_opens_under_the_live_board(
    browser: Any, server: WebServer, journal: Journal, records: dict[str, Any]
) -> None:
    game = journal.new_game()  # a game in age 1: six cards to take, the coach's best three
    for record in records["civilian"][:12]:
        journal.append(game, record)
    page = phone(browser)
    page.goto(f"{server.url}/games/{game}")
    coach = page.locator("#coach")
    coach.locator("summary").click()  # a tap asks the search
    moves = coach.locator(".coach-moves li")
    playwright_api.expect(moves.first).to_be_visible(timeout=60_000)
    assert moves.count() == 3
    answer = coach.locator(".coach-answer").inner_text()
    assert answer.endswith(" to play")
    for text in moves.all_inner_texts():  # "Build Lumber Yard — 71% (reason)"
        label, _, rest = text.partition(" \u2014 ")
        assert label and re.match(r"\d{1,3}%", rest), text
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("document.getElementById('coach').scrollIntoView({block: 'end'})")
    page.evaluate("window.scrollBy(0, 48)")  # a margin under the last move
    shot(page, "live-coach.png", full_page=False)  # the board's bottom and the coach
    page.context.close()


def chart_numbers(page: Any, section: str) -> tuple[dict[str, str], dict[str, str]]:
    """The bars of a chart and the cells of its table, as {"label/name": value} each."""
    figure = page.locator(f"section#{section}")
    bars = figure.locator("svg rect").evaluate_all(
        "rects => rects.map(r => [r.dataset.label + '/' + r.dataset.name, r.dataset.value,"
        " r.getBoundingClientRect().width + r.getBoundingClientRect().height])"
    )
    figure.locator("details.numbers summary").click()  # the numbers, one tap away
    cells = figure.locator("details.numbers tr[data-label] td[data-name]").evaluate_all(
        "tds => tds.map(td => [td.parentElement.dataset.label + '/' + td.dataset.name,"
        " td.textContent.trim()])"
    )
    drawn = [key for key, value, size in bars if float(value) > 0 and size > 0]
    assert len(drawn) == len([1 for _, value, _ in bars if float(value) > 0]), section
    return {key: value for key, value, _ in bars}, dict(cells)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_statistics_charts_render_and_match_their_tables(
    browser: Any, stats_app: Flask, scheme: str
) -> None:
    with WebServer(stats_app, "127.0.0.1", 0, threads=2) as running:
        page = phone(browser, scheme)
        page.goto(f"{running.url}/stats")
        assert page.locator("#games-count").inner_text() == "5"
        if scheme == "dark":  # the README shows the top in light, the points in dark
            page.evaluate("document.querySelector('section#categories').scrollIntoView()")
        shot(page, f"stats-{scheme}.png", full_page=False)  # what the phone shows
        for section in ("players", "victories", "first", "categories", "wonders", "tokens"):
            bars, cells = chart_numbers(page, section)
            assert bars and cells, section
            for key, value in cells.items():  # every number of the table is drawn
                assert float(bars[key]) == float(value), (section, key)
        bars, cells = chart_numbers(page, "over-time")
        assert {k: float(v) for k, v in bars.items()} == {k: float(v) for k, v in cells.items()}
        assert float(bars["2026-03/blue"]) == 13.9  # 111 / 8 seats (test_stats.py)
        # Hand-counted (stats_games.py): 1 shared victory, Ann 1 win of 3.
        assert bars_value(page, "victories", "Shared/games") == "1"
        assert bars_value(page, "players", "Ann/wins") == "1"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]  # nothing wider than the phone, tables open too
        page.screenshot(path=Path(tempfile.gettempdir()) / f"stats-{scheme}-numbers.png")
        page.context.close()


def bars_value(page: Any, section: str, key: str) -> str:
    label, name = key.split("/")
    rect = page.locator(f'section#{section} svg rect[data-label="{label}"][data-name="{name}"]')
    return str(rect.get_attribute("data-value"))
