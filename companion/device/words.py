"""Every sentence the companion says, for the OLED and the phone pages alike.

Events, amounts of coins, prices and refusals are put into words here and nowhere else:
the OLED presenter, the controller and `web/present.py` all call these functions, so the
phone's log and the box's feedback screen say the same thing in the same words. The only
difference is the naming: the OLED uses the short names of `names.toml` ("Great Library"),
the pages the full ones ("The Great Library"); a `Voice` carries that choice and the
players' names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.engine.cards import Catalog
from companion.engine.events import (
    Activate,
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Deal,
    Destroy,
    Discard,
    DiscardFromStructure,
    Event,
    GateActivation,
    HadesBuild,
    IsisWonder,
    KeepLibraryToken,
    NeptuneLoot,
    PlaceDivinity,
    PlaceMinerva,
    PlaceSnake,
    Reveal,
    Setup,
    StealCard,
    StealWonder,
    TakeEnkiToken,
    TakeProgress,
    TheaterActivation,
    UnbuildWonder,
)
from companion.engine.plural import plural
from companion.engine.pricing import Payment
from companion.engine.state import GameState, PendingKind, Phase, Player
from companion.engine.structure import place_name
from companion.family.pad import nothing_scored
from companion.family.scoring import Result as PadResult

DEFAULT_NAMES = ("Player 1", "Player 2")
SHARED = "Shared victory"
"""A victory nobody won alone, in Duel and on a score pad alike."""

VICTORIES = {
    "military": "military supremacy",
    "science": "scientific supremacy",
    "civilian": "civilian victory",
}

# --- what to do next ------------------------------------------------------------------------

PLAYERS = "Players"  # the ready screen's option to name the players, and its title
UNNAMED = "unnamed"  # the last name offered: the side plays without a name
NEW_NAMES = "Add names: phone, Players"  # under unnamed: where a new name is typed
IDLE_HINT = "scan a card"  # after the player's name: "Ann: scan a card"
SEE_PHONE = "right: address and QR"  # on the button map, under the pairing code
RENEW_CODE = "left: renew"  # on the phone screen: a new pairing code (phones ask again)
CODE_RENEWED = "New code"  # the phone screen's notice once the pairing code was renewed
SEE_COACH = "left: coach"  # on the button map during a game
SEE_BOTH = "left: coach  right: phone"  # both, when the phone pages are served
THINKING = "Thinking\u2026"  # the coach while the search runs
NO_ADVICE = "Nothing to advise"  # the coach's subtitle when the search has no move
COACH_NEEDS_DEAL = (  # the coach without the age's cards: what the players can do about it
    "Needs the cards of age {age}: play with guided entry (or the overhead camera)"
)
BOX = "Box"  # the side the box plays in a solo game, on the idle screen
BOX_THINKING = "The box is thinking"
BOX_TAKES = "Box takes:"  # the draft screen's subtitle on the box's pick
BOX_PICK_NOTE = "select = for the box"  # the bottom line under the box's pick
BOX_NEEDS_TABLE = "needs the deal"  # after "Box: ", when the age's structure is unknown
NEW_GAME_QUESTION = (
    "Leave this result?",
    "It stays in the history.",
    "select: new game",
    "left/right: stay",
)

# --- refusals: one wording each, shown on the OLED's bottom line (25 characters) -----------

SCAN_FIRST = "Scan a card first"
NOTHING_TO_UNDO = "Nothing to undo"
UNKNOWN_CODE = "Unknown QR code"
FINISH_SETUP = "Finish the setup first"
GAME_OVER = "The game is over"
SETUP_UNDONE = "Setup undone"
NOT_SAVED = "Journal error: not saved"
NOT_UNDONE = "Journal error: not undone"
NOT_NAMED = "Journal error: not named"
NOT_A_TOKEN = "not a progress token"
NOT_A_WONDER = "not a wonder"
NOT_AN_AGE_CARD = "not an age card"
ALREADY_SCANNED = "already scanned"
ALREADY_DRAWN = "already drawn"
ALREADY_PLAYED = "already played"
NOT_ON_OFFER = "not on offer"
NOT_THE_BOX_CARD = "not the box's card"  # solo: another card scanned on the box's turn
NOT_THE_BOX_PICK = "not the box's pick"  # solo: another wonder scanned on the box's pick
CANNOT_BE_DRAWN = "cannot be drawn"
NOT_A_CHOICE = "not a choice here"
NOT_YOUR_WONDER = "not your wonder"
PANTHEON_DRAFT = "Pantheon draft"  # the wonder setup's option for a game with the expansion
PANTHEON_NOTE = "with the expansion"
PANTHEON_GUIDED = "asks each age's cards"  # its note in table mode: the ages entered by scans
NOTHING_TO_ACTIVATE = "Nothing to activate here"  # the Pantheon board: empty, or age 1
PANTHEON_TITLE = "Pantheon"  # the board's screen
NOT_IN_THIS_GAME = "not in this game"  # a Pantheon card scanned in a game without it
NOT_ON_THE_PANTHEON = "not on the Pantheon"  # a divinity in a deck or already activated
FROM_AGE_2 = "from age 2 on"  # a divinity scanned to activate it in age 1


def refusal(name: str, reason: str) -> str:
    """A refusal about a scanned card, wonder or token: "Baths: already played" (the
    screen shortens the name, never the reason)."""
    return f"{name}: {reason}"


def other_age(age: int) -> str:
    """The reason a card of another age is refused: "age 2 card"."""
    return f"age {age} card"


def not_affordable(cost: int, has: int) -> str:
    """The one refusal of a build or wonder the player cannot pay: "Costs 9 coins, has 6"."""
    return f"Costs {coins(cost)}, has {has}"


# --- guided entry of a structure (docs/device.md, "Guided entry") ------------------------

GUIDED_SKIP = "Skip: no deal"  # the option that leaves the age in table mode
PLAIN_BACK = "Age 3 back"  # the answers for a face-down card of age 3
GUILD_BACK = "Guild back"
TEMPLE_BACK = "Temple back"  # Pantheon: the Grand Temples take the guilds' place and back
REVEAL_TITLE = "Card uncovered"
REVEAL_ASK = "Turn it up and scan it:"
NOTHING_TO_REVEAL = "No card waits to be turned up"
BACK_FIRST = "Answer for the back first"
BACK_TITLE = "Age 3: which back?"
FACE_UP_ELSEWHERE = "already face up"
NOT_A_GUILD = "not a guild"
A_GUILD = "a guild"


def place(catalog: Catalog, age: int, index: int) -> str:
    """A layout position as the OLED asks for it: "Row 3, card 2 of 4"."""
    positions = catalog.layout(age).positions
    row = positions[index].row
    same_row = [p.index for p in positions if p.row == row]
    return f"Row {row}, card {same_row.index(index) + 1} of {len(same_row)}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def scan_place(where: str) -> str:
    """What to scan next in a guided deal: "Scan row 3, card 2 of 4"."""
    return f"Scan {_lower_first(where)}"


def age_entered(age: int) -> str:
    """A guided deal with every face-up card scanned: "Age 2 entered"."""
    return f"Age {age} entered"


def not_complete(asked: str) -> str:
    """A guided deal submitted too early: "Not complete: Scan row 3, card 1 of 4"."""
    return f"Not complete: {asked}"


def guided_title(age: int, scanned: int, face_up: int) -> str:
    """The title of a guided deal: "Age 1: 3/11 cards"."""
    return f"Age {age}: {scanned}/{face_up} cards"


def back_question(where: str) -> str:
    """Age 3's question for a face-down card: "Row 2, card 1 of 3: back?"."""
    return f"{where}: back?"


