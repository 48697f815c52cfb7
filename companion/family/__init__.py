"""The other games of the 7 Wonders family (base game with its two-player variant, Edifice,
7 Wonders Dice): card data and scoring. Pure like `companion.engine`: standard library only."""

from __future__ import annotations
