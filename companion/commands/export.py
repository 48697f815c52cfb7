"""`duel-companion export --csv|--history|--bgstats|--bgg-xml [--game G] [--mode M] [--out FILE]`.

`--csv` writes every finished game of one game (default "duel"; "7wonders",
"7wonders-two-player" and "7wonders-dice" are the score pads) as CSV, one row per player per
game with every category (`--mode base` or `--mode pantheon` keeps the Duel games of one mode,
as the statistics page's `mode`); `--history` writes the whole journal (Duel games, score pads and
imported plays) as one JSON file that `duel-companion import` (or the phone's import page)
adds to another box without duplicates; `--bgstats` writes every finished game as a BG Stats
backup file, `--bgg-xml` as a BoardGameGeek plays file (`--game` keeps one game). Standard
output unless `--out`. A journal that cannot be read, or a game the box does not know, is a
one-line refusal (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.config import ConfigError, load_config
from companion.engine.catalog import default_catalog
from companion.family.catalog import default_family_catalog
from companion.records.archive import export_history, games_csv
from companion.records.bggxml import plays_xml
from companion.records.bgstats import backup
from companion.records.exchange import journal_facts, journal_plays
from companion.records.journal import Journal, JournalError
from companion.records.results import UnknownGame, known_game
from companion.records.stats import MODES, select

HELP = "Write every game as CSV, the whole history as JSON, or the plays for BG Stats or BGG."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--csv, --history, --bgstats or --bgg-xml, --game, --out, --journal and --config."""
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--csv", action="store_true", help="one row per player per game")
    what.add_argument("--history", action="store_true", help="the whole history (JSON)")
    what.add_argument("--bgstats", action="store_true", help="a BG Stats backup file (JSON)")
    what.add_argument("--bgg-xml", action="store_true", help="BoardGameGeek plays (XML)")
    parser.add_argument("--game", help="only this game: --csv (default duel), --bgstats, --bgg-xml")
    parser.add_argument(
        "--mode", help=f"with --csv: only the Duel games of this mode ({', '.join(MODES)})"
    )
    parser.add_argument("--out", type=Path, help="write to this file (default: stdout)")
    parser.add_argument("--journal", type=Path, help="the journal file (default: from config)")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")


def main(args: argparse.Namespace) -> int:
    """Write the export; 0, or 2 with a one-line refusal on stderr."""
    if args.history and args.game is not None:  # a history is moved whole to another box
        print("--history writes the whole history; --game is for --csv, --bgstats and "
              "--bgg-xml", file=sys.stderr)  # fmt: skip
        return 2
    if (refused_mode := _refused_mode(args)) is not None:
        print(refused_mode, file=sys.stderr)
        return 2
    try:
        game = None if args.game is None else known_game(args.game)
        config = load_config(args.config)
        with Journal.open(args.journal or config.journal, readonly=True) as journal:
            if args.history:
                text = json.dumps(export_history(journal), ensure_ascii=False) + "\n"
            elif args.csv:
                facts = journal_facts(journal, default_catalog(), default_family_catalog())
                text = games_csv(select(facts, game=game or "duel", mode=args.mode), game or "duel")
            else:
                found = journal_plays(
                    journal, default_catalog(), default_family_catalog(), config.name
                )
                plays = [p for p in found if game is None or p.kind == game]
                if args.bgstats:
                    text = json.dumps(backup(plays), ensure_ascii=False, indent=1) + "\n"
                else:
                    text = plays_xml(plays)
        if args.out is None:
            sys.stdout.write(text)
        else:
            args.out.write_text(text, encoding="utf-8")
    except (ConfigError, JournalError, UnknownGame) as refused:
        print(refused, file=sys.stderr)
        return 2
    except OSError as bad:
        print(f"cannot write {args.out}: {bad.strerror or bad}", file=sys.stderr)
        return 2
    return 0


def _refused_mode(args: argparse.Namespace) -> str | None:
    """Why `--mode` cannot be used as given (None when it can): it names a known mode and
    goes with `--csv` of the Duel."""
    if args.mode is None:
        return None
    if args.mode not in MODES:
        return f"unknown mode {args.mode!r} (known: {', '.join(MODES)})"
    if not args.csv or (args.game or "duel") != "duel":
        return "--mode is for --csv of the Duel (--game duel)"
    return None
