"""`duel-companion engine`, driven as a program at the other end of the engine protocol
would drive it: one request a line on its standard input, one answer a line back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.engine.cards import Catalog
from companion.engine.events import GUILD_BACK, event_from_record
from companion.engine.rules import accessible_cards, apply
from companion.engine.state import PendingKind, Player
from companion.protocol import Program
from companion.records.replay import replay_record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "records"
DEMO = ROOT / "companion" / "demo" / "dealt.jsonl"
ENGINE = [sys.executable, "-m", "companion.cli", "engine", "--level", "easy"]

# Age 1 in layout order: rows of 2, 3, 4, 5, 6 cards; rows 2 and 4 lie face down.
FACE_DOWN_AGE_1 = (2, 3, 4, 9, 10, 11, 12, 13)


def lines_of(path: Path, count: int | None = None) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return records[:count] if count is not None else records


def partial_demo_start() -> list[dict[str, Any]]:
    """The demo game's setup and its age 1 deal as seen at the table: face-down cards null."""
    setup, deal = lines_of(DEMO, 2)
    layout = [None if i in FACE_DOWN_AGE_1 else card for i, card in enumerate(deal["layout"])]
    return [setup, {**deal, "layout": layout}]


BATHS = {"type": "build", "player": "p2", "card": "baths"}


