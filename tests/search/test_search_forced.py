"""Forced lines: wins within the mover's own turn chain (play-again wonders, Theology, a
pair's progress token), from known cards only, and the opponent's forced wins blocked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.cards import CardId, Catalog, TokenId, WonderId
from companion.engine.events import (
    Build,
    BuildWonder,
    Deal,
    Discard,
    Event,
    Setup,
    TakeProgress,
    event_from_record,
)
from companion.engine.rules import accessible_cards, apply, city_of, new_game
from companion.engine.state import GameState, Player, Victory, evolve
from companion.records.replay import replay_record
from companion.search.forced import forced_win, is_exposed
from companion.search.player import LEVELS, Level, suggest
from companion.search.policy import Reason

RECORDS = Path(__file__).resolve().parent.parent / "records"
P1, P2 = Player.P1, Player.P2
QUICK = Level("quick", 30)

# Age 3, positions as in data/layouts.toml: 11 (row 5, face up) is covered by 15 alone,
# 15 (row 6, face down) by 18 alone, 16 (row 6, face down) by 18 and 19.
LAYOUT = {
    0: "gardens", 1: "pantheon", 2: "merchants_guild", 3: "shipowners_guild",
    4: "builders_guild", 5: "senate", 6: "chamber_of_commerce", 7: "port", 8: "armory",
    9: "lighthouse", 10: "arena", 11: "arsenal", 12: "academy", 13: "university",
    14: "observatory", 15: "palace", 16: "fortifications", 17: "study", 18: "town_hall",
    19: "obelisk",
}  # fmt: skip
TOKENS = ("law", "economy", "masonry", "philosophy", "urbanism")


def age_3(
    catalog: Catalog,
    *,
    swaps: Sequence[tuple[int, str]] = (),
    position: int = 0,
    p1: Sequence[str] = (),
    p1_wonders: Sequence[str] = (),
    p1_tokens: Sequence[str] = (),
    p2: Sequence[str] = (),
    p2_wonders: Sequence[str] = (),
    p2_tokens: Sequence[str] = (),
) -> GameState:
    """Age 3 dealt as LAYOUT (with `swaps`: position, card), both cities with 40 coins and
    the cards, wonders and tokens given, the pawn at `position`; p2 discards town_hall
    (position 18), which turns up palace (15): p1 to play."""
    setup = Setup(
        first_player=P2,
        progress_tokens=tuple(TokenId(t) for t in TOKENS),
        wonders=catalog.rules.first_game_wonders,
    )
    state = apply(new_game(catalog), setup)
    one = evolve(
        city_of(catalog, list(p1)),
        coins=40,
        wonders_unbuilt=tuple(WonderId(w) for w in p1_wonders),
        tokens=frozenset(TokenId(t) for t in p1_tokens),
    )
    two = evolve(
        city_of(catalog, list(p2)),
        coins=40,
        wonders_unbuilt=tuple(WonderId(w) for w in p2_wonders),
        tokens=frozenset(TokenId(t) for t in p2_tokens),
    )
    state = evolve(state, age=3, current=P2, position=position, cities=(one, two))
    layout = dict(LAYOUT)
    for index, card in swaps:
        other = next(i for i, c in layout.items() if c == card)
        layout[index], layout[other] = card, layout[index]
    state = apply(state, Deal(3, tuple(CardId(layout[i]) for i in range(20))))
    return apply(state, Discard(P2, CardId("town_hall")))


def known_cards(state: GameState) -> frozenset[CardId]:
    """The cards p1 has seen face up in the structure (the rows dealt face up and the cards
    uncovered since): every card of LAYOUT's face-up rows, and palace."""
    face_down = {2, 3, 4, 9, 10, 16, 17}  # rows 2, 4, 6 less palace (15), turned up
    assert state.structure is not None
    return frozenset(c for i, c in enumerate(state.structure.cards) if c and i not in face_down)


def played(state: GameState, line: Sequence[Event]) -> GameState:
    for event in line:
        state = apply(state, event)
    return state


PLAY_AGAIN = ["the_sphinx", "the_temple_of_artemis", "the_hanging_gardens", "piraeus",
              "the_appian_way"]  # fmt: skip


@pytest.mark.parametrize("wonder", PLAY_AGAIN)
def test_the_capital_behind_a_card_is_reached_through_a_play_again_wonder(
    catalog: Catalog, wonder: str
) -> None:
    # the pawn 3 from p2's capital; arsenal (3 shields) lies under palace: the wonder takes
    # palace, and the turn it gives builds arsenal
    state = age_3(catalog, position=6, p1_wonders=[wonder])
    assert "arsenal" not in accessible_cards(state)
    line = forced_win(state, known_cards(state))
    assert line == (
        BuildWonder(P1, WonderId(wonder), CardId("palace")),
        Build(P1, CardId("arsenal")),
    )
    end = played(state, line)
    assert (end.winner, end.victory) == (P1, Victory.MILITARY)


def test_suggest_plays_the_forced_win_with_its_line(catalog: Catalog) -> None:
    state = age_3(catalog, position=6, p1_wonders=["the_sphinx"])
    best = suggest(state, QUICK, 1).moves[0]
    assert best.event == BuildWonder(P1, WonderId("the_sphinx"), CardId("palace"))
    assert best.win == 1.0 and best.reason is Reason.WINS_MILITARY
    assert best.line == (best.event, Build(P1, CardId("arsenal")))


@pytest.mark.parametrize("name", ["2", "3", "4", "5"])
def test_every_searching_level_plays_the_forced_win(catalog: Catalog, name: str) -> None:
    state = age_3(catalog, position=6, p1_wonders=["the_hanging_gardens"])
    best = suggest(state, LEVELS[name], 1).moves[0]
    assert best.win == 1.0 and len(best.line) == 2
    assert played(state, best.line).winner is P1


