"""`duel-companion hint` and `duel-companion arena`, and the arena's pairing and interval."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.cards import Catalog
from companion.engine.events import Deal, event_from_record, event_to_record
from companion.engine.state import Player
from companion.play.arena import arena, make_player, play_game, wilson
from companion.records.replay import replay_record
from companion.search.view import hidden_positions

RECORDS = Path(__file__).resolve().parent.parent / "records"
RECORD = RECORDS / "simulated_civilian_win.jsonl"


def write(tmp_path: Path, lines: list[str], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return path


def hint_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["hint", *argv, "--json", "--level", "easy"]) == 0
    answer: dict[str, object] = json.loads(capsys.readouterr().out)
    return answer


def test_hint_json_lists_record_lines_the_engine_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    lines = RECORD.read_text().splitlines()[:12]
    answer = hint_json(capsys, str(write(tmp_path, lines)))
    state = replay_record(lines, catalog)[-1]
    assert answer["player"] == state.current.value
    moves = answer["moves"]
    assert isinstance(moves, list) and len(moves) > 1
    assert set(moves[0]) == {"event", "win"}
    wins = [m["win"] for m in moves]
    for move in moves:
        replay_record([*lines, json.dumps(move["event"])], catalog)  # accepted as a record line
        assert move["event"]["player"] == state.current.value
    assert all(0.0 <= w <= 1.0 for w in wins)


def test_hint_is_the_same_for_the_same_seed_and_a_swap_of_face_down_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    lines = RECORD.read_text().splitlines()[:12]
    state = replay_record(lines, catalog)[-1]
    first, second = hidden_positions(state)[:2]
    deal = event_from_record(json.loads(lines[1]))
    assert isinstance(deal, Deal)
    layout = list(deal.layout)
    layout[first], layout[second] = layout[second], layout[first]
    swapped = [lines[0], json.dumps(event_to_record(Deal(1, tuple(layout)))), *lines[2:]]
    original = hint_json(capsys, str(write(tmp_path, lines)), "--seed", "3")
    again = hint_json(capsys, str(write(tmp_path, lines)), "--seed", "3")
    other = hint_json(capsys, str(write(tmp_path, swapped, "swapped.jsonl")), "--seed", "3")
    assert original == again == other


def test_hint_answers_a_great_library_from_the_tokens_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    from companion.play.simulate import play

    for seed in range(400):
        game = play(catalog, random.Random(seed), check=False)
        events = [e for e in game.events if e.type == "great_library"]
        if events:
            break
    index = game.events.index(events[0])
    lines = [json.dumps(event_to_record(e)) for e in game.events[:index]]
    path = write(tmp_path, lines)
    assert main(["hint", str(path)]) == 2
    assert "Great Library draw is needed" in capsys.readouterr().err
    drawn = ",".join(events[0].drawn)  # type: ignore[union-attr]
    answer = hint_json(capsys, str(path), "--drawn", drawn)
    kept = sorted(m["event"]["token"] for m in answer["moves"])  # type: ignore[attr-defined, index]
    assert kept == sorted(events[0].drawn)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--level", "expert"],
            "--level must be one of 1, 2, 3, 4, 5, easy, normal, hard, not 'expert'",
        ),
        (["--seconds", "0"], "--seconds must be more than 0"),
    ],
)
def test_hint_refuses_bad_arguments_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    path = write(tmp_path, RECORD.read_text().splitlines()[:12])
    assert main(["hint", str(path), *argv]) == 2
    assert capsys.readouterr().err == message + "\n"


def test_hint_refuses_a_finished_game_a_bad_record_and_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["hint", str(RECORD)]) == 2
    assert capsys.readouterr().err == "The game is over\n"
    bad = write(tmp_path, [*RECORD.read_text().splitlines()[:2], '{"type": "buy"}'], "bad.jsonl")
    assert main(["hint", str(bad), "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {"error": "line 3: unknown event type 'buy'"}
    assert main(["hint", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err.startswith("cannot read ")


def test_hint_text_names_the_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, RECORD.read_text().splitlines()[:12])
    assert main(["hint", str(path), "--level", "easy"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("p2 to play (level 2: 40 iterations")
    assert out[1].startswith(" 1. ")
    assert any(" discard " in line or " build " in line for line in out[1:])


def test_wilson_interval_worked_by_hand() -> None:
    # 18 of 20: z^2 = 3.8415; d = 1 + 3.8415/20 = 1.19207; centre = (0.9 + 3.8415/40)/d
    # = 0.83555; half = 1.96 * sqrt(0.09/20 + 3.8415/1600)/d = 0.13659
    low, high = wilson(0.9, 20)
    assert low == pytest.approx(0.83555 - 0.13659, abs=1e-4)
    assert high == pytest.approx(0.83555 + 0.13659, abs=1e-4)
    assert wilson(1.0, 10)[1] == pytest.approx(1.0)
    assert wilson(0.5, 0) == (0.0, 1.0)


def test_paired_games_share_setup_and_deals_with_seats_swapped(catalog: Catalog) -> None:
    one = (make_player("random", 1), make_player("random", 2))
    two = (make_player("greedy", 3), make_player("random", 4))
    _, first = play_game(catalog, one, 7)
    _, second = play_game(catalog, two, 7)
    assert first[0] == second[0]  # the same setup
    deals = [[e for e in game if isinstance(e, Deal)] for game in (first, second)]
    assert deals[0][0] == deals[1][0]  # the same first deal (later ones too, when reached)
    seen: list[Player] = []
    tally = arena(catalog, "greedy", "random", 2, 5, lambda n, s: seen.append(s.current))
    assert tally.games == 2 and tally.wins + tally.losses + tally.shared == 2
    assert len(seen) == 2


def test_arena_command_prints_the_tally(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "easy", "--b", "random", "--games", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"wins", "losses", "shared", "interval", "games"} <= set(result)
    assert result["wins"] + result["losses"] + result["shared"] == 2
    low, high = result["interval"]
    assert 0.0 <= low <= result["score"] <= high <= 1.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--a", "greedy", "--b", "random"],
         "--a must be one of 1, 2, 3, 4, 5, easy, normal, hard or cmd:PROGRAM, not 'greedy'"),
        (["--a", "easy", "--b", "bob"],
         "--b must be one of 1, 2, 3, 4, 5, easy, normal, hard, greedy, random or cmd:PROGRAM, "
         "not 'bob'"),
        (["--a", "easy", "--b", "random", "--games", "0"], "--games must be at least 1"),
    ],
)  # fmt: skip
def test_arena_refuses_bad_arguments_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["arena", *argv]) == 2
    assert capsys.readouterr().err == message + "\n"
