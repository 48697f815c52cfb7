"""The Pantheon expansion's data: loaded and checked like the base game's, and printed by
`duel-companion catalog --json --expansion pantheon`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine.cards import MYTHOLOGIES, Color
from companion.engine.catalog import CatalogError, default_catalog, default_data_dir, load_catalog
from companion.engine.catalog_json import catalog_to_json


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A writable copy of the shipped data folder, the expansion's folder included."""
    copy = tmp_path / "data"
    shutil.copytree(default_data_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of `old` in the file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def refused(data: Path, message: str) -> None:
    with pytest.raises(CatalogError, match=re.escape(message)):
        load_catalog(data, ("pantheon",))


def test_the_expansion_adds_15_divinities_5_temples_2_wonders_3_tokens() -> None:
    base = default_catalog()
    full = default_catalog(("pantheon",))
    assert full.pantheon is not None and base.pantheon is None
    assert len(full.pantheon.divinities) == 15
    assert {d.mythology for d in full.pantheon.divinities} == set(MYTHOLOGIES)
    assert [c.id for c in full.temples] == [
        "mesopotamian_grand_temple", "phoenician_grand_temple", "greek_grand_temple",
        "egyptian_grand_temple", "roman_grand_temple",
    ]  # fmt: skip
    assert len(full.cards) == 73 + 5 and len(full.wonders) == 14
    assert len(full.progress_tokens) == 13
    assert full.guilds == base.guilds  # the temples are not guilds
    assert full.age_deck(3) == base.age_deck(3)  # nor Age III cards of the deck


def test_a_grand_temple_chains_from_its_mythology_and_is_purple() -> None:
    temple = default_catalog(("pantheon",)).card("roman_grand_temple")
    assert temple.color is Color.PURPLE and temple.age == 3
    assert temple.chain_from == "roman" and temple.mythology == "roman"
    assert temple.cost.resources == (0, 1, 1, 2, 1)  # 1 clay, 1 stone, 2 glass, 1 papyrus


def test_board_prices_run_3_to_8_from_each_side() -> None:
    pantheon = default_catalog(("pantheon",)).pantheon
    assert pantheon is not None
    assert [pantheon.space_cost(n, 0) for n in range(1, 7)] == [3, 4, 5, 6, 7, 8]
    assert [pantheon.space_cost(n, 1) for n in range(1, 7)] == [8, 7, 6, 5, 4, 3]
    # Age I: ends of row 2 (positions 2, 4), ends and middle of row 4 (9, 11, 13)
    assert pantheon.mythology_positions == (2, 4, 9, 11, 13)
    # Age II: ends and middle of row 2 (positions 6, 8, 10)
    assert pantheon.offering_positions == (6, 8, 10)
    assert pantheon.offering_tokens == (2, 3, 4)


def test_unknown_mythology_names_file_divinity_and_key(data: Path) -> None:
    edit(data / "pantheon/divinities.toml", 'id = "ra"\nmythology = "egyptian"',
         'id = "ra"\nmythology = "norse"')  # fmt: skip
    refused(data, "pantheon/divinities.toml: divinity 'ra': mythology: unknown mythology 'norse'")


def test_unknown_divinity_key_is_refused(data: Path) -> None:
    edit(data / "pantheon/divinities.toml", "coins = 12", "coinz = 12")
    refused(data, "pantheon/divinities.toml: divinity 'tanit': unknown key 'coinz'")


def test_a_temple_age_other_than_temple_is_refused(data: Path) -> None:
    edit(data / "pantheon/cards.toml", 'id = "greek_grand_temple"\nage = "temple"',
         'id = "greek_grand_temple"\nage = 3')  # fmt: skip
    refused(data, "pantheon/cards.toml: card 'greek_grand_temple': age: a Grand Temple's age")


def test_a_token_position_on_a_face_up_card_is_refused(data: Path) -> None:
    edit(data / "pantheon/board.toml", "offering = [[2, 2], [2, 6], [2, 10]]",
         "offering = [[1, 1], [2, 6], [2, 10]]")  # fmt: skip
    refused(data, "pantheon/board.toml: setup: token_positions.offering: [1, 1] is a face-up card")


def test_a_missing_space_is_refused(data: Path) -> None:
    edit(data / "pantheon/board.toml", "space = 6\n", "space = 7\n")
    refused(data, "pantheon/board.toml: expected spaces 1 to 6, once each")


def test_a_fourth_divinity_of_one_mythology_is_refused(data: Path) -> None:
    edit(data / "pantheon/divinities.toml", 'id = "mars"\nmythology = "roman"',
         'id = "mars"\nmythology = "greek"')  # fmt: skip
    refused(data, "pantheon/divinities.toml: mythology 'greek': 4 divinities, expected 3")


def test_a_divinity_id_used_twice_is_refused(data: Path) -> None:
    edit(data / "pantheon/divinities.toml", 'id = "mars"', 'id = "zeus"')
    refused(data, "pantheon/divinities.toml: divinity 'zeus': duplicate id")


def test_a_missing_expansion_file_is_named(data: Path) -> None:
    (data / "pantheon/wonders.toml").unlink()
    refused(data, "pantheon/wonders.toml: file not found")


def test_a_divinity_without_english_name_is_refused(data: Path) -> None:
    edit(data / "pantheon/names.toml", 'tanit = "Tanit"\n', "")
    refused(data, "names.toml: [en] tanit: missing English name")


def test_unknown_expansion_is_refused() -> None:
    with pytest.raises(CatalogError, match="unknown expansion 'cities'"):
        load_catalog(default_data_dir(), ("cities",))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "catalog", *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_catalog_json_with_the_expansion() -> None:
    done = _run("--json", "--expansion", "pantheon")
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    divinities = {d["id"]: d["mythology"] for d in obj["divinities"]}
    assert len(divinities) == 15 and divinities["minerva"] == "roman"
    assert set(divinities.values()) == {"egyptian", "greek", "mesopotamian", "phoenician", "roman"}
    temples = [c["id"] for c in obj["cards"] if c["age"] == "temple"]
    assert len(temples) == 5 and "greek_grand_temple" in temples
    wonders = [w["id"] for w in obj["wonders"]]
    assert wonders[-2:] == ["the_sanctuary", "the_divine_theater"]
    tokens = [t["id"] for t in obj["progress_tokens"]]
    assert tokens[-3:] == ["mysticism", "poliorcetics", "engineering"]


def test_catalog_json_without_the_flag_is_the_base_game() -> None:
    base = catalog_to_json(default_catalog())
    assert "divinities" not in base and len(base["cards"]) == 73
    assert "pantheon_discount" not in base["wonders"][0]
    assert "mythology" not in base["cards"][0]


def test_catalog_table_lists_the_divinities_with_the_expansion() -> None:
    done = _run("--expansion", "pantheon")
    assert done.returncode == 0, done.stderr
    assert "Divinities (15)" in done.stdout
    assert any(
        line.split()[:3] == ["tanit", "Tanit", "phoenician"] for line in done.stdout.splitlines()
    )
    assert "Divinities" not in _run().stdout
