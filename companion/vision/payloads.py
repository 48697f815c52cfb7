"""Sticker payloads: the text in each card's QR code, and the card id it stands for.

A payload is `7WD:` + a kind letter (A age card, G guild, W wonder, P progress token; with
the Pantheon expansion T Grand Temple, D divinity or the Gate) + two
digits + a check character, e.g. `7WD:A01Z`: 8 characters of the QR alphanumeric set, so the
code is version 1 (21x21 modules) even at error-correction level H. The check character
(Luhn mod 36 over the three code characters) makes every single-character change and every
swap of neighbours an invalid payload, so a misread can never turn into another card's id.
The mapping lives in data/stickers.toml. The cards of the 7 Wonders base game (the family
score pad) have stickers of their own, `7WB:` + the same four characters, mapped in
data/family/stickers.toml: a Duel scan never reads a base-game card, nor the reverse.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

PREFIX = "7WD:"
FAMILY_PREFIX = "7WB:"  # the 7 Wonders base game's cards (companion.family)
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
KINDS = {
    "A": "age_card",
    "G": "guild",
    "W": "wonder",
    "P": "progress_token",
    "T": "grand_temple",  # Pantheon
    "D": "divinity",  # Pantheon (and its Gate)
}
PAYLOAD_LENGTH = len(PREFIX) + 4


class StickerDataError(ValueError):
    """data/stickers.toml is malformed; the message names the entry and the key."""


@dataclass(frozen=True, slots=True)
class StickerTable:
    """Payload <-> id, both ways, and the QR settings the stickers are printed with."""

    by_payload: Mapping[str, str]
    by_id: Mapping[str, str]
    error_correction: str


def check_character(code: str) -> str:
    """The Luhn mod 36 check character of `code` (characters of ALPHABET).

    Raises:
        ValueError: a character outside ALPHABET.
    """
    total = 0
    for position, char in enumerate(reversed(code)):
        value = ALPHABET.index(char)
        if position % 2 == 0:  # every second character from the right is doubled
            value *= 2
            value = value // 36 + value % 36
        total += value
    return ALPHABET[(36 - total % 36) % 36]


def make_payload(kind: str, number: int, prefix: str = PREFIX) -> str:
    """The payload of the `number`-th sticker of `kind` ("A", "G", "W" or "P")."""
    if kind not in KINDS or not 0 <= number <= 99:
        raise ValueError(f"no payload for kind {kind!r} number {number}")
    code = f"{kind}{number:02d}"
    return prefix + code + check_character(code)


def is_well_formed(text: str, prefix: str = PREFIX) -> bool:
    """True if `text` has the prefix, length, kind letter, digits and a matching check."""
    if len(text) != PAYLOAD_LENGTH or not text.startswith(prefix):
        return False
    code, check = text[len(prefix) : -1], text[-1]
    if code[0] not in KINDS or not code[1:].isdigit() or not code[1:].isascii():
        return False
    return check_character(code) == check


def parse(text: str) -> str | None:
    """The card id a decoded QR text stands for, or None for a foreign or garbled code."""
    if not is_well_formed(text):
        return None
    return sticker_table().by_payload.get(text)


def parse_pantheon(text: str) -> str | None:
    """The id of a Pantheon component a decoded QR text stands for, or None."""
    if not is_well_formed(text):
        return None
    return pantheon_sticker_table().by_payload.get(text)


def parse_scan(text: str) -> str | None:
    """The id a scan at the Duel table stands for: a base game sticker or a Pantheon one
    (a Grand Temple, a divinity, the Gate), or None. Whether the game is played with the
    expansion is for the rules to say, not the camera."""
    return parse(text) or parse_pantheon(text)


def parse_family(text: str) -> str | None:
    """The base-game card id a decoded QR text stands for (`7WB:` stickers), or None."""
    if not is_well_formed(text, FAMILY_PREFIX):
        return None
    return family_sticker_table().by_payload.get(text)


def payload_for(card_id: str) -> str:
    """The payload printed on the sticker of `card_id` (a base game or a Pantheon one).

    Raises:
        KeyError: an id with no sticker.
    """
    payload = sticker_table().by_id.get(card_id) or pantheon_sticker_table().by_id.get(card_id)
    if payload is None:
        raise KeyError(f"no sticker for id {card_id!r}")
    return payload


def sticker_ids() -> tuple[str, ...]:
    """Every id that has a sticker, in the order of data/stickers.toml."""
    return tuple(sticker_table().by_id)


@cache
def sticker_table() -> StickerTable:
    """data/stickers.toml, read once from the installed package and validated."""
    return load_sticker_table(tomllib.loads(read_data_file("stickers.toml")))


@cache
def pantheon_sticker_table() -> StickerTable:
    """data/pantheon/stickers.toml (the Pantheon expansion's components), read once and
    validated; its payloads are distinct from the base game's."""
    raw = tomllib.loads(read_data_file("pantheon/stickers.toml"))
    table = load_sticker_table(raw, PREFIX, "pantheon/stickers.toml")
    for payload, any_id in table.by_payload.items():
        if payload in sticker_table().by_payload:
            raise StickerDataError(f"pantheon/stickers.toml: sticker {any_id!r}: payload "
                                   f"{payload!r} is already a base game sticker")  # fmt: skip
    return table


@cache
def family_sticker_table() -> StickerTable:
    """data/family/stickers.toml (the base game's cards), read once and validated."""
    raw = tomllib.loads(read_data_file("family/stickers.toml"))
    return load_sticker_table(raw, FAMILY_PREFIX, "family/stickers.toml")


def read_data_file(name: str) -> str:
    """A file of data/, installed as the package companion.data."""
    return resources.files("companion.data").joinpath(name).read_text("utf-8")


def load_sticker_table(
    raw: Mapping[str, Any], prefix: str = PREFIX, file: str = "stickers.toml"
) -> StickerTable:
    """Validate a parsed sticker file: unique ids and payloads, each well formed with `prefix`.

    Raises:
        StickerDataError: the first problem, naming the entry.
    """
    level = raw.get("error_correction")
    if level not in ("L", "M", "Q", "H"):
        raise StickerDataError(f"{file}: error_correction must be L, M, Q or H: {level!r}")
    by_payload: dict[str, str] = {}
    by_id: dict[str, str] = {}
    for index, entry in enumerate(raw.get("sticker", [])):
        where = f"{file}: sticker {entry.get('id', index)!r}"
        card_id, payload = entry.get("id"), entry.get("payload")
        if not isinstance(card_id, str) or not isinstance(payload, str):
            raise StickerDataError(f"{where}: needs string keys 'id' and 'payload'")
        if not is_well_formed(payload, prefix):
            raise StickerDataError(f"{where}: malformed payload {payload!r}")
        if payload in by_payload or card_id in by_id:
            raise StickerDataError(f"{where}: duplicate id or payload {payload!r}")
        by_payload[payload] = card_id
        by_id[card_id] = payload
    return StickerTable(by_payload=by_payload, by_id=by_id, error_correction=level)
