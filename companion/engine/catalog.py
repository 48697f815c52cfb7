"""Read the card facts in `data/` into a validated, frozen `Catalog`.

Every refusal is a `CatalogError` whose message names the file, the entry and the reason,
e.g. ``cards.toml: card 'stable': cost: unknown resource 'woood'``.
"""

from __future__ import annotations

import difflib
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from companion.engine.cards import (
    MYTHOLOGIES,
    RESOURCES,
    Amounts,
    Card,
    CardId,
    Catalog,
    CoinsPer,
    Color,
    Cost,
    Counted,
    GuildRule,
    Layout,
    MilitaryTrack,
    Position,
    ProgressToken,
    Resource,
    Rules,
    Science,
    TokenId,
    Wonder,
    WonderId,
    Zone,
)

FILES = ("cards.toml", "wonders.toml", "progress.toml", "layouts.toml", "board.toml", "names.toml")
EXPANSIONS = ("pantheon",)
"""The expansions `load_catalog` can add; each has its folder of data files in `data/`."""
PANTHEON_FILES = (
    "divinities.toml", "cards.toml", "wonders.toml", "progress.toml", "board.toml", "names.toml",
)  # fmt: skip
PANTHEON_DIVINITIES = 15
PANTHEON_TEMPLES = 5
PANTHEON_WONDERS = 2
PANTHEON_TOKENS = 3
PANTHEON_SPACES = 6
LANGUAGES = ("en", "nb", "sv", "da")
CARDS_PER_AGE = {1: 23, 2: 23, 3: 20}
GUILDS = 7
WONDERS = 12
TOKENS = 10
POSITIONS_PER_LAYOUT = 20

CARD_KEYS = frozenset(
    {
        "id", "age", "color", "cost", "points", "shields", "science", "chain_symbol",
        "chain_from", "produces", "produces_one_of", "fixed_price", "coins", "coins_per", "guild",
    }
)  # fmt: skip
WONDER_KEYS = frozenset(
    {"id", "cost", "points", "shields", "coins", "opponent_loses", "extra_turn", "destroys",
     "produces_one_of", "builds_from_discard", "draws_tokens", "keeps_tokens",
     "pantheon_discount", "activates_from_mythology_deck"}
)  # fmt: skip
TOKEN_KEYS = frozenset(
    {"id", "coins", "points", "science", "waives_on_wonders", "waives_on_blue",
     "points_per_token", "extra_shields_on_red", "coins_per_chain", "receives_trade",
     "wonders_extra_turn", "points_per_pantheon_token", "opponent_loses_per_space",
     "chain_price"}
)  # fmt: skip
TEMPLE_KEYS = frozenset({"id", "age", "color", "cost", "mythology"})
DIVINITY_KEYS = frozenset(
    {"id", "mythology", "coins", "points", "shields", "science", "draws_tokens", "keeps_tokens",
     "copies_opponent_science", "coins_on_card", "steals", "builds_from_discard",
     "discards_from_structure", "unbuilds_wonder", "builds_wonder_from_discard",
     "steals_unbuilt_wonder", "places_minerva_pawn", "discards_loot", "applies_loot"}
)  # fmt: skip
POSITION_KEYS = frozenset({"row", "col", "face_up", "covered_by"})

T = TypeVar("T")


class CatalogError(Exception):
    """The card data is wrong; the message names the file, the entry and the reason."""


def default_data_dir() -> Path:
    """The `data/` folder shipped with the package (as `companion.data`)."""
    return Path(str(resources.files("companion.data")))


@cache
def default_catalog(expansions: tuple[str, ...] = ()) -> Catalog:
    """The catalog of the shipped data (with these expansions), loaded once per process."""
    return load_catalog(default_data_dir(), expansions)


def closest_id(text: str, names: Mapping[str, Iterable[str]]) -> str | None:
    """The id a person most likely meant by `text`, which is no id of `names` (id -> its
    names in every language), or None: the id whose name it is ("Lumber Yard", any case or
    language), the id it spells another way ("lumber yard", "Lumber-Yard"), else an id or
    a name it is close to ("lumbr_yard")."""
    folded = text.strip().casefold()
    owners: dict[str, set[str]] = {}
    for any_id, known in names.items():
        for name in known:
            owners.setdefault(name.casefold(), set()).add(any_id)
    # a name two ids share (a translation: "Sagbruk" is Lumber Yard and Sawmill) says neither
    by_name = {name: min(ids) for name, ids in owners.items() if len(ids) == 1}
    if folded in owners:
        return by_name.get(folded)
    spelled = "_".join(folded.replace("-", " ").replace("'", "").split())
    if spelled in names:
        return spelled
    close = difflib.get_close_matches(spelled, list(names), n=1, cutoff=0.8)
    if close:
        return close[0]
    close = difflib.get_close_matches(folded, list(by_name), n=1, cutoff=0.8)
    return by_name[close[0]] if close else None


