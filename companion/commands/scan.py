"""`duel-companion scan IMAGE_OR_FOLDER... [--json]`: the card stickers in still images.

Per image: the card ids read (left to right) and the number of foreign QR codes recognised and
ignored; `--game 7wonders` reads the 7 Wonders base game's stickers instead of Duel's. A folder
stands for its images in name order. `--json` prints one list of `{"image": path, "cards":
[ids], "foreign": n}` objects in the order given; an image that cannot be read gets `"error"`
(and empty cards) instead of stopping the run.

`scan --structure --age N [--known KNOWN.json] IMAGE...` reads overhead views of age N's
structure instead: per image the 20 positions in layout order (docs/game-record.md), each a
card id, "back", "empty" or null (cannot tell); `--json` prints a list of `{"image": path,
"slots": [20]}`. KNOWN is what was known of the structure the moment before the last card
was taken: a JSON list of 20 entries in the same order, a card id where that card lay face
up, "back" where a face-down card lay, "empty" where the card had been taken (so a view may
show one more position empty, and the cards it uncovered turned up).

Codes of the other game's stickers are foreign too; stderr then says which option reads
them ("a code is a 7 Wonders card: add --game 7wonders").

Exit status: 0 all images read, 2 refused arguments or some image could not be read (as the
other commands refuse bad input).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.engine.plural import plural
from companion.vision import payloads
from companion.vision.decode import DECODERS, DEFAULT_DECODER, Decoder, make_decoder, read_cards

HELP = "Read the card stickers in images or folders of images; --json for a list of objects."
PARSERS = {"duel": payloads.parse, "7wonders": payloads.parse_family}  # whose stickers to read
OTHER_GAME = {  # what to say of a code that is the other game's sticker
    "duel": ("7 Wonders card", "add --game 7wonders"),
    "7wonders": ("Duel card", "leave out --game 7wonders"),
}
HINT = "_other_game"  # a result's count of the other game's stickers (not in the JSON)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")  # read_gray reads PNG and JPEG only


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Paths, --json and --decoder."""
    parser.add_argument("paths", nargs="+", type=Path, metavar="IMAGE_OR_FOLDER")
    parser.add_argument("--json", action="store_true", help="print a JSON list, one per image")
    parser.add_argument(
        "--structure",
        action="store_true",
        help="read overhead views of an age's structure (20 positions; needs --age)",
    )
    parser.add_argument("--age", type=int, choices=(1, 2, 3), help="the age of the structure")
    parser.add_argument(
        "--known",
        type=Path,
        metavar="KNOWN.json",
        help="with --structure: what was known before the last card was taken (20 entries: "
        'card id, "back" or "empty"; at the deal 20 "back": every position holds a card)',
    )
    parser.add_argument(
        "--game",
        choices=sorted(PARSERS),
        default="duel",
        help="whose stickers to read: duel (default) or 7wonders (the base game's cards)",
    )
    parser.add_argument(
        "--decoder",
        choices=sorted(DECODERS),
        default=DEFAULT_DECODER,
        help=f"QR decoder (default {DEFAULT_DECODER})",
    )


