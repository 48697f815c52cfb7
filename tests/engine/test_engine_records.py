"""Game records: events <-> JSON lines, replay with line numbers, golden games, the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from engine_positions import SETUP

from companion.cli import main as cli
from companion.engine.events import (
    Build,
    BuildFromDiscard,
    BuildWonder,
    ChooseStarter,
    Deal,
    Destroy,
    Discard,
    Event,
    KeepLibraryToken,
    RecordError,
    TakeProgress,
    event_from_record,
    event_to_record,
)
from companion.engine.state import Player
from companion.records.replay import ReplayError, replay_record, state_to_json

RECORDS = Path(__file__).parent.parent / "records"
BASE_GOLDEN = sorted(RECORDS.glob("*.jsonl"))
GOLDEN = [*BASE_GOLDEN, *sorted(RECORDS.glob("pantheon/*.jsonl"))]
"""The base game's records, then the Pantheon expansion's (in their own folder: the box and
the pages read the base game's). Pantheon's tokens lie on dealt positions: its games are not
replayed without deals."""
P1, P2 = Player.P1, Player.P2

EVENTS: list[Event] = [
    event_from_record(SETUP),
    Deal(1, tuple(f"card{i}" for i in range(20))),  # type: ignore[misc]
    Build(P1, "lumber_yard"),  # type: ignore[arg-type]
    Discard(P2, "baths"),  # type: ignore[arg-type]
    BuildWonder(P1, "the_pyramids", "stone_pit"),  # type: ignore[arg-type]
    TakeProgress(P1, "law"),  # type: ignore[arg-type]
    Destroy(P1, "clay_pool"),  # type: ignore[arg-type]
    BuildFromDiscard(P1, "baths"),  # type: ignore[arg-type]
    KeepLibraryToken(P1, ("agriculture", "philosophy", "theology"), "philosophy"),  # type: ignore[arg-type]
    ChooseStarter(P2, P1),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.type)
def test_every_event_survives_its_record(event: Event) -> None:
    record = json.loads(json.dumps(event_to_record(event)))
    assert record["type"] == event.type
    assert event_from_record(record) == event


def test_record_lines_have_the_documented_fields() -> None:
    assert event_to_record(EVENTS[4]) == {
        "type": "wonder", "player": "p1", "wonder": "the_pyramids", "card": "stone_pit",
    }  # fmt: skip
    assert event_to_record(EVENTS[-1]) == {"type": "next_age", "player": "p2", "starter": "p1"}


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "must be a JSON object"),
        ({"type": "buy"}, "unknown event type 'buy'"),
        ({"type": "build", "player": "p1"}, "build: missing field 'card'"),
        ({"type": "build", "player": "p3", "card": "x"}, "player must be 'p1' or 'p2'"),
        ({"type": "deal", "age": 4, "layout": []}, "age must be 1, 2 or 3"),
        ({"type": "great_library", "player": "p1", "drawn": ["law"], "token": "law"},
         "drawn must be a list of 3 ids"),
    ],
)  # fmt: skip
def test_malformed_records_are_refused(obj: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        event_from_record(obj)


def test_a_refusal_names_the_line(catalog: Any) -> None:
    lines = [json.dumps(SETUP), "", '{"type": "build", "player": "p2", "card": "quarry"}']
    with pytest.raises(ReplayError, match=r"^line 3: It is p1's turn, not p2's$"):
        replay_record(lines, catalog)
    with pytest.raises(ReplayError, match=r"^line 1: not valid JSON"):
        replay_record(["{"], catalog)


def test_undo_lines_take_back_the_event_before(catalog: Any) -> None:
    build = '{"type": "build", "player": "p1", "card": "quarry"}'
    undo = '{"type": "undo"}'
    states = replay_record([json.dumps(SETUP), build, undo], catalog)
    assert states == replay_record([json.dumps(SETUP)], catalog)
    with pytest.raises(ReplayError, match="line 1: Nothing to undo"):
        replay_record([undo], catalog)


# --- Golden games -----------------------------------------------------------------------------


def _expected(lines: list[str], catalog: Any) -> dict[str, Any]:
    """The state at the end of each age and at the end of the game, as JSON objects."""
    states = replay_record(lines, catalog)
    ages = [
        state_to_json(s)
        for s in states
        if s.pending is not None and s.pending.kind.value == "next_age"
    ]
    return {"ages": ages, "final": state_to_json(states[-1])}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_records_replay_to_their_expected_states(path: Path, catalog: Any) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    actual = _expected(lines, catalog)
    expected_path = path.with_suffix(".expected.json")
    if os.environ.get("UPDATE_REFERENCE") == "1":
        expected_path.write_text(json.dumps(actual, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    assert actual == expected


def test_there_are_golden_games_of_every_victory(catalog: Any) -> None:
    kinds = {json.loads(p.with_suffix(".expected.json").read_text())["final"]["victory"]
             for p in GOLDEN}  # fmt: skip
    assert kinds == {"military", "science", "civilian"}


@pytest.mark.parametrize("path", BASE_GOLDEN, ids=lambda p: p.stem)
def test_the_same_game_replays_in_table_mode_without_deals(path: Path, catalog: Any) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    without = [line for line in lines if json.loads(line)["type"] not in ("deal", "reveal")]
    dealt, table = replay_record(lines, catalog)[-1], replay_record(without, catalog)[-1]
    dealt_json, table_json = state_to_json(dealt), state_to_json(table)
    for key in ("structure",):
        dealt_json.pop(key), table_json.pop(key)
    assert dealt_json == table_json


# --- duel-companion replay ----------------------------------------------------------------------


def test_replay_json_prints_the_state_object(
    capsys: pytest.CaptureFixture[str], catalog: Any
) -> None:
    path = RECORDS / "simulated_civilian_win.jsonl"
    assert cli(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "finished"
    assert data["victory"] == "civilian" and data["winner"] in {"p1", "p2"}
    assert -9 <= data["military"]["position"] <= 9
    p1 = data["players"]["p1"]
    assert set(p1) >= {"coins", "cards", "wonders_built", "progress_tokens", "trade_prices",
                       "score"}  # fmt: skip
    assert list(p1["trade_prices"]) == ["wood", "clay", "stone", "glass", "papyrus"]
    assert list(p1["score"]) == ["blue", "green", "yellow", "purple", "wonders", "progress",
                                 "coins", "military", "total"]  # fmt: skip
    assert p1["score"]["total"] == sum(v for k, v in p1["score"].items() if k != "total")


def test_replay_of_a_refused_record_exits_2_with_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(SETUP) + '\n{"type": "build", "player": "p1", "card": "sawmill"}\n')
    assert cli(["replay", str(path), "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "Sawmill is an age 2 card, not age 1", "line": 2,
    }  # fmt: skip
    assert cli(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == "line 2: Sawmill is an age 2 card, not age 1"


def test_replay_of_a_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_text_output_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["replay", str(RECORDS / "simulated_military_win.jsonl")]) == 0
    assert "(military)" in capsys.readouterr().out.splitlines()[0]
