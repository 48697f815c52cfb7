"""`duel-companion export` and the history import of `duel-companion import`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from stats_games import build_journal

from companion.cli import main
from companion.engine.cards import Catalog
from companion.engine.catalog import default_catalog
from companion.records.bgstats import link_data
from companion.records.exchange import duel_play
from companion.records.game import import_record
from companion.records.journal import Journal


@pytest.fixture
def source(catalog: Catalog, tmp_path: Path) -> Path:
    build_journal(catalog, tmp_path / "source.sqlite").close()
    return tmp_path / "source.sqlite"


def test_csv_export_writes_a_row_per_player_per_game(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--csv", "--journal", str(source)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 10  # 5 games x 2 players (stats_games.py)
    assert [r["total"] for r in rows[:2]] == ["57", "38"]


def test_history_export_and_import_into_another_box_then_again(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = tmp_path / "history.json"
    assert main(["export", "--history", "--out", str(history), "--journal", str(source)]) == 0
    other = tmp_path / "other.sqlite"
    assert main(["import", str(history), "--journal", str(other), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["added"] == [1, 2, 3, 4, 5]
    assert main(["import", str(history), "--journal", str(other), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["added"] == [] and len(again["already"]) == 5
    # in words, without --json
    assert main(["import", str(history), "--journal", str(other)]) == 0
    told = capsys.readouterr().out
    # two games of the source are the same game: both are game 1 here
    assert told == "Nothing added: 5 games already there as games 1, 2, 3, 4.\n"
    with Journal.open(other, readonly=True) as journal:
        assert len(journal.games()) == 5


def test_a_refused_history_exits_2_in_one_line_and_creates_no_journal(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "duel-companion-history", "version": 1, "games": [1]}))
    assert main(["import", str(bad), "--journal", str(tmp_path / "new.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f'{bad}: game 1: expected an object with a "record" list'
    assert not (tmp_path / "new.sqlite").exists()


def test_export_from_a_missing_journal_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--csv", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    ("game", "head"),
    [
        ("duel", "game_id,game,finished,minutes,seat,player,first,result,victory,blue,green,"
                 "yellow,purple,wonders,progress,coins,military,total,wonders_built,"
                 "progress_tokens"),
        ("7wonders", "pad_id,game,variant,expansions,saved,seat,player,rank,result,wonder,side,"
                     "stages,military,treasury,wonders,civilian,science,commercial,guilds,"
                     "edifice,total"),
        ("7wonders-two-player", "pad_id,game,variant,expansions,saved,seat,player,rank,result,"
                                "wonder,side,stages,military,treasury,wonders,civilian,science,"
                                "commercial,guilds,edifice,total"),
        ("7wonders-dice", "pad_id,game,variant,expansions,saved,seat,player,rank,result,"
                          "warehouse,gold_reserve,wonder,barracks,agora,market,university,"
                          "guild_court,total"),
    ],
)  # fmt: skip
def test_a_csv_without_games_has_the_columns_of_its_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, head: str
) -> None:
    Journal.create(tmp_path / "empty.sqlite").close()
    argv = ["export", "--csv", "--game", game, "--journal", str(tmp_path / "empty.sqlite")]
    assert main(argv) == 0
    assert capsys.readouterr().out == head + "\n"


def test_a_history_is_whole_so_game_is_refused_with_it(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--history", "--game", "duel", "--journal", str(source)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "--history writes the whole history; --game is for --csv, --bgstats and --bgg-xml\n"
    )


RECORDS = Path(__file__).parents[1] / "records"


@pytest.fixture
def both_modes(tmp_path: Path) -> Path:
    """A base game (the simulated civilian win, game 1), then a Pantheon game (the golden
    record pantheon/civilian_win.jsonl, Ann 59 with 9 points of divinities, game 2)."""
    catalog = default_catalog(("pantheon",))
    with Journal.create(tmp_path / "modes.sqlite") as journal:
        for record in ("simulated_civilian_win.jsonl", "pantheon/civilian_win.jsonl"):
            import_record(catalog, journal, (RECORDS / record).read_text().splitlines())
    return tmp_path / "modes.sqlite"


@pytest.mark.parametrize(("mode", "game_ids"), [("base", {"1"}), ("pantheon", {"2"})])
def test_csv_export_keeps_the_games_of_one_mode(
    both_modes: Path, capsys: pytest.CaptureFixture[str], mode: str, game_ids: set[str]
) -> None:
    assert main(["export", "--csv", "--mode", mode, "--journal", str(both_modes)]) == 0
    text = capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["game_id"] for row in rows} == game_ids
    assert len(rows) == 2
    assert ("divinities" in text.splitlines()[0]) is (mode == "pantheon")
    if mode == "pantheon":
        ann = next(row for row in rows if row["player"] == "Ann")
        assert (ann["divinities"], ann["total"]) == ("9", "59")


def test_csv_export_without_a_mode_keeps_both(
    both_modes: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--csv", "--journal", str(both_modes)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["game_id"] for row in rows} == {"1", "2"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--csv", "--mode", "cities"], "unknown mode 'cities' (known: base, pantheon)"),
        (["--csv", "--mode", "base", "--game", "7wonders"],
         "--mode is for --csv of the Duel (--game duel)"),
        (["--bgstats", "--mode", "base"], "--mode is for --csv of the Duel (--game duel)"),
    ],
)  # fmt: skip
def test_a_mode_refused_exits_2_in_one_line(
    both_modes: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["export", *argv, "--journal", str(both_modes)]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", message + "\n")


def test_a_pantheon_game_sends_the_duel_and_the_expansion_ids(
    both_modes: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # BoardGameGeek: 7 Wonders Duel 173346, its expansion Pantheon 202976 (docs/statistics.md)
    with Journal.open(both_modes, readonly=True) as journal:
        play = duel_play(journal, default_catalog(("pantheon",)), 2)
    assert play is not None
    data = link_data(play)
    assert (data["game"]["name"], data["game"]["bggId"]) == ("7 Wonders Duel", 173346)
    assert data["expansions"] == [
        {"name": "7 Wonders Duel: Pantheon", "sourceGameId": "pantheon", "bggId": 202976}
    ]
    assert main(["export", "--bgstats", "--journal", str(both_modes)]) == 0
    written = json.loads(capsys.readouterr().out)
    assert [(g["id"], g["name"], g["bggId"], g["isExpansion"]) for g in written["games"]] == [
        (1, "7 Wonders Duel", 173346, False),
        (5, "7 Wonders Duel: Pantheon", 202976, True),
    ]
    # the two games end within a second or two of each other: told apart by their categories
    (base,) = [play for play in written["plays"] if "divinities" not in play["comments"]]
    (pantheon,) = [play for play in written["plays"] if "divinities" in play["comments"]]
    assert (base["bggId"], base["expansionPlays"]) == (173346, [])
    assert (pantheon["bggId"], pantheon["expansionPlays"]) == (
        173346, [{"gameRefId": 5, "bggId": 202976}],
    )  # fmt: skip
    assert "With 7 Wonders Duel: Pantheon." in pantheon["comments"]
