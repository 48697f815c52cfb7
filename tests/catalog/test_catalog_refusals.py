"""Each refusal of the loader: a copy of the real data/ with one thing broken."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from companion.engine.catalog import CatalogError, default_data_dir, load_catalog

STABLE = 'id = "stable"\nage = 1\ncolor = "red"\ncost = { wood = 1 }\n'


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A writable copy of the shipped data folder."""
    copy = tmp_path / "data"
    shutil.copytree(default_data_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of `old` in the file (the test fails if it is not there)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as file:
        file.write(text)


def refused(data: Path, message: str) -> None:
    with pytest.raises(CatalogError, match=re.escape(message)):
        load_catalog(data)


def test_the_copy_itself_loads(data: Path) -> None:
    assert len(load_catalog(data).cards) == 73


def test_unknown_resource_names_file_card_and_key(data: Path) -> None:
    edit(data / "cards.toml", STABLE, STABLE.replace("wood = 1", "woood = 1"))
    refused(data, "cards.toml: card 'stable': cost: unknown resource 'woood'")


def test_unknown_resource_in_production(data: Path) -> None:
    edit(
        data / "cards.toml",
        'produces = { papyrus = 1 }\n\n[[card]]\nid = "guard_tower"',
        'produces = { paper = 1 }\n\n[[card]]\nid = "guard_tower"',
    )
    refused(data, "cards.toml: card 'press': produces: unknown resource 'paper'")


def test_unknown_resource_in_a_choice(data: Path) -> None:
    edit(
        data / "wonders.toml",
        'produces_one_of = ["glass", "papyrus"]',
        'produces_one_of = ["glass", "parchment"]',
    )
    refused(data, "wonders.toml: wonder 'piraeus': produces_one_of: unknown resource 'parchment'")


def test_unknown_colour(data: Path) -> None:
    edit(data / "cards.toml", STABLE, STABLE.replace('"red"', '"crimson"'))
    refused(data, "cards.toml: card 'stable': color: unknown color 'crimson'")


def test_unknown_science_symbol(data: Path) -> None:
    edit(
        data / "cards.toml",
        'science = "wheel"\nchain_symbol = "lyre"',
        'science = "compass"\nchain_symbol = "lyre"',
    )
    refused(data, "cards.toml: card 'school': science: unknown science symbol 'compass'")


def test_law_on_a_card_is_refused(data: Path) -> None:
    edit(
        data / "cards.toml",
        'science = "wheel"\nchain_symbol = "lyre"',
        'science = "law"\nchain_symbol = "lyre"',
    )
    refused(data, "cards.toml: card 'school': science: 'law' is on the Law token only")


def test_a_third_card_with_a_symbol_is_refused(data: Path) -> None:
    edit(
        data / "cards.toml",
        'science = "wheel"\nchain_symbol = "lyre"',
        'science = "globe"\nchain_symbol = "lyre"',
    )
    refused(data, "cards.toml: science symbol 'globe': on 3 cards, expected exactly 2")


def test_unknown_key(data: Path) -> None:
    edit(data / "cards.toml", STABLE, STABLE + "vp = 2\n")
    refused(data, "cards.toml: card 'stable': unknown key 'vp'")


def test_unknown_key_in_a_wonder(data: Path) -> None:
    edit(data / "wonders.toml", 'id = "the_pyramids"\n', 'id = "the_pyramids"\nvp = 9\n')
    refused(data, "wonders.toml: wonder 'the_pyramids': unknown key 'vp'")


def test_missing_key(data: Path) -> None:
    edit(data / "cards.toml", STABLE, STABLE.replace('color = "red"\n', ""))
    refused(data, "cards.toml: card 'stable': missing key 'color'")


def test_missing_id_names_the_entry_by_position(data: Path) -> None:
    edit(data / "cards.toml", '[[card]]\nid = "lumber_yard"\n', "[[card]]\n")
    refused(data, "cards.toml: card #1: missing key 'id'")


def test_chain_symbol_that_no_card_gives(data: Path) -> None:
    edit(data / "cards.toml", 'chain_from = "horseshoe"', 'chain_from = "horse"')
    refused(
        data, "cards.toml: card 'horse_breeders': chain_from 'horse': no card gives this symbol"
    )


def test_chain_symbol_given_by_a_later_age(data: Path) -> None:
    # Guard Tower (age 1) would be freed by the symbol of the Statue (age 2).
    edit(
        data / "cards.toml",
        'id = "guard_tower"\nage = 1\ncolor = "red"\n',
        'id = "guard_tower"\nage = 1\ncolor = "red"\nchain_from = "column"\n',
    )
    refused(
        data,
        "cards.toml: card 'guard_tower': chain_from 'column': "
        "given by 'statue' of age 2, not an earlier age",
    )


def test_chain_symbol_given_by_the_same_age(data: Path) -> None:
    edit(data / "cards.toml", 'chain_from = "mask"', 'chain_from = "helmet"')
    refused(
        data, "cards.toml: card 'statue': chain_from 'helmet': given by 'parade_ground' of age 2"
    )


def test_chain_symbol_given_twice(data: Path) -> None:
    edit(data / "cards.toml", 'chain_symbol = "sword"', 'chain_symbol = "horseshoe"')
    refused(
        data, "cards.toml: card 'garrison': chain_symbol 'horseshoe' is already given by 'stable'"
    )


def test_duplicate_id_within_a_file(data: Path) -> None:
    edit(data / "cards.toml", 'id = "guard_tower"', 'id = "stable"')
    refused(data, "cards.toml: card 'stable': duplicate id, already used earlier in the file")


def test_duplicate_id_across_cards_and_wonders(data: Path) -> None:
    edit(data / "wonders.toml", 'id = "the_pyramids"', 'id = "stable"')
    refused(data, "wonders.toml: wonder 'stable': duplicate id, already used in cards.toml: card")


def test_duplicate_id_across_cards_and_tokens(data: Path) -> None:
    edit(data / "progress.toml", 'id = "philosophy"', 'id = "library"')
    refused(data, "progress.toml: token 'library': duplicate id, already used in cards.toml: card")


def test_duplicate_id_across_wonders_and_tokens(data: Path) -> None:
    edit(data / "progress.toml", 'id = "philosophy"', 'id = "piraeus"')
    refused(data, "progress.toml: token 'piraeus': duplicate id, already used in wonders.toml")


def test_wrong_count_per_age(data: Path) -> None:
    edit(data / "cards.toml", 'id = "guard_tower"\nage = 1', 'id = "guard_tower"\nage = 2')
    refused(data, "cards.toml: age 1: expected 23 cards, found 22")


def test_a_card_too_many(data: Path) -> None:
    append(data / "cards.toml", '\n[[card]]\nid = "ore_vein"\nage = 1\ncolor = "brown"\n')
    refused(data, "cards.toml: age 1: expected 23 cards, found 24")


def test_wrong_guild_count(data: Path) -> None:
    append(
        data / "cards.toml",
        '\n[[card]]\nid = "spies_guild"\nage = 3\ncolor = "purple"\n'
        'guild = { count = ["red_card"], coins = 0, points = 1 }\n',
    )
    refused(data, "cards.toml: expected 7 guilds, found 8")


def test_a_guild_outside_age_3(data: Path) -> None:
    edit(data / "cards.toml", 'id = "merchants_guild"\nage = 3', 'id = "merchants_guild"\nage = 2')
    refused(data, "cards.toml: card 'merchants_guild': age: guilds belong to age 3")


def test_layout_covered_by_a_place_that_does_not_overlap(data: Path) -> None:
    place = "{ row = 3, col = 3, face_up = true, covered_by = [[4, 2], [4, 4]] }"
    edit(data / "layouts.toml", place, place.replace("[4, 4]", "[4, 6]"))
    refused(
        data,
        "layouts.toml: layout 1: position (3, 3): covered by [4, 6], which does not overlap it",
    )


def test_layout_missing_cover(data: Path) -> None:
    edit(
        data / "layouts.toml",
        "{ row = 2, col = 2, face_up = false, covered_by = [[3, 3]] },",
        "{ row = 2, col = 2, face_up = false, covered_by = [] },",
    )
    refused(
        data, "layouts.toml: layout 2: position (2, 2): overlapped by [3, 3] but not covered by it"
    )


def test_layout_cover_that_does_not_exist(data: Path) -> None:
    edit(
        data / "layouts.toml",
        "{ row = 3, col = 3, face_up = true, covered_by = [[4, 4]] },\n"
        "    { row = 3, col = 5, face_up = true, covered_by = [[4, 4]] },",
        "{ row = 3, col = 3, face_up = true, covered_by = [[4, 4]] },\n"
        "    { row = 3, col = 5, face_up = true, covered_by = [[4, 4], [4, 6]] },",
    )
    refused(data, "layouts.toml: layout 3: position (3, 5): covered by [4, 6]: no such place")


def test_layout_with_19_positions(data: Path) -> None:
    edit(data / "layouts.toml", "    { row = 5, col = 11, face_up = true, covered_by = [] },\n", "")
    refused(data, "layouts.toml: layout 1: positions: expected 20, got 19")


def test_layout_position_with_a_bad_face(data: Path) -> None:
    edit(
        data / "layouts.toml",
        "{ row = 5, col = 11, face_up = true,",
        '{ row = 5, col = 11, face_up = "yes",',
    )
    refused(data, "layouts.toml: layout 1: position (5, 11): face_up: expected true or false")


def test_two_layouts_for_one_age(data: Path) -> None:
    edit(data / "layouts.toml", "[[layout]]\nage = 3", "[[layout]]\nage = 2")
    refused(data, "layouts.toml: layout 2: a second layout for age 2")


def test_malformed_toml(data: Path) -> None:
    edit(data / "wonders.toml", 'id = "the_sphinx"', 'id = "the_sphinx')
    refused(data, "wonders.toml: not valid TOML: ")


def test_missing_file(data: Path) -> None:
    (data / "progress.toml").unlink()
    refused(data, f"progress.toml: file not found in {data}")


def test_names_for_an_unknown_id(data: Path) -> None:
    edit(data / "names.toml", 'law = "Lag"\n', 'law = "Lag"\nlawyer = "Advokat"\n')
    refused(data, "names.toml: [sv] lawyer: no card, wonder or token")


def test_unknown_language(data: Path) -> None:
    append(data / "names.toml", '\n[fi]\nlaw = "Laki"\n')
    refused(data, "names.toml: unknown language [fi]")


def test_missing_english_name(data: Path) -> None:
    edit(data / "names.toml", 'quarry = "Quarry"\n', "")
    refused(data, "names.toml: [en] quarry: missing English name")


def test_empty_name(data: Path) -> None:
    edit(data / "names.toml", 'law = "Lovbok"', 'law = ""')
    refused(data, "names.toml: [nb] law: expected a name")


def test_negative_count(data: Path) -> None:
    edit(data / "wonders.toml", "points = 9", "points = -9")
    refused(data, "wonders.toml: wonder 'the_pyramids': points: must not be negative, got -9")


def test_unknown_first_game_wonder(data: Path) -> None:
    edit(
        data / "board.toml",
        '"the_pyramids", "the_great_lighthouse"',
        '"the_pyramid", "the_great_lighthouse"',
    )
    refused(data, "board.toml: setup: first_game_wonders: p1: unknown wonder 'the_pyramid'")


def test_military_zones_with_a_gap(data: Path) -> None:
    edit(data / "board.toml", "{ first = 3, last = 5,", "{ first = 4, last = 5,")
    refused(data, "board.toml: military: zones: distance 3 is in no zone")