def catalog_names(catalog: Catalog) -> dict[str, list[str]]:
    """Every card, wonder and token id of `catalog` -> its names and short names in every
    language (for `closest_id`)."""
    names: dict[str, list[str]] = {any_id: [] for any_id in catalog.ids()}
    for table in (catalog.names, catalog.short_names):
        for by_id in table.values():
            for any_id, name in by_id.items():
                if any_id in names:
                    names[any_id].append(name)
    return names


def did_you_mean(text: str, names: Mapping[str, Iterable[str]]) -> str:
    """ " (did you mean 'lumber_yard'?)" for a text that is no id but close to one, else ""."""
    if text in names:
        return ""
    found = closest_id(text, names)
    return f" (did you mean {found!r}?)" if found is not None else ""


def load_catalog(data_dir: Path, expansions: tuple[str, ...] = ()) -> Catalog:
    """Read `data_dir` (and the folder of each expansion in it, `data_dir/pantheon`),
    refuse anything wrong, and return frozen typed objects.

    Raises:
        CatalogError: a file is missing or malformed, an entry or the whole is wrong, or an
            unknown expansion.
    """
    raw = {name: _read_toml(data_dir / name) for name in FILES}
    for expansion in expansions:
        if expansion not in EXPANSIONS:
            raise CatalogError(f"unknown expansion {expansion!r} (known: {', '.join(EXPANSIONS)})")
        folder = data_dir / expansion
        raw.update({f"{expansion}/{name}": _read_toml(folder, name) for name in PANTHEON_FILES})
    return catalog_from_tables(raw)


def catalog_from_tables(raw: Mapping[str, Mapping[str, Any]]) -> Catalog:
    """Build and check the catalog from the parsed content of each file in `FILES`.

    `raw` maps each file name to its parsed TOML; `companion.engine.catalog_json` passes JSON
    converted to the same shape, so both are validated alike.

    Raises:
        CatalogError: an entry or the whole is wrong (the message names file and entry).
    """
    for name in FILES:
        if name not in raw:
            raise CatalogError(f"{name}: missing")
    cards = tuple(
        _entry(_card, entry, f"cards.toml: card {_label(entry, i)}")
        for i, entry in enumerate(_entries(raw["cards.toml"], "card", "cards.toml"))
    )
    wonders = tuple(
        _entry(_wonder, entry, f"wonders.toml: wonder {_label(entry, i)}")
        for i, entry in enumerate(_entries(raw["wonders.toml"], "wonder", "wonders.toml"))
    )
    tokens = tuple(
        _entry(_token, entry, f"progress.toml: token {_label(entry, i)}")
        for i, entry in enumerate(_entries(raw["progress.toml"], "token", "progress.toml"))
    )
    layouts = _layouts(raw["layouts.toml"])
    track, rules = _board(raw["board.toml"])
    names_raw = dict(raw["names.toml"])
    short_raw = names_raw.pop("short", {})
    if not isinstance(short_raw, dict):
        raise CatalogError("names.toml: [short] must hold a table per language, e.g. [short.en]")
    names = _names(names_raw)
    short_names = _names(short_raw, "short.")
    pantheon = None
    if "pantheon/board.toml" in raw:
        from companion.engine.pantheon_catalog import pantheon_tables

        extra = pantheon_tables(raw, layouts)
        pantheon = extra.pantheon
        cards += extra.temples
        wonders += extra.wonders
        tokens += extra.tokens
        names = _merged(names, extra.names)
        short_names = _merged(short_names, extra.short_names)
    catalog = Catalog(
        cards=cards,
        wonders=wonders,
        progress_tokens=tokens,
        layouts=layouts,
        track=track,
        rules=rules,
        names=names,
        short_names=short_names,
        pantheon=pantheon,
    )
    _check_whole(catalog)
    return catalog