def token_title(age: int) -> str:
    """The guided entry's question for a Pantheon token: "Age 1: which token?"."""
    return f"Age {age}: which token?"


def token_question(where: str) -> str:
    """What the OLED asks for a marked card: "Token on row 2, card 1 of 3?"."""
    return f"Token on {_lower_first(where)}?"


def token_name(token: str) -> str:
    """A Pantheon token on a card, as an option: "Greek", "Offering 3"."""
    return f"Offering {token}" if token.isdigit() else token.capitalize()


def turn_up(where: str) -> str:
    """A card uncovered, in one sentence: "Turn up row 4, card 2 of 5 and scan it"."""
    return f"Turn up {_lower_first(where)} and scan it"


# --- at the table with the overhead camera (docs/device.md, "Overhead camera") ----------

STILL_COVERED = "still covered"  # a card taken that was not accessible: "Baths: still covered"
FINISH_CHOICE = "Finish the choice first"  # a card taken while a decision of the rules waits
CAMERA_READS_DEAL = "or let the camera read it"  # under the guided entry's prompt
# the position the screen asks for is one the view from above cannot tell (a hand, glare, a
# card laid over its sticker): the phone's live page shows the view, outlined
CAMERA_CANNOT_TELL = "Camera can't tell it"


CARDS_NOT_KNOWN = "cards to take not known (no deal entered)"  # the live page in table mode


