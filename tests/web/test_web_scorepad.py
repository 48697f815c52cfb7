"""The score pad page for the other 7 Wonders games: the page, its JSON twin, scoring."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from conftest import CODE
from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
from family_sheets import player, sheet
from scorepad_frames import city_jpeg

# Ann: Palace 8 + 7 coins (2) = 10; Bob: Temple 3 + tokens 5 + 1 = 9; Cid: nothing, 0.
SHEET = sheet(
    player("Ann", "giza", ["palace"], coins=7),
    player("Bob", "rhodes", ["temple"], military=[5, 1]),
    player("Cid", "ephesus"),
)


def test_the_page_offers_every_card_grouped_by_age_and_colour(client: FlaskClient) -> None:
    page = client.get("/scorepad")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count('class="card"') == 75
    assert 'data-card="scientists_guild"' in html
    assert "scorepad.js" in html


def test_the_json_twin_lists_boards_and_groups(client: FlaskClient) -> None:
    view = client.get("/scorepad.json").get_json()
    assert {w["id"]: w["stages"] for w in view["wonders"]}["giza"] == {"A": 3, "B": 4}
    assert view["players"] == {"min": 3, "max": 7}
    assert sum(len(g["cards"]) for g in view["groups"]) == 75
    guilds = next(g for g in view["groups"] if g["age"] == "Guilds")
    assert len(guilds["cards"]) == 10


def test_scoring_gives_the_command_s_json_and_the_reasons(client: FlaskClient) -> None:
    found = client.post("/scorepad/score.json", json=SHEET).get_json()
    assert [p["total"] for p in found["players"]] == [8 + 2, 3 + 6, 0]
    assert found["winners"] == ["Ann"]
    ann = found["reasons"][0]["lines"]
    assert ann["civilian"]["parts"] == [{"points": 8, "reason": "Palace"}]


def test_an_impossible_sheet_is_a_422_with_one_line(client: FlaskClient) -> None:
    bad = {**SHEET, "players": SHEET["players"][:2]}
    answer = client.post("/scorepad/score.json", json=bad)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "players: the base game is for 3 to 7 players, got 2"


def test_a_body_that_is_not_json_is_a_400(client: FlaskClient) -> None:
    answer = client.post("/scorepad/score.json", data="x", content_type="application/json")
    assert answer.status_code == 400
    assert client.post("/scorepad/score.json", data="{}").status_code == 400


def test_the_page_lists_the_categories_in_the_rulebook_s_order(client: FlaskClient) -> None:
    view = client.get("/scorepad.json").get_json()
    assert [c["key"] for c in view["categories"]] == [
        "military", "treasury", "wonders", "civilian", "science", "commercial", "guilds",
        "edifice",
        # 7 Wonders Dice's buildings, in its sheet's order
        "warehouse", "gold_reserve", "wonder", "barracks", "agora", "market", "university",
        "guild_court",
    ]  # fmt: skip


def test_the_page_offers_the_variant_and_dice_with_their_player_limits(
    client: FlaskClient,
) -> None:
    view = client.get("/scorepad.json").get_json()
    limits = {g["id"]: (g["min"], g["max"]) for g in view["games"]}
    assert limits == {"base": (3, 7), "two-player": (3, 3), "dice": (2, 7)}
    assert [f["key"] for f in view["dice"]] == [
        "warehouse", "gold_reserve", "wonder", "market", "university", "guild_court", "agora",
        "unused_coins", "bonuses",
    ]  # fmt: skip
    assert view["defences"] == [0, 1, 2]
    page = client.get("/scorepad").get_data(as_text=True)
    assert '<option value="two-player">' in page and 'id="edifice-on"' in page


def test_saving_needs_the_pairing_code(client: FlaskClient) -> None:
    assert client.post("/api/pads", json=SHEET).status_code == 403
    wrong = client.post("/api/pads", json=SHEET, headers={"X-Pairing-Code": "000000"})
    assert wrong.status_code == 403
    assert client.get("/api/pads").get_json() == []


def test_a_saved_pad_is_in_the_history_with_its_sheet_to_download(client: FlaskClient) -> None:
    saved = client.post("/api/pads", json=SHEET, headers={"X-Pairing-Code": CODE})
    assert saved.status_code == 201
    pad_id = saved.get_json()["id"]
    assert [p["winners"] for p in client.get("/api/pads").get_json()] == [["Ann"]]
    history = client.get("/history").get_data(as_text=True)
    assert f"/scorepad/{pad_id}" in history
    assert "Winner: Ann" in history
    page = client.get(f"/scorepad/{pad_id}").get_data(as_text=True)
    assert "Winner: Ann" in page
    twin = client.get(f"/scorepad/{pad_id}.json").get_json()
    assert [p["total"] for p in twin["players"]] == [10, 9, 0]
    download = client.get(f"/scorepad/{pad_id}/sheet")
    assert download.headers["Content-Disposition"] == (
        f'attachment; filename="scorepad-{pad_id}.json"'
    )
    assert download.get_json() == SHEET


def test_an_impossible_sheet_is_not_saved(client: FlaskClient) -> None:
    bad = {**SHEET, "players": SHEET["players"][:2]}
    answer = client.post("/api/pads", json=bad, headers={"X-Pairing-Code": CODE})
    assert answer.status_code == 422
    assert client.get("/api/pads").get_json() == []


def test_a_downloaded_sheet_imports_back_as_a_new_pad(client: FlaskClient) -> None:
    client.post("/api/pads", json=SHEET, headers={"X-Pairing-Code": CODE})
    sheet_file = client.get("/scorepad/1/sheet").get_data()
    token = re.search(r'name="csrf_token" value="(\w+)"', client.get("/scorepad/import").text)
    assert token is not None
    answer = client.post(
        "/scorepad/import",
        data={
            "csrf_token": token[1],
            "pairing_code": CODE,
            "sheet": (io.BytesIO(sheet_file), "s.json"),
        },
        headers={"Origin": "http://localhost"},
    )
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith("/scorepad/2")
    assert client.get("/scorepad/2.json").get_json()["winners"] == ["Ann"]


def test_a_saved_pad_that_does_not_exist_is_a_404(client: FlaskClient) -> None:
    assert client.get("/scorepad/99").status_code == 404


def test_a_photo_of_a_city_gives_its_cards_left_to_right(client: FlaskClient) -> None:
    # Row one: Lumber Yard, Altar, Palace; a Duel card (Stone Pit's Duel sticker) is foreign.
    photo = city_jpeg(["lumber_yard", "altar", "palace"], seed=3, duel_ids=("stone_pit",))
    answer = client.post(
        "/scorepad/scan.json",
        data={"photo": (io.BytesIO(photo), "city.jpg")},
        headers={"Origin": "http://localhost"},
    ).get_json()
    assert answer == {
        "cards": ["lumber_yard", "altar", "palace"],
        "names": ["Lumber Yard", "Altar", "Palace"],
        "foreign": 1,
    }


def test_a_scan_without_a_photo_or_with_no_image_is_refused(client: FlaskClient) -> None:
    ours = {"Origin": "http://localhost"}
    assert client.post("/scorepad/scan.json", data={}, headers=ours).status_code == 400
    bad = client.post(
        "/scorepad/scan.json", data={"photo": (io.BytesIO(b"not a jpeg"), "x.jpg")}, headers=ours
    )
    assert bad.status_code == 422
    assert bad.get_json()["error"] == "The photo is not an image (JPEG or PNG)"


def test_a_pad_where_every_score_is_0_is_not_saved(client: FlaskClient) -> None:
    wonders = ["alexandria", "babylon", "ephesus", "giza", "halicarnassus", "olympia", "rhodes"]
    blank = sheet(*(player(f"Player {n}", w) for n, w in enumerate(wonders, start=1)))
    answer = client.post("/api/pads", json=blank, headers={"X-Pairing-Code": CODE})
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "Nothing to save: every score on the pad is 0"
    assert client.get("/api/pads").get_json() == []
    # Scoring it while it is being entered is no refusal: the line asks for the cities.
    assert client.post("/scorepad/score.json", json=blank).get_json()["winner_line"] == (
        "Enter the cities to see who wins."
    )


def test_the_pad_page_gets_its_winner_line_and_table_as_html(client: FlaskClient) -> None:
    answer = client.post("/scorepad/scores", json=SHEET)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert '<p class="winner" id="winner">Winner: Ann</p>' in html
    assert re.search(r'id="totals">.*>10<.*>9<.*>0<', html)


def test_a_sheet_refused_while_being_entered_answers_its_refusal_without_an_error_status(
    client: FlaskClient,
) -> None:
    # Three players, a failed Age I project with two pawns: one pawn too many on no project.
    bad = {**SHEET, "players": SHEET["players"][:2]}
    answer = client.post("/scorepad/scores", json=bad)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert 'id="refusal"' in html and "winner" not in html and 'id="table"' not in html
    assert client.post("/scorepad/score.json", json=bad).status_code == 422  # the API's answer