def _merged(
    first: Mapping[str, Mapping[str, str]], second: Mapping[str, Mapping[str, str]]
) -> Mapping[str, Mapping[str, str]]:
    """Names per language of both tables (an expansion's names added to the base game's)."""
    return {
        language: {**first.get(language, {}), **second.get(language, {})}
        for language in {**first, **second}
    }


# --- Reading -------------------------------------------------------------------------------


def _read_toml(path: Path, name: str | None = None) -> dict[str, Any]:
    """The parsed file `path` (or `path / name`, named `folder/name` in messages)."""
    label = path.name if name is None else f"{path.name}/{name}"
    if name is not None:
        path = path / name
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except FileNotFoundError:
        raise CatalogError(f"{label}: file not found in {path.parent}") from None
    except tomllib.TOMLDecodeError as bad:
        raise CatalogError(f"{label}: not valid TOML: {bad}") from None


def _entries(raw: Mapping[str, Any], key: str, file: str) -> list[dict[str, Any]]:
    found = raw.get(key)
    if not isinstance(found, list) or not all(isinstance(e, dict) for e in found):
        raise CatalogError(f"{file}: expected a list of [[{key}]] tables")
    return found


def _label(entry: Mapping[str, Any], index: int) -> str:
    return repr(entry["id"]) if isinstance(entry.get("id"), str) else f"#{index + 1}"


def _entry(build: Callable[[dict[str, Any]], T], raw: dict[str, Any], where: str) -> T:
    """Build one entry; turn its KeyError/ValueError/TypeError into a located CatalogError."""
    try:
        return build(raw)
    except KeyError as missing:
        raise CatalogError(f"{where}: missing key {missing}") from None
    except (ValueError, TypeError) as bad:
        raise CatalogError(f"{where}: {bad}") from None


def _check_keys(raw: Mapping[str, Any], allowed: frozenset[str]) -> None:
    if unknown := raw.keys() - allowed:
        raise ValueError(f"unknown key {min(unknown)!r}")


def _int(raw: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key}: expected a whole number, got {value!r}")
    return value


def _bool(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{key}: expected true or false, got {value!r}")
    return value


def _str(raw: Mapping[str, Any], key: str) -> str:
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key}: expected a name, got {value!r}")
    return value


def _optional_str(raw: Mapping[str, Any], key: str) -> str | None:
    return _str(raw, key) if key in raw else None


def _enum(kind: Callable[[str], T], what: str, value: Any, key: str) -> T:
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"{key}: unknown {what} {value!r}") from None


def _resource_list(raw: Mapping[str, Any], key: str) -> tuple[Resource, ...]:
    values = raw.get(key, [])
    if not isinstance(values, list):
        raise ValueError(f"{key}: expected a list of resources")
    found = tuple(_enum(Resource, "resource", v, key) for v in values)
    if len(set(found)) != len(found):
        raise ValueError(f"{key}: a resource is listed twice")
    return found


def _amounts(raw: Any, key: str, allowed: Iterable[str]) -> tuple[int, Amounts]:
    """Coins (when allowed) and resource amounts of a `{ coins = N, wood = N, ... }` table."""
    if not isinstance(raw, dict):
        raise ValueError(f"{key}: expected a table like {{ wood = 1 }}")
    allowed = set(allowed)
    for name in raw:
        if name not in allowed:
            raise ValueError(f"{key}: unknown resource {name!r}")
    values = [_int(raw, r.value) for r in RESOURCES]
    for resource, value in zip(RESOURCES, values, strict=True):
        if value < 0:
            raise ValueError(f"{key}: {resource} must not be negative, got {value}")
    w, c, s, g, p = values
    return _int(raw, "coins"), (w, c, s, g, p)


def _cost(raw: Any) -> Cost:
    coins, res = _amounts(raw, "cost", {"coins", *RESOURCES})
    return Cost(coins=coins, resources=res)


def _counted(raw: Any, key: str) -> tuple[Counted, ...]:
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"{key}: expected a list of counted items")
    return tuple(_enum(Counted, "counted item", v, key) for v in raw)


def _coins_per(raw: Any) -> CoinsPer:
    if not isinstance(raw, dict):
        raise ValueError("coins_per: expected a table { count = [...], coins = N }")
    _check_keys(raw, frozenset({"count", "coins"}))
    return CoinsPer(counts=_counted(raw.get("count"), "coins_per: count"), coins=_int(raw, "coins"))


