"""A recorded game played through the whole device, as players at a table would.

`TablePlayer` looks at the screen and decides the next input (a scan or a button press) that
plays a game record; `Camera` turns the scans into frames read by the real QR decoder and
tracker; `FrameRecorder` keeps the screens; `play` runs them against the run loop's `App`.
`duel-companion demo`, the device tests and the service benchmark all use them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from importlib import resources
from pathlib import Path
from typing import Any

from PIL import Image

from companion.device.choices import entered, is_scanning, options
from companion.device.guided import PLAIN_BACK, SKIP, TOKEN
from companion.device.overhead import known_cards, taken_cards
from companion.device.ui import Context, Mode, UiState
from companion.device.words import Voice, result
from companion.engine.events import (
    GUILD_BACK,
    Activate,
    BuildWonder,
    Deal,
    Discard,
    Event,
    GateActivation,
    RecordError,
    Reveal,
    Setup,
    event_from_record,
    event_to_record,
)
from companion.engine.events import Build as BuildCard
from companion.engine.scoring import score_sheet
from companion.engine.state import GameState, Phase, Player
from companion.files import FileRefused, read_capped
from companion.inputs import Input, Press, Scan, Tick
from companion.records.reader import MAX_RECORD_BYTES

RECORD = "game.jsonl"
DEALT = "dealt.jsonl"  # a game with its deals: the guided and overhead demos play it
FRAME_SECONDS = 0.1  # the simulated camera's frame interval
GIF_SCALE = 2


def read_record(path: Path | None = None, shipped: str = RECORD) -> list[Event]:
    """The events of a game record (default: the demo game `shipped` in the package).

    Raises:
        ValueError: a line that is not a JSON event (the message names the line).
    """
    if path is None:
        text = resources.files("companion").joinpath("demo", shipped).read_text("utf-8")
    else:
        try:  # the reader's cap, and a regular file only (a FIFO would block the demo)
            text = read_capped(path, MAX_RECORD_BYTES).decode("utf-8")
        except (FileRefused, UnicodeDecodeError) as bad:
            raise ValueError(f"{path}: {bad}") from None
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(event_from_record(json.loads(line)))
        except (ValueError, RecordError) as bad:
            raise ValueError(f"{path or shipped}: line {number}: {bad}") from None
    return events


# --- the simulated table --------------------------------------------------------------------


@dataclass
class TablePlayer:
    """Players who want to play `events`, looking at the screen: what do they do next?

    `next_input(ui, state, context)` returns one input: a scan (`Scan(id)`, `Scan(None)` for
    a foreign code), a button press, or a `Tick` that lets a feedback screen give way. It
    works from any point of the game, so a demo restarted on its journal carries on. With
    `mistakes`, the scripted mistakes are made once each.
    """

    events: list[Event]
    mistakes: bool = True
    now: float = 0.0
    done: set[str] = field(default_factory=set)
    queued: list[Input] = field(default_factory=list)

    def next_input(self, ui: UiState, state: GameState, context: Context) -> Input | None:
        """The next input, or None when the record is played to its end."""
        if self.queued:
            return self.queued.pop(0)
        if ui.mode is Mode.FEEDBACK:
            self.now += 5.0
            return Tick(self.now)
        if ui.mode in (Mode.HELP, Mode.PHONE, Mode.COACH):
            return Press("select")  # left on the button map would ask the coach
        if ui.mode is Mode.UNDO:  # resumed on the undo question (a restart): keep the game
            return Press("left")
        index = context.events
        if index >= len(self.events):
            return None
        target = self.events[index]
        if self.mistakes and (mistake := self._mistake(index, ui, state, context)):
            return mistake
        if isinstance(target, Setup):
            return self._setup(ui, state, target, context)
        if ui.mode is Mode.GUIDED:
            return self._guided(ui, state, target, context)
        if ui.mode is Mode.REVEAL and isinstance(target, Reveal):
            return Scan(target.card)
        if isinstance(target, BuildCard | Discard | BuildWonder):
            if ui.mode is Mode.IDLE:
                return Scan(target.card)
            if ui.mode is Mode.CARD and ui.card != target.card:
                return Press("left", long=True)  # another card is on the screen: back
        if isinstance(target, Activate):
            return self._activate(ui, state, target, context)
        if ui.mode is Mode.PROMPT and is_scanning(ui, state):
            # what the table shows: the Great Library's tokens, the divinities drawn with a
            # Mythology token, Enki's tokens, the cards the Gate turns up
            shown = target.revealed if isinstance(target, GateActivation) else target.drawn  # type: ignore[union-attr]
            return Scan(shown[len(ui.tokens)])
        return self._choose(ui, state, context, lambda choice: choice.event == target)

    def _activate(self, ui: UiState, state: GameState, target: Activate, context: Context) -> Input:
        """Pantheon: scan the divinity (or the Gate) on the space, then choose the price."""
        pantheon = state.pantheon
        assert pantheon is not None
        piece = pantheon.spaces[target.space - 1]
        if ui.mode is Mode.IDLE and piece is not None:
            return Scan(piece)
        if ui.mode is Mode.CARD and ui.card != piece:
            return Press("left", long=True)
        return self._choose(ui, state, context, lambda choice: choice.event == target)

    def _once(self, name: str, *inputs: Input) -> Input | None:
        if name in self.done:
            return None
        self.done.add(name)
        self.queued.extend(inputs[1:])
        return inputs[0]

    def _mistake(self, index: int, ui: UiState, state: GameState, context: Context) -> Input | None:
        """The scripted mistakes, each once, at fixed points of the game."""
        if state.phase is not Phase.PLAYING:
            return None
        if ui.mode is Mode.CARD and ui.cursor == 0 and not ui.notice:
            build = options(ui, state, context)[0]
            if build.refusal is not None:  # select a build the player cannot afford
                return self._once("unaffordable", Press("select"))
        if ui.mode is not Mode.IDLE:
            return None
        first_card = next((e.card for e in self.events if isinstance(e, BuildCard)), None)
        match index:
            case 2:
                return self._once("foreign", Scan(None))
            case 4 if first_card is not None:
                return self._once("again", Scan(first_card))
            case 6:
                return self._once("other_age", Scan("arena"))
            case 8:
                return self._once("help", Press("right", long=True), Press("select"))
            case 12:  # undo the last action (a long press, then select to confirm)
                return self._once("undo", Press("select", long=True), Press("select"))
        return None

    def _setup(self, ui: UiState, state: GameState, target: Setup, context: Context) -> Input:
        first = target.first_player
        a = target.wonders[0 if first is Player.P1 else 1]  # the first player's wonders
        b = target.wonders[1 if first is Player.P1 else 0]
        picks = [a[0], b[0], b[1], a[1], b[2], a[2], a[3], b[3]]  # the draft order ABBA BAAB
        match ui.mode:
            case Mode.FIRST_PLAYER:
                return self._choose(ui, state, context, lambda c: c.value == first.value)
            case Mode.WONDER_SETUP:
                draft = "pantheon" if "pantheon" in target.expansions else "draft"
                return self._choose(ui, state, context, lambda c: c.value == draft)
            case Mode.DRAFT:
                start = len(ui.picks) - len(ui.picks) % 4
                offer = picks[start : start + 4]
                revealed = [offer[1], offer[3], offer[0], offer[2]]  # as they come off the pile
                if len(ui.revealed) < 4:
                    return Scan(revealed[len(ui.revealed)])
                wanted = picks[len(ui.picks)]
                shown = options(ui, state, context)
                if len(ui.picks) % 2 == 0 and shown[ui.cursor].value != wanted:
                    return Scan(wanted)  # point at a wonder by scanning it
                return self._choose(ui, state, context, lambda c: c.value == wanted)
            case Mode.TOKENS:
                return Scan(target.progress_tokens[len(ui.tokens)])
        return Press("select")

    def _guided(self, ui: UiState, state: GameState, target: Event, context: Context) -> Input:
        """Guided entry: scan the record's deal as asked, or skip an age dealt without one."""
        if not isinstance(target, Deal):
            return self._choose(ui, state, context, lambda c: c.value == SKIP)
        entry = entered(ui, state)
        if (index := entry.next_position) is not None:
            return Scan(target.layout[index])
        if (marked := entry.next_token) is not None:  # Pantheon: the token on a marked card
            token = TOKEN + target.tokens[entry.token_positions.index(marked)]
            return self._choose(ui, state, context, lambda c: c.value == token)
        back = entry.next_back
        guild = back is not None and target.layout[back] == GUILD_BACK
        answer = GUILD_BACK if guild else PLAIN_BACK
        return self._choose(ui, state, context, lambda c: c.value == answer)

    def _choose(
        self, ui: UiState, state: GameState, context: Context, wanted: Callable[[Any], bool]
    ) -> Input:
        """Move the cursor to the wanted option the short way round, then select it."""
        choices = options(ui, state, context)
        for index, choice in enumerate(choices):
            if wanted(choice):
                if index == ui.cursor:
                    return Press("select")
                ahead = (index - ui.cursor) % len(choices)
                return Press("right" if ahead <= len(choices) - ahead else "left")
        raise RuntimeError(f"the record's next step is not on the {ui.mode.value} screen")


