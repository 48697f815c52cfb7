"""The controller's inputs and its UI state: plain values shared by the controller (which
decides), the choices of each screen and the presenter (which draws).

Nothing here decides anything; `companion.device.controller` moves from one `UiState` to the
next, `companion.device.present` turns a `UiState` and the game state into a view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.device.views import ChoiceView
from companion.engine.events import Event
from companion.engine.state import Player

# --- the UI state ---------------------------------------------------------------------------


class Mode(StrEnum):
    """Which screen the controller is on."""

    FIRST_PLAYER = "first_player"  # setup: who begins
    WONDER_SETUP = "wonder_setup"  # setup: draft or first-game sets
    DRAFT = "draft"  # setup: scan the 4 revealed wonders, then pick
    TOKENS = "tokens"  # setup: scan the 5 progress tokens on the board
    START = "start"  # setup: confirm the whole setup (or name the players first)
    PLAYERS = "players"  # setup: pick a side's name from the remembered players
    GUIDED = "guided"  # the start of an age: scan its face-up cards (companion.device.guided)
    REVEAL = "reveal"  # a card was uncovered: turn it up and scan it
    IDLE = "idle"  # waiting for a card
    CARD = "card"  # a card was scanned: build, discard or wonder (a divinity: activate it)
    PANTHEON = "pantheon"  # the Pantheon board: each space, its card and its price (select)
    PROMPT = "prompt"  # a pending decision of the rules
    FEEDBACK = "feedback"  # what the last action did
    UNDO = "undo"  # confirm an undo
    HELP = "help"  # the button map
    PHONE = "phone"  # the phone page's address, its QR code and the pairing code
    COACH = "coach"  # the search's top three moves (from the button map: left)
    END = "end"  # the game is over
    NEW_GAME = "new_game"  # confirm leaving the end screen for a new game


@dataclass(frozen=True, slots=True)
class UiState:
    """Everything the screen needs beyond the game state; saved beside the journal.

    `under` is the screen that HELP, PHONE, UNDO and NEW_GAME return to. `events` is the
    number of effective events of the game when the state was made: a saved UiState whose
    count differs from the journal's is stale, and the screen is derived from the game state
    instead.
    """

    mode: Mode = Mode.FIRST_PLAYER
    cursor: int = 0
    card: str | None = None
    first: Player = Player.P1
    picks: tuple[str, ...] = ()  # draft: wonders picked, in draft order
    revealed: tuple[str, ...] = ()  # draft: wonders revealed this round
    tokens: tuple[str, ...] = ()  # setup: tokens on the board; Great Library: tokens drawn
    lines: tuple[str, ...] = ()  # feedback lines
    until: float | None = None  # feedback: Tick time when it gives way
    dealt: tuple[str, ...] = ()  # guided entry: what was entered (`GuidedDeal.entries`)
    skipped: int = 0  # the age whose guided entry the players skipped (0: none)
    names: tuple[str, str] = ("", "")  # setup: the players' names ("": unnamed)
    naming: int = 0  # setup: the side whose name is being picked (0: Player 1, 1: Player 2)
    expansions: tuple[str, ...] = ()  # setup: the expansions played ("pantheon")
    notice: str = ""  # one-line reason for the last refusal
    status: str = ""  # a hardware problem, e.g. "camera lost"
    under: UiState | None = None
    events: int = 0

    def to_json(self) -> dict[str, Any]:
        """A JSON object for the journal's meta table."""
        return {
            "mode": self.mode.value,
            "cursor": self.cursor,
            "card": self.card,
            "first": self.first.value,
            "picks": list(self.picks),
            "revealed": list(self.revealed),
            "tokens": list(self.tokens),
            "lines": list(self.lines),
            "dealt": list(self.dealt),
            "skipped": self.skipped,
            "names": list(self.names),
            "naming": self.naming,
            "expansions": list(self.expansions),
            "notice": self.notice,
            "under": None if self.under is None else self.under.to_json(),
            "events": self.events,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> UiState:
        """The UiState of `to_json`; a feedback timer restarts, a hardware status is re-read.

        Raises:
            ValueError: not a saved UiState.
        """
        try:
            under = raw.get("under")
            return cls(
                mode=Mode(raw["mode"]),
                cursor=int(raw["cursor"]),
                card=None if raw["card"] is None else str(raw["card"]),
                first=Player(raw["first"]),
                picks=tuple(str(x) for x in raw["picks"]),
                revealed=tuple(str(x) for x in raw["revealed"]),
                tokens=tuple(str(x) for x in raw["tokens"]),
                lines=tuple(str(x) for x in raw["lines"]),
                dealt=tuple(str(x) for x in raw.get("dealt", ())),
                skipped=int(raw.get("skipped", 0)),
                names=_names(raw.get("names", ("", ""))),
                naming=int(raw.get("naming", 0)) % 2,
                expansions=tuple(str(x) for x in raw.get("expansions", ())),
                notice=str(raw["notice"]),
                under=None if under is None else cls.from_json(under),
                events=int(raw["events"]),
            )
        except (KeyError, TypeError, AttributeError) as bad:
            raise ValueError(f"not a saved screen state: {bad}") from None


def _names(raw: Any) -> tuple[str, str]:
    """The two saved names of the setup ("" unnamed)."""
    first, second = (str(name) for name in raw)  # ValueError: not two names
    return first, second


@dataclass(frozen=True, slots=True)
class Context:
    """What the controller reads besides the state: language, the last effective event
    (for the undo question), how many effective events there are, the score page URL, the
    phone pages' address and their pairing code (empty when the pages are not served), and
    whether each age's structure is entered by guided scans (`guided`); the coach's answer
    once the run loop's worker has it (None: still thinking); in a solo game the box's side and
    its move now (companion/device/solo.py); in setup, the remembered players to name the
    sides from, the most recent first (`companion.records.players.recent_names`, read by the
    run loop: the controller never opens the journal); the names the game's sides were given
    on the phone (`names`, "" where none: the journal's players, read by the run loop), which
    the OLED says as the phone does."""

    language: str = "en"
    last: Event | None = None
    events: int = 0
    score_url: str = ""
    pairing: str = ""
    phone_url: str = ""
    guided: bool = False
    coach: ChoiceView | None = None
    box: Player | None = None  # solo: the side the box plays
    box_move: Event | None = None  # solo: the box's move now, once the search has it
    known: tuple[str, ...] = ()  # setup: the remembered players, the most recent first
    overhead: bool = False  # the overhead camera reads the structure (companion.device.overhead)
    names: tuple[str, str] = ("", "")  # the sides' names given on the phone ("": none)
