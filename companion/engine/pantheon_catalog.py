"""Read the Pantheon expansion's files (`data/pantheon/*.toml`) into typed objects.

`companion.engine.catalog.load_catalog` calls `pantheon_tables` when the expansion is asked
for; every refusal is a `CatalogError` naming the file (`pantheon/board.toml`), the entry and
the key, as for the base game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from companion.engine.cards import (
    MYTHOLOGIES,
    Card,
    CardId,
    Color,
    Divinity,
    DivinityId,
    Layout,
    Pantheon,
    ProgressToken,
    Science,
    Wonder,
)
from companion.engine.catalog import (
    DIVINITY_KEYS,
    PANTHEON_DIVINITIES,
    PANTHEON_SPACES,
    PANTHEON_TEMPLES,
    PANTHEON_TOKENS,
    PANTHEON_WONDERS,
    TEMPLE_KEYS,
    CatalogError,
    _bool,
    _check_keys,
    _cost,
    _entries,
    _entry,
    _enum,
    _int,
    _label,
    _names,
    _str,
    _token,
    _wonder,
)

TEMPLE_AGE: Final = "temple"
"""The `age` of a Grand Temple in data/pantheon/cards.toml and in the catalog's JSON."""


@dataclass(frozen=True)
class PantheonTables:
    """What the expansion adds to the base catalog."""

    pantheon: Pantheon
    temples: tuple[Card, ...]
    wonders: tuple[Wonder, ...]
    tokens: tuple[ProgressToken, ...]
    names: Mapping[str, Mapping[str, str]]
    short_names: Mapping[str, Mapping[str, str]]


def pantheon_tables(
    raw: Mapping[str, Mapping[str, Any]], layouts: tuple[Layout, ...]
) -> PantheonTables:
    """The expansion's objects from the parsed `pantheon/*.toml` files in `raw`.

    Raises:
        CatalogError: an entry or the whole is wrong (the message names file and entry).
    """
    divinities = tuple(
        _entry(_divinity, entry, f"pantheon/divinities.toml: divinity {_label(entry, i)}")
        for i, entry in enumerate(
            _entries(raw["pantheon/divinities.toml"], "divinity", "pantheon/divinities.toml")
        )
    )
    temples = tuple(
        _entry(_temple, entry, f"pantheon/cards.toml: card {_label(entry, i)}")
        for i, entry in enumerate(
            _entries(raw["pantheon/cards.toml"], "card", "pantheon/cards.toml")
        )
    )
    wonders = tuple(
        _entry(_wonder, entry, f"pantheon/wonders.toml: wonder {_label(entry, i)}")
        for i, entry in enumerate(
            _entries(raw["pantheon/wonders.toml"], "wonder", "pantheon/wonders.toml")
        )
    )
    tokens = tuple(
        _entry(_token, entry, f"pantheon/progress.toml: token {_label(entry, i)}")
        for i, entry in enumerate(
            _entries(raw["pantheon/progress.toml"], "token", "pantheon/progress.toml")
        )
    )
    _check_counts(divinities, temples, wonders, tokens)
    pantheon = _board(raw["pantheon/board.toml"], divinities, temples, layouts)
    pantheon = replace(
        pantheon,
        token_ids=frozenset(t.id for t in tokens),
        wonder_ids=frozenset(w.id for w in wonders),
    )
    names_raw = dict(raw["pantheon/names.toml"])
    short_raw = names_raw.pop("short", {})
    if not isinstance(short_raw, dict):
        raise CatalogError("pantheon/names.toml: [short] must hold a table per language")
    try:
        names = _names(names_raw)
        short_names = _names(short_raw, "short.")
    except CatalogError as bad:
        raise CatalogError(f"pantheon/{bad}") from None
    return PantheonTables(pantheon, temples, wonders, tokens, names, short_names)


def _divinity(raw: dict[str, Any]) -> Divinity:
    _check_keys(raw, DIVINITY_KEYS)
    science = raw.get("science")
    steals = raw.get("steals", [])
    if not isinstance(steals, list):
        raise ValueError("steals: expected a list of colours")
    return Divinity(
        id=DivinityId(_str(raw, "id")),
        mythology=_enum(_mythology, "mythology", raw["mythology"], "mythology"),
        coins=_int(raw, "coins"),
        points=_int(raw, "points"),
        shields=_int(raw, "shields"),
        science=None if science is None else _enum(Science, "science symbol", science, "science"),
        draws_tokens=_int(raw, "draws_tokens"),
        keeps_tokens=_int(raw, "keeps_tokens"),
        copies_opponent_science=_bool(raw, "copies_opponent_science"),
        coins_on_card=_int(raw, "coins_on_card"),
        steals=tuple(_enum(Color, "color", c, "steals") for c in steals),
        builds_from_discard=_bool(raw, "builds_from_discard"),
        discards_from_structure=_bool(raw, "discards_from_structure"),
        unbuilds_wonder=_bool(raw, "unbuilds_wonder"),
        builds_wonder_from_discard=_bool(raw, "builds_wonder_from_discard"),
        steals_unbuilt_wonder=_bool(raw, "steals_unbuilt_wonder"),
        places_minerva_pawn=_bool(raw, "places_minerva_pawn"),
        discards_loot=_int(raw, "discards_loot"),
        applies_loot=_int(raw, "applies_loot"),
    )


