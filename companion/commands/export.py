"""`duel-companion export --csv|--history [--game G] [--out FILE] --journal PATH`.

`--csv` writes every finished game of one game type (default "duel") as CSV, one row per
player per game with every category; `--history` writes the whole journal as one JSON file that
`duel-companion import` (or the phone's import page) adds to another box without duplicates.
Standard output unless `--out`. A journal that cannot be read is a one-line refusal (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.config import ConfigError, load_config
from companion.engine.catalog import default_catalog
from companion.records.archive import export_history, games_csv, summarizer
from companion.records.journal import Journal, JournalError
from companion.records.stats import select
from companion.records.summaries import FactsCache, load_facts

HELP = "Write every game as CSV (--csv) or the whole history as JSON (--history)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--csv or --history, --game, --out, --journal and --config."""
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--csv", action="store_true", help="one row per player per game")
    what.add_argument("--history", action="store_true", help="the whole history (JSON)")
    parser.add_argument("--game", default="duel", help="game type of --csv (default: duel)")
    parser.add_argument("--out", type=Path, help="write to this file (default: stdout)")
    parser.add_argument("--journal", type=Path, help="the journal file (default: from config)")
    parser.add_argument("--config", type=Path, help="configuration file (TOML)")


def main(args: argparse.Namespace) -> int:
    """Write the export; 0, or 2 with a one-line refusal on stderr."""
    try:
        path = args.journal or load_config(args.config).journal
        with Journal.open(path, readonly=True) as journal:
            if args.csv:
                facts = load_facts(journal, summarizer(default_catalog(), journal), FactsCache())
                text = games_csv(select(facts, game=args.game))
            else:
                text = json.dumps(export_history(journal), ensure_ascii=False) + "\n"
        if args.out is None:
            sys.stdout.write(text)
        else:
            args.out.write_text(text, encoding="utf-8")
    except (ConfigError, JournalError) as refused:
        print(refused, file=sys.stderr)
        return 2
    except OSError as bad:
        print(f"cannot write {args.out}: {bad.strerror or bad}", file=sys.stderr)
        return 2
    return 0