def test_a_win_behind_a_face_down_card_is_not_forced(catalog: Catalog) -> None:
    # arsenal at 16, face down under obelisk (19): the Sphinx taking obelisk would turn it
    # up and win, but p1 cannot know it is there before
    state = age_3(catalog, swaps=[(16, "arsenal")], position=6, p1_wonders=["the_sphinx"])
    assert forced_win(state, known_cards(state)) is None
    assert forced_win(state) == (  # with every card known, the same line wins
        BuildWonder(P1, WonderId("the_sphinx"), CardId("obelisk")),
        Build(P1, CardId("arsenal")),
    )
    assert suggest(state, QUICK, 1).moves[0].win < 1.0


def test_theology_makes_any_wonder_a_play_again_wonder(catalog: Catalog) -> None:
    # arsenal (3 shields) open, the pawn 5 from p2's capital: the Colossus (2 shields) then
    # arsenal, only with Theology (without it the Colossus ends the turn)
    swaps = [(19, "arsenal")]
    state = age_3(catalog, swaps=swaps, position=4, p1_wonders=["the_colossus"])
    assert forced_win(state, known_cards(state)) is None
    state = age_3(
        catalog, swaps=swaps, position=4, p1_wonders=["the_colossus"], p1_tokens=["theology"]
    )
    line = forced_win(state, known_cards(state))
    assert line == (
        BuildWonder(P1, WonderId("the_colossus"), CardId("palace")),
        Build(P1, CardId("arsenal")),
    )
    assert played(state, line).winner is P1


FIVE_SYMBOLS = ["library", "dispensary", "school", "laboratory", "academy"]
# quill, mortar_pestle, wheel, plumb_bob, sundial


def test_law_from_a_pair_behind_a_card_is_the_sixth_symbol(catalog: Catalog) -> None:
    # study (sundial, a pair with academy) lies under palace: the Sphinx takes palace, study
    # makes the pair, and Law is the 6th symbol
    swaps = [(11, "study"), (17, "arsenal")]
    state = age_3(catalog, swaps=swaps, p1=FIVE_SYMBOLS, p1_wonders=["the_sphinx"])
    line = forced_win(state, known_cards(state))
    assert line == (
        BuildWonder(P1, WonderId("the_sphinx"), CardId("palace")),
        Build(P1, CardId("study")),
        TakeProgress(P1, TokenId("law")),
    )
    end = played(state, line)
    assert (end.winner, end.victory) == (P1, Victory.SCIENCE)


def test_a_pairs_token_then_no_law_is_no_win(catalog: Catalog) -> None:
    # the same position without Law on the board: the pair brings no 6th symbol
    swaps = [(11, "study"), (17, "arsenal")]
    state = age_3(catalog, swaps=swaps, p1=FIVE_SYMBOLS, p1_wonders=["the_sphinx"])
    state = evolve(state, board_tokens=tuple(t for t in state.board_tokens if t != "law"))
    assert forced_win(state, known_cards(state)) is None


def test_the_opponents_forced_win_through_theology_is_blocked(catalog: Catalog) -> None:
    # p2 owns Theology and the Colossus, the pawn 5 from p1's capital, arsenal open: any
    # move of p1 that leaves arsenal lets p2 play the Colossus then arsenal
    state = age_3(
        catalog,
        swaps=[(19, "arsenal")],
        position=-4,
        p2_wonders=["the_colossus"],
        p2_tokens=["theology"],
    )
    known = known_cards(state)
    takes_arsenal = {
        Build(P1, CardId("arsenal")),
        Discard(P1, CardId("arsenal")),
    }
    leaves_it = {Build(P1, CardId("palace")), Discard(P1, CardId("palace"))}
    for event in takes_arsenal:
        assert not is_exposed(apply(state, event), P1, known)
    for event in leaves_it:
        assert is_exposed(apply(state, event), P1, known)
    answer = suggest(state, QUICK, 1)
    ranked = [m.event for m in answer.moves]
    assert set(ranked[:2]) == takes_arsenal
    assert set(ranked[2:]) == leaves_it
    assert all(m.win == 0.0 and m.reason is Reason.LOSES for m in answer.moves[2:])


def test_hint_json_gives_the_forced_win_and_its_line(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    # age 3, 4 cards left: pretorium and study (sundial) under chamber_of_commerce and
    # siege_workshop; p2 has 5 symbols and 8 coins, the Appian Way (7 coins here, gives 3)
    # and the Sphinx (1 coin): both wonders take the two open cards, then study is the 6th
    path = RECORDS / "positions" / "forced_appian_way_sphinx.jsonl"  # a position, not a game
    assert main(["hint", str(path), "--json", "--level", "easy"]) == 0
    answer = json.loads(capsys.readouterr().out)
    best = answer["moves"][0]
    assert answer["player"] == "p2" and best["win"] == 1.0
    line = best["line"]
    assert line[0] == best["event"] and len(line) == 3
    assert {(e["type"], e["wonder"], e["card"]) for e in line[:2]} in (
        {("wonder", "the_appian_way", "chamber_of_commerce"),
         ("wonder", "the_sphinx", "siege_workshop")},
        {("wonder", "the_appian_way", "siege_workshop"),
         ("wonder", "the_sphinx", "chamber_of_commerce")},
    )  # fmt: skip
    assert line[2] == {"type": "build", "player": "p2", "card": "study"}
    assert all("line" not in move for move in answer["moves"][1:])
    end = played(
        replay_record(path.read_text().splitlines(), catalog)[-1],
        [event_from_record(e) for e in line],
    )
    assert (end.winner, end.victory) == (P2, Victory.SCIENCE)
