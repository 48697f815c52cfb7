"""The base game's card data loads into checked objects; every refusal names file, entry, key."""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from companion.engine.cards import Color
from companion.engine.catalog import CatalogError, default_data_dir
from companion.family.cards import Counted, Side, Symbol, Where
from companion.family.catalog import default_family_catalog, load_family_catalog

DATA = default_data_dir() / "family"


def test_the_first_edition_has_75_cards_by_colour() -> None:
    cards = default_family_catalog().cards.values()
    # Seed 002: 10 brown + 3 grey in Age I, 4 brown (+ the 3 grey again) in Age II; blue 4+4+5;
    # red 3+4+4; green 3+4+5; yellow 4+4+4; 10 guilds.
    assert Counter(c.color for c in cards) == {
        Color.BROWN: 14, Color.GREY: 3, Color.BLUE: 13, Color.RED: 11,
        Color.GREEN: 12, Color.YELLOW: 12, Color.PURPLE: 10,
    }  # fmt: skip
    assert {c.id for c in cards if c.ages == (1, 2)} == {"loom", "glassworks", "press"}


def test_blue_points_and_science_symbols_match_the_rulebook() -> None:
    cards = default_family_catalog().cards
    # Blue cards: Pawnshop 3, Baths 3, Altar 2, Theater 2, Aqueduct 5, Temple 3, Statue 4,
    # Courthouse 4, Pantheon 7, Gardens 5, Town Hall 6, Palace 8, Senate 6 = 58.
    assert sum(c.points for c in cards.values()) == 58
    symbols = Counter(c.science for c in cards.values() if c.science)
    # 4 green cards of each symbol (the rulebook's "4 slags grønne kort"), one guild wildcard.
    assert symbols == {Symbol.COMPASS: 4, Symbol.GEAR: 4, Symbol.TABLET: 4, Symbol.ANY: 1}
    assert cards["scientists_guild"].is_scientists_guild
    strategists = cards["strategists_guild"].points_per
    assert strategists is not None
    assert strategists.counts == (Counted.DEFEAT_TOKENS,)
    assert strategists.cities == (Where.LEFT, Where.RIGHT)


@pytest.mark.parametrize(
    ("wonder", "a_points", "b_points", "b_stages"),
    [
        # Seed 002, "Beskrivelse af vidunderne": A sides 3 + 7 (Giza 3 + 5 + 7).
        ("alexandria", 10, 7, 3),
        ("babylon", 10, 3, 3),
        ("ephesus", 10, 10, 3),  # B: 2 + 3 + 5
        ("giza", 15, 20, 4),  # B: 3 + 5 + 5 + 7 = 20
        ("halicarnassus", 10, 3, 3),  # B: 2 + 1 + 0
        ("olympia", 10, 5, 3),
        ("rhodes", 10, 7, 2),  # B: 3 + 4
    ],
)
def test_wonder_boards_give_the_printed_points(
    wonder: str, a_points: int, b_points: int, b_stages: int
) -> None:
    board = default_family_catalog().wonders[wonder]  # type: ignore[index]
    assert sum(s.points for s in board.sides[Side.A]) == a_points
    assert sum(s.points for s in board.sides[Side.B]) == b_points
    assert len(board.sides[Side.B]) == b_stages


def test_names_are_english_and_danish() -> None:
    catalog = default_family_catalog()
    assert catalog.cards["workers_guild"].names["da"] == "Arbejderlauget"  # type: ignore[index]
    assert catalog.wonders["giza"].names["da"] == "Pyramiderne"  # type: ignore[index]


