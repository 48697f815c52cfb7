"""The composition root of the running box: `run_service` wires the camera, buttons, OLED,
journal and phone pages (or their stand-ins on a machine without the kit) around the run loop.
It is the one place that knows them all."""

from __future__ import annotations

import logging
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PIL import Image

from companion.config import Config, is_raspberry_pi
from companion.device import family_scan
from companion.device import overhead as overhead_rules
from companion.device.coach import SECONDS as COACH_SECONDS
from companion.engine.cards import Catalog
from companion.engine.state import GameState, Player
from companion.inputs import Status
from companion.records.journal import Journal, JournalError
from companion.search.player import Level, level_named
from companion.service.bridge import LoopControl
from companion.service.loop import App, Display, TableFrame, run_loop
from companion.service.script import feed_script
from hardware.buttons import Buttons
from hardware.faults import Health, Reconnecting, StuckButtonGuard
from hardware.keyboard import cbreak, read_keys
from hardware.oled import EmulatedOled, open_oled

log = logging.getLogger(__name__)


class ReconnectingDisplay:
    """A real OLED through `hardware.faults.Reconnecting`: a lost display is reopened later,
    and the last frame is shown again when it is back."""

    def __init__(self, part: Reconnecting[Any]) -> None:
        self._part = part
        self._last: Image.Image | None = None
        self._was_available = part.available

    def show(self, image: Image.Image) -> None:
        """Show the frame if the display works now."""
        self._last = image
        self._part.use(lambda oled: oled.show(image))
        self._was_available = self._part.available

    def poll(self) -> None:
        """Retry a lost display; show the last frame again when it comes back."""
        available = self._part.poll()
        if available and not self._was_available and self._last is not None:
            self._part.use(lambda oled: oled.show(self._last))
        self._was_available = available


def open_display(config: Config, health: Health) -> Display:
    """The configured display: the emulated one, or the OLED on I2C with reconnection."""
    if config.display.driver == "emulated":
        return EmulatedOled(config.display.emulated_dir)
    from luma.core.error import Error as LumaError

    part = Reconnecting("display", lambda: open_oled(config.display),
                        errors=(OSError, LumaError), on_change=health)  # fmt: skip
    return ReconnectingDisplay(part)


def lan_address(host: str) -> str:
    """The address phones use: the machine's LAN address when serving on all interfaces."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent
            address: str = probe.getsockname()[0]
        except OSError:
            address = "127.0.0.1"
    return address


def score_url_for(host: str, port: int) -> Callable[[int], str]:
    """The phone scoring page of a game (route of web/scoring.py)."""
    return lambda game_id: f"http://{host}:{port}/games/{game_id}/score"


def phone_url_for(host: str, port: int) -> str:
    """The phone pages' first page (the game being played, or the history)."""
    return f"http://{host}:{port}/"


def start_buttons(config: Config, inbox: queue.Queue[Any], health: Health | None = None) -> Any:
    """The push buttons on the configured pins, or None where there are no GPIO pins."""
    if not is_raspberry_pi():
        return None  # the keyboard stands in
    guard = StuckButtonGuard(on_change=health)
    try:
        return Buttons(config.buttons.pins, inbox.put, hold_time=config.buttons.hold_time,
                       bounce_time=config.buttons.bounce_time or None, guard=guard)  # fmt: skip
    except Exception as missing:  # gpiozero finds no pins here (BadPinFactory and the like)
        log.info("no buttons: %s", missing)
        return None


