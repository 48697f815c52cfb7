"""A real browser on the score pad as a phone sees it: the pad being filled in survives a
reload, and seven players' table is readable on a 360 px screen (nothing cut or clipped)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import CODE
from test_web_browser import SCREENSHOTS, browser, server, shot

from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

NARROW = {"width": 360, "height": 740}
SEVEN = ["Annabel", "Bernard", "Charlie", "Dolores", "Eleanor", "Frances", "Georgia"]


def _phone(browser: Any, viewport: dict[str, int] = NARROW, scheme: str = "light") -> Any:
    context = browser.new_context(viewport=viewport, device_scale_factor=2, color_scheme=scheme)
    return context.new_page()


def _names(page: Any, *names: str) -> None:
    seats = page.locator("#seats input[type=text]")
    for i, name in enumerate(names):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")


def _tap_cards(page: Any, *names: str) -> None:
    for name in names:
        page.locator("#cards .card", has_text=name).first.click()


def _pressed(page: Any) -> list[str]:
    return page.locator("#cards .card[aria-pressed=true]").all_inner_texts()


def test_a_pad_being_filled_in_survives_a_reload(browser: Any, server: WebServer) -> None:
    page = _phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    page.click("#add-player")
    _names(page, "Ann", "Bob", "Cid", "Dee")
    # Ann: Palace 8 (civilian); Bob: Temple 3 and a +5 token: 8; Cid: Altar 2 + Baths 3 and 9
    # coins (3): 8; Dee: Lumber Yard and Stone Pit (0) and a -1 token. A tie on 8 that Cid's
    # 9 coins break (Ann and Bob have none).
    cities: list[list[str]] = [
        ["Palace"],
        ["Temple"],
        ["Altar", "Baths"],
        ["Lumber Yard", "Stone Pit"],
    ]
    tabs = page.locator("#tabs button")
    for index, cards in enumerate(cities):
        tabs.nth(index).click()
        _tap_cards(page, *cards)
    tabs.nth(1).click()
    page.click("button.token[data-token='5']")
    tabs.nth(2).click()
    page.fill("#coins", "9")
    page.press("#coins", "Tab")
    tabs.nth(3).click()
    page.click("button.token[data-token='-1']")
    expect(page.locator("#totals")).to_have_text("Total888-1")
    page.reload()  # a phone that locks, a browser that drops the tab
    expect(page.locator("#totals")).to_have_text("Total888-1")
    seats = page.locator("#seats input[type=text]")
    assert [seats.nth(i).input_value() for i in range(4)] == ["Ann", "Bob", "Cid", "Dee"]
    expect(tabs).to_have_text(["Ann", "Bob", "Cid", "Dee"])
    for index, cards in enumerate(cities):
        tabs.nth(index).click()
        assert sorted(_pressed(page)) == sorted(cards)
    tabs.nth(2).click()
    expect(page.locator("#coins")).to_have_value("9")
    expect(page.locator("#winner")).to_have_text("Tie on 8: Cid wins on coins, 9 to 0")
    # Saved: the next pad starts blank.
    page.fill("#pairing", CODE)
    page.click("#save-pad")
    page.wait_for_url(f"{server.url}/scorepad/1")
    page.goto(f"{server.url}/scorepad")
    expect(page.locator("#seats li")).to_have_count(3)
    expect(page.locator("#winner")).to_have_text("Enter the cities to see who wins.")
    page.context.close()


def test_the_game_chosen_and_the_edifice_projects_survive_a_reload_until_cleared(
    browser: Any, server: WebServer
) -> None:
    page = _phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    page.check("#edifice-on")
    page.locator(".ed-project[data-age='1'] .ed-built").check()
    page.fill(".ed-project[data-age='1'] .ed-reward", "2")
    page.press(".ed-project[data-age='1'] .ed-reward", "Tab")
    # Built with 2 VP a pawn: a 3-player game puts 2 pawns on it, Player 1's and Player 2's.
    for seat in (0, 1):
        page.locator("#tabs button").nth(seat).click()
        page.check(".ed-pawn[data-age='1']")
    expect(page.locator("#totals")).to_have_text("Total220")
    page.reload()
    expect(page.locator("#edifice-on")).to_be_checked()
    expect(page.locator(".ed-project[data-age='1'] .ed-reward")).to_have_value("2")
    expect(page.locator("#totals")).to_have_text("Total220")
    page.click("#clear-pad")
    expect(page.locator("#clear-pad")).to_have_text("Tap again to clear every city")
    page.click("#clear-pad")
    expect(page.locator("#edifice-on")).not_to_be_checked()
    expect(page.locator("#totals")).to_have_text("Total000")
    page.reload()
    expect(page.locator("#edifice-on")).not_to_be_checked()
    expect(page.locator("#winner")).to_have_text("Enter the cities to see who wins.")
    page.select_option("#game", "dice")
    expect(page.locator("h1")).to_have_text("New score pad 7 Wonders Dice")
    expect(page.locator("#seat-hint")).to_have_text("2 to 7 players.")
    page.reload()
    expect(page.locator("#game")).to_have_value("dice")
    page.context.close()


CLIPPED = """table => {
    // Every cell of the score table: its text not cut (no ellipsis, no overflow) and, once
    // scrolled into the table's view, wholly inside the table's box and the screen.
    const box = table.getBoundingClientRect();
    const found = [];
    for (const cell of table.querySelectorAll(".sp-line > span")) {
        cell.scrollIntoView({block: "nearest", inline: "nearest"});
        const r = cell.getBoundingClientRect();
        const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
            r.right <= window.innerWidth + 0.5 && r.left >= -0.5;
        const cut = cell.scrollWidth > cell.clientWidth + 0.5 ||
            cell.scrollHeight > cell.clientHeight + 0.5;
        if (!inside || cut) found.push(cell.textContent + (cut ? " cut" : " outside"));
    }
    return found;
}"""


ONE_LINE = """cells => cells.filter(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size === 1;
}).map(cell => cell.textContent)"""


def _seven_player_pad(
    browser: Any, server: WebServer, viewport: dict[str, int], scheme: str
) -> Any:
    page = _phone(browser, viewport, scheme)
    page.goto(f"{server.url}/scorepad")
    for _ in range(4):
        page.click("#add-player")
    _names(page, *SEVEN)
    tabs = page.locator("#tabs button")
    for index in range(7):  # a Palace for Annabel, 3 coins for each of the others
        tabs.nth(index).click()
        if index == 0:
            _tap_cards(page, "Palace")
        else:
            page.fill("#coins", str(3 * index))
            page.press("#coins", "Tab")
    playwright_api.expect(page.locator("#totals")).to_have_text("Total8123456")
    return page


@pytest.mark.parametrize(("width", "scheme"), [(360, "light"), (390, "dark")])
def test_seven_players_are_readable_on_a_narrow_phone(
    browser: Any, server: WebServer, width: int, scheme: str
) -> None:
    page = _seven_player_pad(browser, server, {"width": width, "height": 780}, scheme)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    table = page.locator("#table")
    heads = page.locator("#table .pad-head .num").all_inner_texts()
    assert heads == SEVEN  # every name whole, on one line
    assert page.locator("#table .pad-head .num").evaluate_all(ONE_LINE) == SEVEN
    assert table.evaluate(CLIPPED) == []
    # The first column stays in view with the labels while the table scrolls to its end.
    table.evaluate("t => { t.scrollLeft = t.scrollWidth; }")
    label = page.locator("#totals .label").bounding_box()
    assert label is not None and label["x"] >= table.bounding_box()["x"]
    assert page.locator("#totals .label").is_visible()
    palace = page.locator("details.row-civilian li", has_text="Palace").first
    assert not palace.is_visible()
    page.locator("details.row-civilian summary").click()  # opens on where its points came from
    assert palace.is_visible() and palace.inner_text().split() == ["Palace", "8"]
    sources = CLIPPED.replace(".sp-line > span", ".sp-sources li")
    assert page.locator("#table").evaluate(sources) == []  # the reasons fit the screen too
    table.evaluate("t => { t.scrollLeft = 0; }")
    page.evaluate("document.getElementById('result').scrollIntoView()")
    shot(page, f"scorepad-seven-{width}-{scheme}.png", full_page=False)
    # Saved: the saved pad's page draws the same table, just as readable.
    page.fill("#pairing", CODE)
    page.click("#save-pad")
    page.wait_for_url(f"{server.url}/scorepad/1")
    assert page.locator("#table .pad-head .num").all_inner_texts() == SEVEN
    assert page.locator("#table").evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#table").evaluate("t => { t.scrollLeft = 0; }")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"scorepad-saved-seven-{width}-{scheme}.png", full_page=False)
    page.context.close()


def test_a_saved_pad_of_four_keeps_each_row_on_one_line(browser: Any, server: WebServer) -> None:
    sheet = {"game": "7wonders", "variant": "base", "players": [
        {"name": n, "wonder": w, "side": "A", "stages": 0, "cards": c, "coins": 3, "military": []}
        for n, w, c in [("Ann", "giza", ["palace"]), ("Bob", "rhodes", ["temple"]),
                        ("Cid", "ephesus", []), ("Dee", "babylon", [])]
    ]}  # fmt: skip
    page = _phone(browser)
    answer = page.context.request.post(
        f"{server.url}/api/pads", data=json.dumps(sheet),
        headers={"Content-Type": "application/json", "X-Pairing-Code": CODE,
                 "Origin": server.url},
    )  # fmt: skip
    assert answer.status == 201, answer.text()
    page.goto(f"{server.url}/scorepad/1")
    rows = page.locator("#table .sp-line")
    assert rows.count() == 1 + 7 + 1  # names, the seven categories, the totals
    for index in range(rows.count()):
        tops = rows.nth(index).evaluate(
            "row => [...row.children].map(c => Math.round(c.getBoundingClientRect().top))"
        )
        assert len(tops) == 5 and len(set(tops)) == 1, (index, tops)  # one line, 5 cells
    assert page.locator("#winner").inner_text() == "Winner: Ann"
    assert page.locator("#totals").inner_text().split() == ["Total", "9", "4", "1", "1"]
    shot(page, "scorepad-saved-four.png")
    page.context.close()


def test_screenshots_go_where_the_tests_put_them() -> None:
    assert SCREENSHOTS.name in ("screenshots", "duel-companion-screenshots")


FITS = """select => {
    // The chosen option's text, in the select's font, fits inside it beside its arrow.
    const style = getComputedStyle(select);
    const context = document.createElement("canvas").getContext("2d");
    context.font = style.font;
    const text = context.measureText(select.selectedOptions[0].text).width;
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return text + padding + 20 <= select.clientWidth;
}"""


def test_the_seats_and_tokens_say_what_they_are_on_a_narrow_phone(
    browser: Any, server: WebServer
) -> None:
    page = _phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    expect(page.locator("h1")).to_have_text("New score pad 7 Wonders")
    expect(page.locator("#seat-hint")).to_have_text("3 to 7 players, clockwise.")
    for _ in range(4):
        page.click("#add-player")
    wonders = page.locator("#seats select.wonder")
    expect(wonders).to_have_count(7)
    for index in range(7):  # each board by its city, whole: Alexandria ... Rhodes
        assert wonders.nth(index).evaluate(FITS), wonders.nth(index).inner_text()
    assert wonders.nth(4).evaluate("s => s.selectedOptions[0].text") == "Halicarnassus"
    for name in ("a victory token of Age I, +1", "a victory token of Age III, +5",
                 "a defeat token, -1"):  # fmt: skip
        expect(page.get_by_role("button", name=f"Add {name}")).to_have_count(1)
    expect(page.locator("button.token")).to_have_text(
        ["+5 Age III", "+3 Age II", "+1 Age I", "-1 defeat"]
    )
    page.select_option("#game", "two-player")
    expect(page.locator("h1")).to_have_text("New score pad 7 Wonders for two")
    expect(page.locator("#seat-hint")).to_contain_text("Two players and the Free City")
    page.context.close()


def test_no_error_status_while_an_edifice_sheet_is_incomplete(
    browser: Any, server: WebServer
) -> None:
    page = _phone(browser)
    statuses: list[int] = []
    page.on("response", lambda response: statuses.append(response.status))
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    _names(page, "Ann", "Bob", "Cid")
    page.locator("#tabs button").nth(0).click()
    page.select_option("#stages", "2")  # Alexandria A: 3 VP
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    page.check("#edifice-on")
    page.locator(".ed-project[data-age='1'] .ed-built").check()
    # A built project with one pawn of the two a 3-player game puts on it: refused, and the
    # old winner goes with the old table.
    page.check(".ed-pawn[data-age='1']")
    expect(page.locator("#refusal")).to_contain_text("participation pawns")
    expect(page.locator("#winner")).to_have_count(0)
    expect(page.locator("#table")).to_have_count(0)
    page.locator("#tabs button").nth(1).click()
    page.check(".ed-pawn[data-age='1']")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    assert statuses and all(status < 400 for status in statuses), statuses
    page.context.close()