def to_take(count: int) -> str:
    """The list of accessible cards between turns: "5 cards to take"."""
    return f"{plural(count, 'card')} to take"


def cards_gone(count: int) -> str:
    """More than one card left the structure at once: "2 cards gone: put 1 back"."""
    return f"{count} cards gone: put {count - 1} back"


def unclear(catalog: Catalog, age: int, indices: Sequence[int]) -> str:
    """The positions the players may take a card from that the camera cannot tell, so that
    a card taken there is scanned by hand: "Row 3, card 2: scan it" for one, "3
    places unclear" for more ("" for none; the status line holds 23 characters)."""
    if not indices:
        return ""
    if len(indices) == 1:
        where = place_name(catalog.layout(age), indices[0])
        return f"{where[:1].upper()}{where[1:]}: scan it"
    return f"{len(indices)} places unclear"


# --- coins and prices ------------------------------------------------------------------------


def coins(amount: int, signed: bool = False) -> str:
    """'1 coin', '3 coins'; with signed=True '+2 coins', '-1 coin'."""
    return plural(amount, "coin", signed=signed)


def price(payment: Payment) -> tuple[str, str]:
    """The price beside an option ("3 coins", "free", "chain") and the note of what is
    bought ("buys 1 wood 2 glass"), from the engine's cheapest payment."""
    if payment.chain:
        return "chain", "Free through a chain"
    if payment.total == 0:
        return "free", ""
    bought = " ".join(f"{units} {resource}" for resource, units, _ in payment.bought)
    return coins(payment.total), f"buys {bought}" if bought else ""


# --- who and what ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Voice:
    """How a sentence names things: the players' names (player 1's first) and a card,
    wonder or token id's name (short on the OLED, full on the pages)."""

    players: tuple[str, str]
    name: Callable[[str], str]

    @classmethod
    def oled(
        cls, state: GameState, language: str = "en", given: tuple[str, str] = ("", "")
    ) -> Voice:
        """The OLED's voice: the names given on the phone (`given`, player 1's first; ""
        where none), else from the setup; short names for ids."""
        catalog = state.catalog
        named = player_names(state, {"p1": given[0], "p2": given[1]})
        return cls(named, lambda any_id: catalog.short_name(any_id, language))

    @classmethod
    def page(
        cls, state: GameState, language: str = "en", given: Mapping[str, str] | None = None
    ) -> Voice:
        """The pages' voice: names set from a phone (`given`, "p1"/"p2"), else from the
        setup; full names for ids."""
        catalog = state.catalog
        return cls(player_names(state, given), lambda any_id: catalog.name(any_id, language))

    def player(self, who: Player) -> str:
        """The name of `who`."""
        return self.players[0 if who is Player.P1 else 1]


