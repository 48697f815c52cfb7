"""Finished score pads kept in the journal beside the Duel games."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
from family_sheets import player, sheet

from companion.family.catalog import default_family_catalog
from companion.family.sheet import SheetError
from companion.records.journal import Journal
from companion.records.pads import UnknownPad, save_pad, saved_pad, saved_pads

# Ann: Temple 3; Bob: Palace 8 (wins); Cid: nothing.
SHEET = sheet(player("Ann", "giza", ["temple"]), player("Bob", "rhodes", ["palace"]),
              player("Cid", "ephesus"))  # fmt: skip


def test_a_saved_pad_keeps_its_sheet_players_and_winners(tmp_path: Path) -> None:
    with Journal.create(tmp_path / "j.sqlite") as journal:
        assert saved_pads(journal) == []
        first = save_pad(journal, default_family_catalog(), SHEET)
        second = save_pad(journal, default_family_catalog(), SHEET)
        found = saved_pad(journal, first)
        assert found.sheet == SHEET
        assert found.players == ("Ann", "Bob", "Cid")
        assert found.winners == ("Bob",)
        assert [p.id for p in saved_pads(journal)] == [second, first]  # newest first
        assert journal.games() == []  # pads are not Duel games


def test_a_refused_sheet_writes_nothing(tmp_path: Path) -> None:
    with Journal.create(tmp_path / "j.sqlite") as journal:
        bad = {**SHEET, "players": SHEET["players"][:2]}
        with pytest.raises(SheetError, match="3 to 7 players"):
            save_pad(journal, default_family_catalog(), bad)
        assert saved_pads(journal) == []
        with pytest.raises(UnknownPad, match="No score pad 1"):
            saved_pad(journal, 1)


def test_pads_survive_reopening_read_only(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal.create(path) as journal:
        pad_id = save_pad(journal, default_family_catalog(), SHEET)
    with Journal.open(path, readonly=True) as journal:
        assert saved_pad(journal, pad_id).winners == ("Bob",)
