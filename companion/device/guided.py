"""Guided entry of an age's structure with the hand-held camera (issue 14, item 2).

At the start of an age the box asks for the face-up cards in layout order ("Row 3, card 2
of 4") and the player scans each; the face-down cards stay unknown, so the result is a
partial `Deal` (docs/game-record.md). In age 3 the box then asks, for face-down cards, whether
their back shows a guild, until the 3 guilds are placed. When a card is uncovered later,
`reveal_prompt` names the position to turn up and scan, and `reveal_event` makes the `Reveal`
of the card scanned. Skipping is allowed: the age then goes on in table mode (no deal).

Pure logic over the engine's state and events: the controller (`companion.device.controller`,
modes GUIDED and REVEAL) keeps what was entered as `UiState.dealt` and rebuilds a
`GuidedDeal` from it with `GuidedDeal.of`; nothing here draws or reads hardware. The words
come from `companion.device.words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.device import words
from companion.device.ui import Mode, UiState
from companion.engine.cards import MYTHOLOGIES, Card, CardId, Catalog
from companion.engine.events import GUILD_BACK, Deal, IllegalEvent, Reveal
from companion.engine.rules import unrevealed, was_taken
from companion.engine.state import GameState, Phase

PLAIN_BACK = "back"
"""An answer in `GuidedDeal.entries`: the face-down card asked shows an age 3 back."""
SKIP = "skip"
"""The value of the option that skips the guided entry of an age."""
TOKEN = "token:"
"""The prefix of an answer in `GuidedDeal.entries`: the Pantheon token on the card asked
("token:greek", "token:3")."""


def wants_deal(state: GameState, skipped: int) -> bool:
    """Whether the age waits for its structure: playing, no decision pending, not dealt, no
    card taken yet, and not skipped (`skipped` is the age the players skipped, 0 if none)."""
    return (
        state.phase is Phase.PLAYING
        and state.pending is None
        and state.structure is None
        and state.taken == 0
        and skipped != state.age
    )


@dataclass
class GuidedDeal:
    """The face-up cards of an age's structure, asked one by one in layout order."""

    catalog: Catalog
    age: int
    guild_backs: frozenset[int] = frozenset()
    """Age 3: the face-down positions whose back shows a guild (the player says so)."""
    cards: dict[int, CardId] = field(default_factory=dict)
    plain_backs: frozenset[int] = frozenset()
    """Age 3: the face-down positions the player said show an age 3 back."""
    pantheon: bool = False
    """A Pantheon game: its tokens on the marked cards are asked, and age 3 has no guilds."""
    tokens: dict[int, str] = field(default_factory=dict)
    """Pantheon: the token said to lie on each marked position (a mythology, or an Offering
    token's value)."""

    @classmethod
    def of(
        cls, catalog: Catalog, age: int, entries: tuple[str, ...], *, pantheon: bool = False
    ) -> GuidedDeal:
        """The guided deal after `entries` (the `entries` of an earlier one); `pantheon` for
        a game with the expansion.

        Raises:
            IllegalEvent: an entry the deal refuses.
        """
        guided = cls(catalog, age, pantheon=pantheon)
        for entry in entries:
            if entry.startswith(TOKEN):
                guided.answer_token(entry[len(TOKEN) :])
            elif entry in (GUILD_BACK, PLAIN_BACK):
                guided.answer_back(guild=entry == GUILD_BACK)
            else:
                guided.scan(entry)
        return guided

    @property
    def entries(self) -> tuple[str, ...]:
        """What was entered, in the order asked: the cards, then age 3's answers."""
        cards = tuple(self.cards[i] for i in self.wanted if i in self.cards)
        backs = tuple(
            GUILD_BACK if i in self.guild_backs else PLAIN_BACK
            for i in self._face_down
            if i in self.guild_backs or i in self.plain_backs
        )
        tokens = tuple(TOKEN + self.tokens[i] for i in self.token_positions if i in self.tokens)
        return cards + backs + tokens

    @property
    def token_positions(self) -> tuple[int, ...]:
        """Pantheon: the marked positions of this age that hold a token (none in age 3)."""
        rules = self.catalog.pantheon
        if not self.pantheon or rules is None:
            return ()
        return {1: rules.mythology_positions, 2: rules.offering_positions}.get(self.age, ())

    @property
    def next_token(self) -> int | None:
        """Pantheon, once the cards are in: the marked position whose token is asked."""
        if self.next_position is not None:
            return None
        return next((i for i in self.token_positions if i not in self.tokens), None)

    def token_choices(self) -> tuple[str, ...]:
        """The tokens that can still lie on the position asked: the mythologies of which
        fewer than 2 are placed (Age I), the Offering tokens not placed (Age II)."""
        rules = self.catalog.pantheon
        if rules is None or self.next_token is None:
            return ()
        placed = list(self.tokens.values())
        if self.age == 1:
            limit = rules.mythology_tokens_per_mythology
            return tuple(m for m in MYTHOLOGIES if placed.count(m) < limit)
        return tuple(str(v) for v in rules.offering_tokens if str(v) not in placed)

    def answer_token(self, token: str) -> None:
        """Pantheon: say which token lies on the marked card asked.

        Raises:
            IllegalEvent: no token is asked, or that token cannot lie there.
        """
        index = self.next_token
        if index is None or token not in self.token_choices():
            raise IllegalEvent(self.prompt())
        self.tokens[index] = token

    @property
    def wanted(self) -> list[int]:
        """The face-up positions, in layout order."""
        return [p.index for p in self.catalog.layout(self.age).positions if p.face_up]

    @property
    def _face_down(self) -> list[int]:
        return [p.index for p in self.catalog.layout(self.age).positions if not p.face_up]

    @property
    def next_position(self) -> int | None:
        """The position asked for now, None once every face-up card is scanned."""
        return next((i for i in self.wanted if i not in self.cards), None)

    @property
    def _guilds_missing(self) -> int:
        if self.age != 3:
            return 0
        # with Pantheon the 3 Grand Temples take the guilds' place, their backs as marked
        face_up = sum(_purple_back(self.catalog.card(c)) for c in self.cards.values())
        return self.catalog.rules.guilds_in_age_3 - face_up - len(self.guild_backs)

    @property
    def _unanswered(self) -> list[int]:
        answered = self.guild_backs | self.plain_backs
        return [i for i in self._face_down if i not in answered]

    @property
    def next_back(self) -> int | None:
        """Age 3, once the face-up cards are in: the face-down position whose back is asked
        (None when the guilds are all placed, or the ones left must all be guilds)."""
        if self.age != 3 or self.next_position is not None:
            return None
        unanswered, missing = self._unanswered, self._guilds_missing
        if missing <= 0 or len(unanswered) <= missing:
            return None
        return unanswered[0]

    @property
    def done(self) -> bool:
        """Every face-up card has been scanned and every question answered."""
        return self.next_position is None and self.next_back is None and self.next_token is None

    def prompt(self) -> str:
        """What the OLED asks: "Scan row 3, card 2 of 4", the back of a face-down card of age
        3, or that the deal is complete."""
        index = self.next_position
        if index is not None:
            return words.scan_place(words.place(self.catalog, self.age, index))
        back = self.next_back
        if back is not None:
            return words.back_question(words.place(self.catalog, self.age, back))
        token = self.next_token
        if token is not None:
            return words.token_question(words.place(self.catalog, self.age, token))
        return words.age_entered(self.age)

    def titles(self) -> tuple[str, str]:
        """The screen's title and subtitle: "Age 1: 3/12 cards" and the prompt, or age 3's
        question for a back ("Age 3: which back?", "Row 2, card 1 of 3")."""
        if (back := self.next_back) is not None:
            return words.BACK_TITLE, words.place(self.catalog, self.age, back)
        if (token := self.next_token) is not None:
            return words.token_title(self.age), words.place(self.catalog, self.age, token)
        return words.guided_title(self.age, len(self.cards), len(self.wanted)), self.prompt()

    def scan(self, card_id: str) -> None:
        """Take the scanned card for the position asked.

        Raises:
            IllegalEvent: not a card, of another age, already scanned for this deal, or no
                card is asked (complete, or age 3's backs are asked).
        """
        index = self.next_position
        if index is None:
            raise IllegalEvent(words.BACK_FIRST if self.next_back else self.prompt())
        if not self.catalog.is_card(card_id):
            name = self.catalog.short_name(card_id)
            raise IllegalEvent(words.refusal(name, words.NOT_AN_AGE_CARD))
        card = self.catalog.card(card_id)
        name = self.catalog.short_name(card.id)
        if card.age != self.age:
            raise IllegalEvent(words.refusal(name, words.other_age(card.age)))
        if card.id in self.cards.values():
            raise IllegalEvent(words.refusal(name, words.ALREADY_SCANNED))
        self.cards[index] = card.id

    def answer_back(self, *, guild: bool) -> None:
        """Age 3: say whether the face-down card asked shows a guild's back.

        Raises:
            IllegalEvent: no back is asked now.
        """
        index = self.next_back
        if index is None:
            raise IllegalEvent(self.prompt())
        if guild:
            self.guild_backs |= {index}
        else:
            self.plain_backs |= {index}

    def undo(self) -> None:
        """Forget the last card scanned (nothing when none is)."""
        if self.cards:
            del self.cards[max(self.cards, key=self.wanted.index)]

    def deal(self) -> Deal:
        """The partial deal: the cards scanned, None (or the guild marker) face down; in age 3
        the face-down cards not asked about are guilds when guilds are still missing.

        Raises:
            IllegalEvent: not every face-up card has been scanned.
        """
        if not self.done:
            raise IllegalEvent(words.not_complete(self.prompt()))
        guilds = self.guild_backs
        if self._guilds_missing > 0:
            guilds |= frozenset(self._unanswered)
        layout: list[CardId | None] = []
        for p in self.catalog.layout(self.age).positions:
            if p.face_up:
                layout.append(self.cards[p.index])
            else:
                layout.append(GUILD_BACK if p.index in guilds else None)
        tokens = tuple(self.tokens[i] for i in self.token_positions)
        return Deal(self.age, tuple(layout), tokens)


