"""`duel-companion demo`: a complete recorded game played through the whole device.

A simulated table plays the game record shipped in the package (companion/demo/game.jsonl).
For each action it holds the card's sticker under a simulated camera: frames drawn by the
vision generator, read by the real QR decoder and tracker. It presses the buttons the screen
asks for; the run loop's own `App` turns that into journal rows and OLED screens. The screens
are written as PNG files and one animated GIF, and the final score is printed.

Along the way the table makes the mistakes players make, once each: a foreign QR code, a card
scanned again, a card of another age, an unaffordable build, a look at the button map, and an
action undone with a long press and done again.

`--guided` plays a game with its deals (companion/demo/dealt.jsonl by default) with guided
entry: each age's face-up cards scanned as the OLED asks ("Scan row 3, card 2 of 4"), each
card uncovered turned up and scanned. `--overhead` plays it at a table seen from above:
generated top views read by the real structure reader, the deal read as the age is laid out,
each card taken proposed, the cards turned up recorded, and what the camera cannot tell
scanned by hand.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.engine.events import Deal
from companion.service.playback import (
    DEALT,
    RECORD,
    Camera,
    FrameRecorder,
    TablePlayer,
    TopCamera,
    play,
    play_overhead,
    read_record,
    score_lines,
    with_reveals,
)
from companion.service.root import score_url_for

HELP = "Play a complete recorded game through the whole device and print the final score."
DEFAULT_OUT = Path("out/demo")
JOURNAL = "journal.sqlite"  # kept in --out after the demo, for `duel-companion web`


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--out DIR; --journal, --record, --no-frames, --no-mistakes, --language, --direct."""
    add = parser.add_argument
    add("--out", type=Path, default=DEFAULT_OUT, help=f"folder for the frames ({DEFAULT_OUT})")
    add("--journal", type=Path,
        help=f"journal to play into, kept afterwards (--out/{JOURNAL}); an unfinished game "
             "of the same record is resumed, else a new one is added")  # fmt: skip
    add("--record", type=Path, help="game record to play (default: the shipped demo game)")
    add("--no-frames", action="store_true", help="write no PNG or GIF")
    add("--no-mistakes", action="store_true", help="play without the scripted mistakes")
    add("--language", choices=("en", "nb", "sv", "da"), default="en", help="names on screen")
    add("--direct", action="store_true", help="scans go to the controller without frames")
    add("--events", action="store_true", help="print each journal row once it is written")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--guided",
        action="store_true",
        help="guided entry: scan each age's face-up cards as the OLED asks",
    )
    mode.add_argument("--overhead", action="store_true",
                      help="the overhead camera reads the table (generated top views)")  # fmt: skip


def _camera() -> Camera | None:
    """The simulated camera, or None (scans handed over directly) without the vision stack."""
    try:
        return Camera()
    except ImportError as missing:
        print(f"demo: no camera pipeline ({missing}); scans go to the controller directly",
              file=sys.stderr)  # fmt: skip
        return None


# --- the command ----------------------------------------------------------------------------


def main(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Play the demo; exit 2 on a refused option or record."""
    from companion.engine.catalog import default_catalog
    from companion.records.journal import Journal, JournalError
    from companion.service.loop import App

    table = args.guided or args.overhead
    try:
        events = read_record(args.record, shipped=DEALT if table else RECORD)
    except (OSError, ValueError) as bad:
        print(f"demo: {bad}", file=sys.stderr)
        return 2
    deals = {e.age: tuple(str(c) for c in e.layout) for e in events if isinstance(e, Deal)}
    if table:
        if len(deals) < 3 or any("None" in d or "guild" in d for d in deals.values()):
            print("demo: --guided and --overhead play a record with the 3 ages' full deals",
                  file=sys.stderr)  # fmt: skip
            return 2
        events = with_reveals(default_catalog(), events)
    path: Path = args.journal or args.out / JOURNAL
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        journal = Journal.open(path) if path.exists() else Journal.create(path)
    except (OSError, JournalError) as bad:
        print(f"demo: {bad}", file=sys.stderr)
        return 2
    recorder = FrameRecorder(None if args.no_frames else args.out)

    def printed(record: Any) -> None:
        print(json.dumps(record), file=out, flush=True)

    with journal:
        app = App(
            default_catalog(),
            journal,
            recorder,
            language=args.language,
            guided=args.guided,
            overhead=args.overhead,
            score_url=score_url_for("127.0.0.1", 8000),
            on_event=printed if args.events else None,
            on_undo=(lambda: printed({"type": "undo"})) if args.events else None,
        )
        if not _resumable(app, events):  # a finished game, or another record's
            app.new_game()
        player = TablePlayer(events, mistakes=not (args.no_mistakes or table))
        if args.overhead:
            play_overhead(app, player, TopCamera(deals), covered=None)
        else:
            play(app, player, None if args.direct else _camera())
        state = app.state
    gif = recorder.write_gif()
    told = sys.stderr if args.events else out  # --events keeps stdout for the rows
    if not args.events:
        for line in score_lines(state):
            print(line, file=out)
        if gif is not None:
            print(f"{len(recorder.images)} OLED frames and {gif.name} in {args.out}", file=out)
    print(f"The game is kept in {path}; see it on the phone pages with:", file=told)
    print(f"  {command_name()} web --journal {shlex.quote(str(path))}", file=told)
    return 0 if state.finished else 1


def _resumable(app: Any, events: list[Any]) -> bool:
    """Whether the journal's latest game is this record's, unfinished (or not begun): the
    demo carries on with it. Else (a finished game, another mode's game) it adds a game."""
    from companion.engine.events import event_from_record

    played = [event_from_record(r) for r in app.journal.effective_events(app.game.game_id)]
    return not app.state.finished and played == events[: len(played)]


def command_name() -> str:
    """How to run this program again from where the user is: `duel-companion` when that is
    the one found on the PATH, else the path of the one running (`.venv/bin/duel-companion`
    after the bootstrap, the venv not being activated)."""
    script = Path(sys.executable).parent / "duel-companion"
    if not script.exists():
        return "duel-companion"
    found = shutil.which("duel-companion")
    if found is not None and Path(found).resolve() == script.resolve():
        return "duel-companion"
    try:
        shown = str(script.relative_to(Path.cwd()))
    except ValueError:
        shown = str(script)
    return shlex.quote(shown)
