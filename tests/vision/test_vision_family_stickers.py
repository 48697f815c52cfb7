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
from companion.vision import payloads
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