def deal_entries(catalog: Catalog, deal: Deal) -> tuple[str, ...]:
    """The face-up cards of `deal` in the order a guided entry asks for them, then its
    Pantheon tokens."""
    layout = catalog.layout(deal.age).positions
    cards = tuple(str(card) for p, card in zip(layout, deal.layout, strict=True) if p.face_up)
    return cards + tuple(TOKEN + token for token in deal.tokens)


def reveal_position(state: GameState) -> int | None:
    """The first position uncovered whose card is not named yet (None: nothing waits)."""
    waiting = unrevealed(state)
    return waiting[0] if waiting else None


def reveal_prompt(state: GameState) -> str | None:
    """What to ask when a face-down card has been uncovered and not yet named: "Turn up
    row 4, card 2 of 5 and scan it"; None when nothing waits."""
    index = reveal_position(state)
    if index is None:
        return None
    return words.turn_up(words.place(state.catalog, state.age, index))


def asked(state: GameState, screen: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """What the box asks the players about the structure now, as a title and a sentence, for
    the phone's live page (the OLED's words): the guided entry's next card ("Age 1: 3/12
    cards", "Scan row 2, card 1 of 3") from the device's saved `screen` (the journal's meta),
    or the card uncovered to turn up; None when nothing is asked."""
    if (prompt := reveal_prompt(state)) is not None:
        return words.REVEAL_TITLE, prompt
    try:
        ui = UiState.from_json(screen) if screen else None
    except ValueError:
        return None
    while ui is not None and ui.under is not None:
        ui = ui.under  # the button map or the phone's address over the entry
    if ui is None or ui.mode is not Mode.GUIDED or not wants_deal(state, ui.skipped):
        return None
    try:
        entry = GuidedDeal.of(state.catalog, state.age, ui.dealt, pantheon=played(state))
    except IllegalEvent:
        entry = GuidedDeal(state.catalog, state.age, pantheon=played(state))
    return entry.titles()


def _purple_back(card: Card) -> bool:
    """Whether a card of age 3 shows the marked back: a guild, or a Pantheon Grand Temple."""
    return card.is_guild or card.is_temple


def played(state: GameState) -> bool:
    """Whether the game is played with the Pantheon expansion."""
    return state.pantheon is not None


def reveal_refusal(state: GameState, card_id: str, name: str) -> str | None:
    """Why the scanned card cannot be the one turned up, in one short line (None when the
    engine is left to check it): another age, played, face up elsewhere, the wrong back."""
    index = reveal_position(state)
    structure = state.structure
    catalog = state.catalog
    if index is None or structure is None or not catalog.is_card(card_id):
        return None
    card = catalog.card(card_id)
    if card.age != state.age:
        return words.refusal(name, words.other_age(card.age))
    if was_taken(state, card.id):
        return words.refusal(name, words.ALREADY_PLAYED)
    if card.id in structure.cards:
        return words.refusal(name, words.FACE_UP_ELSEWHERE)
    if _purple_back(card) != (structure.cards[index] == GUILD_BACK):
        return words.refusal(name, words.A_GUILD if card.is_guild else words.NOT_A_GUILD)
    return None


def reveal_event(state: GameState, card_id: str) -> Reveal:
    """The `Reveal` of a scanned card for the first position waiting (the engine checks it).

    Raises:
        IllegalEvent: no position waits to be named.
    """
    index = reveal_position(state)
    if index is None:
        raise IllegalEvent(words.NOTHING_TO_REVEAL)
    return Reveal(index, CardId(card_id))