def player_names(state: GameState, given: Mapping[str, str] | None = None) -> tuple[str, str]:
    """Both players' names: `given` ("p1"/"p2"), else the setup's, else Player 1 / Player 2."""
    chosen = given or {}
    return (
        chosen.get("p1") or state.names[0] or DEFAULT_NAMES[0],
        chosen.get("p2") or state.names[1] or DEFAULT_NAMES[1],
    )


def sides(names: tuple[str, str]) -> tuple[str, str]:
    """The names of a new game's sides: an unnamed one ("") is Player 1 / Player 2."""
    return names[0] or DEFAULT_NAMES[0], names[1] or DEFAULT_NAMES[1]


def versus(names: tuple[str, str]) -> str:
    """The two sides of a new game: "Ann vs Player 2"."""
    return " vs ".join(sides(names))


def who_is(side: int) -> str:
    """The question of the name list: "Who is Player 1?"."""
    return f"Who is {DEFAULT_NAMES[side]}?"


# --- events ----------------------------------------------------------------------------------


def event_line(voice: Voice, state: GameState, event: Event) -> str:
    """One line for an event, e.g. "Ann builds Lumber Yard"; `state` is the state right after
    it (the undo question, the feedback and the log all have it)."""
    name = voice.name
    actor = getattr(event, "player", None)
    who = voice.player(actor) if isinstance(actor, Player) else ""
    match event:
        case Setup():
            return f"Setup: {voice.player(event.first_player)} begins"
        case Deal():
            return f"Age {event.age} dealt"
        case Build():
            return f"{who} builds {name(event.card)}"
        case Discard():
            return f"{who} discards {name(event.card)}"
        case BuildWonder():
            return f"{who} builds {name(event.wonder)} with {name(event.card)}"
        case TakeProgress():
            return f"{who} takes {name(event.token)}"
        case KeepLibraryToken():
            return f"{who} keeps {name(event.token)}"
        case Destroy():
            return f"{who} destroys {name(event.card)}"
        case BuildFromDiscard():
            return f"{who} builds {name(event.card)} from the discard pile"
        case ChooseStarter():
            return f"{voice.player(event.starter)} begins age {state.age}"
        case Reveal():
            return f"Turned up: {name(event.card)}"
    return _pantheon_line(voice, state, event, who)


def _pantheon_line(voice: Voice, state: GameState, event: Event, who: str) -> str:
    """The line of a Pantheon event (`state`: right after it)."""
    name = voice.name
    match event:
        case PlaceDivinity():
            return f"{who} puts a divinity on space {event.space}"  # hidden until Age II
        case Activate():
            return f"{who} activates space {event.space}"
        case TakeEnkiToken():
            return f"{who} keeps {name(event.token)}"
        case PlaceSnake():
            return f"{who} puts the Snake on {name(event.card)}"
        case StealCard():
            return f"{who} takes {name(event.card)}"
        case HadesBuild():
            return f"{who} builds {name(event.card)} from the discard pile"
        case DiscardFromStructure():
            return f"{who} discards a card of the structure"
        case UnbuildWonder():
            return f"{who} unbuilds {name(event.wonder)}"
        case IsisWonder():
            return f"{who} builds {name(event.wonder)} with {name(event.card)}"
        case StealWonder():
            return f"{who} takes {name(event.wonder)}"
        case PlaceMinerva():
            return f"{who} puts Minerva {track_space(voice, event.position)}"
        case NeptuneLoot():
            return f"{who} removes {loot_token(voice, state, event.discarded)}"
        case GateActivation() | TheaterActivation():
            return f"{who} activates {name(event.divinity)}"
    return f"{who} {event.type}".strip()  # pragma: no cover - every event is named above


