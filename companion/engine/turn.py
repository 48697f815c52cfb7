"""The working copy an event works on (`Turn`), and how a turn, an age and the game end:
pass the turn or keep it, choose who begins the next age, count the civilian victory.
"""

from __future__ import annotations

from .cards import Catalog
from .military import weaker_side
from .scoring import civilian_ranks
from .state import (
    City,
    GameState,
    Pending,
    PendingKind,
    Phase,
    Player,
    Victory,
    opponent_of,
)
from .structure import CARDS_PER_AGE

__all__ = ["Turn", "end_turn", "win"]


class Turn:
    """The parts of the state that an event changes, gathered in a mutable working copy so
    that the new state is built once, at the end (copying a `GameState` is the engine's
    main cost)."""

    __slots__ = (
        "age",
        "base",
        "board_tokens",
        "boxed_tokens",
        "boxed_wonders",
        "cities",
        "current",
        "discard",
        "extra_turn",
        "loot",
        "pantheon",
        "pending",
        "phase",
        "player",
        "position",
        "shared",
        "structure",
        "taken",
        "victory",
        "winner",
    )  # fmt: skip

    def __init__(self, state: GameState, player: Player) -> None:
        self.base = state
        self.player = player
        self.cities = list(state.cities)
        self.position = state.position
        self.loot = state.loot
        self.structure = state.structure
        self.taken = state.taken
        self.discard = state.discard
        self.board_tokens = state.board_tokens
        self.boxed_tokens = state.boxed_tokens
        self.boxed_wonders = state.boxed_wonders
        self.pending: Pending | None = state.pending
        self.current = state.current
        self.age = state.age
        self.phase = state.phase
        self.winner = state.winner
        self.shared = state.shared
        self.victory = state.victory
        self.pantheon = state.pantheon
        self.extra_turn = False
        """An extra turn won while a decision is answered (a wonder built by Isis)."""

    def clear_pending(self) -> None:
        """Nothing is pending while a decision is answered (the answer may ask for another).

        A method, so that type checkers (and mypyc, which trusts them) do not take
        `pending` for None for the rest of the caller.
        """
        self.pending = None

    @property
    def catalog(self) -> Catalog:
        """The cards, wonders, tokens and rules of the game."""
        return self.base.catalog

    @property
    def city(self) -> City:
        """The acting player's city."""
        return self.cities[0 if self.player is Player.P1 else 1]

    @city.setter
    def city(self, city: City) -> None:
        self.cities[0 if self.player is Player.P1 else 1] = city

    @property
    def opponent(self) -> City:
        """The other player's city."""
        return self.cities[1 if self.player is Player.P1 else 0]

    @opponent.setter
    def opponent(self, city: City) -> None:
        self.cities[1 if self.player is Player.P1 else 0] = city

    @property
    def finished(self) -> bool:
        """Whether a victory has ended the game."""
        return self.phase is Phase.FINISHED

    def state(self) -> GameState:
        """The new state."""
        base = self.base
        return GameState(  # every field, in declaration order
            base.catalog,
            self.phase,
            self.age,
            self.current,
            (self.cities[0], self.cities[1]),
            base.names,
            self.position,
            self.loot,
            self.board_tokens,
            self.boxed_tokens,
            self.boxed_wonders,
            self.structure,
            self.taken,
            self.discard,
            self.pending,
            self.winner,
            self.shared,
            self.victory,
            self.pantheon,
        )


def win(turn: Turn, player: Player | None, victory: Victory) -> None:
    """End the game at once (player None: a shared victory)."""
    turn.phase = Phase.FINISHED
    turn.winner = player
    turn.shared = player is None
    turn.victory = victory
    turn.pending = None


def end_turn(turn: Turn, *, extra_turn: bool) -> None:
    """Pass the turn (or keep it for an extra turn), ending the age after its 20th card.
    With Pantheon, a divinity still to place (a Mythology token taken) is asked first."""
    player = turn.player
    turn.pending = None
    pantheon = turn.pantheon
    if pantheon is not None and pantheon.to_place:
        turn.pending = Pending(PendingKind.DIVINITY, player, extra_turn)
        return
    if turn.taken < CARDS_PER_AGE:
        turn.current = player if extra_turn else opponent_of(player)
        return
    # The age is over: an extra turn is lost.
    if turn.age == 3:
        _civilian_end(turn)
        return
    chooser = weaker_side(turn.position) or player
    turn.current = chooser
    turn.pending = Pending(PendingKind.NEXT_AGE, chooser, False)


def _civilian_end(turn: Turn) -> None:
    """After the last card of age 3: most VP wins, then most blue VP, else shared."""
    one, two = civilian_ranks(turn.state())
    winner: Player | None = None
    if one > two:  # (total VP, blue VP): most VP, then most blue VP
        winner = Player.P1
    elif one < two:
        winner = Player.P2
    win(turn, winner, Victory.CIVILIAN)
