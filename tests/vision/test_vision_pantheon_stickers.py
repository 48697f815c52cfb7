"""The Pantheon expansion's stickers: one for each new component, payloads apart from the
base game's, and `stickers --expansion pantheon` sheets that decode."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from test_vision_stickers import read_payloads

from companion.cli import main
from companion.engine.catalog import default_catalog
from companion.vision import payloads, stickers


def test_every_new_pantheon_component_has_one_sticker_apart_from_the_base_game() -> None:
    base, full = default_catalog(), default_catalog(("pantheon",))
    assert full.pantheon is not None
    new = {c.id for c in full.temples} | {d.id for d in full.pantheon.divinities}
    new |= {w.id for w in full.wonders if not base.is_wonder(w.id)}
    new |= {t.id for t in full.progress_tokens if not base.is_token(t.id)}
    new.add(full.pantheon.gate)
    table = payloads.pantheon_sticker_table()
    assert set(table.by_id) == new and len(table.by_id) == 15 + 1 + 5 + 2 + 3
    assert not set(table.by_payload) & set(payloads.sticker_table().by_payload)
    zeus = table.by_id["zeus"]
    assert payloads.parse_pantheon(zeus) == "zeus"
    assert payloads.parse(zeus) is None  # a base game's scan never reads a divinity


def test_pantheon_labels_say_what_each_sticker_goes_on() -> None:
    labels = {e.id: e.label for e in stickers.pantheon_entries()}
    assert labels["greek_grand_temple"] == "Age III, purple"
    assert labels["enki"] == "Mesopotamian" and labels["gate"] == "Gate"
    assert labels["the_sanctuary"] == "Wonder" and labels["mysticism"] == "Progress token"


def test_pantheon_sheet_holds_every_new_sticker(tmp_path: Path) -> None:
    out = tmp_path / "pantheon.png"
    assert main(["stickers", "--expansion", "pantheon", "--out", str(out)]) == 0
    with Image.open(out) as image:
        found = read_payloads(image)
    assert found == set(payloads.pantheon_sticker_table().by_payload)


def test_expansion_stickers_are_for_duel_only(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["stickers", "--expansion", "pantheon", "--game", "7wonders", "--out", "x.pdf"]
    assert main(args) == 2
    assert "--expansion pantheon is for Duel's stickers" in capsys.readouterr().err