def track_space(voice: Voice, position: int) -> str:
    """A space of the military track: "in the middle", "3 toward Ben"."""
    if position == 0:
        return "in the middle"
    toward = Player.P2 if position > 0 else Player.P1  # + is p2's way
    return f"{abs(position)} toward {voice.player(toward)}"


def loot_token(voice: Voice, state: GameState, signed: int) -> str:
    """A loot token by what it takes and from whom: "Ben's 5-coin loot"."""
    owner, amount = loot_of(voice, state, signed)
    return f"{owner}'s {amount}-coin loot"


def loot_of(voice: Voice, state: GameState, signed: int) -> tuple[str, int]:
    """Whose coins the loot token at the signed distance `signed` takes, and how many."""
    zone = state.catalog.track.loot_token_at(signed)
    amount = zone.loot if zone is not None else abs(signed)
    owner = Player.P2 if signed > 0 else Player.P1  # a token on p2's side takes p2's coins
    return voice.player(owner), amount


def offering_label(offerings: tuple[int, ...]) -> str:
    """An activation's label by the Offering tokens handed in: "Activate", "Offer 2+4"."""
    if not offerings:
        return "Activate"
    return "Offer " + "+".join(str(value) for value in offerings)


def box_draw(kind: PendingKind, scanned: int, count: int, mythology: str = "") -> tuple[str, str]:
    """Solo: the title and subtitle asking the human to draw from a face-down pile for the
    box and scan what comes out (`scanned` of `count` so far): "Box: Greek" over
    "Draw 2, scan 1/2"; the Gate's top cards, Enki's tokens, the Great Library's draw."""
    step = f"{scanned + 1}/{count}"
    match kind:
        case PendingKind.DIVINITY:
            return f"{BOX}: {mythology.capitalize()}", f"Draw {count}, scan {step}"
        case PendingKind.GATE:
            return f"{BOX}: the Gate", f"Turn up {count}, scan {step}"
        case PendingKind.ENKI:
            return f"{BOX}: Enki", f"Scan its tokens {step}"
    return f"{BOX}: Great Library", f"Draw {count}, scan {step}"


def box_put_back(voice: Voice, event: Event) -> str:
    """Solo: where the cards the box drew and did not keep go, under its answer (one short
    line): "put Anubis back" (on top of its deck, face down), "activate; rest back" (the
    Gate); "" for an answer that leaves none (the Divine Theater's answer keeps its
    mythology, the deck to look through)."""
    match event:
        case PlaceDivinity():
            others = [d for d in event.drawn if d != event.divinity]
            return f"put {voice.name(others[0])} back" if others else ""
        case GateActivation():
            return "activate; rest back" if len(event.revealed) > 1 else ""
    return ""


def pantheon_space(voice: Voice, space: int, card: str | None, hidden: str | None) -> str:
    """A space of the Pantheon board: "5 Hades", "2 Greek?" for a divinity still face down
    (`hidden`: its mythology), "4 empty"."""
    if card is None:
        return f"{space} empty"
    if hidden is not None:
        return f"{space} {hidden.capitalize()}?"
    return f"{space} {voice.name(card)}"


def move_label(voice: Voice, event: Event) -> str:
    """A move proposed, not yet made, in a few words (the coach and the solo box's turn):
    "Build Lumber Yard", "Pyramids with Baths", "Take Law", "Ben begins"."""
    name = voice.name
    match event:
        case Build():
            return f"Build {name(event.card)}"
        case Discard():
            return f"Discard {name(event.card)}"
        case BuildWonder():
            return f"{name(event.wonder)} with {name(event.card)}"
        case TakeProgress() | KeepLibraryToken():
            return f"Take {name(event.token)}"
        case Destroy():
            return f"Destroy {name(event.card)}"
        case BuildFromDiscard():
            return f"Rebuild {name(event.card)}"
        case ChooseStarter():
            return f"{voice.player(event.starter)} begins"
    return _pantheon_move(voice, event)


