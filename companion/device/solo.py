"""Solo: the box plays one side (`solo = "p1"` or `"p2"` in the configuration).

When the box is to act, the run loop asks the search for its move on a worker thread
(`wanted` says which answer is needed; `box_move` is the search). The idle screen then says
what the box takes and what it does with it ("Box: build Lumber Yard"); the human moves the
physical card and scans it, and that scan confirms the box's move (`check_scan`); another card
is refused in one line. In the wonder draft the box's pick (`draft_pick`: the search player's
draft ranking, instant, so no worker) is the only option once the round's wonders are scanned;
select (or a scan of that wonder, then select) gives it to the box. A decision of the rules
for the box (progress token, destroy, Mausoleum, Great Library after its draw is scanned, who
begins the next age) shows the box's answer as the only option, and select confirms it. The
box's move needs the deal of the age (a record's `deal`, given through the loop); until it is
known the screen says so. Pure: no I/O, no clock.

Pantheon: the box may activate a divinity (the scan of the card on that space of the Pantheon
confirms it) and answers the Pantheon's decisions; a draw (a Mythology deck's cards, Enki's
tokens, the Gate's cards) is chance, so the box waits for it as for the Great Library's,
unless the deck leaves a single draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.device import words
from companion.device.ui import Context, Mode, UiState
from companion.engine.cards import Catalog, TokenId, WonderId
from companion.engine.events import Activate, Event
from companion.engine.rules import draft_pickers, library_draw, unrevealed
from companion.engine.state import GameState, PendingKind, Phase
from companion.search.determinize import needs_deal
from companion.search.pantheon import CHANCE_DECISIONS, answers_drawn
from companion.search.player import Level, NoDecision, Ponder, draft_ranking, suggest
from companion.search.policy import acting_player

__all__ = [
    "Wanted",
    "box_acts",
    "box_move",
    "check_scan",
    "draft_pick",
    "hint",
    "table_known",
    "wanted",
]


@dataclass(frozen=True, slots=True)
class Wanted:
    """An answer the box needs: after `events` effective events, with the Great Library
    tokens `drawn` (empty for any other move)."""

    events: int
    drawn: tuple[str, ...] = ()


def box_acts(state: GameState, ctx: Context) -> bool:
    """Whether the box plays the side that acts now."""
    if ctx.box is None or state.phase is not Phase.PLAYING or state.finished:
        return False
    return acting_player(state) is ctx.box


def wanted(ui: UiState, state: GameState, ctx: Context) -> Wanted | None:
    """The answer the box needs on the screen `ui`, if any (None: not the box's turn, a
    Great Library draw still being scanned, or a card uncovered and not yet turned up: the
    box waits for it, as a player would)."""
    if not box_acts(state, ctx) or unrevealed(state):
        return None
    pending = state.pending
    if pending is not None and pending.kind is PendingKind.GREAT_LIBRARY:
        base = ui.under if ui.under is not None else ui
        if base.mode is not Mode.PROMPT or len(base.tokens) < library_draw(state):
            return None
        return Wanted(ctx.events, base.tokens)
    if pending is not None and pending.kind in CHANCE_DECISIONS:
        base = ui.under if ui.under is not None else ui
        drawn = base.tokens if base.mode is Mode.PROMPT else ()
        try:
            answers_drawn(state, pending, drawn or None)
        except ValueError:  # the draw is not known yet (or not a possible one)
            return None
        return Wanted(ctx.events, drawn)
    if pending is None and not table_known(state):
        return None
    return Wanted(ctx.events)


def draft_pick(ui: UiState, catalog: Catalog, ctx: Context, per_round: int) -> str | None:
    """The wonder the box takes in the draft screen `ui` (`per_round` wonders revealed a
    round): the best of those still offered by the search player's draft ranking, when the
    next pick is the box's and the round's wonders are all scanned; else None."""
    pickers = draft_pickers(catalog.rules, ui.first)
    if ctx.box is None or len(ui.picks) >= len(pickers) or pickers[len(ui.picks)] is not ctx.box:
        return None
    if ui.mode is not Mode.DRAFT or len(ui.revealed) < per_round:
        return None
    offered = [WonderId(w) for w in ui.revealed if w not in ui.picks]
    return draft_ranking(catalog, offered)[0] if offered else None


def table_known(state: GameState) -> bool:
    """Whether the structure of the age is known (its deal), which the box's move needs."""
    return state.structure is not None and not needs_deal(state)


def box_move(
    state: GameState,
    want: Wanted,
    level: Level,
    seed: int = 0,
    *,
    ponder: Ponder | None = None,
    played: Sequence[Event] = (),
) -> Event | None:
    """The box's move: the search's best answer (None when it has none, e.g. no deal); with
    `ponder`, the search that ran on the human's turn before they played `played`."""
    drawn: Sequence[TokenId] | None = tuple(TokenId(t) for t in want.drawn) or None
    try:
        if ponder is not None:
            answer = ponder.answer(played, state, level, seed, drawn=drawn)
        else:
            answer = suggest(state, level, seed, seconds=None, drawn=drawn)
    except NoDecision:
        return None
    return answer.moves[0].event if answer.moves else None


def hint(state: GameState, ctx: Context) -> str:
    """The idle screen's line on the box's turn: its move, or that it thinks."""
    if ctx.box_move is None:
        return words.THINKING if table_known(state) else words.BOX_NEEDS_TABLE
    return words.box_move(words.Voice.oled(state, ctx.language, ctx.names), ctx.box_move)


def check_scan(state: GameState, ctx: Context, card: str) -> Event | str:
    """A scan on the box's turn: the box's move when it is the box's card, else a refusal."""
    voice = words.Voice.oled(state, ctx.language, ctx.names)
    move = ctx.box_move
    if move is None:
        return words.BOX_THINKING if table_known(state) else words.BOX_NEEDS_TABLE
    wanted_card = getattr(move, "card", None)
    if isinstance(move, Activate) and state.pantheon is not None:  # the card on that space
        wanted_card = state.pantheon.spaces[move.space - 1]
    if card != wanted_card:
        return words.refusal(voice.name(card), words.NOT_THE_BOX_CARD)
    return move
