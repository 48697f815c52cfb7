"""The catalog as one JSON object (`duel-companion catalog --json`), and back.

The shape is documented in docs/catalog.md. `catalog_from_json` turns the object back into
the tables of `data/*.toml` and builds it with the same checks as `load_catalog`, so
``catalog_from_json(catalog_to_json(c)) == c`` and a bad object is refused alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.cards import (
    RESOURCES,
    Amounts,
    Card,
    Catalog,
    Cost,
    Divinity,
    Layout,
    Pantheon,
    ProgressToken,
    Wonder,
)
from companion.engine.catalog import LANGUAGES, CatalogError, catalog_from_tables
from companion.engine.pantheon_catalog import TEMPLE_AGE

JSON_FORMAT = 1
"""Version of the JSON shape; raised when a key changes meaning or disappears."""


def catalog_to_json(catalog: Catalog) -> dict[str, Any]:
    """Every card, wonder, token, layout, the military track and the setup as plain JSON;
    with the Pantheon expansion also `divinities` and `pantheon` (its board and setup), the
    Grand Temples among `cards` (`"age": "temple"`) and the expansion's keys of wonders and
    tokens (a base catalog's object is unchanged)."""
    found = _base_json(catalog)
    pantheon = catalog.pantheon
    if pantheon is None:
        return found
    for entry, card in zip(found["cards"], catalog.cards, strict=True):
        entry["mythology"] = card.mythology
        if card.is_temple:
            entry["age"] = TEMPLE_AGE
    for entry, wonder in zip(found["wonders"], catalog.wonders, strict=True):
        entry["pantheon_discount"] = wonder.pantheon_discount
        entry["activates_from_mythology_deck"] = wonder.activates_from_mythology_deck
    for entry, token in zip(found["progress_tokens"], catalog.progress_tokens, strict=True):
        entry["points_per_pantheon_token"] = token.points_per_pantheon_token
        entry["opponent_loses_per_space"] = token.opponent_loses_per_space
        entry["chain_price"] = token.chain_price
    found["expansions"] = ["pantheon"]
    found["divinities"] = [_divinity(catalog, d) for d in pantheon.divinities]
    found["pantheon"] = _pantheon(catalog, pantheon)
    return found


def _base_json(catalog: Catalog) -> dict[str, Any]:
    """The base game's object."""
    return {
        "format": JSON_FORMAT,
        "languages": list(LANGUAGES),
        "cards": [_card(catalog, card) for card in catalog.cards],
        "wonders": [_wonder(catalog, wonder) for wonder in catalog.wonders],
        "progress_tokens": [_token(catalog, token) for token in catalog.progress_tokens],
        "layouts": [_layout(layout) for layout in catalog.layouts],
        "military": {
            "capital": catalog.track.capital,
            "zones": [
                {"first": z.first, "last": z.last, "points": z.points, "loot": z.loot}
                for z in catalog.track.zones
            ],
        },
        "setup": _setup(catalog),
    }


def _divinity(catalog: Catalog, divinity: Divinity) -> dict[str, Any]:
    return {
        "id": divinity.id,
        "name": catalog.name(divinity.id),
        "names": _names(catalog, divinity.id),
        "mythology": divinity.mythology,
        "coins": divinity.coins,
        "points": divinity.points,
        "shields": divinity.shields,
        "science": divinity.science.value if divinity.science else None,
        "draws_tokens": divinity.draws_tokens,
        "keeps_tokens": divinity.keeps_tokens,
        "copies_opponent_science": divinity.copies_opponent_science,
        "coins_on_card": divinity.coins_on_card,
        "steals": [c.value for c in divinity.steals],
        "builds_from_discard": divinity.builds_from_discard,
        "discards_from_structure": divinity.discards_from_structure,
        "unbuilds_wonder": divinity.unbuilds_wonder,
        "builds_wonder_from_discard": divinity.builds_wonder_from_discard,
        "steals_unbuilt_wonder": divinity.steals_unbuilt_wonder,
        "places_minerva_pawn": divinity.places_minerva_pawn,
        "discards_loot": divinity.discards_loot,
        "applies_loot": divinity.applies_loot,
    }


def _pantheon(catalog: Catalog, pantheon: Pantheon) -> dict[str, Any]:
    """The Pantheon board, its setup numbers and the rules of its pieces."""
    return {
        "mythologies": [
            {"id": m, "name": catalog.name(m), "grand_temple": temple}
            for m, temple in pantheon.temples
        ],
        "spaces": [
            {"space": n, "cost": {"p1": one, "p2": two}}
            for n, (one, two) in enumerate(pantheon.space_costs, start=1)
        ],
        "mythology_tokens_per_mythology": pantheon.mythology_tokens_per_mythology,
        "mythology_tokens_in_play": pantheon.mythology_tokens_in_play,
        "offering_tokens": list(pantheon.offering_tokens),
        "grand_temples_in_age_3": pantheon.grand_temples_in_age_3,
        "token_positions": {
            "mythology": list(pantheon.mythology_positions),
            "offering": list(pantheon.offering_positions),
        },
        "activation": {
            "first_age": pantheon.first_age,
            "gate_multiplier": pantheon.gate_multiplier,
            "min_cost": pantheon.min_cost,
        },
        "gate": {"id": pantheon.gate, "name": catalog.name(pantheon.gate)},
        "grand_temple_points": list(pantheon.temple_points),
        "astarte_points_per_coin": pantheon.astarte_points_per_coin,
        "minerva": {
            "allowed_on_conflict_pawn_space": pantheon.minerva_on_pawn,
            "allowed_on_capital": pantheon.minerva_on_capital,
        },
        "snake": {"on_color": pantheon.snake_color.value},
    }


def _cost(cost: Cost) -> dict[str, int]:
    return {"coins": cost.coins, **_amounts(cost.resources)}


def _amounts(values: Amounts) -> dict[str, int]:
    return {r.value: n for r, n in zip(RESOURCES, values, strict=True)}


def _names(catalog: Catalog, any_id: str) -> dict[str, str]:
    """The names the data gives for `any_id`, per language (no fallback filled in)."""
    return {
        lang: catalog.names[lang][any_id]
        for lang in LANGUAGES
        if any_id in catalog.names.get(lang, {})
    }


def _short_names(catalog: Catalog, any_id: str) -> dict[str, str]:
    """The short names (for the 128-pixel screen) the data gives for `any_id`, per language."""
    return {
        lang: catalog.short_names[lang][any_id]
        for lang in LANGUAGES
        if any_id in catalog.short_names.get(lang, {})
    }


def _card(catalog: Catalog, card: Card) -> dict[str, Any]:
    coins_per = card.coins_per
    guild = card.guild
    return {
        "id": card.id,
        "name": catalog.name(card.id),
        "names": _names(catalog, card.id),
        "age": card.age,
        "color": card.color.value,
        "cost": _cost(card.cost),
        "points": card.points,
        "shields": card.shields,
        "science": card.science.value if card.science else None,
        "chain_symbol": card.chain_symbol,
        "chain_from": card.chain_from,
        "produces": _amounts(card.produces),
        "produces_one_of": [r.value for r in card.produces_one_of],
        "fixed_price": [r.value for r in RESOURCES if r in card.fixed_price],
        "coins": card.coins,
        "coins_per": None
        if coins_per is None
        else {"count": [c.value for c in coins_per.counts], "coins": coins_per.coins},
        "guild": None
        if guild is None
        else {
            "count": [c.value for c in guild.counts],
            "coins": guild.coins,
            "points": guild.points,
            "per": guild.per,
        },
    }


def _wonder(catalog: Catalog, wonder: Wonder) -> dict[str, Any]:
    return {
        "id": wonder.id,
        "name": catalog.name(wonder.id),
        "names": _names(catalog, wonder.id),
        "short_names": _short_names(catalog, wonder.id),
        "cost": _cost(wonder.cost),
        "points": wonder.points,
        "shields": wonder.shields,
        "coins": wonder.coins,
        "opponent_loses": wonder.opponent_loses,
        "extra_turn": wonder.extra_turn,
        "destroys": wonder.destroys.value if wonder.destroys else None,
        "produces_one_of": [r.value for r in wonder.produces_one_of],
        "builds_from_discard": wonder.builds_from_discard,
        "draws_tokens": wonder.draws_tokens,
        "keeps_tokens": wonder.keeps_tokens,
    }


def _token(catalog: Catalog, token: ProgressToken) -> dict[str, Any]:
    return {
        "id": token.id,
        "name": catalog.name(token.id),
        "names": _names(catalog, token.id),
        "coins": token.coins,
        "points": token.points,
        "science": token.science.value if token.science else None,
        "waives_on_wonders": token.waives_on_wonders,
        "waives_on_blue": token.waives_on_blue,
        "points_per_token": token.points_per_token,
        "extra_shields_on_red": token.extra_shields_on_red,
        "coins_per_chain": token.coins_per_chain,
        "receives_trade": token.receives_trade,
        "wonders_extra_turn": token.wonders_extra_turn,
    }


def _layout(layout: Layout) -> dict[str, Any]:
    accessible = layout.initially_accessible()
    return {
        "age": layout.age,
        "positions": [
            {
                "index": p.index,
                "row": p.row,
                "col": p.col,
                "face_up": p.face_up,
                "covered_by": list(p.covered_by),
                "covers": list(p.covers),
                "accessible_at_start": p.index in accessible,
            }
            for p in layout.positions
        ],
    }


def _setup(catalog: Catalog) -> dict[str, Any]:
    rules = catalog.rules
    return {
        "starting_coins": rules.starting_coins,
        "wonders_per_player": rules.wonders_per_player,
        "max_wonders": rules.max_wonders,
        "tokens_on_board": rules.tokens_on_board,
        "removed_per_age": rules.removed_per_age,
        "guilds_in_age_3": rules.guilds_in_age_3,
        "science_supremacy": rules.science_supremacy,
        "draft_order": list(rules.draft_order),
        "first_game_wonders": {
            "p1": list(rules.first_game_wonders[0]),
            "p2": list(rules.first_game_wonders[1]),
        },
    }


# --- Back from JSON ------------------------------------------------------------------------

_DERIVED = frozenset({"name", "names", "short_names"})
"""Keys of the export that are not in the entry's TOML table."""


def catalog_from_json(obj: Any) -> Catalog:
    """Rebuild the catalog from `catalog_to_json`'s object, with every check of the loader.

    Raises:
        CatalogError: the object is not of that shape, or the catalog it holds is wrong.
            Messages name the TOML file the entry would come from.
    """
    if not isinstance(obj, Mapping):
        raise CatalogError("catalog JSON: expected an object")
    if obj.get("format") != JSON_FORMAT:
        raise CatalogError(f"catalog JSON: format {obj.get('format')!r}, expected {JSON_FORMAT}")
    if obj.get("expansions"):
        raise CatalogError("catalog JSON: only a base game catalog can be read back")
    try:
        cards, wonders, tokens = (
            [_entry_table(e) for e in obj[key]] for key in ("cards", "wonders", "progress_tokens")
        )
        layouts = [_layout_table(layout) for layout in obj["layouts"]]
        names = _names_table(obj)
        tables: dict[str, Mapping[str, Any]] = {
            "cards.toml": {"card": cards},
            "wonders.toml": {"wonder": wonders},
            "progress.toml": {"token": tokens},
            "layouts.toml": {"layout": layouts},
            "board.toml": {"military": obj["military"], "setup": obj["setup"]},
            "names.toml": names,
        }
    except (KeyError, TypeError, AttributeError, IndexError) as bad:
        raise CatalogError(f"catalog JSON: not the shape of catalog --json ({bad!r})") from None
    return catalog_from_tables(tables)


def _entry_table(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A card, wonder or token of the export as its TOML table (nulls and names dropped)."""
    return {k: v for k, v in entry.items() if k not in _DERIVED and v is not None}


def _layout_table(layout: Mapping[str, Any]) -> dict[str, Any]:
    positions = layout["positions"]
    place = {p["index"]: [p["row"], p["col"]] for p in positions}
    return {
        "age": layout["age"],
        "positions": [
            {
                "row": p["row"],
                "col": p["col"],
                "face_up": p["face_up"],
                "covered_by": [place[i] for i in p["covered_by"]],
            }
            for p in positions
        ],
    }


def _names_table(obj: Mapping[str, Any]) -> dict[str, Any]:
    names: dict[str, Any] = {}
    for key in ("cards", "wonders", "progress_tokens"):
        for entry in obj[key]:
            for lang, name in entry["names"].items():
                names.setdefault(lang, {})[entry["id"]] = name
            for lang, name in entry.get("short_names", {}).items():
                names.setdefault("short", {}).setdefault(lang, {})[entry["id"]] = name
    return names