def _pantheon_move(voice: Voice, event: Event) -> str:
    """A Pantheon move proposed, in a few words: "Activate space 5, offer 2+4"."""
    name = voice.name
    match event:
        case Activate():
            offer = f", {offering_label(event.offerings).lower()}" if event.offerings else ""
            return f"Activate space {event.space}{offer}"
        case PlaceDivinity():
            return f"{name(event.divinity)} on space {event.space}"
        case TakeEnkiToken():
            return f"Take {name(event.token)}"
        case PlaceSnake():
            return f"Snake on {name(event.card)}"
        case StealCard() | StealWonder():
            return f"Take {name(event.card if isinstance(event, StealCard) else event.wonder)}"
        case HadesBuild():
            return f"Rebuild {name(event.card)}"
        case UnbuildWonder():
            return f"Unbuild {name(event.wonder)}"
        case IsisWonder():
            return f"{name(event.wonder)} with {name(event.card)}"
        case PlaceMinerva():
            return f"Minerva {track_space(voice, event.position)}"
        case GateActivation() | TheaterActivation():
            return f"Activate {name(event.divinity)}"
    return event.type  # Zeus's position and Neptune's tokens need the board: said by type


def box_move(voice: Voice, event: Event) -> str:
    """What the box does in a solo game, after "Box: ": "build Lumber Yard", "discard Baths",
    "Pyramids with Stable" (a wonder: its name first, so that the line fits), "take Law"."""
    label = move_label(voice, event)
    if isinstance(event, BuildWonder):
        return label
    return label[:1].lower() + label[1:]


def told(voice: Voice, before: GameState, after: GameState, event: Event) -> tuple[str, ...]:
    """What an event did, in short lines: the event, then coins, the pawn, the coins a loot
    token took ("Loot: Ben -2 coins"), progress tokens taken by effects, and what happens
    next."""
    lines = [event_line(voice, after, event)]
    if isinstance(event, Setup):
        tokens = ", ".join(voice.name(t) for t in event.progress_tokens)
        return (*lines, f"Progress tokens: {tokens}")
    looted = _looted(before, after)
    for player in Player:
        delta = after.city(player).coins - before.city(player).coins
        loot = max(delta, -looted[player]) if delta < 0 else 0
        if delta - loot:
            lines.append(f"{voice.player(player)} {coins(delta - loot, signed=True)}")
    if after.position != before.position:
        moved = abs(after.position - before.position)
        toward = Player.P2 if after.position > before.position else Player.P1  # + is p2's way
        lines.append(f"Pawn {moved} toward {voice.player(toward)}")
    for player in Player:
        delta = after.city(player).coins - before.city(player).coins
        if looted[player]:
            loot = max(delta, -looted[player]) if delta < 0 else 0
            taken = coins(loot, signed=True) if loot else "has no coins"
            lines.append(f"Loot: {voice.player(player)} {taken}")
    if not isinstance(event, TakeProgress | KeepLibraryToken):
        for player in Player:
            for token in sorted(after.city(player).tokens - before.city(player).tokens):
                lines.append(f"{voice.player(player)} takes {voice.name(token)}")
    lines.extend(_what_next(voice, before, after, event))
    return tuple(lines)


def _looted(before: GameState, after: GameState) -> dict[Player, int]:
    """The coins of the loot tokens each player's side of the track lost in one event."""
    track = after.catalog.track
    looted = dict.fromkeys(Player, 0)
    for signed in before.loot - after.loot:
        zone = track.loot_token_at(signed)
        if zone is not None:
            looted[Player.P1 if signed < 0 else Player.P2] += zone.loot
    return looted


