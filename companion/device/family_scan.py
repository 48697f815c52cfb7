"""Reading the cities of a 7 Wonders base game with the box's camera (the family score pad).

At the end of a base game each player in turn holds their cards under the box's camera. The
phone's score pad starts a reading (`start`, names in seating order); until it ends, the run
loop hands its button presses and scans here instead of to the Duel controller, keeps the
`Reading` in the journal's meta table beside the live game's screen (`READING_KEY`: a restart
resumes it, nothing read is lost), shows `view(...)` on the OLED, and answers the page's polls
with `to_page(...)`.

`step(reading, given)` is pure: a base-game sticker (`BaseGameScan`, payload `7WB:`) adds its
card to the current player's city; select or right moves to the next player (after the last,
every city is read), left back to the previous one; a long select takes the last card of the
current city back. A card already in that city, or a guild already in another one (the game
has one of each), is refused with a one-line notice and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from companion.device import words
from companion.device.views import ReadingView
from companion.engine.cards import Color
from companion.family.cards import CardId
from companion.family.catalog import default_family_catalog
from companion.inputs import Press, Scan
from companion.vision.payloads import parse_family
from companion.vision.tracker import TrackedScan

READING_KEY = "family_reading"  # meta key beside the device's screen
MAX_PLAYERS = 7


@dataclass(frozen=True, slots=True)
class BaseGameScan:
    """Input: a base-game card's sticker (`7WB:`) newly shown to the camera."""

    card: str
    at: float | None = field(default=None, compare=False)


def scan_input(scan: TrackedScan) -> Scan | BaseGameScan:
    """The loop's input for a sticker the camera saw: a Duel scan, or a base-game card."""
    if scan.card is None:
        family = parse_family(scan.text)
        if family is not None:
            return BaseGameScan(family, at=scan.at)
    return Scan(scan.card, at=scan.at)


@dataclass(frozen=True, slots=True)
class Reading:
    """The cities read so far: names in seating order, each one's cards in the order read,
    whose city is being read (`current == len(names)`: all read), the last card read or
    removed (`last`, `removed`), and the refusal of the last input."""

    names: tuple[str, ...]
    cities: tuple[tuple[str, ...], ...]
    current: int = 0
    last: str = ""
    removed: bool = False
    notice: str = ""

    @property
    def done(self) -> bool:
        """Every city has been read (select after the last player)."""
        return self.current >= len(self.names)

    def to_json(self) -> dict[str, Any]:
        """The value kept in the journal's meta table."""
        return {"names": list(self.names), "cities": [list(c) for c in self.cities],
                "current": self.current, "last": self.last, "removed": self.removed,
                "notice": self.notice}  # fmt: skip

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Reading:
        """The value kept by `to_json`.

        Raises:
            ValueError: not such a value.
        """
        try:
            names = tuple(str(n) for n in raw["names"])
            cities = tuple(tuple(str(c) for c in city) for city in raw["cities"])
            current, last, removed = int(raw["current"]), str(raw["last"]), bool(raw["removed"])
            notice = str(raw.get("notice", ""))
        except (KeyError, TypeError, ValueError) as bad:
            raise ValueError(f"not a saved reading: {bad}") from None
        if len(names) != len(cities) or not 0 <= current <= len(names):
            raise ValueError("not a saved reading: the cities do not match the names")
        return cls(names, cities, current, last, removed, notice)


def start(names: Sequence[str]) -> Reading:
    """A reading of these players' cities, in seating order, starting with the first.

    Raises:
        ValueError: no player, more than 7, a blank name or the same name twice (one line).
    """
    cleaned = tuple(str(n).strip() for n in names)
    if not cleaned or len(cleaned) > MAX_PLAYERS:
        raise ValueError(f"Name 1 to {MAX_PLAYERS} players to read their cities")
    if not all(cleaned):
        raise ValueError("Every player needs a name before the cities are read")
    if len(set(cleaned)) != len(cleaned):
        raise ValueError("Two players have the same name")
    return Reading(cleaned, tuple(() for _ in cleaned))


