"""Names per language: English complete, others from the rulebooks, English as fallback."""

from __future__ import annotations

import pytest

from companion.engine.cards import Catalog


def test_english_names_every_card_wonder_and_token(catalog: Catalog) -> None:
    ids = list(catalog.ids())
    assert len(ids) == 95
    assert all(catalog.names["en"][any_id] for any_id in ids)


def test_norwegian_names_every_card(catalog: Catalog) -> None:
    assert all(c.id in catalog.names["nb"] for c in catalog.cards)


@pytest.mark.parametrize(
    ("any_id", "language", "name"),
    [
        ("lumber_yard", "nb", "Sagbruk"),
        ("clay_reserve", "nb", "Leireserverve"),  # the rulebook's spelling, kept
        ("courthouse", "nb", "Domstol"),
        ("pretorium", "nb", "Kommandotelt"),
        ("the_great_library", "nb", "Biblioteket i Alexandra"),  # sic
        ("the_appian_way", "nb", "Via Appia"),
        ("law", "nb", "Lovbok"),
        ("the_pyramids", "sv", "Pyramiderna"),
        ("law", "sv", "Lag"),
        ("courthouse", "sv", "Tingshuset"),
        ("courthouse", "da", "Retssal"),
        ("quarry", "da", "Stenbrud"),
        ("stone_pit", "da", "Stenbrud"),
        ("the_colossus", "da", "Kolossen i Rhodos"),
    ],
)
def test_names_from_the_rulebooks(catalog: Catalog, any_id: str, language: str, name: str) -> None:
    assert catalog.name(any_id, language) == name


@pytest.mark.parametrize(
    ("any_id", "language"),
    [
        ("the_pyramids", "nb"),  # the Norwegian rulebook gives no Norwegian name
        ("mathematics", "nb"),
        ("the_appian_way", "sv"),  # the Swedish guide's "Appians sätt att arbeta" is no name
        ("merchants_guild", "sv"),
        ("stable", "da"),  # base 7 Wonders has Stables, not Stable
        ("port", "da"),
        ("agriculture", "da"),  # base 7 Wonders has no progress tokens
    ],
)
def test_unknown_names_fall_back_to_english(catalog: Catalog, any_id: str, language: str) -> None:
    assert any_id not in catalog.names[language]
    assert catalog.name(any_id, language) == catalog.names["en"][any_id]


def test_partial_languages_name_something_of_each_kind(catalog: Catalog) -> None:
    for language in ("sv", "da"):
        table = catalog.names[language]
        assert any(catalog.is_card(i) for i in table)
        assert any(catalog.is_wonder(i) for i in table)
    assert any(catalog.is_token(i) for i in catalog.names["sv"])
