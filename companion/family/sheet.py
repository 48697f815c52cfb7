"""Read a base-game score sheet (parsed JSON) into a `Table`, refusing what cannot be a game.

The format is in docs/scorepad.md. Every refusal is a `SheetError` whose one-line message
says what is wrong and where: ``players[2] (Cid): cards: 'lumber_yard' is listed twice``.
Numbers are whole numbers in the game's real ranges (`MAX_COINS`, `MAX_PROJECT_POINTS`),
never a float, a boolean or a list; names follow the players' rule (`engine.names`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine.cards import Color
from companion.engine.catalog import did_you_mean
from companion.engine.names import check_name
from companion.family.cards import CardId, FamilyCard, FamilyCatalog, Side, WonderId
from companion.family.table import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PARTICIPATION_PAWNS,
    TOKEN_VALUES,
    VICTORY_TOKENS,
    City,
    Participation,
    Project,
    Table,
    Variant,
)

GAME = "7wonders"
EXPANSIONS = frozenset({"edifice"})
SHEET_KEYS = frozenset({"game", "variant", "players", "expansions", "edifice"})
PLAYER_KEYS = frozenset(
    {"name", "wonder", "side", "stages", "cards", "coins", "military", "free_city", "edifice"}
)
PROJECT_KEYS = frozenset({"age", "built", "reward_points", "penalty_points"})
AGES = (1, 2, 3)
TOKENS_PER_AGE = 2  # one conflict with each neighbour
MAX_COINS = 200  # more than the whole bank: no city ends with more
MAX_PROJECT_POINTS = 50  # an Edifice project's reward or penalty is a few points
MAX_LIST = 100  # cards, tokens or attacks listed for one player; a real city has fewer


class SheetError(ValueError):
    """A score sheet that cannot be a real game; the message is one line naming the place."""


def read_table(catalog: FamilyCatalog, sheet: Any) -> Table:
    """The table a base-game sheet describes.

    Raises:
        SheetError: the sheet is malformed or cannot be a real game.
    """
    if not isinstance(sheet, dict):
        raise SheetError("a score sheet is a JSON object")
    _keys(sheet, SHEET_KEYS, "sheet")
    if sheet.get("game") != GAME:
        raise SheetError(f"game: expected {GAME!r}, got {shown(sheet.get('game'))}")
    variant = _variant(sheet.get("variant", "base"))
    expansions = _expansions(sheet.get("expansions", []))
    players = sheet.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise SheetError("players: expected a list of player objects")
    edifice = "edifice" in expansions
    cities = tuple(_city(catalog, p, f"players[{i}]", edifice) for i, p in enumerate(players))
    _check_seats(variant, cities)
    projects = _projects(sheet.get("edifice"), cities) if edifice else None
    if not edifice and "edifice" in sheet:
        raise SheetError('edifice: given, but "edifice" is not in expansions')
    return Table(variant=variant, cities=cities, projects=projects)


def _keys(raw: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    if unknown := raw.keys() - allowed:
        raise SheetError(f"{where}: unknown key {min(unknown)!r}")


def _variant(raw: Any) -> Variant:
    try:
        return Variant(raw)
    except ValueError:
        raise SheetError(f"variant: expected 'base' or 'two-player', got {shown(raw)}") from None


def _expansions(raw: Any) -> frozenset[str]:
    if not isinstance(raw, list) or not all(isinstance(e, str) for e in raw):
        raise SheetError("expansions: expected a list of names")
    for name in raw:
        if name not in EXPANSIONS:
            raise SheetError(f"expansions: unknown expansion {shown(name)} (known: edifice)")
    return frozenset(raw)


def shown(value: object) -> str:
    """A value of a refused sheet in a one-line message: its repr, cut at 40 characters (a
    number of thousands of digits is not even written out)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return "a number of more than 12 digits"
    text = repr(value) if not isinstance(value, list | dict) or len(value) <= 20 else "a long list"
    return text if len(text) <= 40 else f"{text[:37]}..."


def whole_number(value: object, where: str, key: str, high: int) -> int:
    """A number of the sheet: a whole number from 0 to `high` (not a float, a boolean, a
    list: JSON's `1.0` is refused too).

    Raises:
        SheetError: anything else, naming `where` and `key`.
    """
    if type(value) is not int or value < 0:
        raise SheetError(f"{where}: {key}: expected a whole number from 0, got {shown(value)}")
    if value > high:
        raise SheetError(f"{where}: {key}: at most {high} in a real game, got {shown(value)}")
    return value