def start_scanner(
    config: Config,
    inbox: queue.Queue[Any],
    health: Health | None = None,
    *,
    on_frame: Callable[[Any, list[Any], float, list[Any]], object] | None = None,
    source: str | None = None,
) -> Any:
    """The camera on its own thread (companion.vision.scanner): each sticker newly shown in the
    scan zone becomes a Scan on the queue; a lost camera is a Status, retried until it is back.
    `on_frame` also gets every frame, its codes and the corners of the codes found but not
    decoded (the overhead reading); `source` is another
    camera than the [camera] one (a separate overhead camera, at the reading's resolution).
    """
    from companion.vision.scanner import Scanner
    from companion.vision.tracker import Tracker
    from hardware.camera import open_source

    camera = config.camera
    if source is not None:
        width, height = OVERHEAD_SIZE
        camera = replace(camera, source=source, width=width, height=height, fps=OVERHEAD_FPS)

    def on_status(problem: str | None) -> None:
        if health is not None:
            health("camera", problem)
        inbox.put(Status(problem))

    scanner = Scanner(
        lambda: open_source(
            camera.source,
            camera.width,
            camera.height,
            image_seconds=camera.image_seconds,
            loop=camera.loop,
        ),
        on_scan=lambda scan: inbox.put(family_scan.scan_input(scan)),
        on_status=on_status,
        decoder=config.decoder,
        tracker=Tracker(zone=camera.scan_zone),  # in fractions of each frame's real size
        fps=camera.fps,
        clock=time.perf_counter,  # Scan.at is a perf_counter time, for the latency benchmark
        on_frame=on_frame,
    )
    scanner.start()
    return scanner


OVERHEAD_SIZE = (2304, 1296)  # a separate overhead camera: Camera Module 3's 2304x1296 mode
OVERHEAD_FPS = 4  # frames a second asked of it (the reading takes longer than a frame)


