"""Plays out and in: the BG Stats backup, the BoardGameGeek plays file, the CSV of the score
pads and the history file, each checked against a file written by hand (tests/journal/exports),
round trips through an empty journal, imports of hand-written files, and refusals."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from exchange_games import build

from companion.cli import main
from companion.engine.cards import Catalog
from companion.records.bggxml import PlaysRefused, parse_xml
from companion.records.journal import Journal
from companion.records.logged import logged_plays
from companion.records.results import NAMESPACE, Play, PlayerResult

EXPECTED = Path(__file__).resolve().parent / "exports"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory, catalog: Catalog) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("exchange") / "source.sqlite"
    build(catalog, path).close()
    yield path


def export(journal: Path, *options: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["export", *options, "--journal", str(journal)]) == 0
    return capsys.readouterr().out


def without_uuids(data: Any) -> Any:
    """The data with every "uuid" value replaced by "*" (checked apart)."""
    if isinstance(data, dict):
        return {k: "*" if k == "uuid" else without_uuids(v) for k, v in data.items()}
    if isinstance(data, list):
        return [without_uuids(v) for v in data]
    return data


# --- BG Stats ---------------------------------------------------------------------------------


def test_bgstats_backup_matches_the_hand_written_file_field_by_field(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = json.loads(export(source, "--bgstats", capsys=capsys))
    expected = json.loads((EXPECTED / "bgstats.expected.json").read_text())
    assert list(written) == ["games", "players", "locations", "plays"]
    for key in ("games", "players", "locations"):
        assert without_uuids(written[key]) == expected[key], key
    assert len(written["plays"]) == len(expected["plays"]) == 7
    for index, (play, wanted) in enumerate(zip(written["plays"], expected["plays"], strict=True)):
        assert without_uuids(play) == wanted, f"play {index}"


def test_bgstats_uuids_are_derived_from_names_and_stable(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = json.loads(export(source, "--bgstats", capsys=capsys))
    again = json.loads(export(source, "--bgstats", capsys=capsys))
    assert first == again
    ann = next(p for p in first["players"] if p["name"] == "Ann")
    assert ann["uuid"] == str(uuid.uuid5(NAMESPACE, "player:Ann"))
    plays = [p["uuid"] for p in first["plays"]]
    assert len(set(plays)) == 7 and all(uuid.UUID(u).version == 5 for u in plays)


def test_bgstats_round_trip_through_an_empty_journal_gives_the_same_file(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, other = tmp_path / "plays.json", tmp_path / "other.sqlite"
    export(source, "--bgstats", "--out", str(out), capsys=capsys)
    assert main(["import", "--bgstats", str(out), "--journal", str(other), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"added": 7, "already": 0, "skipped": []}
    assert export(other, "--bgstats", capsys=capsys) == out.read_text()
    assert main(["import", "--bgstats", str(out), "--journal", str(other), "--json"]) == 0  # again
    assert json.loads(capsys.readouterr().out) == {"added": 0, "already": 7, "skipped": []}
    assert (
        main(["import", "--bgstats", str(out), "--journal", str(source), "--json"]) == 0
    )  # its source
    assert json.loads(capsys.readouterr().out)["added"] == 0


def test_a_hand_written_bgstats_backup_imports_the_known_games_and_names_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    backup = EXPECTED / "bgstats-backup.json"
    assert main(["import", "--bgstats", str(backup), "--journal", str(journal), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == {
        "added": 2,
        "already": 0,
        "skipped": [{"game": "Catan", "plays": 2, "reason": "not a game the box keeps"}],
    }
    with Journal.open(journal, readonly=True) as opened:
        duel, base = logged_plays(opened)
    assert duel == Play(
        uuid="5C4D1E0A-0000-4000-8000-000000000301", game="duel",
        played="2025-12-31 19:45:00", minutes=32, location="Café", comments="A close one",
        players=(PlayerResult("Eve", 61, 1, winner=True, start=True),
                 PlayerResult("Finn", 54, 2, winner=False, start=False)),
    )  # fmt: skip
    # seated by seatOrder; no rank given: Finn won (1), Eve 48 (2), Gus without a score (3)
    assert base == Play(
        uuid="5C4D1E0A-0000-4000-8000-000000000304", game="7wonders",
        played="2026-01-04 21:15:00", minutes=41, location="Café", comments="",
        players=(PlayerResult("Eve", 48, 2, winner=False, start=True),
                 PlayerResult("Finn", 55, 1, winner=True, start=False),
                 PlayerResult("Gus", None, 3, winner=False, start=False)),
        expansions=("edifice",),
    )  # fmt: skip
    assert main(["import", "--bgstats", str(backup), "--journal", str(journal), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["already"] == 2


# --- BoardGameGeek ----------------------------------------------------------------------------


def test_bgg_plays_file_matches_the_hand_written_file(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = export(source, "--bgg-xml", capsys=capsys)
    expected = (EXPECTED / "bgg-plays.expected.xml").read_text()
    for number, (line, wanted) in enumerate(
        zip(written.splitlines(), expected.splitlines(), strict=True), start=1
    ):
        assert line == wanted, f"line {number}"


def test_bgg_round_trip_through_an_empty_journal_gives_the_same_file(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, other = tmp_path / "plays.xml", tmp_path / "other.sqlite"
    export(source, "--bgg-xml", "--out", str(out), capsys=capsys)
    assert main(["import", "--bgg-xml", str(out), "--journal", str(other), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"added": 7, "already": 0, "skipped": []}
    assert export(other, "--bgg-xml", capsys=capsys) == out.read_text()
    assert main(["import", "--bgg-xml", str(out), "--journal", str(source), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"added": 0, "already": 7, "skipped": []}


def test_a_hand_written_bgg_plays_file_imports_the_known_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    plays = EXPECTED / "bgg-plays.xml"
    assert main(["import", "--bgg-xml", str(plays), "--journal", str(journal), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == {
        "added": 2,
        "already": 0,
        "skipped": [{"game": "Azul", "plays": 1, "reason": "not a game the box keeps"}],
    }
    with Journal.open(journal, readonly=True) as opened:
        duel, base = logged_plays(opened)
    assert duel == Play(
        uuid=str(uuid.uuid5(NAMESPACE, "bgg:1001")), game="duel", played="2025-11-02",
        minutes=40, location="Home", comments="Science!",
        players=(PlayerResult("Eve", 33, 1, winner=True, start=True),
                 PlayerResult("Finn", None, 2, winner=False, start=False)),
        bgg_play=1001,
    )  # fmt: skip
    # Gus 57 won (1); Finn and Eve 51 each: both 2 (behind Gus only)
    assert (base.game, base.played, base.minutes, base.location) == (
        "7wonders", "2025-11-03", None, "",
    )  # fmt: skip
    assert [(p.name, p.score, p.rank, p.winner, p.start) for p in base.players] == [
        ("Finn", 51, 2, False, False), ("Gus", 57, 1, True, False), ("Eve", 51, 2, False, False),
    ]  # fmt: skip
    assert main(["import", "--bgg-xml", str(plays), "--journal", str(journal), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["already"] == 2


# --- Refusals ---------------------------------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
<plays><play date="2025-01-01"><item name="&d;" objectid="173346"/></play></plays>"""
BACKUP = json.loads((EXPECTED / "bgstats-backup.json").read_text())
FIRST = BACKUP["plays"][0]