def run_engine(requests: list[str]) -> list[dict[str, Any]]:
    """Every answer line of one engine run over `requests` (then the end of input)."""
    done = subprocess.run(
        ENGINE,
        input="".join(line + "\n" for line in requests),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_good_and_malformed_requests_each_get_one_line_and_the_engine_goes_on(
    catalog: Catalog,
) -> None:
    record = partial_demo_start()
    good = json.dumps({"record": record, "player": "p2"})
    requests = [
        '{"record": [',
        "[1, 2]",
        json.dumps({"player": "p2"}),
        json.dumps({"record": record, "player": "p3"}),
        json.dumps({"record": record, "player": "p2", "seconds": 0}),
        json.dumps({"record": record, "player": "p2", "seconds": "soon"}),
        json.dumps({"record": record, "player": "p1"}),  # player 2 begins this game
        # position 3 (row 2) lies face down, not named in this deal: nobody can take it
        json.dumps({"record": [*record, BATHS], "player": "p1"}),
        json.dumps({"record": [*record, {"type": "buy", "player": "p2"}], "player": "p1"}),
        json.dumps({"record": [{"type": "undo"}], "player": "p1"}),
        "",  # a blank line is skipped, not answered
        good,
        json.dumps({"record": record, "player": "p2", "seconds": 5, "comment": "ignored"}),
    ]
    answers = run_engine(requests)
    assert answers[:10] == [
        {"error": "not valid JSON (Expecting value)"},
        {"error": "expected a JSON object"},
        {"error": '"record" must be a list of record lines'},
        {"error": '"player" must be "p1" or "p2"'},
        {"error": '"seconds" must be a number above 0'},
        {"error": '"seconds" must be a number above 0'},
        {"error": "p2 acts now, not p1"},
        {"error": "record line 3: Baths is not in the age 1 structure"},
        {"error": "record line 3: unknown event type 'buy'"},
        {"error": "record line 1: a game record holds no undo"},
    ]
    assert len(answers) == 12
    state = replay_record([json.dumps(r) for r in record], catalog)[-1]
    for reply in answers[10:]:
        assert set(reply) == {"event"}
        event = event_from_record(reply["event"])
        assert getattr(event, "player", None) is Player.P2
        assert getattr(event, "card", None) in accessible_cards(state)  # a card face up, free
        apply(state, event)  # legal


def test_an_empty_record_is_told_to_begin_with_the_setup() -> None:
    answers = run_engine([json.dumps({"record": [], "player": "p1"})])
    assert answers == [{"error": '"record" is empty: it begins with the setup'}]


def test_the_answer_reads_only_what_the_player_can_see(catalog: Catalog) -> None:
    """The full deal and the same deal with its face-down cards null give the same answer."""
    partial = partial_demo_start()
    full = lines_of(DEMO, 2)
    one, two = run_engine([json.dumps({"record": r, "player": "p2"}) for r in (partial, full)])
    assert one == two and "event" in one


def test_a_pending_decision_is_answered_by_its_choice(catalog: Catalog) -> None:
    # line 36 of this game is p2's progress token: the first 35 lines end with a pair
    pair = lines_of(RECORDS / "simulated_civilian_win.jsonl", 35)
    before = replay_record([json.dumps(r) for r in pair], catalog)[-1]
    assert before.pending is not None and before.pending.kind is PendingKind.PROGRESS
    # line 40 of this game is p2's Great Library token, drawn from agriculture, law, economy
    library = lines_of(RECORDS / "simulated_military_win.jsonl", 39)
    drawn = ["agriculture", "law", "economy"]
    # the record up to the end of age 1 (line 23 chooses who begins age 2): a deal is needed
    age_2 = lines_of(RECORDS / "simulated_science_win.jsonl", 23)
    starter = replay_record([json.dumps(r) for r in age_2], catalog)[-1].current.value
    whole = lines_of(RECORDS / "simulated_science_win.jsonl")
    progress, kept, no_draw, no_deal, over = run_engine(
        [
            json.dumps({"record": pair, "player": "p2"}),
            json.dumps({"record": library, "player": "p2", "drawn": drawn}),
            json.dumps({"record": library, "player": "p2"}),
            json.dumps({"record": age_2, "player": starter}),
            json.dumps({"record": whole, "player": "p1"}),
        ]
    )
    assert progress["event"]["type"] == "progress" and progress["event"]["player"] == "p2"
    assert progress["event"]["token"] in before.board_tokens
    assert kept["event"]["type"] == "great_library"
    assert kept["event"]["drawn"] == drawn and kept["event"]["token"] in drawn
    assert no_draw == {"error": "The Great Library draw is needed: the 3 tokens drawn"}
    assert no_deal == {"error": "The deal of age 2 is needed (the table is not known)"}
    assert over == {"error": "The game is over"}


def test_each_answer_comes_before_the_next_request_is_sent() -> None:
    """The engine flushes each answer: a referee that waits for it before it writes the next
    request gets it (Program gives up after its timeout, which a test run never reaches)."""
    program = Program(ENGINE, timeout=120)
    try:
        record = partial_demo_start()
        first = program.ask({"record": record, "player": "p2"})
        assert isinstance(first, dict) and "event" in first
        record.append(first["event"])
        second = program.ask({"record": record, "player": "p1"})
        assert isinstance(second, dict) and second["event"]["player"] == "p1"
    finally:
        program.close()


def test_an_age_3_guild_back_is_read_as_a_guild(catalog: Catalog) -> None:
    """In age 3 a face-down guild shows its back: the request says "guild" there."""
    whole = lines_of(RECORDS / "simulated_science_win.jsonl")
    index = next(i for i, r in enumerate(whole) if r["type"] == "deal" and r["age"] == 3)
    deal = whole[index]
    guilds = {c.id for c in catalog.guilds}
    layout = list(deal["layout"])
    face_down_age_3 = (2, 3, 4, 9, 10, 15, 16, 17)  # rows 2, 4 and 6 of 2 3 4 2 4 3 2
    for position in face_down_age_3:
        layout[position] = GUILD_BACK if layout[position] in guilds else None
    record = [*whole[:index], {**deal, "layout": layout}]
    player = replay_record([json.dumps(r) for r in record], catalog)[-1].current.value
    (reply,) = run_engine([json.dumps({"record": record, "player": player})])
    assert reply["event"]["player"] == player


def test_an_unknown_level_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["engine", "--level", "7"]) == 2
    message = "--level must be one of 1, 2, 3, 4, 5, easy, normal, hard, not '7'\n"
    assert capsys.readouterr().err == message


def test_requests_are_read_as_utf8_whatever_the_locale() -> None:
    setup, deal = partial_demo_start()
    setup = {**setup, "players": {"p1": "Åse", "p2": "Bjørn"}}
    request = json.dumps({"record": [setup, deal], "player": "p2"}, ensure_ascii=False)
    done = subprocess.run(
        ENGINE,
        input=(request + "\n").encode("utf-8") + b"\xff\xfe\n",
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"},
        timeout=300,
        check=True,
    )
    named, garbled = (json.loads(line) for line in done.stdout.decode("ascii").splitlines())
    assert "event" in named
    assert garbled == {"error": "not valid JSON (Expecting value)"}