def _what_next(voice: Voice, before: GameState, after: GameState, event: Event) -> list[str]:
    if after.phase is Phase.FINISHED:
        return [result(voice, after)]
    if after.pending is not None:
        if after.pending.kind is PendingKind.NEXT_AGE:
            return [f"End of age {before.age}"]
        return []
    if after.age != before.age and not isinstance(event, ChooseStarter):
        return [f"Age {after.age}: {voice.player(after.current)} begins"]
    actor = getattr(event, "player", None)
    if actor is not None and after.current == actor and not isinstance(event, ChooseStarter):
        return [f"Extra turn: {voice.player(actor)}"]
    return []


def log_text(lines: tuple[str, ...]) -> str:
    """The told lines as one log entry: "Ann builds Garrison (Ann -2 coins; Pawn 1 toward
    Ben)"."""
    first, rest = lines[0], lines[1:]
    return f"{first} ({'; '.join(rest)})" if rest else first


def undone(line: str) -> str:
    """The log entry of an undo: "Undone: Ann builds Lumber Yard"."""
    return f"Undone: {line}"


def result(voice: Voice, state: GameState) -> str:
    """ "Ann wins: military supremacy", or "Shared victory"."""
    if state.shared or state.winner is None:
        return SHARED
    victory = state.victory.value if state.victory is not None else ""
    return winner_text(voice.player(state.winner), victory)


def winner_text(winner: str, victory: str | None) -> str:
    """ "Ann wins: civilian victory" from a winner's name and the victory's kind."""
    kind = VICTORIES.get(str(victory), "")
    return f"{winner} wins: {kind}" if kind else f"{winner} wins"


def tie_broken(total: int, winner: str, on: str, won: int, lost: int) -> str:
    """ "Tie on 38: Bob wins on coins, 9 to 5": a tie on points that `on` decides."""
    return f"Tie on {total}: {winner} wins on {on}, {won} to {lost}"


PAD_PROMPT = "Enter the cities to see who wins."
"""The score pad's winner line while every score is still 0."""


def pad_winner(result: PadResult) -> str:
    """The winner line of a score pad (base game, Edifice, Dice): "Winner: Bob", "Tie on 38:
    Bob wins on coins, 9 to 5", "Shared victory: Ann, Bob", or a prompt while every score is
    still 0 (a blank pad has no winner)."""
    if nothing_scored(result):
        return PAD_PROMPT
    if len(result.winners) > 1:
        return f"{SHARED}: " + ", ".join(result.winners)
    winner = next(p for p in result.ranked if p.name == result.winners[0])
    tied = [p for p in result.ranked if p.total == winner.total and p is not winner]
    if tied:
        lost = max(p.coins for p in tied)
        return tie_broken(winner.total, winner.name, "coins", winner.coins, lost)
    return f"Winner: {winner.name}"


# --- reading the cities of a 7 Wonders base game (companion.device.family_scan) -------------

CITY_READING_HINT = "select: next  hold: undo"  # the reading screen's bottom line
ALL_CITIES_READ = "All cities read"
CHECK_THE_PHONE = "See the phone; left: back"
NO_CARD_TO_REMOVE = "No card to remove"
NOT_A_BASE_GAME_CARD = "Not a 7 Wonders card"


def city_of(name: str) -> str:
    """ "Ann's city" (a name ending in s takes the apostrophe alone: "Jens' city")."""
    return f"{name}' city" if name.endswith("s") else f"{name}'s city"


def cards_count(count: int) -> str:
    """ "1 card", "7 cards"."""
    return plural(count, "card")


def reading_city(name: str, count: int) -> str:
    """What the phone and the log say while a city is read: "Reading Ann's city: 7 cards"."""
    return f"Reading {city_of(name)}: {cards_count(count)}"


def already_read(card: str) -> str:
    """A card scanned twice into one city."""
    return f"Already read: {card}"


def guild_taken(card: str, name: str) -> str:
    """A guild (the game has one of each) already read in another player's city."""
    return f"{name} has {card}"


def card_removed(card: str) -> str:
    """After a long press took the last card back."""
    return f"Removed: {card}"
