"""Hundreds of generated hostile history files: each is refused by `duel-companion import`
with exit 2 and one line, and the journal is left exactly as it was."""

from __future__ import annotations

import json
import random
import sqlite3
from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest
from stats_games import build_journal

from companion.commands import import_record
from companion.engine.cards import Catalog
from companion.records.archive import export_history
from companion.records.journal import Journal

HOSTILE: list[Any] = [10**30, -1, 1.5, 1e308, True, None, {}, [[1]], "", "garbage", "\x00",
                      "\ud800", "\u202eA", "x" * 3000, float("nan"), float("inf"),
                      "9999-99-99T00:00:00Z", "20260101", {"p1": "=cmd"}]  # fmt: skip
RAW_HOSTILE = ["9" * 5000, "NaN", "-Infinity", "[" * 3000, "1e99999"]


def places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        found.append((*path, "unknown_key"))
        for key, value in node.items():
            found.append((*path, key))
            found.extend(places(value, (*path, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.append((*path, index))
            found.extend(places(value, (*path, index)))
    return found


def with_value(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(base))
    node: Any = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def snapshot(path: Path) -> tuple[list[Any], ...]:
    with sqlite3.connect(path) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return tuple(db.execute(f"SELECT * FROM {t}").fetchall() for t in sorted(tables))


@pytest.fixture(scope="module")
def history(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    with build_journal(catalog, tmp_path_factory.mktemp("box") / "journal.sqlite") as journal:
        exported: dict[str, Any] = json.loads(json.dumps(export_history(journal)))
    exported["games"] = exported["games"][:2]  # two games: quick to check hundreds of times
    return exported


def test_hundreds_of_hostile_history_files_are_refused_in_one_line_writing_nothing(
    history: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(25)
    journal = tmp_path / "journal.sqlite"
    Journal.create(journal).close()
    file = tmp_path / "history.json"
    spots = [p for p in places(history) if p[-1] not in ("id", "hash")]  # not read on import
    # half of them around the games (times, minutes, names, version), half in their records
    outside = [p for p in spots if "record" not in p or p[-1] == "record"]
    inside = [p for p in spots if p not in outside]
    refused = 0
    for number in range(300):
        where = rng.choice(outside if number % 2 else inside)
        if rng.random() < 0.2:
            text = json.dumps(with_value(history, where, "@RAW@"))
            text = text.replace('"@RAW@"', rng.choice(RAW_HOSTILE))
        else:
            text = json.dumps(with_value(history, where, rng.choice(HOSTILE)))
        file.write_text(text, encoding="utf-8", errors="surrogatepass")
        before = snapshot(journal)
        given = Namespace(
            record=file, bgstats=None, bgg_xml=None, journal=journal, config=None, json=False
        )
        status = import_record.main(given)
        out = capsys.readouterr()
        label = (number, where, text[:120])
        if status == 0:  # a key the import does not read, or an empty (unnamed) name
            continue
        refused += 1
        assert status == 2, label
        assert out.out == "" and out.err.count("\n") == 1, label
        assert snapshot(journal) == before, label
    assert refused >= 250  # the rest: unknown keys (not read), a word that is a fine name
