"""`duel-companion stickers`: print the QR stickers of every card, wonder and progress token.

`--game 7wonders` prints the stickers of the 7 Wonders base game's cards instead, for the
family score pad: one per card name, each noting how many copies the decks hold by number of
players ("3+ 4+ players"); with `--players N`, one sticker for every card of an N-player
game ("copy 1 of 2"), each guild once (any may be drawn). Identical copies carry the same
sticker.

`--expansion pantheon` prints the stickers of the Pantheon expansion's new components only
(Grand Temples, its two wonders and three progress tokens, the divinities and the Gate): the
base game's sheet is printed without it.

`--out stickers.pdf` (or .svg, .png) writes sheets for A4 or US Letter at an exact sticker
size, the name beside each code; several SVG or PNG pages become stickers-1.svg,
stickers-2.svg ... `--format png --out DIR` writes one PNG per sticker, DIR/<id>.png, at 300 dpi.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.engine.catalog import EXPANSIONS, LANGUAGES
from companion.engine.plural import plural
from companion.vision import stickers

HELP = "Print the QR stickers: sheets (PDF, SVG, PNG) or one PNG per sticker (--format png)."
FORMATS = ("pdf", "svg", "png")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--out, --format, --paper, --size, --language, --game, --players, --expansion."""
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        help="FILE.pdf, FILE.svg or FILE.png for sheets; a folder for --format png",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="default: from the suffix of --out; png with a folder: one file per sticker",
    )
    parser.add_argument("--paper", choices=sorted(stickers.PAPERS), default="a4")
    parser.add_argument(
        "--size",
        type=float,
        default=stickers.DEFAULT_SIZE_MM,
        metavar="MM",
        help=f"sticker side in mm, quiet zone included (default "
        f"{stickers.DEFAULT_SIZE_MM:g}; see docs/vision.md)",
    )
    parser.add_argument(
        "--language", default="en", help=f"language of the names: {', '.join(LANGUAGES)} (en)"
    )
    parser.add_argument(
        "--game",
        choices=stickers.GAMES,
        default="duel",
        help="duel (default) or 7wonders: the base game's cards, for the family score pad",
    )
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="with --game 7wonders: a sticker for every card of an N-player game (2 to 7)",
    )
    parser.add_argument(
        "--expansion",
        choices=EXPANSIONS,
        help="pantheon: the stickers of the Pantheon expansion's new components only",
    )


def main(args: argparse.Namespace) -> int:
    """Write the stickers; exit 2 with one line on stderr if the request is refused."""
    out: Path = args.out
    kind = args.format or out.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        return _refuse(f"cannot tell the format of {out}: use .pdf, .svg, .png or --format")
    if not 5.0 <= args.size <= 60.0:
        return _refuse(f"--size {args.size:g} mm is outside 5 to 60 mm")
    if args.language not in LANGUAGES:
        return _refuse(f"unknown --language {args.language!r}: use {', '.join(LANGUAGES)}")
    players: int | None = args.players
    if players is not None and args.game != "7wonders":
        return _refuse("--players is for --game 7wonders (a Duel sheet has one sticker each)")
    if players is not None and not 2 <= players <= 7:
        return _refuse(f"--players {players}: the base game is for 3 to 7 players (or 2)")
    if args.expansion and args.game != "duel":
        return _refuse("--expansion pantheon is for Duel's stickers, not --game 7wonders")
    if args.expansion:
        entries = stickers.pantheon_entries(args.language)
    else:
        entries = stickers.entries(args.language, args.game, players)
    subject = stickers.SUBJECT
    if args.game == "7wonders":
        count = f"{players} players: {len(entries)} stickers" if players else "one per card"
        subject = f"7 Wonders stickers ({count})"
    try:
        if kind == "png" and out.suffix.lower() != ".png":
            written = _single_pngs(entries, out, args.size)
        else:
            written = _sheets(entries, out, kind, args.paper, args.size, subject)
    except (OSError, ValueError) as failed:
        return _refuse(str(failed))
    print(
        f"wrote {plural(len(written), 'file')}: {', '.join(str(p) for p in written[:3])}"
        f"{' ...' if len(written) > 3 else ''}"
    )
    if players is not None:
        print(f"{len(entries)} stickers: every card of a {players}-player game, "
              "each guild once (any may be drawn)")  # fmt: skip
    return 0


def _sheets(
    entries: list[stickers.Entry], out: Path, kind: str, paper: str, size: float, subject: str
) -> list[Path]:
    pages = stickers.layout(entries, size, paper)
    if not out.parent.is_dir():
        raise OSError(f"no folder {out.parent}")
    if kind == "pdf":
        out.write_bytes(stickers.pdf_document(pages, size, paper, subject))
        return [out]
    paths = stickers.page_paths(out, len(pages))
    for number, (page, path) in enumerate(zip(pages, paths, strict=True), 1):
        if kind == "svg":
            svg = stickers.svg_page(page, size, paper, number, len(pages), subject)
            path.write_text(svg, "utf-8")
        else:
            image = stickers.png_page(page, size, paper, number, len(pages), subject=subject)
            image.save(path, dpi=(stickers.DPI, stickers.DPI))
    return paths


def _single_pngs(entries: list[stickers.Entry], folder: Path, size: float) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for entry in entries:
        path = folder / f"{entry.id}.png"
        stickers.sticker_png(entry.payload, size).save(path, dpi=(stickers.DPI, stickers.DPI))
        paths.append(path)
    return paths


def _refuse(message: str) -> int:
    print(f"stickers: {message}", file=sys.stderr)
    return 2
