"""Journals with games built through the engine, and the app over them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "journal"))
from journal_playout import finished_seed, playout
from stats_games import build_journal

from companion.config import Config
from companion.engine.cards import Catalog
from companion.records.game import import_record
from companion.records.journal import Journal
from web import create_app

CODE = "123456"
# Game ids in the `journal` fixture, in the order they are imported.
CIVILIAN, MILITARY, SCIENCE, PLAYING = 1, 2, 3, 4


@pytest.fixture(scope="session")
def records(catalog: Catalog) -> dict[str, list[dict[str, Any]]]:
    """Game records by name: three finished games (one per victory) and one being played."""
    return {
        "civilian": playout(catalog, finished_seed(catalog, "civilian")),
        "military": playout(catalog, finished_seed(catalog, "military")),
        "science": playout(catalog, finished_seed(catalog, "science")),
        "playing": playout(catalog, 11, events=25, names=("Cleo", "Dag")),
    }


def lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(record) for record in records]


@pytest.fixture
def journal(
    tmp_path: Path, catalog: Catalog, records: dict[str, list[dict[str, Any]]]
) -> Iterator[Journal]:
    """A journal holding the four games; the one being played is a game played here."""
    journal = Journal.create(tmp_path / "journal.sqlite")
    for name in ("civilian", "military", "science"):
        import_record(catalog, journal, lines(records[name]))
    game = journal.new_game()
    for record in records["playing"]:
        journal.append(game, record)
    yield journal
    journal.close()


@pytest.fixture
def app(journal: Journal, catalog: Catalog) -> Flask:
    return create_app(
        Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE, CATALOG=catalog
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


# The five hand-counted games of tests/journal/stats_games.py, for the statistics pages.
@pytest.fixture
def stats_journal(catalog: Catalog, tmp_path: Path) -> Iterator[Journal]:
    journal = build_journal(catalog, tmp_path / "stats.sqlite")
    yield journal
    journal.close()


@pytest.fixture
def stats_app(stats_journal: Journal, catalog: Catalog) -> Flask:
    config = Config.defaults(journal=stats_journal.path)
    return create_app(config, TESTING=True, PAIRING_CODE=CODE, CATALOG=catalog)


@pytest.fixture
def stats_client(stats_app: Flask) -> FlaskClient:
    return stats_app.test_client()