def images(paths: list[Path]) -> list[Path]:
    """The images to read: files as given, folders expanded to their images in name order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p for p in path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
            )
        else:
            found.append(path)
    return found


MAX_KNOWN_BYTES = 64 * 1024  # a KNOWN file: 20 short entries
MAX_IMAGE_BYTES = 64 * 1024 * 1024  # a photo file; larger is refused unread
MAX_IMAGE_PIXELS = 50_000_000  # 50 megapixels: any camera's full size; the header is read first


def read_gray(path: Path) -> tuple[Any, str]:
    """The grey image of a PNG or JPEG file, or None and why not: a regular file of at most
    64 MB whose header declares at most 50 megapixels (measured before decoding)."""
    import cv2
    import numpy as np

    from companion.files import FileRefused, read_capped
    from companion.vision.photo import NotAPhoto, TooLarge, checked_photo

    try:
        data = read_capped(path, MAX_IMAGE_BYTES)
        checked_photo(data, MAX_IMAGE_PIXELS)
    except FileRefused as refused:
        return None, str(refused)
    except NotAPhoto:
        return None, "not a readable image"
    except TooLarge as refused:
        return None, str(refused)
    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    return (None, "not a readable image") if frame is None else (frame, "")


def scan_image(path: Path, decoder: Decoder, game: str = "duel") -> dict[str, Any]:
    """The JSON object of one image: its cards left to right and its foreign codes."""
    if not path.exists():
        return {"image": str(path), "cards": [], "foreign": 0, "error": "no such file"}
    frame, why = read_gray(path)
    if frame is None:
        return {"image": str(path), "cards": [], "foreign": 0, "error": why}
    cards, foreign = read_cards(decoder, frame, PARSERS[game])
    result: dict[str, Any] = {"image": str(path), "cards": cards, "foreign": foreign}
    if foreign:
        other = next(p for name, p in PARSERS.items() if name != game)
        result[HINT] = len(read_cards(decoder, frame, other)[0])
    return result


def scan_structure(
    path: Path, age: int, decoder: Decoder, known: Sequence[str] | None = None
) -> dict[str, Any]:
    """The JSON object of one overhead image: its 20 positions (`known`: what was known
    before the last card was taken, `structure.parse_known`'s entries)."""
    from companion.vision.structure import read_structure

    if not path.exists():
        return {"image": str(path), "slots": [None] * 20, "error": "no such file"}
    frame, why = read_gray(path)
    if frame is None:
        return {"image": str(path), "slots": [None] * 20, "error": why}
    slots = read_structure(frame, age, decoder, known=known).slots
    return {"image": str(path), "slots": list(slots)}


def read_known(path: Path, age: int) -> tuple[str, ...]:
    """The KNOWN file: 20 entries in layout order.

    Raises:
        ValueError: one line saying what is wrong with the file.
    """
    from companion.files import FileRefused, read_capped
    from companion.vision.structure import parse_known

    try:
        entries = json.loads(read_capped(path, MAX_KNOWN_BYTES).decode("utf-8"))
    except FileRefused as refused:
        raise ValueError(f"cannot read it ({refused.why})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not JSON ({str(error).splitlines()[0]})") from None
    known = parse_known(entries, age)
    return tuple(str(entry) for entry in known)


def structure_text(slots: list[Any], age: int) -> str:
    """The positions row by row, farthest row first: "row 1: baths, back"."""
    from companion.engine.catalog import default_catalog

    rows: dict[int, list[str]] = {}
    for position, slot in zip(default_catalog().layout(age).positions, slots, strict=True):
        rows.setdefault(position.row, []).append("?" if slot is None else slot)
    return "\n".join(f"  row {row}: {', '.join(entries)}" for row, entries in rows.items())


def main(args: argparse.Namespace) -> int:
    """Scan every image; print text or JSON; exit 2 if any image could not be read."""
    if args.structure != (args.age is not None):
        print("scan: --structure and --age N go together", file=sys.stderr)
        return 2
    if args.known is not None and not args.structure:
        print("scan: --known goes with --structure --age N", file=sys.stderr)
        return 2
    known = None
    if args.known is not None:
        try:
            known = read_known(args.known, args.age)
        except ValueError as bad:
            print(f"scan: --known {args.known}: {bad}", file=sys.stderr)
            return 2
    paths = images(args.paths)
    if not paths:
        print("scan: no images in the folders given", file=sys.stderr)
        return 2
    decoder = make_decoder(args.decoder)
    if args.structure:
        found = [scan_structure(path, args.age, decoder, known) for path in paths]
        return _report(
            found, args.json, lambda r: f"{r['image']}:\n{structure_text(r['slots'], args.age)}"
        )
    found = [scan_image(path, decoder, args.game) for path in paths]
    hints = {str(r["image"]): count for r in found if (count := r.pop(HINT, 0))}
    status = _report(found, args.json, _cards_text)
    what, fix = OTHER_GAME[args.game]
    for image, count in hints.items():
        codes = f"a code is a {what}" if count == 1 else f"{count} codes are {what}s"
        print(f"scan: {image}: {codes}: {fix}", file=sys.stderr)
    return status


def _cards_text(result: dict[str, Any]) -> str:
    cards = ", ".join(result["cards"]) or "no card"
    foreign = f" ({plural(result['foreign'], 'foreign code')} ignored)" if result["foreign"] else ""
    return f"{result['image']}: {cards}{foreign}"


def _report(
    results: list[dict[str, Any]], as_json: bool, text: Callable[[dict[str, Any]], str]
) -> int:
    """Print the results (JSON, or `text` of each) and each error on stderr; the status (2
    when an image could not be read)."""
    if as_json:
        print(json.dumps(results, indent=2))
    for result in results:
        if "error" in result:
            print(f"scan: {result['image']}: {result['error']}", file=sys.stderr)
        elif not as_json:
            print(text(result))
    return 2 if any("error" in result for result in results) else 0
