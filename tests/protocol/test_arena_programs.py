"""`duel-companion arena` with programs that speak the engine protocol: small programs written
here, each a few lines of Python, run as subprocesses (`cmd:PROGRAM ARGS...`)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.engine.cards import Catalog
from companion.engine.structure import UNKNOWN
from companion.records.replay import replay_record
from companion.search.view import hidden_positions

ROOT = Path(__file__).resolve().parents[2]
# The face-down rows' positions of each age in layout order (docs/game-record.md).
FACE_DOWN = {1: (2, 3, 4, 9, 10, 11, 12, 13), 2: (6, 7, 8, 9, 10, 15, 16, 17),
             3: (2, 3, 4, 9, 10, 15, 16, 17)}  # fmt: skip

DOCUMENTATION = ROOT / "docs" / "engine-protocol.md"


def minimal_engine() -> str:
    """The minimal engine of the protocol's documentation: it plays the last legal event the
    rules list (the rules engine of this project, imported as a library)."""
    text = DOCUMENTATION.read_text()
    section = text[text.index("## A minimal engine") :]
    return section[section.index("```python\n") + 10 : section.index("```\n\n##")]


# Put before a program: each request it reads is written to the file named by its argument.
LOGGED = """
import sys


class _Logged:
    def __init__(self, path):
        self.log = open(path, "a")

    def __iter__(self):
        for line in sys.__stdin__:
            self.log.write(line)
            self.log.flush()
            yield line


sys.stdin = _Logged(sys.argv[1])
"""

# Builds the Palace (an age 3 card) whatever it is asked.
PALACE = """
import json, sys
for line in sys.stdin:
    player = json.loads(line)["player"]
    print(json.dumps({"event": {"type": "build", "player": player, "card": "palace"}}), flush=True)
"""

GARBAGE = """
import sys
for line in sys.stdin:
    print("thinking...", flush=True)
"""

CRASH = """
import sys
sys.stdin.readline()
sys.exit(3)
"""

ERROR = """
import json, sys
for line in sys.stdin:
    print(json.dumps({"error": "no idea"}), flush=True)
"""

SILENT = """
import sys
for line in sys.stdin:
    pass
"""


def program(tmp_path: Path, name: str, source: str, *args: str) -> str:
    """The `cmd:` argument that runs `source` with this Python, from the project's root."""
    script = tmp_path / f"{name}.py"
    script.write_text(source)
    return "cmd:" + shlex.join([sys.executable, str(script), *args])


def arena_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["arena", *argv, "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_an_outside_program_plays_whole_games_seeing_only_public_information(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "requests.jsonl"
    legal = program(tmp_path, "legal", LOGGED + minimal_engine(), str(log))
    result = arena_json(capsys, "--a", legal, "--b", "random", "--games", "2", "--seed", "4")
    assert result["games"] == 2 and result["forfeits"] == []
    assert result["wins"] + result["losses"] + result["shared"] == 2
    victories = result["victories"]
    assert victories["forfeit"] == 0
    assert victories["military"] + victories["science"] + victories["civilian"] == 2
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(requests) >= 40  # about half of two games' moves
    players = {r["player"] for r in requests}
    assert players == {"p1", "p2"}  # seats swapped: A played both sides
    revealed = 0  # requests whose deal names a card of a face-down row, turned up since
    for asked in requests:
        assert set(asked) <= {"record", "player", "drawn"}  # no --seconds given: none sent
        state = replay_record([json.dumps(r) for r in asked["record"]], catalog)[-1]
        structure = state.structure
        assert structure is not None
        # nothing face down is named: only the cards face up, or turned up before
        assert all(structure.cards[i] in UNKNOWN for i in hidden_positions(state))
        deal = [r for r in asked["record"] if r["type"] == "deal"][-1]
        revealed += any(deal["layout"][i] is not None for i in FACE_DOWN[deal["age"]])
        assert asked["player"] == (state.pending.player if state.pending else state.current)
    assert revealed
    first = requests[0]["record"][1]
    assert first["type"] == "deal" and first["layout"].count(None) == 8  # age 1: 8 face down


def test_a_program_that_answers_an_illegal_move_loses_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    palace = program(tmp_path, "palace", PALACE)
    result = arena_json(capsys, "--a", "easy", "--b", palace, "--games", "2")
    # B forfeits both games at its first move: A wins both, by forfeit
    assert (result["wins"], result["losses"], result["shared"]) == (2, 0, 0)
    assert result["victories"] == {"military": 0, "science": 0, "civilian": 0, "forfeit": 2}
    reason = "illegal move: Palace is an age 3 card, not age 1"
    assert result["forfeits"] == [
        {"game": 0, "player": "b", "reason": reason},
        {"game": 1, "player": "b", "reason": reason},
    ]
    assert main(["arena", "--a", "easy", "--b", palace, "--games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"game 0: B ({palace}) forfeits: {reason}"
    assert out[1].startswith(f"easy against {palace}: 1 win, 0 losses, 0 shared in 1 game ")


@pytest.mark.parametrize(
    ("name", "source", "reason"),
    [
        ("garbage", GARBAGE, "not a JSON line: 'thinking...'"),
        ("crash", CRASH, "it ended (exit status 3)"),
        ("error", ERROR, "it answered an error: no idea"),
        ("silent", SILENT, "no answer in 0.5 s"),
    ],
)
def test_a_program_that_fails_loses_each_game_and_is_started_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, source: str, reason: str
) -> None:
    bad = program(tmp_path, name, source)
    result = arena_json(capsys, "--a", bad, "--b", "random", "--games", "2", "--timeout", "0.5")
    assert (result["wins"], result["losses"]) == (0, 2)
    assert result["forfeits"] == [
        {"game": 0, "player": "a", "reason": reason},
        {"game": 1, "player": "a", "reason": reason},  # the second game's program answered
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--a", "easy", "--b", "cmd:"], "--b: cmd: names no program"),
        (["--a", "cmd:'unclosed", "--b", "random"], "--a: No closing quotation"),
        (["--a", "cmd:/nonexistent/engine", "--b", "random"],
         "--a: cannot start /nonexistent/engine: No such file or directory"),
        (["--a", "easy", "--b", "random", "--seconds", "0"], "--seconds must be more than 0"),
        (["--a", "easy", "--b", "random", "--timeout", "-1"], "--timeout must be more than 0"),
    ],
)  # fmt: skip
def test_arena_refuses_a_bad_program_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["arena", *argv]) == 2
    assert capsys.readouterr().err == message + "\n"


def test_seconds_are_sent_with_each_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "requests.jsonl"
    legal = program(tmp_path, "legal", LOGGED + minimal_engine(), str(log))
    arena_json(capsys, "--a", legal, "--b", "random", "--games", "1", "--seconds", "0.25")
    seconds = {json.loads(line)["seconds"] for line in log.read_text().splitlines()}
    assert seconds == {0.25}


def test_the_minimal_engine_of_the_protocols_documentation_plays_whole_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    minimal = program(tmp_path, "minimal", minimal_engine())
    result = arena_json(capsys, "--a", "1", "--b", minimal, "--games", "2")
    assert result["forfeits"] == [] and result["games"] == 2
    # the program against itself: both games of the pair are the same game (the same deals,
    # the same choices), so the seat that wins one wins the other: A wins one, loses one
    result = arena_json(capsys, "--a", minimal, "--b", minimal, "--games", "2")
    assert result["forfeits"] == []
    assert (result["wins"], result["losses"]) == (1, 1) or result["shared"] == 2
