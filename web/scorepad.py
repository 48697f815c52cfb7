"""The "New score pad" page for the other 7 Wonders games (base game, 3 to 7 players).

The page holds the sheet being entered (players in seating order, wonder and side, each city's
cards tapped from a list grouped by age and colour, coins, conflict tokens) and asks
`/scorepad/score.json` for the scores after every change: the table updates as cards are added
and every row opens on where its points came from. Scoring changes nothing on the box, so it
needs no pairing code. The sheet format and the rules are in docs/scorepad.md.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, UnprocessableEntity

from companion.engine.cards import Color
from companion.family.cards import FamilyCatalog, Side
from companion.family.pad import pad_to_json, reasons_to_json, score_sheet
from companion.family.sheet import SheetError
from companion.family.table import MAX_PLAYERS, MIN_PLAYERS, TOKEN_VALUES
from companion.family_catalog import default_family_catalog

bp = Blueprint("scorepad", __name__)

AGE_LABELS = {1: "Age I", 2: "Age II", 3: "Age III"}
COLOR_ORDER = (Color.BROWN, Color.GREY, Color.BLUE, Color.GREEN, Color.YELLOW, Color.RED,
               Color.PURPLE)  # fmt: skip
CATEGORY_LABELS = {
    "military": "Military", "treasury": "Treasury", "wonders": "Wonder", "civilian": "Civilian",
    "science": "Science", "commercial": "Commercial", "guilds": "Guilds", "edifice": "Edifice",
}  # fmt: skip


def pad_view(catalog: FamilyCatalog) -> dict[str, Any]:
    """What the page offers: the boards with their stages per side, the cards grouped by age
    (guilds apart) and colour, the token values and the player limits."""
    groups = []
    for age in (1, 2, 3, "guild"):
        for color in COLOR_ORDER:
            cards = [
                {"id": card.id, "name": card.name}
                for card in catalog.cards.values()
                if card.color is color
                and (color is Color.PURPLE) == (age == "guild")
                and (age == "guild" or card.ages[0] == age)
            ]
            if cards:
                label = "Guilds" if age == "guild" else AGE_LABELS[int(age)]
                groups.append({"age": label, "color": color.value, "cards": cards})
    wonders = [
        {"id": board.id, "name": board.name,
         "stages": {side.value: len(board.sides[side]) for side in Side}}
        for board in catalog.wonders.values()
    ]  # fmt: skip
    return {
        "wonders": wonders,
        "groups": groups,
        "tokens": sorted(TOKEN_VALUES, reverse=True),
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        # A list, not an object: Flask's JSON sorts object keys, and the order is the rulebook's.
        "categories": [{"key": k, "label": v} for k, v in CATEGORY_LABELS.items()],
    }


@bp.get("/scorepad")
def pad() -> str:
    """The score pad page."""
    return render_template("scorepad/pad.html", view=pad_view(default_family_catalog()))


@bp.get("/scorepad.json")
def pad_json() -> Response:
    """The JSON twin of the page: what it offers to enter."""
    return jsonify(pad_view(default_family_catalog()))


@bp.post("/scorepad/score.json")
def score() -> Response:
    """Score the sheet in the body: `scorepad --json`'s object plus the reasons of every
    number; 422 with the one-line refusal for a sheet that cannot be a real game."""
    if not request.is_json:
        raise BadRequest("Send the sheet as JSON (Content-Type: application/json)")
    try:
        sheet = request.get_json(silent=True)
    except RecursionError:
        sheet = None
    if sheet is None:
        raise BadRequest("The body is not JSON")
    try:
        scored = score_sheet(default_family_catalog(), sheet)
    except SheetError as refused:
        raise UnprocessableEntity(str(refused)) from None
    return jsonify({**pad_to_json(scored), "reasons": reasons_to_json(scored)})
