"""The JSON export of the catalog: its shape, and that it rebuilds an equal catalog."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from companion.engine.cards import Catalog
from companion.engine.catalog import CatalogError
from companion.engine.catalog_json import catalog_from_json, catalog_to_json

CARD_KEYS = {"id", "age", "color", "cost", "points", "shields", "science", "chain_symbol",
             "chain_from", "produces", "produces_one_of", "fixed_price", "coins", "coins_per",
             "guild", "name", "names"}  # fmt: skip
COST_KEYS = {"coins", "wood", "clay", "stone", "glass", "papyrus"}


@pytest.fixture(scope="module")
def exported(catalog: Catalog) -> dict[str, Any]:
    """The export after a trip through JSON text."""
    obj: dict[str, Any] = json.loads(json.dumps(catalog_to_json(catalog)))
    return obj


def test_round_trip_rebuilds_an_equal_catalog(catalog: Catalog, exported: dict[str, Any]) -> None:
    rebuilt = catalog_from_json(exported)
    assert rebuilt == catalog
    assert catalog_to_json(rebuilt) == exported


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("cards", 0, "cost", "coins"), 1),
        (("cards", 9, "shields"), 2),
        (("wonders", 8, "points"), 8),
        (("progress_tokens", 0, "names", "nb"), "Landbruk"),
        (("layouts", 0, "positions", 0, "face_up"), False),
    ],
)
def test_round_trip_notices_any_change(
    catalog: Catalog, exported: dict[str, Any], path: tuple[Any, ...], value: Any
) -> None:
    changed = copy.deepcopy(exported)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert catalog_from_json(changed) != catalog


def test_top_level_keys(exported: dict[str, Any]) -> None:
    assert {"cards", "wonders", "progress_tokens", "layouts", "military", "setup"} <= set(exported)
    assert (len(exported["cards"]), len(exported["wonders"])) == (73, 12)
    assert len(exported["progress_tokens"]) == 10


def test_every_card_has_the_documented_keys(exported: dict[str, Any]) -> None:
    for card in exported["cards"]:
        assert set(card) == CARD_KEYS, card["id"]
        assert set(card["cost"]) == COST_KEYS
        assert card["age"] in (1, 2, 3)
        assert card["names"]["en"] == card["name"]


def test_guilds_are_age_3_purple_with_their_rule(exported: dict[str, Any]) -> None:
    guilds = [c for c in exported["cards"] if c["guild"] is not None]
    assert len(guilds) == 7
    assert {(c["age"], c["color"]) for c in guilds} == {(3, "purple")}
    moneylenders = next(c for c in guilds if c["id"] == "moneylenders_guild")
    assert moneylenders["guild"] == {"count": ["coins"], "coins": 0, "points": 1, "per": 3}


def test_nulls_for_absent_symbols(exported: dict[str, Any]) -> None:
    stable = next(c for c in exported["cards"] if c["id"] == "stable")
    assert (stable["science"], stable["chain_symbol"], stable["chain_from"]) == (
        None,
        "horseshoe",
        None,
    )
    library = next(c for c in exported["cards"] if c["id"] == "library")
    assert (library["science"], library["chain_from"]) == ("quill", "book")


def test_wonders_have_cost_points_shields_and_effects(exported: dict[str, Any]) -> None:
    zeus = next(w for w in exported["wonders"] if w["id"] == "the_statue_of_zeus")
    assert zeus["cost"] == {"coins": 0, "wood": 1, "clay": 1, "stone": 1, "glass": 0, "papyrus": 2}
    assert (zeus["points"], zeus["shields"], zeus["destroys"]) == (3, 1, "brown")


def test_layout_positions_refer_to_each_other_by_index(exported: dict[str, Any]) -> None:
    for layout in exported["layouts"]:
        positions = layout["positions"]
        assert len(positions) == 20
        for p in positions:
            for i in p["covered_by"]:
                assert p["index"] in positions[i]["covers"]
                assert positions[i]["row"] == p["row"] + 1
            assert p["accessible_at_start"] == (not p["covered_by"])


def test_a_bad_object_is_refused_like_bad_toml(exported: dict[str, Any]) -> None:
    changed = copy.deepcopy(exported)
    changed["cards"][9]["cost"]["woood"] = 1
    with pytest.raises(CatalogError, match="card 'stable': cost: unknown resource 'woood'"):
        catalog_from_json(changed)


@pytest.mark.parametrize("obj", [[], {"format": 1}, {"format": 99}])
def test_something_else_is_refused(obj: Any) -> None:
    with pytest.raises(CatalogError, match="catalog JSON: "):
        catalog_from_json(obj)
