"""The search player in a Pantheon game: activations as moves, the Pantheon's decisions,
forced wins through a divinity, the face-down divinities kept hidden, and the arena."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.events import (
    Activate,
    PlaceDivinity,
    PlaceSnake,
    TheaterActivation,
    event_to_record,
)
from companion.engine.rules import apply
from companion.engine.state import GameState, Pending, PendingKind, evolve
from companion.play.arena import make_player, play_game
from companion.play.playout import random_deal
from companion.records.replay import replay_record
from companion.search.determinize import Worlds
from companion.search.player import NoDecision, level_named, root_events, suggest
from tests.pantheon.pantheon_positions import CATALOG, P1, age_2, city, on

RECORD = Path(__file__).resolve().parent.parent / "records" / "pantheon" / "civilian_win.jsonl"
LINES = RECORD.read_text().splitlines()
EASY = level_named("easy")
FIVE_SYMBOLS = ("pharmacist", "workshop", "scriptorium", "apothecary", "study")


def dealt_age_2(state: GameState, seed: int = 0) -> GameState:
    """`state` (an Age II position without its deal) with the Age II structure dealt: seed
    0 leaves horse breeders (1 shield) and the aqueduct accessible, no green card."""
    return apply(state, random_deal(CATALOG, random.Random(seed), 2))


def test_hint_on_a_pantheon_record_lists_legal_moves_with_an_activation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = LINES[:42]  # Age II; the next line of the game activates Enki
    path = tmp_path / "pantheon.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    assert main(["hint", str(path), "--json", "--level", "easy"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    kinds = Counter(move["event"]["type"] for move in moves)
    assert kinds["activate"] >= 1 and kinds["build"] + kinds["discard"] >= 1
    for move in moves:
        replay_record([*lines, json.dumps(move["event"])])  # accepted by the engine


def test_the_search_activates_mars_for_a_military_supremacy() -> None:
    state = dealt_age_2(evolve(age_2(city(coins=3), spaces=on(1, "mars")), position=7))
    answer = suggest(state, EASY, 0)
    best = answer.moves[0]
    assert best.event == Activate(P1, 1, ())
    assert best.win == 1.0
    assert apply(state, best.event).winner is P1


def test_the_search_activates_ishtar_for_the_sixth_symbol() -> None:
    state = dealt_age_2(age_2(city(*FIVE_SYMBOLS, coins=3), spaces=on(1, "ishtar")))
    best = suggest(state, EASY, 0).moves[0]
    assert best.event == Activate(P1, 1, ()) and best.win == 1.0


def test_a_forced_line_goes_through_nisaba_and_the_snake() -> None:
    p2 = city("observatory")  # the globe, the symbol p1 lacks
    state = dealt_age_2(age_2(city(*FIVE_SYMBOLS, coins=3), p2, spaces=on(1, "nisaba")))
    best = suggest(state, EASY, 0).moves[0]
    assert best.line == (Activate(P1, 1, ()), PlaceSnake(P1, "observatory"))  # type: ignore[arg-type]
    after = apply(apply(state, best.line[0]), best.line[1])
    assert after.winner is P1


def test_without_the_coins_mars_is_no_forced_win() -> None:
    state = dealt_age_2(evolve(age_2(city(coins=2), spaces=on(1, "mars")), position=7))
    assert all(move.win < 1.0 for move in suggest(state, EASY, 0).moves)


def hidden_hades() -> tuple[GameState, GameState]:
    """Age I, p1 to play after p2 placed Hades face down on space 5 (drawn with
    Aphrodite); and the same position with Zeus there instead, Hades in the deck."""
    state = replay_record(LINES[:5])[-1]
    pantheon = state.pantheon
    assert pantheon is not None and pantheon.spaces[4] == "hades"
    decks = tuple(tuple("hades" if d == "zeus" else d for d in deck) for deck in pantheon.decks)
    spaces = tuple("zeus" if d == "hades" else d for d in pantheon.spaces)
    swapped = evolve(state, pantheon=evolve(pantheon, spaces=spaces, decks=decks))
    return state, swapped


def test_worlds_draw_the_opponents_face_down_divinity_and_hide_the_deck_top() -> None:
    state, _ = hidden_hades()
    assert state.pantheon is not None and state.pantheon.tops[1] == "aphrodite"  # put back
    worlds = Worlds(state)
    rng = random.Random(0)
    drawn = Counter()
    for _ in range(60):
        world = worlds.draw(rng)
        pantheon = world.pantheon
        assert pantheon is not None
        drawn[pantheon.spaces[4]] += 1
        greek = pantheon.decks[1]
        assert pantheon.tops[1] is None  # p2's card put back is not known to p1
        assert sorted((*greek, pantheon.spaces[4])) == ["aphrodite", "hades", "zeus"]
    assert set(drawn) == {"aphrodite", "hades", "zeus"}


def test_the_answer_does_not_depend_on_the_opponents_face_down_divinity() -> None:
    state, swapped = hidden_hades()
    level = level_named("2")
    first, second = suggest(state, level, 3), suggest(swapped, level, 3)
    assert [(m.event, m.win) for m in first.moves] == [(m.event, m.win) for m in second.moves]


def test_a_mythology_draw_is_needed_unless_the_deck_leaves_one() -> None:
    state = replay_record(LINES[:4])[-1]  # p2 took a Greek token: 3 cards, 3 draws
    assert state.pending is not None and state.pending.kind is PendingKind.DIVINITY
    with pytest.raises(NoDecision, match="draw is needed"):
        root_events(state)
    events = root_events(state, ["hades", "aphrodite"])  # type: ignore[list-item]
    assert events and all(isinstance(e, PlaceDivinity) for e in events)
    assert {e.divinity for e in events if isinstance(e, PlaceDivinity)} == {"aphrodite", "hades"}
    best = suggest(state, EASY, 0, drawn=["aphrodite", "hades"]).moves[0]  # type: ignore[list-item]
    apply(state, best.event)


@pytest.mark.parametrize("seed", [0, 1])
def test_arena_games_of_pantheon_are_legal_and_activate_divinities(seed: int) -> None:
    players = (make_player("easy", 1), make_player("greedy", 2))
    final, events = play_game(CATALOG, players, seed)
    assert final.finished
    kinds = Counter(type(e) for e in events)
    assert kinds[PlaceDivinity] == 5 and kinds[Activate] >= 1
    replayed = replay_record([json.dumps(event_to_record(e)) for e in events])[-1]
    assert replayed == final


def test_arena_command_plays_pantheon_games(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--a", "easy", "--b", "random", "--games", "4", "--expansion", "pantheon"]
    assert main([*argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["wins"] + result["losses"] + result["shared"] == 4
    assert result["victories"]["forfeit"] == 0


def test_a_divine_theater_in_age_1_answers_from_the_decks_as_they_are() -> None:
    # Found by `search_levels.py match --expansion pantheon`: the Theater's answers name the
    # divinities of the real decks (its builder looks at them), while each world drew the
    # face-down divinities of Age I anew, moving one of them into a deck and another out:
    # the search applied "activate Aphrodite" to a world where Aphrodite lay on the
    # Pantheon and the engine refused it. The worlds of a Theater decision keep the decks.
    state = replay_record(LINES[:18])[-1]  # Age I: Hades, Minerva, Enki face down
    assert state.pantheon is not None and state.age == 1
    assert "aphrodite" in state.pantheon.decks[1]  # the Greek deck; Hades on space 5
    asked = evolve(state, pending=Pending(PendingKind.THEATER, P1))
    real = {d for deck in state.pantheon.decks for d in deck}
    for seed in range(5):
        answer = suggest(asked, level_named("normal"), seed)
        assert answer.moves
        for move in answer.moves:
            assert isinstance(move.event, TheaterActivation)
            assert move.event.divinity in real