def _mythology(value: str) -> str:
    if value not in MYTHOLOGIES:
        raise ValueError(value)
    return value


def _temple(raw: dict[str, Any]) -> Card:
    """A Grand Temple: an age 3 purple card that chains from its mythology."""
    _check_keys(raw, TEMPLE_KEYS)
    if raw["age"] != TEMPLE_AGE:
        raise ValueError(f"age: a Grand Temple's age is {TEMPLE_AGE!r}, got {raw['age']!r}")
    mythology = _enum(_mythology, "mythology", raw["mythology"], "mythology")
    return Card(
        id=CardId(_str(raw, "id")),
        age=3,
        color=_enum(Color, "color", raw["color"], "color"),
        cost=_cost(raw.get("cost", {})),
        chain_from=mythology,
        mythology=mythology,
    )


def _check_counts(
    divinities: tuple[Divinity, ...],
    temples: tuple[Card, ...],
    wonders: tuple[Wonder, ...],
    tokens: tuple[ProgressToken, ...],
) -> None:
    """15 divinities (3 per mythology), 5 temples (1 per mythology), 2 wonders, 3 tokens."""
    for found, expected, what, file in (
        (len(divinities), PANTHEON_DIVINITIES, "divinities", "divinities.toml"),
        (len(temples), PANTHEON_TEMPLES, "Grand Temples", "cards.toml"),
        (len(wonders), PANTHEON_WONDERS, "wonders", "wonders.toml"),
        (len(tokens), PANTHEON_TOKENS, "tokens", "progress.toml"),
    ):
        if found != expected:
            raise CatalogError(f"pantheon/{file}: expected {expected} {what}, found {found}")
    per = Counter(d.mythology for d in divinities)
    for mythology in MYTHOLOGIES:
        if per[mythology] != PANTHEON_DIVINITIES // len(MYTHOLOGIES):
            raise CatalogError(
                f"pantheon/divinities.toml: mythology {mythology!r}: "
                f"{per[mythology]} divinities, expected 3"
            )
    temples_per = Counter(t.mythology for t in temples)
    for mythology in MYTHOLOGIES:
        if temples_per[mythology] != 1:
            raise CatalogError(
                f"pantheon/cards.toml: mythology {mythology!r}: "
                f"{temples_per[mythology]} Grand Temples, expected 1"
            )


def _table(raw: Mapping[str, Any], key: str) -> dict[str, Any]:
    found = raw.get(key)
    if not isinstance(found, dict):
        raise CatalogError(f"pantheon/board.toml: missing [{key}]")
    return found