def backup_with(**play: Any) -> str:
    return json.dumps({**BACKUP, "plays": [{**FIRST, **play}]})


@pytest.mark.parametrize(
    ("option", "content", "message"),
    [
        ("--bgstats", "not json", "not a BG Stats backup (not JSON)"),
        ("--bgstats", '{"games": []}', 'not a BG Stats backup (no "plays" list)'),
        ("--bgstats", backup_with(playDate="2025/12/31"),
         "plays[0]: playDate: expected 'YYYY-MM-DD hh:mm:ss', got '2025/12/31'"),
        ("--bgstats", backup_with(gameRefId=99), "plays[0]: gameRefId 99 is not in games"),
        ("--bgstats", backup_with(playerScores=[{"playerRefId": 7, "score": "1"}]),
         "plays[0]: playerScores[0]: playerRefId 7 is not in players"),
        ("--bgstats", backup_with(playerScores=[{"playerRefId": 1, "score": "4.5"}]),
         "plays[0]: playerScores[0]: score: expected a whole number, got '4.5'"),
        ("--bgg-xml", "<plays><play", "not well-formed XML: unclosed token, line 1"),
        ("--bgg-xml", "<items/>",
         "not a BoardGameGeek plays file (root <items>, expected <plays>)"),
        ("--bgg-xml", BILLION_LAUGHS.decode(), "a document type declaration (DTD) is refused"),
        ("--bgg-xml", '<plays><play date="2025-13-01"><item objectid="173346"/></play></plays>',
         "play 1: date: '2025-13-01' is not a day"),
        ("--bgg-xml", '<plays><play date="2025-01-01"/></plays>',
         "play 1: no <item> naming the game"),
        ("--bgg-xml", '<plays><play date="2025-01-01"><item objectid="173346"/><players>'
         '<player name="Eve" score="4.5"/></players></play></plays>',
         "play 1: player 'Eve': score: expected a whole number, got '4.5'"),
    ],
)  # fmt: skip
def test_a_malformed_file_is_refused_in_one_line_and_nothing_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, content: str, message: str
) -> None:
    bad, journal = tmp_path / "bad.file", tmp_path / "new.sqlite"
    bad.write_text(content)
    assert main(["import", option, str(bad), "--journal", str(journal)]) == 2
    assert capsys.readouterr().err == f"{bad}: {message}\n"
    assert not journal.exists()