@dataclass(frozen=True, slots=True)
class Cards:
    """What the reading needs to know of the base game's cards."""

    name_of: Callable[[str], str]  # the English name of a card id
    is_guild: Callable[[str], bool]  # a card the game has one of


@cache
def base_game_cards() -> Cards:
    """The shipped base game's card names and guilds."""
    cards = default_family_catalog().cards
    return Cards(name_of=lambda card: cards[CardId(card)].name,
                 is_guild=lambda card: cards[CardId(card)].color is Color.PURPLE)  # fmt: skip


def step(reading: Reading, given: Press | Scan | BaseGameScan, cards: Cards) -> Reading:
    """The reading after one input."""
    quiet = replace(reading, notice="")
    match given:
        case BaseGameScan(card=card):
            return _add(quiet, card, cards)
        case Scan():
            return replace(quiet, notice=words.NOT_A_BASE_GAME_CARD)
        case Press(name="select", long=True):
            return _remove_last(quiet)
        case Press(name="select" | "right", long=False):
            return replace(quiet, current=min(reading.current + 1, len(reading.names)),
                           last="", removed=False)  # fmt: skip
        case Press(name="left", long=False):
            return replace(quiet, current=max(reading.current - 1, 0), last="", removed=False)
    return quiet


def _add(reading: Reading, card: str, cards: Cards) -> Reading:
    if reading.done:
        return replace(reading, notice=words.ALL_CITIES_READ)
    for index, city in enumerate(reading.cities):
        if card in city and index == reading.current:
            return replace(reading, notice=words.already_read(cards.name_of(card)))
        if card in city and cards.is_guild(card):
            taken = words.guild_taken(cards.name_of(card), reading.names[index])
            return replace(reading, notice=taken)
    cities = list(reading.cities)
    cities[reading.current] = (*cities[reading.current], card)
    return replace(reading, cities=tuple(cities), last=card, removed=False)


def _remove_last(reading: Reading) -> Reading:
    if reading.done or not reading.cities[reading.current]:
        return replace(reading, notice=words.NO_CARD_TO_REMOVE)
    city = reading.cities[reading.current]
    cities = list(reading.cities)
    cities[reading.current] = city[:-1]
    return replace(reading, cities=tuple(cities), last=city[-1], removed=True)


def _last(reading: Reading, name_of: Callable[[str], str]) -> str:
    if not reading.last:
        return ""
    card = name_of(reading.last)
    return words.card_removed(card) if reading.removed else f"+ {card}"


def line(reading: Reading) -> str:
    """The one sentence both screens show: "Reading Ann's city: 7 cards" or all read."""
    if reading.done:
        return words.ALL_CITIES_READ
    name = reading.names[reading.current]
    return words.reading_city(name, len(reading.cities[reading.current]))


def view(reading: Reading, name_of: Callable[[str], str], status: str = "") -> ReadingView:
    """The OLED screen (`name_of(card_id)`: the card's English name)."""
    position = f"{min(reading.current + 1, len(reading.names))}/{len(reading.names)}"
    if reading.done:
        total = sum(len(city) for city in reading.cities)
        return ReadingView(words.ALL_CITIES_READ, words.cards_count(total), "", position,
                           words.CHECK_THE_PHONE, done=True, notice=reading.notice,
                           status=status)  # fmt: skip
    name = reading.names[reading.current]
    return ReadingView(words.city_of(name), words.cards_count(len(reading.cities[reading.current])),
                       _last(reading, name_of), position, words.CITY_READING_HINT,
                       notice=reading.notice, status=status)  # fmt: skip


def to_page(reading: Reading | None) -> dict[str, Any]:
    """What the score pad polls: whether a reading is on, each city's cards, whose city is
    read, the sentence of the OLED, the last refusal."""
    if reading is None:
        return {"reading": False, "players": [], "current": None, "line": "", "notice": ""}
    cities = zip(reading.names, reading.cities, strict=True)
    players = [{"name": name, "cards": list(cards)} for name, cards in cities]
    return {"reading": True, "players": players,
            "current": None if reading.done else reading.current,
            "line": line(reading), "notice": reading.notice}  # fmt: skip