def _guild(raw: Any) -> GuildRule:
    if not isinstance(raw, dict):
        raise ValueError("guild: expected a table { count = [...], coins = N, points = N }")
    _check_keys(raw, frozenset({"count", "coins", "points", "per"}))
    return GuildRule(
        counts=_counted(raw.get("count"), "guild: count"),
        coins=_int(raw, "coins"),
        points=_int(raw, "points"),
        per=_int(raw, "per", 1),
    )


def _card(raw: dict[str, Any]) -> Card:
    _check_keys(raw, CARD_KEYS)
    science = raw.get("science")
    return Card(
        id=CardId(_str(raw, "id")),
        age=_int(raw, "age"),
        color=_enum(Color, "color", raw["color"], "color"),
        cost=_cost(raw.get("cost", {})),
        points=_int(raw, "points"),
        shields=_int(raw, "shields"),
        science=None if science is None else _enum(Science, "science symbol", science, "science"),
        chain_symbol=_optional_str(raw, "chain_symbol"),
        chain_from=_optional_str(raw, "chain_from"),
        produces=_amounts(raw.get("produces", {}), "produces", RESOURCES)[1],
        produces_one_of=_resource_list(raw, "produces_one_of"),
        fixed_price=frozenset(_resource_list(raw, "fixed_price")),
        coins=_int(raw, "coins"),
        coins_per=_coins_per(raw["coins_per"]) if "coins_per" in raw else None,
        guild=_guild(raw["guild"]) if "guild" in raw else None,
    )


def _wonder(raw: dict[str, Any]) -> Wonder:
    _check_keys(raw, WONDER_KEYS)
    destroys = raw.get("destroys")
    return Wonder(
        id=WonderId(_str(raw, "id")),
        cost=_cost(raw["cost"]),
        points=_int(raw, "points"),
        shields=_int(raw, "shields"),
        coins=_int(raw, "coins"),
        opponent_loses=_int(raw, "opponent_loses"),
        extra_turn=_bool(raw, "extra_turn"),
        destroys=None if destroys is None else _enum(Color, "color", destroys, "destroys"),
        produces_one_of=_resource_list(raw, "produces_one_of"),
        builds_from_discard=_bool(raw, "builds_from_discard"),
        draws_tokens=_int(raw, "draws_tokens"),
        keeps_tokens=_int(raw, "keeps_tokens"),
        pantheon_discount=_int(raw, "pantheon_discount"),
        activates_from_mythology_deck=_bool(raw, "activates_from_mythology_deck"),
    )


def _token(raw: dict[str, Any]) -> ProgressToken:
    """A progress token of progress.toml (of the base game or an expansion)."""
    _check_keys(raw, TOKEN_KEYS)
    science = raw.get("science")
    return ProgressToken(
        id=TokenId(_str(raw, "id")),
        coins=_int(raw, "coins"),
        points=_int(raw, "points"),
        science=None if science is None else _enum(Science, "science symbol", science, "science"),
        waives_on_wonders=_int(raw, "waives_on_wonders"),
        waives_on_blue=_int(raw, "waives_on_blue"),
        points_per_token=_int(raw, "points_per_token"),
        extra_shields_on_red=_int(raw, "extra_shields_on_red"),
        coins_per_chain=_int(raw, "coins_per_chain"),
        receives_trade=_bool(raw, "receives_trade"),
        wonders_extra_turn=_bool(raw, "wonders_extra_turn"),
        points_per_pantheon_token=_int(raw, "points_per_pantheon_token"),
        opponent_loses_per_space=_int(raw, "opponent_loses_per_space"),
        chain_price=_int(raw, "chain_price"),
    )


# --- Layouts -------------------------------------------------------------------------------


def _layouts(raw: Mapping[str, Any]) -> tuple[Layout, ...]:
    entries = _entries(raw, "layout", "layouts.toml")
    by_age: dict[int, Layout] = {}
    for i, entry in enumerate(entries):
        age = entry.get("age")
        where = f"layouts.toml: layout {age if isinstance(age, int) else '#' + str(i + 1)}"
        layout = _entry(_layout, entry, where)
        if layout.age in by_age:
            raise CatalogError(f"{where}: a second layout for age {layout.age}")
        by_age[layout.age] = layout
    for age in (1, 2, 3):
        if age not in by_age:
            raise CatalogError(f"layouts.toml: no layout for age {age}")
    return tuple(by_age[age] for age in (1, 2, 3))