def test_a_dtd_is_refused_before_any_entity_is_expanded() -> None:
    with pytest.raises(PlaysRefused, match="DTD"):
        parse_xml(BILLION_LAUGHS)


def test_import_takes_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert capsys.readouterr().err == "give one file: RECORD, --bgstats FILE or --bgg-xml FILE\n"


# --- CSV and history --------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["7wonders", "7wonders-two-player"])
def test_csv_of_the_score_pads_matches_the_hand_written_file(
    source: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    written = export(source, "--csv", "--game", game, capsys=capsys)
    assert written == (EXPECTED / f"{game}.expected.csv").read_text()


def test_an_unknown_game_is_refused_in_one_line(
    source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for options in (["--csv", "--game", "catan"], ["--bgstats", "--game", "catan"]):
        assert main(["export", *options, "--journal", str(source)]) == 2
        known = "duel, 7wonders, 7wonders-two-player, 7wonders-dice"
        assert capsys.readouterr().err == f"unknown game 'catan' (known: {known})\n"


def test_history_holds_the_score_pads_and_imported_plays(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = json.loads(export(source, "--history", capsys=capsys))
    assert [(p["saved"], p["game"], p["sheet"]["variant"]) for p in history["pads"]] == [
        ("2026-04-03T20:00:00Z", "7wonders", "base"),
        ("2026-04-04T21:30:00Z", "7wonders", "two-player"),
    ]
    assert history["pads"][0]["sheet"]["expansions"] == ["edifice"]
    assert history["plays"] == []  # none imported on this box
    # the remembered players: of the Duel games and of the score pads (not the Free City)
    assert history["players"] == ["Ann", "Ben", "Bob", "Cid", "Cleo"]


def test_history_round_trip_through_an_empty_journal_gives_the_same_files(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_plays = tmp_path / "with-plays.sqlite"  # a box that imported plays too
    build(_catalog(), with_plays).close()
    assert main(["import", "--bgstats", str(EXPECTED / "bgstats-backup.json"),
                 "--journal", str(with_plays), "--json"]) == 0  # fmt: skip
    capsys.readouterr()
    out, other = tmp_path / "history.json", tmp_path / "other.sqlite"
    export(with_plays, "--history", "--out", str(out), capsys=capsys)
    assert main(["import", str(out), "--journal", str(other), "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert (done["added"], done["pads"], done["plays"]) == ([1, 2, 3, 4, 5], 2, 2)
    assert export(other, "--history", capsys=capsys) == out.read_text()
    for options in (["--csv"], ["--csv", "--game", "7wonders"], ["--bgstats"], ["--bgg-xml"]):
        assert export(other, *options, capsys=capsys) == export(
            with_plays, *options, capsys=capsys
        ), options
    assert main(["import", str(out), "--journal", str(other), "--json"]) == 0  # again: nothing
    again = json.loads(capsys.readouterr().out)
    assert (again["added"], again["pads"], again["plays"]) == ([], 0, 0)
    # in words: the games, score pads and plays of a history
    assert main(["import", str(out), "--journal", str(tmp_path / "third.sqlite")]) == 0
    assert capsys.readouterr().out == (
        "Added games 1 to 5 to third.sqlite; added 2 score pads; added 2 plays.\n"
    )


def _catalog() -> Catalog:
    from companion.engine.catalog import default_catalog

    return default_catalog()


def test_the_plays_import_says_what_it_did_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    backup = str(EXPECTED / "bgstats-backup.json")
    assert main(["import", "--bgstats", backup, "--journal", str(journal)]) == 0
    assert capsys.readouterr().out == (
        "Added 2 plays to j.sqlite; skipped 2 plays of Catan (not a game the box keeps).\n"
    )
    assert main(["import", "--bgstats", backup, "--journal", str(journal)]) == 0
    assert capsys.readouterr().out == (
        "Nothing added; 2 plays already there; skipped 2 plays of Catan (not a game the box "
        "keeps).\n"
    )


def test_a_dice_pad_has_its_rows_in_the_csv_and_its_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.family.catalog import default_family_catalog
    from companion.records.pads import save_pad

    # Ann: wonder 6 + barracks 3 (printed 3, no defence) = 9; Bob: market 5 + the Agora 1
    # and its bonus 3 = 9, 2 unused coins against Ann's 0: Bob wins the tie
    ann = {"name": "Ann", "wonder": 6, "barracks": [[3, 0]]}
    bob = {"name": "Bob", "market": 5, "agora": 1, "agora_first": True, "unused_coins": 2}
    dice = {"game": "7wonders-dice", "players": [ann, bob]}
    path = tmp_path / "dice.sqlite"
    with Journal.create(path) as journal:
        save_pad(journal, default_family_catalog(), dice)
        saved = journal.query("SELECT saved FROM pads")[0][0]
    head = (  # no board in Dice: its "wonder" is a category
        "pad_id,game,variant,expansions,saved,seat,player,rank,result,"
        "warehouse,gold_reserve,wonder,barracks,agora,market,university,guild_court,total"
    )
    assert export(path, "--csv", "--game", "7wonders-dice", capsys=capsys).splitlines() == [
        head,
        f"1,7wonders-dice,,,{saved},1,Ann,2,loss,0,0,6,3,0,0,0,0,9",
        f"1,7wonders-dice,,,{saved},2,Bob,1,win,0,0,0,0,4,5,0,0,9",
    ]
    plays = json.loads(export(path, "--bgstats", capsys=capsys))
    assert [g["name"] for g in plays["games"]] == ["7 Wonders Dice"]
    assert plays["plays"][0]["comments"] == (
        "Ann 9: warehouse 0, gold reserve 0, wonder 6, barracks 3, agora 0, market 0, "
        "university 0, guild court 0. Bob 9: warehouse 0, gold reserve 0, wonder 0, barracks 0, "
        "agora 4, market 5, university 0, guild court 0."
    )


def test_an_imported_bgg_play_keeps_new_on_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # bgg-plays.xml: Finn's first play of 7 Wonders (new="1"), the others not new
    journal = tmp_path / "j.sqlite"
    assert main(["import", "--bgg-xml", str(EXPECTED / "bgg-plays.xml"), "--journal",
                 str(journal)]) == 0  # fmt: skip
    capsys.readouterr()
    with Journal.open(journal, readonly=True) as opened:
        _, base = logged_plays(opened)
    assert [(p.name, p.new) for p in base.players] == [("Finn", True), ("Gus", False),
                                                       ("Eve", False)]  # fmt: skip
    root = parse_xml(export(journal, "--bgg-xml", capsys=capsys).encode())
    news = {p.get("name"): p.get("new") for p in root.iterfind("play/players/player")
            if p.get("name") in ("Finn", "Gus")}  # fmt: skip
    assert news == {"Finn": "1", "Gus": "0"}
    history = json.loads(export(journal, "--history", capsys=capsys))
    finn = history["plays"][1]["players"][0]
    assert (finn["name"], finn["new"]) == ("Finn", True)


@pytest.mark.parametrize("option", ["--bgstats", "--bgg-xml"])
def test_a_play_without_players_is_skipped_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    # the Duel play of the hand-written file, its players taken away
    if option == "--bgstats":
        emptied = backup_with(playerScores=[])  # the backup with only its first play
    else:
        whole = (EXPECTED / "bgg-plays.xml").read_text()
        start, end = whole.index("<players>"), whole.index("</players>") + len("</players>")
        emptied = whole[:start] + whole[end:]  # play 1001, the Duel of Eve and Finn
    (tmp_path / "empty").write_text(emptied)
    journal = tmp_path / "j.sqlite"
    assert main(["import", option, str(tmp_path / "empty"), "--journal", str(journal)]) == 0
    said = capsys.readouterr().out
    assert "skipped 1 play of 7 Wonders Duel (no players)" in said
    with Journal.open(journal, readonly=True) as opened:
        assert all(play.players for play in logged_plays(opened))
    assert main(["import", option, str(tmp_path / "empty"), "--journal", str(journal),
                 "--json"]) == 0  # fmt: skip
    skipped = json.loads(capsys.readouterr().out)["skipped"]
    assert {"game": "7 Wonders Duel", "plays": 1, "reason": "no players"} in skipped