class OverheadPicture:
    """The last overhead reading (its frame, what was read, the age) for the phone's live
    page. A reading that tells the same as the one kept is not kept again (no copy of the
    frame at the camera's rate); each new one moves `version`, which the page polls to load
    the picture again. The picture is drawn once per version, when a page asks for it
    (`png`, on the page's thread, never the loop's): one frame and one picture in memory."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[Any, Any, int] | None = None
        self._told: tuple[tuple[Any, ...], int] | None = None
        self._version = 0
        self._drawn: tuple[int, bytes] | None = None

    def keep(self, frame: Any, reading: Any, age: int) -> None:
        """Keep a reading (the camera's thread) unless it tells what the kept one told; the
        frame is copied, a camera may reuse it."""
        told = (tuple(reading.slots), age)
        with self._lock:
            if told == self._told:
                return
            self._last = (frame.copy(), reading, age)
            self._told = told
            self._version += 1

    @property
    def version(self) -> int:
        """How many readings were kept (0: none yet); the live page polls it."""
        with self._lock:
            return self._version

    def png(self) -> bytes | None:
        """The last reading as a picture (`vision.picture.reading_png`); None before any."""
        from companion.vision.picture import reading_png

        with self._lock:
            last, version, drawn = self._last, self._version, self._drawn
        if last is None:
            return None
        if drawn is not None and drawn[0] == version:
            return drawn[1]
        data = reading_png(*last)
        with self._lock:
            if self._version == version:
                self._drawn = (version, data)
        return data


def table_reader(
    catalog: Catalog,
    decoder: str,
    state: Callable[[], GameState],
    post: Callable[[Any], object],
    picture: OverheadPicture | None = None,
) -> Callable[[Any, list[Any], float, Sequence[Any]], None]:
    """The overhead reading of each camera frame (on the camera's thread): the structure of
    the age being played, read from the codes the scanner decoded (and those it found but
    could not decode, told by their modules as `scan --structure` tells them: the same
    path) with what the box already
    knows there (`overhead.known_cards`: the cards, and the positions taken) and the cards
    it knows are gone (`overhead.taken_cards`), posted as a `TableFrame`. The mount holds
    still: the last fit of each age that told positions is given with the next frames, so a
    frame too dim to place the structure from its own codes still finds the cards known
    where they lie (`read_structure(fit=)`), and the layout's steps fitted at the deal are
    kept for the age. Each reading is kept in `picture` for the phone's live page."""
    from companion.vision import known_codes
    from companion.vision.decode import make_decoder
    from companion.vision.structure import read_structure

    # the stickers' modules, built while the box starts, not on the first frame that needs
    # them (a blurred code at the deal)
    threading.Thread(target=known_codes.warm, name="sticker-modules", daemon=True).start()

    # read_structure's own (the codes are given): a frame that reads few codes decoded
    # again sharpened, a position's sticker decoded alone
    spare = make_decoder(decoder)
    fits: dict[int, Any] = {}  # age -> the last fit that told positions

    def on_frame(
        frame: Any, stickers: list[Any], captured: float, unread: Sequence[Any] = ()
    ) -> None:
        now = state()  # the game as the run loop last left it (states are immutable)
        known = overhead_rules.known_cards(now)
        taken = overhead_rules.taken_cards(now)
        read = read_structure(
            frame, now.age, spare, catalog=catalog, stickers=stickers, known=known, taken=taken,
            fit=fits.get(now.age), undecoded=unread,
        )  # fmt: skip
        if read.fit is not None:
            fits[now.age] = read.fit
        if picture is not None:
            picture.keep(frame, read, now.age)
        post(TableFrame(read.slots, now.age, captured))

    return on_frame


# --- the service ----------------------------------------------------------------------------


@dataclass
class ServiceOptions:
    """How `run_service` gets its inputs besides the kit (tests and headless machines)."""

    script: Sequence[str] | None = None  # script lines instead of keyboard and camera
    keyboard: bool = True  # read key presses from stdin when it is a terminal
    camera: bool = True
    web: bool = True
    on_event: Callable[[Mapping[str, Any]], object] | None = None
    on_undo: Callable[[], object] | None = None


def open_journal(path: Path) -> Journal:
    """The journal at `path`, created if missing; a file SQLite finds broken is reported,
    moved aside by the journal, and a new journal is started in its place.

    Raises:
        JournalError: busy, not ours, a newer schema, unreadable, or broken and not movable
            (nothing is moved then).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        return Journal.create(path)
    try:
        return Journal.open(path)
    except JournalError as bad:
        if getattr(bad, "moved_to", None) is None:
            raise
        log.error("%s; a new journal is started", bad)  # the message names where it was kept
        return Journal.create(path)


def run_service(config: Config, options: ServiceOptions | None = None) -> int:
    """The device: wire the parts, resume the game on its screen, and loop until stopped."""
    import signal

    from companion.engine.catalog import default_catalog
    from companion.service.watchdog import Watchdog

    opts = options or ServiceOptions()
    inbox: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()
    health = Health()
    catalog = default_catalog(("pantheon",))  # the setup asks whether Pantheon is played
    journal = open_journal(config.journal)
    display = open_display(config, health)
    app = App(catalog, journal, display, language=config.language, guided=guided_of(config),
              overhead=config.overhead,
              score_url=score_url_for(lan_address(config.web.host), config.web.port),
              phone_url=phone_url_for(lan_address(config.web.host), config.web.port),
              on_event=opts.on_event, on_undo=opts.on_undo, post=inbox.put,
              coach=(level_named(config.coach_level), COACH_SECONDS),
              solo=solo_of(config))  # fmt: skip
    threads: list[threading.Thread] = []
    restore: Callable[[], None] = lambda: None  # noqa: E731 - the terminal, if put in cbreak

    def spawn(name: str, target: Callable[..., object], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        thread.start()
        threads.append(thread)

    picture = OverheadPicture()  # the last overhead reading, for the phone's live page
    server = _start_web(config, catalog, inbox, app, picture) if opts.web else None
    app.start(welcome=opts.script is None)  # a script drives the game, not a person
    with Watchdog() as watchdog:
        watchdog.ready()
        if threading.current_thread() is threading.main_thread():

            def terminate(*_: object) -> None:
                stop.set()
                inbox.put(None)

            signal.signal(signal.SIGTERM, terminate)
        buttons = None if opts.script is not None else start_buttons(config, inbox, health)
        if opts.script is not None:
            spawn("script", feed_script, list(opts.script), inbox, stop)
        elif opts.keyboard and sys.stdin is not None and sys.stdin.isatty():
            restore = cbreak(sys.stdin)
            spawn("keyboard", read_keys, inbox, stop, sys.stdin)
        reader = (  # its stickers' modules are built at once: only when the box reads from above
            table_reader(catalog, config.decoder, lambda: app.state, inbox.put, picture)
            if config.overhead
            else None
        )
        one = config.overhead and not config.overhead_source  # one camera serves both
        cameras = opts.camera and not opts.script
        scanner = None
        if cameras:
            scanner = start_scanner(config, inbox, health, on_frame=reader if one else None)
        above = None
        if cameras and config.overhead and config.overhead_source:
            above = start_scanner(config, queue.Queue(), health, on_frame=reader,
                                  source=config.overhead_source)  # fmt: skip
        if opts.script is None:
            shown = startup_message(config, server, buttons, app.pairing, camera=cameras)
            print(shown, file=sys.stderr)

        def ping() -> None:
            if isinstance(display, ReconnectingDisplay):
                display.poll()
            watchdog.status(health.summary())
            watchdog.ping()

        try:
            run_loop(app, inbox, stop, ping=ping)
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
            watchdog.stopping()
            if buttons is not None:
                buttons.close()
            for camera in (scanner, above):
                if camera is not None:
                    camera.stop()
            if server is not None:
                server.close()
            restore()
            journal.close()
    return 0


def guided_of(config: Config) -> bool:
    """Whether each age is entered by guided scans: when asked for, and in a solo game
    without the overhead camera, where the box must know the table to play (table mode
    tells it only the cards taken)."""
    return config.guided or (bool(config.solo) and not config.overhead)


def solo_of(config: Config) -> tuple[Player, Level] | None:
    """The side the box plays and its level, in a solo game (None: two players)."""
    return (Player(config.solo), level_named(config.solo_level)) if config.solo else None


def startup_message(
    config: Config, server: Any, buttons: Any, pairing: str, *, camera: bool = True
) -> str:
    """Where a person finds the parts of a running service: screen, buttons, camera (off:
    `camera` False, as under --no-camera), journal, pages."""
    if config.display.driver == "emulated":
        screen = (
            f"{config.display.emulated_dir / 'latest.png'} (emulated OLED, rewritten per frame)"
        )
    else:
        screen = f"{config.display.driver} OLED at I2C 0x{config.display.i2c_address:02X}"
    keys = ("keys a/s/d = left/select/right, A/S/D = long press (hold select = undo), "
            "/card_id Enter = a scan")  # fmt: skip
    pins = ", ".join(f"{name} GPIO{pin}" for name, pin in config.buttons.pins.items())
    lines = [
        "Duel Companion is running (Ctrl+C or SIGTERM stops it).",
        f"  screen:  {screen}",
        f"  buttons: {pins}" if buttons is not None else f"  buttons: {keys}",
        f"  camera:  {config.camera.source if camera else 'off (--no-camera)'}",
        f"  journal: {config.journal}",
    ]
    if config.overhead and camera:
        lines.insert(4, f"  overhead: {config.overhead_source or config.camera.source}")
    if server is not None:
        # the code itself is never written here: this goes to the system log
        shown = "on the OLED: hold right, then right" if pairing else "none"
        lines.append(f"  phone:   {server.url}/  (pairing code {shown})")
    return "\n".join(lines)


def _start_web(
    config: Config, catalog: Catalog, inbox: queue.Queue[Any], app: App, picture: OverheadPicture
) -> Any:
    """The phone pages in a thread of this process; changes go through the loop's queue, and
    the live page shows the last overhead reading when the box plays from above."""
    try:
        from web import WebServer, create_app
        from web.security import renew_pairing

        overhead = picture.png if config.overhead else None
        version = (lambda: picture.version) if config.overhead else None
        flask_app = create_app(config, CATALOG=catalog, CONTROL=LoopControl(inbox),
                               OVERHEAD=overhead, OVERHEAD_VERSION=version)  # fmt: skip
        app.pairing = str(flask_app.config.get("PAIRING_CODE", ""))
        app.renew_pairing = lambda: renew_pairing(flask_app)
        server = WebServer(flask_app, config.web.host, config.web.port, config.web.threads)
    except (ImportError, OSError) as failed:  # the device works without its pages
        log.error("phone pages not served: %s", failed)
        return None
    log.info("phone pages at %s", server.url)
    return server