def _place(place: Any, number: int) -> tuple[int, int, bool, list[tuple[int, int]]]:
    """Row, column, face and covers of the `number`th position (errors say which one)."""
    if not isinstance(place, dict):
        raise ValueError(
            f"position #{number}: expected a table {{ row, col, face_up, covered_by }}"
        )
    where = f"position #{number}"
    try:
        _check_keys(place, POSITION_KEYS)
        row, col = _int(place, "row", -1), _int(place, "col", -1)
        if row < 1 or col < 0:
            raise ValueError("row and col: expected row >= 1 and col >= 0")
        where = f"position ({row}, {col})"
        face_up = place.get("face_up")
        if not isinstance(face_up, bool):
            raise ValueError("face_up: expected true or false")
        covered = place.get("covered_by", [])
        if not isinstance(covered, list) or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(n, int) for n in c)
            for c in covered
        ):
            raise ValueError("covered_by: expected a list of [row, col] pairs")
    except ValueError as bad:
        raise ValueError(f"{where}: {bad}") from None
    return row, col, face_up, [(r, c) for r, c in covered]


def _layout(raw: dict[str, Any]) -> Layout:
    _check_keys(raw, frozenset({"age", "positions"}))
    age = _int(raw, "age")
    if age not in (1, 2, 3):
        raise ValueError(f"age: must be 1, 2 or 3, got {age}")
    places = raw["positions"]
    if not isinstance(places, list) or len(places) != POSITIONS_PER_LAYOUT:
        count = len(places) if isinstance(places, list) else 0
        raise ValueError(f"positions: expected {POSITIONS_PER_LAYOUT}, got {count}")
    cells = [_place(place, n) for n, place in enumerate(places, start=1)]
    order = [(row, col) for row, col, _, _ in cells]
    if order != sorted(order):
        raise ValueError("positions: not in layout order (row by row, left to right)")
    if len(set(order)) != len(order):
        raise ValueError("positions: a place is listed twice")
    index = {rc: i for i, rc in enumerate(order)}
    last_row = max(row for row, _ in order)
    for row, col, _, covered in cells:
        geometric = {(row + 1, col - 1), (row + 1, col + 1)} & index.keys()
        for cover in covered:
            if cover not in index:
                raise ValueError(
                    f"position ({row}, {col}): covered by {list(cover)}: no such place"
                )
            if cover not in geometric:
                raise ValueError(
                    f"position ({row}, {col}): covered by {list(cover)}, which does not overlap it"
                )
        if missing := geometric - set(covered):
            raise ValueError(
                f"position ({row}, {col}): overlapped by {list(min(missing))} but not covered by it"
            )
        if row != last_row and not covered:
            raise ValueError(f"position ({row}, {col}): nothing covers it outside the last row")
    covers: dict[int, list[int]] = {i: [] for i in range(len(cells))}
    for i, (_, _, _, covered) in enumerate(cells):
        for cover in covered:
            covers[index[cover]].append(i)
    if not all(face_up for row, _, face_up, _ in cells if row == last_row):
        raise ValueError("positions: the last row must be face up")
    positions = tuple(
        Position(
            index=i,
            row=row,
            col=col,
            face_up=face_up,
            covered_by=tuple(sorted(index[c] for c in covered)),
            covers=tuple(sorted(covers[i])),
        )
        for i, (row, col, face_up, covered) in enumerate(cells)
    )
    return Layout(age=age, positions=positions)


# --- Board, names --------------------------------------------------------------------------


def _board(raw: Mapping[str, Any]) -> tuple[MilitaryTrack, Rules]:
    military = raw.get("military")
    if not isinstance(military, dict):
        raise CatalogError("board.toml: missing [military]")
    zones_raw = military.get("zones")
    if not isinstance(zones_raw, list):
        raise CatalogError("board.toml: military: zones must be a list of tables")
    zones = tuple(
        _entry(_zone, zone, f"board.toml: military: zone #{i + 1}")
        for i, zone in enumerate(zones_raw)
    )
    track = _entry(
        lambda m: MilitaryTrack(zones=zones, capital=_int(m, "capital")), military,
        "board.toml: military",
    )  # fmt: skip
    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise CatalogError("board.toml: missing [setup]")
    rules = _entry(_rules, setup, "board.toml: setup")
    return track, rules