def _copy_with(tmp_path: Path, file: str, old: str, new: str) -> Path:
    shutil.copytree(DATA, tmp_path / "family")
    path = tmp_path / "family" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path / "family"


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("base_cards.toml", 'color = "blue"\npoints = 3', 'color = "blue"\npoints = "3"',
         r"base_cards\.toml: card 'pawnshop': points: expected a whole number, got '3'"),
        ("base_cards.toml", 'color = "brown"', 'color = "pruple"',
         r"base_cards\.toml: card 'lumber_yard': color: unknown colour 'pruple'"),
        ("base_cards.toml", 'science = "compass"', 'science = "any"',
         r"base_cards\.toml: card 'apothecary': science: a green card carries compass"),
        ("base_cards.toml", 'count = ["brown"], cities = ["left"',
         'count = ["browns"], cities = ["left"',
         r"base_cards\.toml: card 'workers_guild': points_per: count: unknown counted item"),
        ("base_cards.toml", 'id = "stone_pit"', 'id = "lumber_yard"',
         r"base_cards\.toml: card 'lumber_yard': duplicate id"),
        ("base_cards.toml", "ages = [1]", "age = 1",
         r"base_cards\.toml: card 'lumber_yard': unknown key 'age'"),
        ("base_wonders.toml", '{ science = "any" }', '{ science = "gear" }',
         r"base_wonders\.toml: wonder 'babylon': A: stage 2: a stage's science can only be"),
        ("base_wonders.toml", "B = [{ points = 3 }, { points = 5 }, { points = 5 }, ",
         "B = [{ points = 3 }] #",
         r"base_wonders\.toml: wonder 'giza': side B: expected 2 to 4 stages"),
        ("base_cards.toml", "copies = { I = [3, 4] }", "copies = { I = [3, 5] }",
         r"base_cards\.toml: copies: Age I for 4 players holds 27 cards, not 28"),
        ("base_cards.toml", "copies = { I = [3, 4] }", "copies = { I = [4, 3] }",
         r"card 'lumber_yard': copies: Age 1: expected player counts from 3 to 7, in order"),
        ("base_cards.toml", "copies = { I = [3, 4] }", "copies = { II = [3, 4] }",
         r"card 'lumber_yard': copies: expected the copies of each of its ages \[1\]"),
        ("base_cards.toml", "copies = { I = [3, 4] }", "copies = { IV = [3, 4] }",
         r"card 'lumber_yard': copies: unknown Age 'IV'"),
        ("base_wonders.toml", '{ copies_guild = true }', '{ copies_guild = 1 }',
         r"base_wonders\.toml: wonder 'olympia': B: stage 3: copies_guild: expected true or false"),
    ],
)  # fmt: skip
def test_bad_data_is_refused_naming_file_entry_and_key(
    tmp_path: Path, file: str, old: str, new: str, expected: str
) -> None:
    with pytest.raises(CatalogError, match=expected):
        load_family_catalog(_copy_with(tmp_path, file, old, new))


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match=r"base_cards\.toml: file not found"):
        load_family_catalog(tmp_path)


def test_the_data_files_are_valid_toml_with_only_known_languages() -> None:
    for path in (DATA / "base_cards.toml", DATA / "base_wonders.toml"):
        for entries in tomllib.loads(path.read_text(encoding="utf-8")).values():
            for entry in entries:
                assert set(entry["names"]) <= {"en", "da"}, entry["id"]


def test_the_copies_of_each_card_follow_the_printed_player_counts() -> None:
    cards = default_family_catalog().cards
    # Lumber Yard is printed 3+ and 4+: one copy at 3 players, two from 4 on
    assert [cards["lumber_yard"].copies_for(n) for n in range(2, 8)] == [1, 1, 2, 2, 2, 2]  # type: ignore[index]
    # Tavern 4+ 5+ 7+: none at 3 players, three at 7
    assert [cards["tavern"].copies_for(n) for n in range(3, 8)] == [0, 1, 2, 2, 3]  # type: ignore[index]
    # Loom: Age I 3+ 6+ and Age II 3+ 5+, the same card: 2 at 3 players, 3 at 5, 4 at 6
    assert [cards["loom"].copies_for(n) for n in range(3, 8)] == [2, 2, 3, 4, 4]  # type: ignore[index]
    # a guild is one card whatever the count (players + 2 of the 10 are drawn)
    assert cards["spies_guild"].copies_for(3) == cards["spies_guild"].copies_for(7) == 1  # type: ignore[index]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_each_age_deals_seven_cards_a_player(players: int) -> None:
    # as the rulebook says once the decks are sorted for the number of players
    cards = default_family_catalog().cards.values()
    for age in (1, 2, 3):
        dealt = sum(n <= players for c in cards for n in c.copies.get(age, ()))
        guilds = players + 2 if age == 3 else 0
        assert dealt + guilds == 7 * players
