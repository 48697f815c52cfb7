"""What the OLED shows, as plain values: one dataclass per kind of screen.

`companion.device.present` builds these from the game state and the controller's UI state
(names in the configured language, prices from the engine); `companion.device.screens` draws
them. A view holds text and numbers only, so that drawing needs nothing else and tests can
build views by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Option:
    """One line of a choice: a label, a short detail on the right (a price, "+4"), and a
    longer note shown at the bottom while the cursor is on it; `blocked` when it cannot be
    taken (not affordable)."""

    label: str
    detail: str = ""
    blocked: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class Loot:
    """A loot token still on the conflict track: its zone's spaces (signed: negative on
    player 1's side) and the coins it takes."""

    first: int
    last: int
    coins: int


@dataclass(frozen=True, slots=True)
class IdleView:
    """The screen players glance at: whose turn, age, cards left, coins, pawn, loot, prices."""

    age: int
    cards_left: int
    player: str
    coins: tuple[int, int]
    pawn: int  # -9..9, positive toward p2's capital
    loot: tuple[Loot, ...]  # the loot tokens still on the track
    prices: tuple[tuple[str, int], ...]  # the active player's trade price per resource
    active: int  # 0 for p1, 1 for p2
    labels: tuple[str, str] = ("P1", "P2")  # short names beside the coins
    capital: int = 9  # the capitals' distance from the centre space
    hint: str = ""  # what to do next, after the player's name: "scan a card"
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class ChoiceView:
    """A title, a subtitle and options with a cursor (card actions, prompts, setup)."""

    title: str
    subtitle: str
    options: tuple[Option, ...]
    cursor: int
    hint: str = ""  # what to do when there is nothing to choose yet ("Scan a wonder")
    seen: tuple[str, ...] = ()  # what was scanned so far on such a screen
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class MessageView:
    """A few lines of text: feedback after an action, the undo question."""

    title: str
    lines: tuple[str, ...]
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class HelpView:
    """The button map: per button its name, short press and long press; the phone code,
    and `phone` (a line saying how to see the phone page's address) when it is served."""

    rows: tuple[tuple[str, str, str], ...]
    pairing: str = ""
    phone: str = ""
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class PhoneView:
    """The phone pages: their address (also as a QR code) and the pairing code that lets a
    phone change the game."""

    url: str
    pairing: str
    notice: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class EndView:
    """The end of the game: the winner ("" when shared), the kind of victory ("civilian",
    "military", "science"), the totals, and the scoring page's URL for the QR code."""

    winner: str
    victory: str
    scores: tuple[int, int]
    url: str
    notice: str = ""
    status: str = ""


View = IdleView | ChoiceView | MessageView | HelpView | PhoneView | EndView

BUTTON_MAP: tuple[tuple[str, str, str], ...] = (
    ("left", "up", "back"),
    ("select", "confirm", "undo"),
    ("right", "down", "help"),
)
"""Each button: its name, what a short press does, what a long press (held) does."""
