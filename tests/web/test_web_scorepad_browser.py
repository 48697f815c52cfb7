"""A real browser enters a 4-player 7 Wonders game on the phone-sized score pad page."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from PIL import Image
from scorepad_frames import city_jpeg
from test_web_browser import PHONE, SCREENSHOTS, browser, phone, server

from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests


def _viewport_shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(page.screenshot()))
    image.convert("RGB").quantize(64).save(SCREENSHOTS / name, optimize=True)  # small commits


def _tap_cards(page: Any, *names: str) -> None:
    for name in names:
        page.locator("#cards .card", has_text=name).first.click()


def test_a_four_player_game_is_entered_and_the_winner_read(browser: Any, server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    page.click("#add-player")  # 3 seats at first; a fourth
    seats = page.locator("#seats input")
    expect(seats).to_have_count(4)
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")
    # The boards are given in order: Alexandria, Babylon, Ephesus, Giza (all side A).
    tabs = page.locator("#tabs button")
    # Ann: Alexandria A, 3 stages (3 + 7 = 10) and the Palace (8): 18.
    tabs.nth(0).click()
    page.select_option("#stages", "3")
    _tap_cards(page, "Palace")
    # Bob: Babylon A, 2 stages (3 VP and a wildcard); compass, gear, tablet and the Scientists
    # Guild: both wildcards as compasses, 3/1/1: 9 + 1 + 1 + 7 = 18 (2/2/1 would be 16): 21.
    tabs.nth(1).click()
    page.select_option("#stages", "2")
    _tap_cards(page, "Apothecary", "Workshop", "Scriptorium", "Scientists Guild")
    # Cid: two Age III victories (5 + 5) and 9 coins (3): 13. Dee: nothing.
    tabs.nth(2).click()
    page.click("button.token[data-token='5']")
    page.click("button.token[data-token='5']")
    page.fill("#coins", "9")
    page.press("#coins", "Tab")
    expect(page.locator("#totals")).to_have_text("Total1821130")
    expect(page.locator("#winner")).to_have_text("Winner: Bob")
    note = "Scientists Guild counted as a compass: 18 VP"
    assert not page.get_by_text(note).first.is_visible()
    page.locator("details.row-science summary").click()  # a tap opens the row
    assert page.get_by_text(note).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("document.getElementById('result').scrollIntoView()")
    _viewport_shot(page, "scorepad.png")  # the README shows the table, not the whole page
    # The game is over: saved in the history with the pairing code.
    page.fill("#pairing", CODE)
    page.click("#save-pad")
    page.wait_for_url(f"{server.url}/scorepad/1")
    expect(page.locator("#result .winner")).to_have_text("Winner: Bob")
    page.goto(f"{server.url}/history")
    expect(page.locator(".pads li").first).to_contain_text("Winner: Bob")
    expect(page.locator(".games li")).to_have_count(4)  # the Duel games, as before
    page.context.close()


def test_two_cities_are_scanned_from_generated_camera_frames(
    browser: Any, server: WebServer, tmp_path: Path
) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    seats = page.locator("#seats input")
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")
    # Ann's photo: Palace (8) and Temple (3); Bob's: Lodge, Study and University (one of each
    # symbol: 1 + 1 + 1 + 7 = 10) and a Duel card, which the pad ignores.
    cities = {
        "Ann": (["palace", "temple"], ()),
        "Bob": (["lodge", "study", "university"], ("altar",)),
    }
    tabs = page.locator("#tabs button")
    for index, (name, (cards, duel)) in enumerate(cities.items()):
        photo = tmp_path / f"{name}.jpg"
        photo.write_bytes(city_jpeg(cards, seed=index, duel_ids=duel))
        tabs.nth(index).click()
        page.set_input_files("#photo", str(photo))
        expect(page.locator("#scanned")).to_contain_text(f"{name}: {len(cards)} card(s) read")
    expect(page.locator("#totals")).to_have_text("Total11100")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    tabs.nth(1).click()
    for card in ("Lodge", "Study", "University"):
        expect(page.locator("#cards .card", has_text=card).first).to_have_attribute(
            "aria-pressed", "true"
        )
    page.context.close()


def test_seven_players_fit_a_phone_width(browser: Any, server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    for _ in range(4):
        page.click("#add-player")
    playwright_api.expect(page.locator("#seats input")).to_have_count(7)
    assert page.locator("#add-player").is_disabled()  # 7 is the most
    playwright_api.expect(page.locator("#totals .num")).to_have_count(7)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


def _names(page: Any, *names: str) -> None:
    seats = page.locator("#seats input[type=text]")
    for i, name in enumerate(names):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")


def _new_pad(browser: Any, server: WebServer, game: str) -> Any:
    """A phone on a new score pad for `game` (an option of the page's game list)."""
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    page.select_option("#game", game)
    return page


def _enter(page: Any, selector: str, value: str) -> None:
    page.fill(selector, value)
    page.press(selector, "Tab")


def test_the_two_player_variant_counts_the_free_city_for_its_neighbours(
    browser: Any, server: WebServer
) -> None:
    page = _new_pad(browser, server, "two-player")
    expect = playwright_api.expect
    expect(page.locator("#seats li")).to_have_count(3)
    assert page.locator("#add-player").is_disabled()  # exactly three cities
    _names(page, "Ann", "Bob")  # the third seat is the Free City, named so
    expect(page.locator("#seats input[type=text]").nth(2)).to_have_value("Free City")
    tabs = page.locator("#tabs button")
    # Ann: Workers Guild, 1 VP per brown card of her two neighbours: Bob's Clay Pool and the
    # Free City's Lumber Yard and Stone Pit: 3. Bob: 0. The Free City is not ranked.
    cities = (["Workers Guild"], ["Clay Pool"], ["Lumber Yard", "Stone Pit"])
    for index, cards in enumerate(cities):
        tabs.nth(index).click()
        _tap_cards(page, *cards)
    expect(page.locator("#totals")).to_have_text("Total30")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    page.context.close()


def test_edifice_projects_give_the_signed_line(browser: Any, server: WebServer) -> None:
    page = _new_pad(browser, server, "base")
    expect = playwright_api.expect
    expect(page.locator("#edifice")).to_be_hidden()
    page.check("#edifice-on")
    expect(page.locator("#edifice")).to_be_visible()
    _names(page, "Ann", "Bob", "Cid")
    projects = page.locator(".ed-project")
    # Age I built, reward 2 VP; Age II failed, penalty 3 VP; Age III failed, penalty 0.
    projects.nth(0).locator(".ed-built").check()
    _enter(page, ".ed-project[data-age='1'] .ed-reward", "2")
    _enter(page, ".ed-project[data-age='2'] .ed-penalty", "3")
    tabs = page.locator("#tabs button")
    # 3 players: 2 pawns per project. Ann: pawns I and II; Bob: pawn I; Cid: the Age II debt.
    taken = ([("pawn", 1), ("pawn", 2)], [("pawn", 1)], [("debt", 2)])
    for index, tokens in enumerate(taken):
        tabs.nth(index).click()
        for kind, age in tokens:
            page.check(f".ed-{kind}[data-age='{age}']")
    # Ann +2 (reward I). Bob +2 (reward I) - 3 (no pawn on the failed II) = -1.
    # Cid: no pawn on the built I (0), the Age II debt token -3: -3.
    expect(page.locator("#totals")).to_have_text("Total2-1-3")
    expect(page.locator("details.row-edifice summary")).to_have_text("Edifice2-1-3")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    page.evaluate("document.getElementById('city').scrollIntoView()")
    _viewport_shot(page, "scorepad-edifice.png")
    page.context.close()


def test_a_dice_sheet_is_entered_with_its_warning(browser: Any, server: WebServer) -> None:
    page = _new_pad(browser, server, "dice")
    expect = playwright_api.expect
    page.locator("#seats li").nth(2).get_by_label("Remove").click()  # Dice: from 2 players
    expect(page.locator("#seats li")).to_have_count(2)
    assert page.locator("#seats li").nth(0).get_by_label("Remove").is_disabled()
    expect(page.locator("#seats select")).to_have_count(0)  # no wonder boards to choose
    _names(page, "Ann", "Bob")
    tabs = page.locator("#tabs button")
    # Ann: warehouse 2, wonder 6, an attack of 3 on a defence of 1 (2), Agora 4 and first to
    # complete it (+3): 2 + 6 + 2 + 7 = 17.
    sheets: list[dict[str, Any]] = [
        {"warehouse": 2, "wonder": 6, "attack": (3, 1), "agora": 4},
        # Bob: market 5, university 3, guild court 4, an attack of 2 on no defence: 14; his
        # third bonus ends the game.
        {"market": 5, "university": 3, "guild_court": 4, "attack": (2, 0), "bonuses": 3},
    ]
    for index, entered in enumerate(sheets):
        tabs.nth(index).click()
        expect(page.locator("input.dice[data-key='university']")).to_have_value("0")  # empty
        points, defence = entered.pop("attack")
        _enter(page, "#attack-points", str(points))
        page.select_option("#attack-defence", str(defence))
        page.click("#add-attack")
        for key, value in entered.items():
            _enter(page, f"input.dice[data-key='{key}']", str(value))
    tabs.nth(0).click()
    page.check("#agora-first")  # Ann completed her Agora first
    expect(page.locator("#totals")).to_have_text("Total1714")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    expect(page.locator("#result .warning")).to_have_text("Bob took a third bonus: the game ends.")
    page.locator("details.row-barracks summary").click()
    assert page.get_by_text("attack 1: 3 - 1 defence").first.is_visible()
    page.evaluate("document.getElementById('city').scrollIntoView()")
    _viewport_shot(page, "scorepad-dice.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()