def _zone(raw: dict[str, Any]) -> Zone:
    _check_keys(raw, frozenset({"first", "last", "points", "loot"}))
    return Zone(
        first=_int(raw, "first"),
        last=_int(raw, "last"),
        points=_int(raw, "points"),
        loot=_int(raw, "loot"),
    )


def _rules(raw: dict[str, Any]) -> Rules:
    keys = {
        "starting_coins", "wonders_per_player", "max_wonders", "tokens_on_board",
        "removed_per_age", "guilds_in_age_3", "science_supremacy", "draft_order",
        "first_game_wonders",
    }  # fmt: skip
    _check_keys(raw, frozenset(keys))
    first = raw["first_game_wonders"]
    if not isinstance(first, dict) or set(first) != {"p1", "p2"}:
        raise ValueError("first_game_wonders: expected p1 = [...] and p2 = [...]")
    order = raw["draft_order"]
    if not isinstance(order, list) or any(pick not in ("A", "B") for pick in order):
        raise ValueError('draft_order: expected a list of "A" and "B"')
    for player in ("p1", "p2"):
        picks = first[player]
        if not isinstance(picks, list) or not all(isinstance(w, str) for w in picks):
            raise ValueError(f"first_game_wonders: {player}: expected a list of wonder ids")
    p1 = tuple(WonderId(w) for w in first["p1"])
    p2 = tuple(WonderId(w) for w in first["p2"])
    return Rules(
        starting_coins=_int(raw, "starting_coins"),
        wonders_per_player=_int(raw, "wonders_per_player"),
        max_wonders=_int(raw, "max_wonders"),
        tokens_on_board=_int(raw, "tokens_on_board"),
        removed_per_age=_int(raw, "removed_per_age"),
        guilds_in_age_3=_int(raw, "guilds_in_age_3"),
        science_supremacy=_int(raw, "science_supremacy"),
        first_game_wonders=(p1, p2),
        draft_order=tuple(order),
    )


def _names(raw: Mapping[str, Any], prefix: str = "") -> Mapping[str, Mapping[str, str]]:
    """Language -> id -> name; `prefix` "short." for the short names' tables."""
    names: dict[str, dict[str, str]] = {}
    for language, table in raw.items():
        where = f"[{prefix}{language}]"
        if language not in LANGUAGES:
            raise CatalogError(f"names.toml: unknown language {where}")
        if not isinstance(table, dict):
            raise CatalogError(f'names.toml: {where} must be a table of id = "name"')
        for key, name in table.items():
            if not isinstance(name, str) or not name.strip():
                raise CatalogError(f"names.toml: {where} {key}: expected a name")
        names[language] = {str(k): str(v) for k, v in table.items()}
    return names


# --- The whole -----------------------------------------------------------------------------


