"""Science symbols: a pair gives a progress token, 6 different symbols win at once."""

from __future__ import annotations

from .cards import Science
from .state import City


def makes_pair(city: City, symbol: Science | None) -> bool:
    """Whether adding `symbol` gives the city a second card of that symbol (a pair)."""
    return symbol is not None and symbol in city.symbols


def has_supremacy(city: City, needed: int) -> bool:
    """Whether the city owns `needed` (6) different science symbols, Law included."""
    return len(city.symbols) >= needed
