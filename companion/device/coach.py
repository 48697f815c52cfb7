"""The coach: the search player's top three moves with their chances and a short reason, as
a choice screen on the OLED (`coach_view`) and as a JSON object for the phone's live page
(`advice`). One search, one wording (`words.move_label`) for both.

Pure like the presenter: the search uses public information only and a seed, so the same
table gives the same advice. The run loop computes it on a worker thread (the search takes
up to `seconds`) and shows "Thinking..." meanwhile (docs/device.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.device import words
from companion.device.views import ChoiceView, Option
from companion.device.words import Voice, move_label
from companion.engine.events import event_to_record
from companion.engine.state import GameState
from companion.search.determinize import needs_deal
from companion.search.player import LEVELS, Level, NoDecision, suggest

__all__ = ["ADVICE", "SECONDS", "Advice", "Move", "advice", "coach_view"]

ADVICE = 3
"""Moves the coach shows."""

SECONDS = 0.9
"""The coach's clock limit on the box and the phone: its answer is shown within a second
(the rest goes to drawing, the loop's queue and the page's request; BENCHMARKS.md, Search
player). A search cut short answers from the iterations it made."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move advised: its words, the record line that plays it, the chance to win
    (0..1) and the main reason ("" when none stands out)."""

    label: str
    record: dict[str, Any]
    win: float
    reason: str

    @property
    def percent(self) -> str:
        """The chance as the screens show it: "71%"."""
        return f"{round(100 * self.win)}%"


@dataclass(frozen=True, slots=True)
class Advice:
    """Who acts (their name and "p1"/"p2") and the best moves, best first; `message` is the
    one line said instead when there is nothing to advise (then `moves` is empty)."""

    name: str
    player: str
    moves: tuple[Move, ...]
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """The phone's JSON: player, name, moves (label, event, win, reason), message."""
        return {
            "player": self.player,
            "name": self.name,
            "moves": [
                {"label": m.label, "event": m.record, "win": round(m.win, 3), "reason": m.reason}
                for m in self.moves
            ],
            "message": self.message,
        }


def advice(
    state: GameState,
    voice: Voice,
    level: Level = LEVELS["3"],
    seed: int = 0,
    *,
    seconds: float | None = 1.0,
) -> Advice:
    """The top three answers for whoever acts after `state`, worded by `voice`."""
    try:
        answer = suggest(state, level, seed, seconds=seconds)
    except NoDecision as nothing:
        return Advice("", "", (), words.COACH_NEEDS_DEAL.format(age=state.age)
                      if _without_deal(state) else str(nothing))  # fmt: skip
    moves = tuple(
        Move(
            move_label(voice, move.event),
            event_to_record(move.event),
            move.win,
            str(move.reason) if move.reason is not None else "",
        )
        for move in answer.moves[:ADVICE]
    )
    return Advice(voice.player(answer.player), answer.player.value, moves)


def _without_deal(state: GameState) -> bool:
    """Whether the search has no move because the age's cards are not known (what the
    players can change: enter the deal)."""
    playing = not state.finished and state.pending is None
    return playing and (state.structure is None or needs_deal(state))


def coach_view(
    state: GameState,
    level: Level = LEVELS["3"],
    seed: int = 0,
    *,
    seconds: float | None = 1.0,
    language: str = "en",
    names: tuple[str, str] = ("", ""),
) -> ChoiceView:
    """The OLED's coach: label, chance to win beside it, the reason on the bottom line; the
    message, wrapped under "Nothing to advise", when there is nothing to advise. `names` are
    the sides' names given on the phone."""
    told = advice(state, Voice.oled(state, language, names), level, seed, seconds=seconds)
    if not told.moves:
        return ChoiceView("Coach", words.NO_ADVICE, (), 0, hint=told.message)
    options = tuple(Option(m.label, m.percent, note=m.reason) for m in told.moves)
    return ChoiceView("Coach", f"{told.name} to play", options, 0)
