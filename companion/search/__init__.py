"""The search player for Duel: public-information state, tree search, rollouts and levels.
Pure like `companion.engine`: standard library only."""

from __future__ import annotations
