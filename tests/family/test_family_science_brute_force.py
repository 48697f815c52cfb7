"""The best wildcard placement equals a brute force over every split of the wildcards."""

from __future__ import annotations

import random

from family_sheets import player, points, score

from companion.family.cards import SYMBOLS
from companion.family.catalog import default_family_catalog

GREEN = sorted(
    card.id
    for card in default_family_catalog().cards.values()
    if card.science is not None and not card.is_scientists_guild
)


def brute_force(compass: int, gear: int, tablet: int, wildcards: int) -> int:
    """Every way to split the wildcards between the three symbols, scored from the rule."""
    best = 0
    for to_compass in range(wildcards + 1):
        for to_gear in range(wildcards - to_compass + 1):
            to_tablet = wildcards - to_compass - to_gear
            c, g, t = compass + to_compass, gear + to_gear, tablet + to_tablet
            best = max(best, c**2 + g**2 + t**2 + 7 * min(c, g, t))
    return best


def test_best_placement_equals_brute_force_on_random_cities() -> None:
    rng = random.Random(20101)
    for _ in range(300):
        cards = rng.sample(GREEN, rng.randint(0, len(GREEN)))
        guild = rng.random() < 0.5
        babylon = rng.random() < 0.5
        if guild:
            cards.append("scientists_guild")
        ann = player("Ann", "babylon", cards, stages=2 if babylon else 1)
        result = score(ann, player("Bob", "giza"), player("Cid", "rhodes"))
        catalog = default_family_catalog().cards
        counts = [sum(catalog[c].science is s for c in cards) for s in SYMBOLS]  # type: ignore[index]
        assert points(result, "Ann", "science") == brute_force(*counts, guild + babylon), cards