def _board(
    raw: Mapping[str, Any],
    divinities: tuple[Divinity, ...],
    temples: tuple[Card, ...],
    layouts: tuple[Layout, ...],
) -> Pantheon:
    """The board, setup and piece rules of pantheon/board.toml."""
    where = "pantheon/board.toml"
    temple_ids = {t.mythology: t.id for t in temples}
    mythologies: dict[str, str] = {}
    for i, entry in enumerate(_entries(raw, "mythology", where)):
        label = f"{where}: mythology {_label(entry, i)}"
        mythologies[entry.get("id", "")] = _entry(
            lambda e: _mythology_entry(e, temple_ids), entry, label
        )
    if sorted(mythologies) != sorted(MYTHOLOGIES):
        raise CatalogError(f"{where}: expected the mythologies {', '.join(MYTHOLOGIES)}")
    setup = _table(raw, "setup")
    positions = setup.get("token_positions")
    setup_keys = {
        "divinities_per_mythology", "mythology_tokens_per_mythology", "mythology_tokens_in_play",
        "offering_tokens", "grand_temples_in_age_3", "guilds_in_age_3", "progress_tokens",
        "wonders", "token_positions",
    }  # fmt: skip
    try:
        _check_keys(setup, frozenset(setup_keys))
        offerings = setup["offering_tokens"]
        if not isinstance(offerings, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in offerings
        ):
            raise ValueError("offering_tokens: expected a list of coin values")
        if not isinstance(positions, dict):
            raise ValueError("token_positions: expected a table { mythology, offering }")
        _check_keys(positions, frozenset({"mythology", "offering"}))
        mythology_at = _positions(positions["mythology"], layouts[0], "token_positions.mythology")
        offering_at = _positions(positions["offering"], layouts[1], "token_positions.offering")
        in_play = _int(setup, "mythology_tokens_in_play")
        if len(mythology_at) != in_play:
            raise ValueError(
                f"token_positions.mythology: {len(mythology_at)} places for {in_play} tokens"
            )
        if len(offering_at) != len(offerings):
            raise ValueError(
                f"token_positions.offering: {len(offering_at)} places for {len(offerings)} tokens"
            )
        per_mythology = _int(setup, "mythology_tokens_per_mythology")
        temples_in_age_3 = _int(setup, "grand_temples_in_age_3")
    except KeyError as missing:
        raise CatalogError(f"{where}: setup: missing key {missing}") from None
    except ValueError as bad:
        raise CatalogError(f"{where}: setup: {bad}") from None
    spaces = _spaces(raw)
    activation = _table(raw, "activation")
    gate = _table(raw, "gate")
    grand = _table(raw, "grand_temples")
    astarte = _table(raw, "astarte")
    minerva = _table(raw, "minerva")
    snake = _table(raw, "snake")
    try:
        _check_keys(activation, frozenset({"first_age", "gate_multiplier", "min_cost"}))
        points = grand.get("points_by_count")
        if not isinstance(points, list) or not all(isinstance(p, int) for p in points):
            raise ValueError("grand_temples: points_by_count: expected a list of VP")
        if len(points) != temples_in_age_3:
            raise ValueError(
                f"grand_temples: points_by_count: {len(points)} values for "
                f"{temples_in_age_3} temples"
            )
        return Pantheon(
            divinities=divinities,
            temples=tuple((m, mythologies[m]) for m in MYTHOLOGIES),
            space_costs=spaces,
            mythology_tokens_per_mythology=per_mythology,
            mythology_tokens_in_play=in_play,
            offering_tokens=tuple(offerings),
            grand_temples_in_age_3=temples_in_age_3,
            mythology_positions=mythology_at,
            offering_positions=offering_at,
            first_age=_int(activation, "first_age"),
            gate_multiplier=_int(activation, "gate_multiplier"),
            min_cost=_int(activation, "min_cost"),
            gate=_str(gate, "id"),
            temple_points=tuple(points),
            astarte_points_per_coin=_int(astarte, "points_per_coin"),
            minerva_on_pawn=_bool(minerva, "allowed_on_conflict_pawn_space"),
            minerva_on_capital=_bool(minerva, "allowed_on_capital"),
            snake_color=_enum(Color, "color", snake.get("on_color"), "snake: on_color"),
        )
    except KeyError as missing:
        raise CatalogError(f"{where}: missing key {missing}") from None
    except ValueError as bad:
        raise CatalogError(f"{where}: {bad}") from None


def _mythology_entry(entry: dict[str, Any], temple_ids: Mapping[str | None, str]) -> str:
    """The Grand Temple id of one [[mythology]] entry, checked against pantheon/cards.toml."""
    _check_keys(entry, frozenset({"id", "focus", "grand_temple"}))
    mythology = _enum(_mythology, "mythology", entry["id"], "id")
    _str(entry, "focus")
    temple = _str(entry, "grand_temple")
    if temple_ids.get(mythology) != temple:
        raise ValueError(f"grand_temple: {temple!r} is not the {mythology} Grand Temple")
    return temple


def _positions(raw: Any, layout: Layout, key: str) -> tuple[int, ...]:
    """Layout indices of a list of [row, col] places, each a face-down card of `layout`."""
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(n, int) for n in p) for p in raw
    ):
        raise ValueError(f"{key}: expected a list of [row, col] places")
    index = {(p.row, p.col): p for p in layout.positions}
    found: list[int] = []
    for row, col in raw:
        position = index.get((row, col))
        if position is None:
            raise ValueError(f"{key}: [{row}, {col}] is no place of the age {layout.age} layout")
        if position.face_up:
            raise ValueError(f"{key}: [{row}, {col}] is a face-up card (tokens lie face down)")
        found.append(position.index)
    if len(set(found)) != len(found):
        raise ValueError(f"{key}: a place is listed twice")
    return tuple(found)


def _spaces(raw: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """(p1's price, p2's price) of spaces 1 to 6."""
    where = "pantheon/board.toml"
    costs: dict[int, tuple[int, int]] = {}
    for i, entry in enumerate(_entries(raw, "space", where)):
        label = f"{where}: space {entry.get('space', '#' + str(i + 1))}"
        costs.update([_entry(_space, entry, label)])
    if sorted(costs) != list(range(1, PANTHEON_SPACES + 1)):
        raise CatalogError(f"{where}: expected spaces 1 to {PANTHEON_SPACES}, once each")
    return tuple(costs[n] for n in range(1, PANTHEON_SPACES + 1))


def _space(raw: dict[str, Any]) -> tuple[int, tuple[int, int]]:
    _check_keys(raw, frozenset({"space", "cost"}))
    cost = raw["cost"]
    if not isinstance(cost, dict) or set(cost) != {"p1", "p2"}:
        raise ValueError("cost: expected { p1 = N, p2 = N }")
    one, two = _int(cost, "p1"), _int(cost, "p2")
    if one < 0 or two < 0:
        raise ValueError("cost: must not be negative")
    return _int(raw, "space"), (one, two)