def player_name(raw: Mapping[str, Any], where: str) -> str:
    """A player's name on a sheet, by the players' rule (1 to 24 printable characters).

    Raises:
        SheetError: missing or against the rule.
    """
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SheetError(f"{where}: name: expected a player's name")
    try:
        return check_name(name)
    except ValueError as bad:
        raise SheetError(f"{where}: name: {bad}") from None


def _int(
    raw: Mapping[str, Any], key: str, where: str, default: int | None = None, high: int = 99
) -> int:
    return whole_number(raw.get(key, default), where, key, high)


def _bool(raw: Mapping[str, Any], key: str, where: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise SheetError(f"{where}: {key}: expected true or false, got {shown(value)}")
    return value


def _city(catalog: FamilyCatalog, raw: dict[str, Any], where: str, edifice: bool) -> City:
    name = player_name(raw, where)
    where = f"{where} ({name})"
    _keys(raw, PLAYER_KEYS, where)
    wonder = catalog.wonders.get(WonderId(str(raw.get("wonder"))))
    if wonder is None:
        names: dict[str, Iterable[str]] = {w: b.names.values() for w, b in catalog.wonders.items()}
        given = raw.get("wonder")
        meant = did_you_mean(given, names) if isinstance(given, str) and len(given) < 100 else ""
        raise SheetError(f"{where}: wonder: unknown wonder {shown(given)}{meant}")
    side_raw: Any = raw.get("side")
    try:
        side = Side(side_raw)
    except ValueError:
        raise SheetError(f"{where}: side: expected 'A' or 'B', got {shown(side_raw)}") from None
    stages = _int(raw, "stages", where, 0)
    if stages > len(wonder.sides[side]):
        raise SheetError(
            f"{where}: stages: {wonder.name} side {side} has {len(wonder.sides[side])} "
            f"stages, not {stages}"
        )
    if "edifice" in raw and not edifice:
        raise SheetError(f'{where}: edifice: given, but "edifice" is not in expansions')
    return City(
        name=name,
        wonder=wonder,
        side=side,
        stages=stages,
        cards=_cards(catalog, raw.get("cards", []), where),
        coins=_int(raw, "coins", where, 0, MAX_COINS),
        military=_military(raw.get("military", []), where),
        free_city=_bool(raw, "free_city", where),
        edifice=_participation(raw["edifice"], where) if "edifice" in raw else Participation(),
    )


def _cards(catalog: FamilyCatalog, raw: Any, where: str) -> tuple[FamilyCard, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_LIST:
        raise SheetError(f"{where}: cards: expected a list of card ids")
    cards = []
    for card_id in raw:
        card = catalog.cards.get(CardId(card_id)) if isinstance(card_id, str) else None
        if card is None:
            what = "unknown card" if isinstance(card_id, str) else "expected a card id, got"
            names: dict[str, Iterable[str]] = {
                c: k.names.values() for c, k in catalog.cards.items()
            }
            hint = isinstance(card_id, str) and len(card_id) < 100  # no guess for a long text
            meant = did_you_mean(card_id, names) if hint else ""
            raise SheetError(f"{where}: cards: {what} {shown(card_id)}{meant}")
        cards.append(card)
    if len(set(raw)) != len(raw):
        twice = next(c for c in raw if raw.count(c) > 1)
        raise SheetError(f"{where}: cards: {twice!r} is listed twice")
    return tuple(cards)


def _military(raw: Any, where: str) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_LIST:
        raise SheetError(f"{where}: military: expected a list of token values")
    for value in raw:
        if type(value) is not int or value not in TOKEN_VALUES:  # 1.0, true, [1] are not tokens
            raise SheetError(
                f"{where}: military: {shown(value)} is not a conflict token (1, 3, 5 or -1)"
            )
    for age, value in VICTORY_TOKENS.items():
        if raw.count(value) > TOKENS_PER_AGE:
            raise SheetError(
                f"{where}: military: {raw.count(value)} tokens of {value}, but Age {age} "
                f"gives at most {TOKENS_PER_AGE} (one per neighbour)"
            )
    if len(raw) > TOKENS_PER_AGE * len(AGES):
        raise SheetError(f"{where}: military: {len(raw)} tokens, but a city takes at most 6")
    return tuple(raw)


def _check_seats(variant: Variant, cities: tuple[City, ...]) -> None:
    """Player count for the variant, one Free City in the two-player variant, distinct
    names, and each board once (the box holds one of each)."""
    count = len(cities)
    free = [c for c in cities if c.free_city]
    if variant is Variant.TWO_PLAYER:
        if count != 3 or len(free) != 1:
            raise SheetError(
                "players: the two-player variant has exactly 3 entries, one with "
                f'"free_city": true (got {count} entries, {len(free)} Free City)'
            )
    else:
        if free:
            raise SheetError(
                f"players: {free[0].name} is a Free City outside the two-player variant"
            )
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise SheetError(f"players: the base game is for 3 to 7 players, got {count}")
    for what, values in (
        ("name", [c.name for c in cities]),
        ("wonder", [c.wonder.id for c in cities]),
    ):
        for value, times in Counter(values).items():
            if times > 1:
                raise SheetError(f"players: {what} {value!r} is used by {times} players")
    guilds = Counter(card.id for c in cities for card in c.cards if card.color is Color.PURPLE)
    for guild, times in guilds.items():
        if times > 1:
            raise SheetError(f"players: {guild!r} is in {times} cities; the game has one")


# --- Edifice -----------------------------------------------------------------------------------


def _ages(raw: Any, where: str) -> frozenset[int]:
    if not isinstance(raw, list) or any(a not in AGES or isinstance(a, bool) for a in raw):
        raise SheetError(f"{where}: expected a list of ages (1, 2, 3)")
    if len(set(raw)) != len(raw):
        raise SheetError(f"{where}: an age is listed twice")
    return frozenset(raw)


def _participation(raw: Any, where: str) -> Participation:
    if not isinstance(raw, dict):
        raise SheetError(f"{where}: edifice: expected an object with pawns and debts")
    _keys(raw, frozenset({"pawns", "debts"}), f"{where}: edifice")
    pawns = _ages(raw.get("pawns", []), f"{where}: edifice: pawns")
    debts = _ages(raw.get("debts", []), f"{where}: edifice: debts")
    if both := pawns & debts:
        raise SheetError(
            f"{where}: edifice: a pawn and a debt token of Age {min(both)}: a participant "
            "never pays the penalty"
        )
    return Participation(pawns=pawns, debts=debts)


def _projects(raw: Any, cities: tuple[City, ...]) -> tuple[Project, ...]:
    """The three projects, checked against the pawns taken: a project is built when its last
    pawn is taken, so built means at least as many participants as pawns."""
    count = len(cities)
    if count not in PARTICIPATION_PAWNS or any(c.free_city for c in cities):
        raise SheetError("edifice: played by 3 to 7 players (the pawn table has no other row)")
    if not isinstance(raw, dict) or not isinstance(raw.get("projects"), list):
        raise SheetError('edifice: expected {"projects": [one per age]}')
    _keys(raw, frozenset({"projects"}), "edifice")
    projects = []
    for i, entry in enumerate(raw["projects"]):
        where = f"edifice: projects[{i}]"
        if not isinstance(entry, dict):
            raise SheetError(f"{where}: expected an object")
        _keys(entry, PROJECT_KEYS, where)
        if "built" not in entry:
            raise SheetError(f"{where}: built: say true or false")
        projects.append(
            Project(
                age=_int(entry, "age", where),
                built=_bool(entry, "built", where),
                reward_points=_int(entry, "reward_points", where, 0, MAX_PROJECT_POINTS),
                penalty_points=_int(entry, "penalty_points", where, 0, MAX_PROJECT_POINTS),
            )
        )
    if sorted(p.age for p in projects) != list(AGES):
        raise SheetError("edifice: projects: expected one project for each age 1, 2 and 3")
    pawns = PARTICIPATION_PAWNS[count]
    for project in projects:
        taken = sum(project.age in c.edifice.pawns for c in cities)
        if project.built and taken < pawns:
            raise SheetError(
                f"edifice: the Age {project.age} project is built, but only {taken} of its "
                f"{pawns} participation pawns were taken"
            )
        if not project.built and taken >= pawns:
            raise SheetError(
                f"edifice: the Age {project.age} project failed, but all {pawns} "
                "participation pawns were taken"
            )
        for city in cities:
            if project.age in city.edifice.debts and project.built:
                raise SheetError(
                    f"edifice: {city.name} has a debt token of Age {project.age}, "
                    "but that project was built"
                )
    return tuple(sorted(projects, key=lambda p: p.age))
