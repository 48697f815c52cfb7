"""The coach on the OLED: the search player's top three moves with their chances and a short
reason, as a choice screen (`ChoiceView`, drawn by `screens.render` like any other).

Pure like the presenter: the search uses public information only and a seed, so the same
table gives the same advice. The controller shows it on demand (see docs/search.md for the
hook still to wire); `seconds` caps the time the buttons wait.
"""

from __future__ import annotations

from companion.device.views import ChoiceView, Option
from companion.engine.events import (
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Destroy,
    Discard,
    Event,
    KeepLibraryToken,
    TakeProgress,
)
from companion.engine.state import GameState
from companion.search.player import LEVELS, Level, NoDecision, suggest

__all__ = ["ADVICE", "coach_view", "move_label"]

ADVICE = 3
"""Moves the coach shows."""


def move_label(state: GameState, event: Event, language: str = "en") -> str:
    """A move in a few words: "Build Lumber Yard", "Pyramids with Baths", "Take Law"."""
    name = state.catalog.name
    match event:
        case Build():
            return f"Build {name(event.card, language)}"
        case Discard():
            return f"Discard {name(event.card, language)}"
        case BuildWonder():
            return f"{name(event.wonder, language)} with {name(event.card, language)}"
        case TakeProgress() | KeepLibraryToken():
            return f"Take {name(event.token, language)}"
        case Destroy():
            return f"Destroy {name(event.card, language)}"
        case BuildFromDiscard():
            return f"Rebuild {name(event.card, language)}"
        case ChooseStarter():
            return f"{state.names[0 if event.starter.value == 'p1' else 1] or event.starter} begins"
    return event.type


def coach_view(
    state: GameState,
    level: Level = LEVELS["normal"],
    seed: int = 0,
    *,
    seconds: float | None = 1.0,
    language: str = "en",
) -> ChoiceView:
    """The top three answers for whoever acts: label, chance to win beside it, the reason on
    the bottom line; a one-line message instead when there is nothing to advise."""
    try:
        answer = suggest(state, level, seed, seconds=seconds)
    except NoDecision as nothing:
        return ChoiceView("Coach", str(nothing), (), 0)
    options = tuple(
        Option(
            move_label(state, move.event, language),
            f"{round(100 * move.win)}%",
            note=str(move.reason) if move.reason is not None else "",
        )
        for move in answer.moves[:ADVICE]
    )
    who = state.names[0 if answer.player.value == "p1" else 1] or answer.player.value
    return ChoiceView("Coach", f"Best moves for {who}", options, 0)
