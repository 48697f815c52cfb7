"""Read the 7 Wonders base game's card data (`data/family/`) into a checked `FamilyCatalog`.

The twin of `companion.engine.catalog` for the family score pad, with the same reading helpers and
the same kind of refusal: a `CatalogError` naming file, entry and key, e.g.
``base_cards.toml: card 'altar': points: expected a whole number, got '2'``.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.engine.cards import Color
from companion.engine.catalog import (
    CatalogError,
    _check_keys,
    _entries,
    _entry,
    _enum,
    _int,
    _label,
    _read_toml,
    _str,
    default_data_dir,
)
from companion.family.cards import (
    PLAYERS,
    CardId,
    Counted,
    FamilyCard,
    FamilyCatalog,
    PointsPer,
    Side,
    Stage,
    Symbol,
    Where,
    WonderBoard,
    WonderId,
)

CARDS_FILE = "base_cards.toml"
WONDERS_FILE = "base_wonders.toml"
LANGUAGES = ("en", "da")
# Seed 002's contents: Age I 27 distinct cards (with Loom, Glassworks, Press), Age II 20 more
# plus those three again, Age III 18 and the 10 guilds; 7 boards.
DISTINCT_CARDS = 75
GUILDS = 10
WONDERS = 7

CARD_KEYS = frozenset(
    {"id", "names", "ages", "color", "points", "shields", "science", "points_per", "copies"}
)
STAGE_KEYS = frozenset({"points", "shields", "coins", "science", "copies_guild"})
WONDER_KEYS = frozenset({"id", "names", "A", "B"})


@cache
def default_family_catalog() -> FamilyCatalog:
    """The catalog of the shipped data, loaded once per process."""
    return load_family_catalog(default_data_dir() / "family")


def load_family_catalog(data_dir: Path) -> FamilyCatalog:
    """Read `data_dir`'s base-game files, refuse anything wrong, return frozen typed objects.

    Raises:
        CatalogError: a file is missing or malformed, or an entry or the whole is wrong.
    """
    return family_catalog_from_tables(
        {name: _read_toml(data_dir / name) for name in (CARDS_FILE, WONDERS_FILE)}
    )


def family_catalog_from_tables(raw: dict[str, dict[str, Any]]) -> FamilyCatalog:
    """Build and check the catalog from the parsed content of the two files.

    Raises:
        CatalogError: an entry or the whole is wrong (the message names file and entry).
    """
    cards = tuple(
        _entry(_card, entry, f"{CARDS_FILE}: card {_label(entry, i)}")
        for i, entry in enumerate(_entries(raw[CARDS_FILE], "card", CARDS_FILE))
    )
    wonders = tuple(
        _entry(_wonder, entry, f"{WONDERS_FILE}: wonder {_label(entry, i)}")
        for i, entry in enumerate(_entries(raw[WONDERS_FILE], "wonder", WONDERS_FILE))
    )
    _check_whole(cards, wonders)
    return FamilyCatalog.of(cards, wonders)


def _names(raw: dict[str, Any]) -> MappingProxyType[str, str]:
    names = raw["names"]
    if not isinstance(names, dict):
        raise ValueError('names: expected a table like { en = "Altar", da = "Alter" }')
    for language in names:
        if language not in LANGUAGES:
            raise ValueError(f"names: unknown language {language!r}")
        _str(names, language)
    return MappingProxyType(dict(names))


def _card(raw: dict[str, Any]) -> FamilyCard:
    _check_keys(raw, CARD_KEYS)
    ages = raw["ages"]
    if not isinstance(ages, list) or not all(isinstance(a, int) for a in ages):
        raise ValueError(f"ages: expected a list of ages, got {ages!r}")
    science = raw.get("science")
    return FamilyCard(
        id=CardId(_str(raw, "id")),
        names=_names(raw),
        ages=tuple(ages),
        color=_enum(Color, "colour", raw["color"], "color"),
        points=_int(raw, "points"),
        shields=_int(raw, "shields"),
        science=None if science is None else _enum(Symbol, "science symbol", science, "science"),
        points_per=_points_per(raw["points_per"]) if "points_per" in raw else None,
        copies=_copies(raw.get("copies", {})),
    )


ROMAN = {"I": 1, "II": 2, "III": 3}


def _copies(raw: Any) -> MappingProxyType[int, tuple[int, ...]]:
    """`{ I = [3, 4], II = [3, 5] }` -> {1: (3, 4), 2: (3, 5)}."""
    if not isinstance(raw, dict):
        raise ValueError("copies: expected a table like { I = [3, 4] }")
    copies = {}
    for age, counts in raw.items():
        if age not in ROMAN:
            raise ValueError(f"copies: unknown Age {age!r}: use I, II or III")
        if not isinstance(counts, list) or not all(type(n) is int for n in counts):
            raise ValueError(f"copies: Age {age}: expected a list of player counts")
        copies[ROMAN[age]] = tuple(counts)
    return MappingProxyType(copies)


def _points_per(raw: Any) -> PointsPer:
    if not isinstance(raw, dict):
        raise ValueError("points_per: expected a table { count = [...], cities = [...], points }")
    _check_keys(raw, frozenset({"count", "cities", "points"}))
    counts, cities = raw["count"], raw["cities"]
    if not isinstance(counts, list) or not isinstance(cities, list):
        raise ValueError("points_per: count and cities must be lists")
    return PointsPer(
        counts=tuple(_counted(item) for item in counts),
        cities=tuple(_enum(Where, "city", c, "points_per: cities") for c in cities),
        points=_int(raw, "points"),
    )


def _counted(item: Any) -> Color | Counted:
    try:
        return Color(item)
    except ValueError:
        return _enum(Counted, "counted item", item, "points_per: count")


def _wonder(raw: dict[str, Any]) -> WonderBoard:
    _check_keys(raw, WONDER_KEYS)
    sides = {}
    for side in Side:
        stages = raw[side.value]
        if not isinstance(stages, list) or not all(isinstance(s, dict) for s in stages):
            raise ValueError(f"{side}: expected a list of stage tables")
        sides[side] = tuple(_stage(s, f"{side}: stage {n}") for n, s in enumerate(stages, 1))
    return WonderBoard(
        id=WonderId(_str(raw, "id")), names=_names(raw), sides=MappingProxyType(sides)
    )


def _stage(raw: dict[str, Any], where: str) -> Stage:
    try:
        _check_keys(raw, STAGE_KEYS)
        copies = raw.get("copies_guild", False)
        if not isinstance(copies, bool):
            raise ValueError(f"copies_guild: expected true or false, got {copies!r}")
        science = raw.get("science")
        return Stage(
            points=_int(raw, "points"),
            shields=_int(raw, "shields"),
            coins=_int(raw, "coins"),
            science=None if science is None else _enum(Symbol, "symbol", science, "science"),
            copies_guild=copies,
        )
    except ValueError as bad:
        raise ValueError(f"{where}: {bad}") from None


def _check_whole(cards: tuple[FamilyCard, ...], wonders: tuple[WonderBoard, ...]) -> None:
    """Unique ids, 75 cards with 10 guilds, 7 boards, each symbol on its green cards."""
    for file, kind, ids in (
        (CARDS_FILE, "card", [c.id for c in cards]),
        (WONDERS_FILE, "wonder", [w.id for w in wonders]),
    ):
        for any_id, seen in Counter(ids).items():
            if seen > 1:
                raise CatalogError(f"{file}: {kind} {any_id!r}: duplicate id")
    if len(cards) != DISTINCT_CARDS:
        raise CatalogError(f"{CARDS_FILE}: expected {DISTINCT_CARDS} cards, found {len(cards)}")
    guilds = sum(c.color is Color.PURPLE for c in cards)
    if guilds != GUILDS:
        raise CatalogError(f"{CARDS_FILE}: expected {GUILDS} guilds, found {guilds}")
    if len(wonders) != WONDERS:
        raise CatalogError(f"{WONDERS_FILE}: expected {WONDERS} wonders, found {len(wonders)}")
    _check_decks(cards)
    symbols = Counter(c.science for c in cards if c.color is Color.GREEN)
    if Symbol.ANY in symbols or set(symbols) != {Symbol.COMPASS, Symbol.GEAR, Symbol.TABLET}:
        raise CatalogError(f"{CARDS_FILE}: green cards must carry compass, gear and tablet")


def _check_decks(cards: tuple[FamilyCard, ...]) -> None:
    """Each Age deck holds 7 cards a player for 3 to 7 players (Age III with players + 2
    guilds drawn), as the rules say when the copies are sorted right."""
    for players in PLAYERS:
        for age in (1, 2, 3):
            guilds = players + 2 if age == 3 else 0
            held = sum(n <= players for c in cards for n in c.copies.get(age, ()))
            if held + guilds != 7 * players:
                raise CatalogError(
                    f"{CARDS_FILE}: copies: Age {AGES[age]} for {players} players holds "
                    f"{held + guilds} cards, not {7 * players}"
                )


AGES = {1: "I", 2: "II", 3: "III"}
