"""A count and its noun in English: the one place that chooses between singular and plural.

It sits in the engine, the lowest of the pure cores, so that every core and everything around
them (the OLED's words, the score pads, the catalog's descriptions, the phone pages' templates)
say "1 coin" and "3 coins" the same way.
"""

from __future__ import annotations


def noun_for(count: int, noun: str, nouns: str | None = None) -> str:
    """The noun alone for `count`: "coin" for 1 and -1, else `nouns` or noun + "s"."""
    return noun if abs(count) == 1 else nouns or noun + "s"


def plural(count: int, noun: str, nouns: str | None = None, *, signed: bool = False) -> str:
    """ "1 coin", "3 coins", "0 coins"; `nouns` where the plural is not noun + "s"
    ("1 victory", "2 victories"); with signed=True "+2 coins", "-1 coin"."""
    number = f"{count:+d}" if signed else str(count)
    return f"{number} {noun_for(count, noun, nouns)}"
