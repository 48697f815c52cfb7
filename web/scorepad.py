"""The "New score pad" page for the other 7 Wonders games (base game, 3 to 7 players).

The page holds the sheet being entered (players in seating order, wonder and side, each city's
cards tapped from a list grouped by age and colour, coins, conflict tokens) and asks
`/scorepad/score.json` for the scores after every change: the table updates as cards are added
and every row opens on where its points came from. Scoring changes nothing on the box, so it
needs no pairing code; saving a finished pad in the journal (`POST /api/pads`, or importing a
sheet file) does, like every other write. Saved pads are listed in the history beside the Duel
games, each with its sheet as a download. The sheet format and the rules: docs/scorepad.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import (
    BadRequest,
    Conflict,
    NotFound,
    RequestEntityTooLarge,
    UnprocessableEntity,
)
from werkzeug.wrappers import Response as Redirect

from companion.device import words
from companion.engine.cards import Color
from companion.family import dice
from companion.family.cards import CardId, FamilyCatalog, Side
from companion.family.catalog import default_family_catalog
from companion.family.pad import (
    CATEGORY_LABELS,
    Pad,
    check_scored,
    nothing_scored,
    pad_to_json,
    reasons_to_json,
    score_sheet,
)
from companion.family.sheet import SheetError
from companion.family.table import DEFEAT, MAX_PLAYERS, MIN_PLAYERS, TOKEN_VALUES, VICTORY_TOKENS
from companion.records.pads import SavedPad, UnknownPad, save_pad, saved_pad, saved_pads
from companion.records.players import known_players
from companion.records.results import STATS_GAMES

from .access import form_upload, get_journal
from .control import Control, NoCamera
from .security import (
    require_pairing,
    require_same_origin_api,
    require_same_origin_form,
    require_same_origin_post,
)

bp = Blueprint("scorepad", __name__)

AGE_LABELS = {1: "Age I", 2: "Age II", 3: "Age III"}
COLOR_ORDER = (Color.BROWN, Color.GREY, Color.BLUE, Color.GREEN, Color.YELLOW, Color.RED,
               Color.PURPLE)  # fmt: skip
TOKEN_LABELS = {DEFEAT: "a defeat token, -1", **{
    points: f"a victory token of {AGE_LABELS[age]}, +{points}"
    for age, points in VICTORY_TOKENS.items()
}}  # fmt: skip
TOKEN_SHORT = {DEFEAT: "defeat", **{p: AGE_LABELS[a] for a, p in VICTORY_TOKENS.items()}}
"""The conflict token buttons' words: what each value is in the game."""
DICE_NUMBERS = (*dice.ENTERED, "agora", "unused_coins", "bonuses")
"""What a Dice player types in from their sheet (barracks and the Agora bonus apart)."""
DICE_LABELS = {"unused_coins": "Unused circled coins", "bonuses": "Bonuses taken"}


def pad_view(catalog: FamilyCatalog) -> dict[str, Any]:
    """What the page offers: the boards with their stages per side, the cards grouped by age
    (guilds apart) and colour, the token values, the player limits and the players the box
    remembers from earlier games."""
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
        {
            "id": board.id,
            "name": board.name,
            "city": board.name.rsplit(" ", 1)[-1],
            "stages": {side.value: len(board.sides[side]) for side in Side},
        }
        for board in catalog.wonders.values()
    ]  # fmt: skip  (the city, "Alexandria", is what a seat's short list shows)
    return {
        "wonders": wonders,
        "groups": groups,
        "tokens": sorted(TOKEN_VALUES, reverse=True),
        "token_buttons": [
            {"value": v, "short": TOKEN_SHORT[v], "label": TOKEN_LABELS[v]}
            for v in sorted(TOKEN_VALUES, reverse=True)
        ],
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        # A list, not an object: Flask's JSON sorts object keys, and the order is the rulebook's.
        "categories": [{"key": k, "label": v} for k, v in CATEGORY_LABELS.items()],
        "names": _known_names(),
        # the games the page enters: the sheet's "game" and "variant", and the player limits
        # (its name for the heading, and the seats it takes)
        "games": [
            {"id": "base", "label": f"7 Wonders, {MIN_PLAYERS} to {MAX_PLAYERS} players",
             "name": "7 Wonders", "hint": f"{MIN_PLAYERS} to {MAX_PLAYERS} players, clockwise.",
             "min": MIN_PLAYERS, "max": MAX_PLAYERS},
            {"id": "two-player", "label": "7 Wonders for two, with the Free City",
             "name": "7 Wonders for two", "min": 3, "max": 3,
             "hint": "Two players and the Free City, clockwise; tick the Free City's seat."},
            {"id": "dice", "label": "7 Wonders Dice", "name": "7 Wonders Dice",
             "hint": f"{dice.MIN_PLAYERS} to {dice.MAX_PLAYERS} players.",
             "min": dice.MIN_PLAYERS, "max": dice.MAX_PLAYERS},
        ],
        "dice": [{"key": k, "label": DICE_LABELS.get(k) or CATEGORY_LABELS[k]}
                 for k in DICE_NUMBERS],
        "defences": list(range(dice.MAX_DEFENCE + 1)),
    }  # fmt: skip