def _check_whole(catalog: Catalog) -> None:
    """Checks that need more than one entry: ids, counts, chains, science, names, setup."""
    pantheon = catalog.pantheon
    added = frozenset() if pantheon is None else pantheon.token_ids | pantheon.wonder_ids
    temples = "pantheon/cards.toml: card"
    located: list[tuple[str, str]] = [
        *((c.id, temples if c.is_temple else "cards.toml: card") for c in catalog.cards),
        *(
            (w.id, f"{'pantheon/' if w.id in added else ''}wonders.toml: wonder")
            for w in catalog.wonders
        ),
        *(
            (t.id, f"{'pantheon/' if t.id in added else ''}progress.toml: token")
            for t in catalog.progress_tokens
        ),
    ]
    if pantheon is not None:
        located += [(d.id, "pantheon/divinities.toml: divinity") for d in pantheon.divinities]
        located.append((pantheon.gate, "pantheon/board.toml: gate"))
    first_seen: dict[str, str] = {}
    for any_id, where in located:
        if any_id in first_seen:
            before = first_seen[any_id]
            earlier = "earlier in the file" if before == where else f"in {before}"
            raise CatalogError(f"{where} {any_id!r}: duplicate id, already used {earlier}")
        first_seen[any_id] = where
    all_ids = Counter(any_id for any_id, _ in located)
    if pantheon is not None:  # the mythologies have names too (the tokens and the decks)
        all_ids.update(MYTHOLOGIES)

    for age, expected in CARDS_PER_AGE.items():
        found = len(catalog.age_deck(age))
        if found != expected:
            raise CatalogError(f"cards.toml: age {age}: expected {expected} cards, found {found}")
    if len(catalog.guilds) != GUILDS:
        raise CatalogError(f"cards.toml: expected {GUILDS} guilds, found {len(catalog.guilds)}")
    base_wonders = len(catalog.wonders) - (0 if pantheon is None else PANTHEON_WONDERS)
    if base_wonders != WONDERS:
        raise CatalogError(f"wonders.toml: expected {WONDERS} wonders, found {base_wonders}")
    tokens = len(catalog.progress_tokens) - (0 if pantheon is None else PANTHEON_TOKENS)
    if tokens != TOKENS:
        raise CatalogError(f"progress.toml: expected {TOKENS} tokens, found {tokens}")

    _check_chains(tuple(c for c in catalog.cards if not c.is_temple))
    _check_science(catalog)

    for prefix, tables in (("", catalog.names), ("short.", catalog.short_names)):
        for language, table in tables.items():
            for key in table:
                if key not in all_ids:
                    raise CatalogError(
                        f"names.toml: [{prefix}{language}] {key}: no card, wonder or token"
                        + (" (nor divinity)" if pantheon is not None else "")
                    )
    english = catalog.names.get("en", {})
    for any_id in all_ids:
        if any_id not in english:
            raise CatalogError(f"names.toml: [en] {any_id}: missing English name")

    rules = catalog.rules
    for player, wonders in zip(("p1", "p2"), rules.first_game_wonders, strict=True):
        for wonder in wonders:
            if not catalog.is_wonder(wonder):
                raise CatalogError(
                    f"board.toml: setup: first_game_wonders: {player}: unknown wonder {wonder!r}"
                )
        if len(wonders) != rules.wonders_per_player:
            raise CatalogError(
                f"board.toml: setup: first_game_wonders: {player}: expected "
                f"{rules.wonders_per_player} wonders, got {len(wonders)}"
            )
    if set(rules.first_game_wonders[0]) & set(rules.first_game_wonders[1]):
        raise CatalogError("board.toml: setup: first_game_wonders: a wonder is given twice")
    if len(rules.draft_order) != 2 * rules.wonders_per_player:
        raise CatalogError("board.toml: setup: draft_order: one pick per drafted wonder")


def _check_chains(cards: tuple[Card, ...]) -> None:
    """Each chain symbol is given by one card, and frees only cards of later ages."""
    given: dict[str, Card] = {}
    for card in cards:
        if card.chain_symbol is None:
            continue
        if card.chain_symbol in given:
            other = given[card.chain_symbol].id
            raise CatalogError(
                f"cards.toml: card {card.id!r}: chain_symbol {card.chain_symbol!r} "
                f"is already given by {other!r}"
            )
        given[card.chain_symbol] = card
    for card in cards:
        if card.chain_from is None:
            continue
        giver = given.get(card.chain_from)
        if giver is None:
            raise CatalogError(
                f"cards.toml: card {card.id!r}: chain_from {card.chain_from!r}: "
                "no card gives this symbol"
            )
        if giver.age >= card.age:
            raise CatalogError(
                f"cards.toml: card {card.id!r}: chain_from {card.chain_from!r}: "
                f"given by {giver.id!r} of age {giver.age}, not an earlier age"
            )


def _check_science(catalog: Catalog) -> None:
    """Each card symbol is on exactly two green cards; Law is on a token only."""
    for card in catalog.cards:
        if (card.science is not None) != (card.color is Color.GREEN):
            raise CatalogError(
                f"cards.toml: card {card.id!r}: science: green cards and only they have a symbol"
            )
    counts = Counter(c.science for c in catalog.cards if c.science is not None)
    for symbol in Science:
        if symbol is Science.LAW:
            continue
        if counts[symbol] != 2:
            raise CatalogError(
                f"cards.toml: science symbol {symbol.value!r}: on {counts[symbol]} cards, "
                "expected exactly 2"
            )
    if not any(t.science is Science.LAW for t in catalog.progress_tokens):
        raise CatalogError("progress.toml: no token carries the 'law' science symbol")