# --- the simulated camera -------------------------------------------------------------------


class Camera:
    """Frames of cards held under the camera, through the real decoder and tracker.

    `hold(card)` yields the scans the pipeline reports while the card (None: a foreign QR
    code) is held for a few frames and taken away. Frames are drawn once per id.
    """

    def __init__(self, decoder_name: str = "zxing") -> None:
        from companion.vision import payloads, synth
        from companion.vision.decode import make_decoder

        self._synth = synth
        self._payloads = payloads
        self._decoder = make_decoder(decoder_name)
        from companion.vision.tracker import Tracker

        self._tracker = Tracker()
        self._frames: dict[str | None, Any] = {}
        self._empty = synth.frame_with_cards([], seed=0)
        self.now = 0.0
        self.latencies: list[float] = []

    def _frame(self, card: str | None) -> Any:
        if card not in self._frames:
            if card is None:
                self._frames[card] = _foreign_frame(self._synth, self._empty)
            else:
                self._frames[card] = self._synth.frame_with_cards([card], seed=len(self._frames))
        return self._frames[card]

    def hold(self, card: str | None, frames: int = 3, away: int = 3) -> list[tuple[Scan, float]]:
        """The scans read while `card` is held for `frames` frames, then `away` empty ones,
        each with the time its frame was captured (perf_counter)."""
        scans: list[tuple[Scan, float]] = []
        sequence = [self._frame(card)] * frames + [self._empty] * away
        for frame in sequence:
            captured = time.perf_counter()
            self.now += FRAME_SECONDS
            for text in (s.text for s in self._tracker.feed(self._decoder.decode(frame), self.now)):
                scans.append((Scan(self._payloads.parse_scan(text)), captured))
        return scans