def _known_names() -> list[str]:
    journal = get_journal()
    return [player.name for player in known_players(journal)] if journal is not None else []


def result_view(pad: Pad) -> dict[str, Any]:
    """A scored pad as the pages show it: `scorepad --json`'s object, the winner line, the
    reasons of every number, and the categories in the rulebook's order with their labels."""
    keys = pad.result.ranked[0].lines if pad.result.ranked else {}
    return {
        **pad_to_json(pad),
        "winner_line": words.pad_winner(pad.result),
        "blank": nothing_scored(pad.result),  # no winner to mark while every score is 0
        "game_name": "7 Wonders Dice" if pad.game == dice.GAME else "7 Wonders",
        "reasons": reasons_to_json(pad),
        "categories": [{"key": k, "label": v} for k, v in CATEGORY_LABELS.items() if k in keys],
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
    require_same_origin_api()
    sheet = _sheet_body()
    try:
        scored = score_sheet(default_family_catalog(), sheet)
    except SheetError as refused:
        raise UnprocessableEntity(str(refused)) from None
    return jsonify(result_view(scored))


@bp.post("/scorepad/scores")
def scores() -> str:
    """The pad page's winner line and score table for the sheet in the body, as HTML (the
    table is drawn by one template, `scorepad/_table.html`); a sheet that cannot be a real
    game yet (the page is being filled in) answers its one-line refusal in place of both."""
    require_same_origin_api()
    sheet = _sheet_body()
    try:
        scored = score_sheet(default_family_catalog(), sheet)
    except SheetError as refused:
        return render_template("scorepad/scores.html", view=None, error=str(refused))
    return render_template("scorepad/scores.html", view=result_view(scored), error=None)


# --- Saved pads ------------------------------------------------------------------------------


def _sheet_body() -> Any:
    """The JSON sheet in the request's body (400 for anything else)."""
    if not request.is_json:
        raise BadRequest("Send the sheet as JSON (Content-Type: application/json)")
    try:
        sheet = request.get_json(silent=True)
    except RecursionError:
        sheet = None
    if sheet is None:
        raise BadRequest("The body is not JSON")
    return sheet


def _save(sheet: Any) -> int:
    """Keep a sheet in the journal through its writer; a refused sheet writes nothing."""
    try:
        check_scored(score_sheet(default_family_catalog(), sheet))  # before the journal opens
    except SheetError as refused:
        raise UnprocessableEntity(str(refused)) from None
    catalog = default_family_catalog()
    control: Control = current_app.config["CONTROL"]  # the box's loop is the journal's writer
    pad_id: int = control.write(lambda journal: save_pad(journal, catalog, sheet))
    return pad_id


@bp.post("/api/pads")
def save_api() -> tuple[Response, int]:
    """Save a finished pad (pairing code in X-Pairing-Code): 201 with its id."""
    require_same_origin_api()
    require_pairing(form=False)
    pad_id = _save(_sheet_body())
    return jsonify({"id": pad_id, "url": url_for("scorepad.saved", pad_id=pad_id)}), 201


@bp.get("/api/pads")
def saved_list_api() -> Response:
    """Every saved pad, newest first: id, saved, game, players, winners."""
    return jsonify([pad.to_json() for pad in _saved_pads()])


def _saved_pads() -> list[SavedPad]:
    journal = get_journal()
    return saved_pads(journal) if journal is not None else []


def _saved_or_404(pad_id: int) -> SavedPad:
    journal = get_journal()
    if journal is None:
        raise NotFound(f"No score pad {pad_id}: the journal is empty")
    try:
        return saved_pad(journal, pad_id)
    except UnknownPad as unknown:
        raise NotFound(str(unknown)) from None


@bp.get("/scorepad/<game:pad_id>")
def saved(pad_id: int) -> str:
    """A saved pad: the winners and the table, every row opening on its reasons."""
    found = _saved_or_404(pad_id)
    return render_template("scorepad/saved.html", pad=found, view=_saved_view(found))


@bp.get("/scorepad/<game:pad_id>.json")
def saved_json(pad_id: int) -> Response:
    """The JSON twin of a saved pad."""
    found = _saved_or_404(pad_id)
    return jsonify({**found.to_json(), **_saved_view(found)})


def _saved_view(found: SavedPad) -> dict[str, Any]:
    """The result view of a saved pad, named with its variant ("7 Wonders for two"); 409 for
    one kept before its numbers were bounded, which no longer scores (its sheet still
    downloads)."""
    try:
        view = result_view(score_sheet(default_family_catalog(), found.sheet))
    except SheetError as refused:
        raise Conflict(f"Score pad {found.id} no longer scores: {refused}") from None
    return {**view, "game_name": STATS_GAMES[_kind(found.game, found.sheet)]}


@bp.get("/scorepad/<game:pad_id>/sheet")
def sheet_download(pad_id: int) -> Response:
    """The pad's record: its sheet as a JSON file, which imports back as a new pad."""
    found = _saved_or_404(pad_id)
    response = Response(json.dumps(found.sheet, ensure_ascii=False), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="scorepad-{pad_id}.json"'
    return response


@bp.get("/scorepad/import")
def import_page() -> str:
    """The form that adds a score sheet file to the journal as a saved pad."""
    return render_template("scorepad/import.html", error=None)


@bp.post("/scorepad/import")
def import_form() -> Redirect | tuple[str, int]:
    """Save an uploaded or pasted sheet (pairing code and form token needed)."""
    require_same_origin_form()
    require_pairing()
    data = form_upload("sheet", "Choose a score sheet file or paste it")
    try:
        sheet = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: JSON, digits
        return render_template("scorepad/import.html", error="The sheet is not JSON"), 422
    try:
        pad_id = _save(sheet)
    except UnprocessableEntity as refused:
        return render_template("scorepad/import.html", error=refused.description), 422
    return redirect(url_for("scorepad.saved", pad_id=pad_id), code=303)


# --- Cities read from a photo ----------------------------------------------------------------

SCAN_MAX_BYTES = 8 * 1024 * 1024  # a phone photo; the page sends it scaled down, well below


@bp.post("/scorepad/scan.json")
def scan() -> Response:
    """The base-game cards whose stickers a photo shows (multipart field `photo`): their ids
    left to right, their names, and how many other QR codes were seen. Nothing is written.
    Only from our own page (Origin); a PNG or JPEG of at most 12 megapixels, measured by its
    header before it is decoded (413 above, 422 for anything else)."""
    import cv2
    import numpy as np

    from companion.vision.decode import make_decoder, read_cards
    from companion.vision.payloads import parse_family
    from companion.vision.photo import NotAPhoto, TooLarge, checked_photo

    require_same_origin_post()
    request.max_content_length = SCAN_MAX_BYTES
    photo = request.files.get("photo")
    if photo is None or not photo.filename:
        raise BadRequest("Send a photo of the city's cards (multipart field 'photo')")
    raw = photo.read()
    try:
        checked_photo(raw)
    except NotAPhoto as refused:
        raise UnprocessableEntity(str(refused)) from None
    except TooLarge as refused:
        raise RequestEntityTooLarge(str(refused)) from None
    data = np.frombuffer(raw, dtype=np.uint8)
    gray = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    if gray is None:
        raise UnprocessableEntity("The photo is not an image (JPEG or PNG)")
    cards, foreign = read_cards(make_decoder(), gray, parse_family)
    catalog = default_family_catalog()
    names = [catalog.cards[CardId(c)].name for c in cards]
    return jsonify({"cards": cards, "names": names, "foreign": foreign})


# --- Cities read with the box's camera (companion.device.family_scan) -----------------------


def _reading(action: Callable[[Control], dict[str, Any]]) -> tuple[Response, int]:
    try:
        return jsonify(action(current_app.config["CONTROL"])), 200
    except NoCamera as missing:
        return jsonify({"error": str(missing)}), 409


@bp.get("/scorepad/box.json")
def box_reading() -> tuple[Response, int]:
    """The cities the box's camera has read so far (the page polls it while reading)."""
    return _reading(lambda control: control.reading())


@bp.post("/scorepad/box.json")
def box_start() -> tuple[Response, int]:
    """Start reading cities with the box's camera: `{"players": [names in seating order]}`,
    pairing code in X-Pairing-Code. A reading already on starts again."""
    require_same_origin_api()
    require_pairing(form=False)
    body = _sheet_body()
    names = body.get("players") if isinstance(body, dict) else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise UnprocessableEntity('Send {"players": [the names in seating order]}')
    try:
        return _reading(lambda control: control.start_reading(names))
    except ValueError as refused:
        raise UnprocessableEntity(str(refused)) from None


@bp.delete("/scorepad/box.json")
def box_stop() -> tuple[Response, int]:
    """End the reading (pairing code in X-Pairing-Code); the box shows the Duel game again."""
    require_same_origin_api()
    require_pairing(form=False)
    return _reading(lambda control: control.stop_reading())


def _listed_pads() -> list[dict[str, Any]]:
    """The saved pads as the history lists them: each with its game's name and winner line
    (a pad kept before its numbers were bounded says that it no longer scores)."""
    catalog = default_family_catalog()
    return [
        {
            **pad.to_json(),
            "game_name": STATS_GAMES[_kind(pad.game, pad.sheet)],
            "winner_line": _winner_line(catalog, pad),
        }
        for pad in _saved_pads()
    ]


def _winner_line(catalog: FamilyCatalog, pad: SavedPad) -> str:
    try:
        return words.pad_winner(score_sheet(catalog, pad.sheet).result)
    except SheetError:
        return "No longer scores (its sheet still downloads)"


def _kind(game: str, sheet: Any) -> str:
    """The game of a pad as the statistics keep it apart: the two-player variant apart."""
    two = isinstance(sheet, dict) and sheet.get("variant") == "two-player"
    return f"{game}-two-player" if two else game


@bp.app_context_processor
def _pads_for_templates() -> dict[str, Any]:
    """`score_pads()` for the history page, which lists the saved pads beside the games."""
    return {"score_pads": _listed_pads}
