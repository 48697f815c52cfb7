"""Stickers of the 7 Wonders base game's cards (`stickers --game 7wonders`), for the family
score pad: their own prefix, one per card name, sheets that real decoders read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.family.catalog import default_family_catalog
from companion.vision import payloads, stickers
from companion.vision.decode import make_decoder
from companion.vision.synth import city_frame


def test_every_base_game_card_has_one_sticker_of_its_own_kind() -> None:
    table = payloads.family_sticker_table()
    catalog = default_family_catalog()
    assert set(table.by_id) == set(catalog.cards)
    for card_id, payload in table.by_id.items():
        kind = "G" if catalog.cards[card_id].color.value == "purple" else "A"  # type: ignore[index]
        assert payload.startswith(f"7WB:{kind}")
        assert payloads.is_well_formed(payload, payloads.FAMILY_PREFIX)
        assert payloads.parse(payload) is None  # never read as a Duel card


def test_png_sheets_hold_every_base_game_sticker(tmp_path: Path) -> None:
    out = tmp_path / "family.png"
    assert main(["stickers", "--game", "7wonders", "--out", str(out)]) == 0
    found: set[str] = set()
    for page in sorted(tmp_path.glob("family-*.png")):
        with Image.open(page) as image:
            gray = np.asarray(image.convert("L"))
            found |= {s.text for s in make_decoder("zxing").decode(gray)}
    assert found == set(payloads.family_sticker_table().by_payload)


def test_scan_reads_a_city_of_base_game_cards_with_game_7wonders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = payloads.family_sticker_table().by_id
    # Two base-game cards and a Duel card (foreign to the base game, and the reverse).
    cards = [("altar", table["altar"]), ("palace", table["palace"])]
    cards.append(("baths", payloads.payload_for("baths")))
    frame = np.clip(city_frame(cards, seed=5), 0, 255).astype(np.uint8)
    Image.fromarray(frame).save(tmp_path / "city.png")
    assert main(["scan", "--game", "7wonders", "--json", str(tmp_path / "city.png")]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found == [{"image": str(tmp_path / "city.png"), "cards": ["altar", "palace"],
                      "foreign": 1}]  # fmt: skip
    assert main(["scan", "--json", str(tmp_path / "city.png")]) == 0
    assert json.loads(capsys.readouterr().out)[0]["cards"] == ["baths"]


def test_scan_says_to_add_game_7wonders_for_base_game_stickers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = payloads.family_sticker_table().by_id
    cards = [("altar", table["altar"]), ("palace", table["palace"])]
    frame = np.clip(city_frame(cards, seed=5), 0, 255).astype(np.uint8)
    image = tmp_path / "city.png"
    Image.fromarray(frame).save(image)
    assert main(["scan", str(image)]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"{image}: no card (2 foreign codes ignored)\n"
    assert captured.err == f"scan: {image}: 2 codes are 7 Wonders cards: add --game 7wonders\n"
    # the JSON keeps its keys; the hint is on stderr
    assert main(["scan", "--json", str(image)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [{"image": str(image), "cards": [], "foreign": 2}]
    assert "add --game 7wonders" in captured.err
    # and the other way round: a Duel sticker read for the base game
    duel = np.clip(city_frame([("baths", payloads.payload_for("baths"))], seed=6), 0, 255)
    Image.fromarray(duel.astype(np.uint8)).save(tmp_path / "duel.png")
    assert main(["scan", "--game", "7wonders", str(tmp_path / "duel.png")]) == 0
    assert "a code is a Duel card: leave out --game 7wonders" in capsys.readouterr().err


def test_the_sheet_without_a_player_count_notes_each_cards_copies() -> None:
    notes = {e.id: e.note for e in stickers.entries("en", "7wonders")}
    assert len(notes) == 75  # one sticker per card name
    assert notes["lumber_yard"] == "3+ 4+ players"
    assert notes["tavern"] == "4+ 5+ 7+ players"
    assert notes["loom"] == "I:\u00a03+\u00a06+; II:\u00a03+\u00a05+"
    assert notes["builders_guild"] == "1 copy, drawn"


def test_a_sheet_for_four_players_has_a_sticker_for_every_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = stickers.entries("en", "7wonders", players=4)
    # 28 cards an Age, less the 6 guilds of Age III, plus all 10 guilds (any may be drawn)
    assert len(entries) == 3 * 28 - 6 + 10
    lumber = [e.note for e in entries if e.id == "lumber_yard"]
    assert lumber == ["copy 1 of 2", "copy 2 of 2"]
    assert [e.note for e in entries if e.id == "loom"] == ["copy 1 of 2", "copy 2 of 2"]
    assert not any(e.id == "tavern" for e in stickers.entries("en", "7wonders", players=3))
    out = tmp_path / "four.pdf"
    assert main(["stickers", "--game", "7wonders", "--players", "4", "--out", str(out)]) == 0
    assert "88 stickers: every card of a 4-player game" in capsys.readouterr().out
    assert out.read_bytes().startswith(b"%PDF")
    # the sheet's title line says it
    svg = tmp_path / "four.svg"
    assert main(["stickers", "--game", "7wonders", "--players", "4", "--out", str(svg)]) == 0
    first = (tmp_path / "four-1.svg").read_text(encoding="utf-8")
    assert ">7 Wonders stickers (4 players: 88 stickers), 20 mm, A4, page 1/2." in first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "7wonders", "--players", "8"], "--players 8: the base game is for 3 to 7"),
        (["--players", "4"], "--players is for --game 7wonders"),
    ],
)
def test_a_player_count_that_does_not_fit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    out = tmp_path / "x.pdf"
    assert main(["stickers", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()