def _foreign_frame(synth: Any, empty: Any) -> Any:
    """The empty table with someone's phone showing a foreign QR code in the scan zone."""
    code = synth.sticker_image("https://example.com/menu", 6.0, 40.0, error_correction="M")
    frame = empty.copy()
    height, width = code.shape
    top, left = (frame.shape[0] - height) // 2, (frame.shape[1] - width) // 2
    frame[top : top + height, left : left + width] = code
    return frame


# --- frames out -----------------------------------------------------------------------------


class FrameRecorder:
    """The demo's display: keeps every screen, writes numbered PNGs and one GIF at the end."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.images: list[Image.Image] = []
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            for old in out.glob("frame-*.png"):
                old.unlink()

    def show(self, image: Image.Image) -> None:
        """Keep one screen; write it as the next PNG."""
        self.images.append(image.copy())
        if self.out is not None:
            image.save(self.out / f"frame-{len(self.images):04d}.png")

    def write_gif(self, name: str = "game.gif") -> Path | None:
        """All screens as one animated GIF, scaled up for a desktop screen."""
        if self.out is None or not self.images:
            return None
        size = (128 * GIF_SCALE, 64 * GIF_SCALE)
        frames = [i.convert("L").resize(size, Image.Resampling.NEAREST) for i in self.images]
        path = self.out / name
        frames[0].save(path, save_all=True, append_images=frames[1:], duration=400, loop=0)
        return path


def score_lines(state: GameState) -> list[str]:
    """The final score as a small table, one row per category."""
    sheet = score_sheet(state)
    voice = Voice.oled(state)
    names = voice.players
    rows = ["blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military"]
    lines = [f"{'':10}{names[0]:>10}{names[1]:>10}"]
    for row in rows:
        lines.append(f"{row:10}{sheet.p1.row(row):>10}{sheet.p2.row(row):>10}")
    lines.append(f"{'total':10}{sheet.p1.total:>10}{sheet.p2.total:>10}")
    lines.append(result(voice, state))
    return lines


def play(
    app: Any,
    player: TablePlayer,
    camera: Camera | None,
    *,
    limit: int = 20_000,
) -> int:
    """Play until the record is done; return the number of inputs handled."""
    handled = 0
    app.start()
    while (given := player.next_input(app.ui, app.state, app.context())) is not None:
        if isinstance(given, Scan) and camera is not None:
            for scan, captured in camera.hold(given.card):
                app.handle(scan)
                camera.latencies.append(time.perf_counter() - captured)
                handled += 1
        else:
            app.handle(given)
            handled += 1
        if handled > limit:
            raise RuntimeError("the demo does not finish")
    return handled


# --- at the table with the overhead camera --------------------------------------------------


def with_reveals(catalog: Any, events: list[Event]) -> list[Event]:
    """A record with full deals as the box records it at the table: each deal with its
    face-down cards unknown (a guild's back in age 3), and a `reveal` of each card uncovered
    right after the action that uncovered it, in layout order. A record already partial
    (or without deals) is left as it is."""
    from companion.engine.rules import apply, new_game, unrevealed

    full: dict[int, Deal] = {}
    state = new_game(catalog)
    out: list[Event] = []
    for event in events:
        if isinstance(event, Deal) and None not in event.layout and GUILD_BACK not in event.layout:
            full[event.age] = event
            positions = catalog.layout(event.age).positions
            event = Deal(event.age, tuple(
                card if p.face_up or card is None
                else GUILD_BACK if catalog.card(card).is_guild or catalog.card(card).is_temple
                else None
                for p, card in zip(positions, event.layout, strict=True)
            ), event.tokens)  # fmt: skip
        state = apply(state, event)
        out.append(event)
        # a game won outright by the action that uncovered a card is over: nothing is turned
        while (waiting := unrevealed(state)) and state.age in full and not state.finished:
            turned = Reveal(waiting[0], full[state.age].layout[waiting[0]])  # type: ignore[arg-type]
            state = apply(state, turned)
            out.append(turned)
    return out


class TopCamera:
    """The overhead camera over a physical table: generated top views of each age's whole
    structure (`deals`: the full layouts by age) less the cards taken, read by the real
    structure reader. `look()` captures and reads one frame (a hand over the structure
    with `hand`); a new seed each time (from `seed` on), as a camera's frames are never the
    same twice. With `spread` (0 to 1) each age is laid by hand (`table_synth.hand_laid`),
    the same way in every frame of the age."""

    def __init__(
        self,
        deals: dict[int, tuple[str, ...]],
        *,
        decoder_name: str = "zxing",
        resolution: str = "2304x1296",
        seed: int = 0,
        spread: float = 0.0,
    ) -> None:
        from companion.vision.decode import make_decoder

        self.deals = deals
        self.age = 0
        self.taken: set[int] = set()
        self.resolution = resolution
        self._decoder = make_decoder(decoder_name)
        self.seed = seed
        self.spread = spread
        self.laid: Any = None  # the age's structure as laid (None: as data/table.toml says)
        self.reading_seconds: list[float] = []

    def deal(self, age: int) -> None:
        """The players lay out age `age`'s structure."""
        from companion.vision.table import table_model
        from companion.vision.table_synth import hand_laid

        self.age, self.taken = age, set()
        if self.spread:
            self.laid = hand_laid(self.seed + age, self.spread, table_model())

    def take(self, card: str) -> int:
        """A player takes `card` from the structure; returns its position."""
        index = self.deals[self.age].index(card)
        self.taken.add(index)
        return index

    def scene(self, *, hand: bool = False) -> Any:
        """The table now as the camera sees it (the frame and its truth)."""
        from companion.vision.table_synth import random_table

        self.seed += 1
        return random_table(self.seed, age=self.age, deal=self.deals[self.age],
                            taken=self.taken, hands=hand, resolution=self.resolution,
                            laid=self.laid)  # fmt: skip

    def read(
        self, frame: Any, known: Sequence[str | None] | None = None, taken: Collection[str] = ()
    ) -> tuple[tuple[str | None, ...], float]:
        """One frame through the structure reader (`known`: what the box knows at each
        position, `overhead.known_cards`; `taken`: the cards gone, `overhead.taken_cards`):
        the slots, and when it was captured."""
        from companion.vision.structure import read_structure

        captured = time.perf_counter()
        slots = read_structure(frame, self.age, self._decoder, known=known, taken=taken).slots
        self.reading_seconds.append(time.perf_counter() - captured)
        return slots, captured


@dataclass
class OverheadCounts:
    """How a game went at the table with the overhead camera: the deals, the cards taken
    and the cards turned up that the camera gave, the cards of the structure scanned by
    hand (the fallback), and the refusals of a covered card seen.

    Each card scanned by hand is checked against the last frame read before it: `unclear`
    counts those whose position the view could not tell (None there), `told` describes the
    others (the view told the position, yet the box still asked for a scan). `misread`
    counts the positions of all frames read that the view told wrongly (a card id, "back"
    or "empty" that is not what lies there), `wrong_proposals` the cards the box proposed
    that still lay in the structure (not taken: the players go back, or take that card when
    it is the one they meant to take, as the last card of an age)."""

    deals: int = 0
    taken: int = 0
    turned: int = 0
    by_hand: int = 0
    refused: list[str] = field(default_factory=list)
    unclear: int = 0
    told: list[str] = field(default_factory=list)
    frames: int = 0
    misread: int = 0
    wrong_proposals: int = 0


def not_played(
    recorded: Sequence[Mapping[str, Any]], played: Sequence[Event]
) -> tuple[list[str], list[str]]:
    """The journal's events (`recorded`, game-record objects) against the game as it was
    played (`played`, as `with_reveals` gives it): the events recorded that were not played
    (wrong) and those played that were not recorded (missing), each as its JSON line. Cards
    turned up after one action may be recorded in any order (the camera reads the second
    before the first): each run of reveals is compared as a set."""

    def lines(records: Sequence[Mapping[str, Any]]) -> list[str]:
        out: list[str] = []
        run: list[Mapping[str, Any]] = []
        for record in [*records, {}]:
            if record.get("type") == "reveal":
                run.append(record)
                continue
            out += [json.dumps(r, sort_keys=True) for r in sorted(run, key=lambda r: r["position"])]
            run = []
            if record:
                out.append(json.dumps(record, sort_keys=True))
        return out

    got, true = lines(recorded), lines([event_to_record(e) for e in played])
    wrong: list[str] = []
    missing: list[str] = []
    for tag, a, b, c, d in SequenceMatcher(None, got, true, autojunk=False).get_opcodes():
        if tag != "equal":
            wrong += got[a:b]
            missing += true[c:d]
    return wrong, missing


def overhead_lines(counts: OverheadCounts, played: Sequence[Event], wrong: int) -> list[str]:
    """What a game read from above came to, for `demo --overhead`: what the camera gave,
    what was scanned by hand and why, and whether the journal holds the game as played
    (`wrong`: the events recorded that were not played, or not recorded, `not_played`)."""
    moves = sum(isinstance(e, BuildCard | Discard | BuildWonder) for e in played)
    deals = sum(isinstance(e, Deal) for e in played)
    turned = sum(isinstance(e, Reveal) for e in played)
    lines = [
        f"From above: {counts.deals} of {deals} deals read, {counts.taken} of {moves} cards "
        f"taken seen and proposed, {counts.turned} of {turned} cards turned up read",
        f"Scanned by hand: {counts.by_hand} cards, {counts.unclear} of them where the camera "
        "could not tell the place",
    ]
    lines += [f"Scanned by hand though the camera told the place: {t}" for t in counts.told]
    if counts.wrong_proposals:  # the last card of an age, alone: the camera cannot tell it
        lines.append(f"Cards proposed while still in the structure: {counts.wrong_proposals}")
    if counts.misread:
        lines.append(f"Places the camera told wrongly: {counts.misread}")
    lines.append(
        "The journal holds the game as played"
        if not wrong
        else f"The journal differs from the game as played: {wrong} events"
    )
    return lines


def play_overhead(
    app: Any,
    player: TablePlayer,
    camera: TopCamera,
    *,
    tries: int = 3,
    hand_every: int = 4,
    covered: str | None = None,
    limit: int = 20_000,
) -> OverheadCounts:
    """Play `player`'s record (as `with_reveals` gives it) on an `App` with `overhead`: the
    cards are taken from the table under `camera`, each age laid out before it; a card the
    camera does not give after `tries` frames is scanned by hand, as players would. Every
    `hand_every`-th card taken, a frame with a hand over the structure comes first. With
    `covered`, that card (covered in age 1) is taken before the first card of the game and put
    back after the refusal (its notice is kept in `refused`)."""
    from companion.service.loop import TableFrame

    counts = OverheadCounts()
    agree = app.watch.agree
    waited = 0
    handled = 0
    last: tuple[str | None, ...] = ()  # the last frame's reading

    def show(scene: Any, *, still: int = agree) -> None:
        nonlocal last
        slots, captured = camera.read(scene.frame, known_cards(app.state), taken_cards(app.state))
        last = slots
        counts.frames += 1
        counts.misread += sum(
            told is not None and told != truth
            for told, truth in zip(slots, scene.truth, strict=True)
        )
        for _ in range(still):  # a still table: the same frame `still` times
            handle(TableFrame(slots, camera.age, captured))

    def handle(given: Any) -> None:
        """Give the app an input; a card proposed from the table that still lies in the
        structure (not taken) counts in `wrong_proposals`."""
        before = (app.ui.mode, app.ui.card)
        app.handle(given)
        card = app.ui.card
        if app.ui.mode is not Mode.CARD or (Mode.CARD, card) == before or card is None:
            return
        if isinstance(given, Scan) and given.card == card:
            return  # scanned by hand
        deal = camera.deals.get(camera.age, ())
        if card in deal and deal.index(card) not in camera.taken:
            counts.wrong_proposals += 1

    def by_hand(index: int | None) -> None:
        """A card of the structure scanned by hand: could the view tell its position?"""
        counts.by_hand += 1
        slot = last[index] if index is not None and index < len(last) else None
        if slot is None:
            counts.unclear += 1
        else:
            counts.told.append(f"age {camera.age}, position {index}: the view read {slot!r}")

    app.start()
    while (given := player.next_input(app.ui, app.state, app.context())) is not None:
        handled += 1
        if handled > limit:
            raise RuntimeError("the game does not finish")
        events = app.context().events
        target = player.events[events] if events < len(player.events) else None
        mode = app.ui.mode
        look = waited < tries and mode is not Mode.FEEDBACK
        action = isinstance(target, BuildCard | Discard | BuildWonder)
        if look and isinstance(target, Deal) and mode is Mode.GUIDED:
            if camera.age != target.age:
                camera.deal(target.age)
            show(camera.scene())
        elif look and isinstance(target, Reveal) and mode is Mode.REVEAL:
            show(camera.scene())
        elif look and action and mode in (Mode.IDLE, Mode.REVEAL):
            card = getattr(target, "card", "")
            if covered is not None and not counts.refused:  # a covered card taken, put back
                index = camera.take(covered)
                show(camera.scene())
                counts.refused.append(app.ui.notice)
                camera.taken.discard(index)
                show(camera.scene())
            if camera.deals[camera.age].index(card) not in camera.taken:
                camera.take(card)
                if len(camera.taken) % hand_every == 1:
                    show(camera.scene(hand=True), still=1)  # the hand, moving
            show(camera.scene())
            if app.ui.mode is Mode.CARD and app.ui.card == card:
                counts.taken += 1
        else:
            look = False
            if isinstance(given, Scan) and given.card is not None:
                if mode is Mode.GUIDED and isinstance(target, Deal):
                    by_hand(entered(app.ui, app.state).next_position)
                elif mode is Mode.REVEAL and isinstance(target, Reveal):
                    by_hand(target.position)
                elif action and mode is Mode.IDLE:
                    by_hand(camera.deals[camera.age].index(given.card))
            card = getattr(target, "card", None)
            deal = camera.deals.get(camera.age, ())
            taking = action and card in deal and deal.index(card) not in camera.taken
            scanned = isinstance(given, Scan) and given.card == card
            if taking and (scanned or (mode is Mode.CARD and app.ui.card == card)):
                # the player takes the card from the structure: scanned by hand, or the
                # box proposed it before it was taken (from a frame that could not tell its
                # place) and the player, about to take it, confirms it
                camera.take(str(card))
            handle(given)
        waited = waited + 1 if look else 0
        recorded = player.events[events : app.context().events]
        if recorded or app.ui.mode is Mode.CARD:
            waited = 0
        if not isinstance(given, Scan) or look:  # recorded from what the camera saw
            counts.deals += sum(isinstance(e, Deal) for e in recorded)
            counts.turned += sum(isinstance(e, Reveal) for e in recorded)
    return counts
