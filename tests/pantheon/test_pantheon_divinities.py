"""Every divinity, the Gate, the two wonders, the three tokens and the Grand Temples, with
the pitfalls of docs/pantheon.md as named tests (values worked out by hand)."""

from __future__ import annotations

import pytest
from pantheon_positions import CATALOG, P1, P2, age_2, city, on

from companion.engine.events import (
    Activate,
    Build,
    BuildWonder,
    DiscardFromStructure,
    GateActivation,
    HadesBuild,
    IllegalEvent,
    IsisWonder,
    NeptuneLoot,
    PlaceMinerva,
    PlaceSnake,
    StealCard,
    StealWonder,
    TakeEnkiToken,
    TakeProgress,
    TheaterActivation,
    UnbuildWonder,
)
from companion.engine.rules import apply, available_library_tokens, legal_events
from companion.engine.scoring import score_sheet
from companion.engine.state import PendingKind, Victory, evolve


def test_tanit_gives_12_coins() -> None:
    after = apply(age_2(city(coins=3), spaces=on(1, "tanit")), Activate(P1, 1, ()))
    assert after.city(P1).coins == 3 - 3 + 12


def test_aphrodite_scores_9_in_the_divinities_row() -> None:
    after = apply(age_2(city(coins=3), spaces=on(1, "aphrodite")), Activate(P1, 1, ()))
    score = score_sheet(after).p1
    assert score.divinities == 9 and ("divinities", "aphrodite", 9) in score.sources
    assert score.total == 9  # 0 coins left


def test_mars_moves_the_pawn_2_and_strategy_adds_nothing() -> None:
    state = age_2(city(tokens=["strategy"]), spaces=on(1, "mars"))
    assert apply(state, Activate(P1, 1, ())).position == 2


def test_astarte_puts_7_coins_on_the_card_scoring_1_each() -> None:
    after = apply(age_2(city(coins=3), spaces=on(1, "astarte")), Activate(P1, 1, ()))
    assert after.city(P1).coins == 0 and after.pantheon.astarte == (7, 0)  # type: ignore[union-attr]
    assert score_sheet(after).p1.divinities == 7 and score_sheet(after).p1.coins == 0


def test_astarte_coins_spent_only_when_the_treasury_is_short() -> None:
    # Choice 7 of docs/pantheon.md: the treasury pays first, Astarte's coins the rest.
    # Workshop costs 1 papyrus: 2 coins from the bank.
    state = age_2(city(coins=1), astarte=(5, 0))
    state = evolve(state, age=1)
    after = apply(state, Build(P1, "workshop"))  # type: ignore[arg-type]
    assert after.city(P1).coins == 0 and after.pantheon.astarte == (4, 0)  # type: ignore[union-attr]
    rich = apply(evolve(state, cities=(city(coins=9), state.cities[1])), Build(P1, "workshop"))  # type: ignore[arg-type]
    assert rich.city(P1).coins == 7 and rich.pantheon.astarte == (5, 0)  # type: ignore[union-attr]


def test_losses_never_take_astartes_coins() -> None:
    # p2 activates Mars twice toward p1's loot token at -3 (2 coins): p1 has 1 coin, 7 on Astarte
    state = age_2(city(coins=1), city(coins=20), spaces=("mars", None, None, None, None, None),
                  current=P2, astarte=(7, 0))  # fmt: skip
    state = evolve(state, position=-1)
    after = apply(state, Activate(P2, 1, ()))  # pawn -1 -> -3: the 2-coin token
    assert after.position == -3 and after.city(P1).coins == 0
    assert after.pantheon.astarte == (7, 0)  # type: ignore[union-attr]


def test_baal_takes_a_brown_or_grey_card_and_prices_follow() -> None:
    state = age_2(city(coins=5), city("lumber_yard", "glassworks"), spaces=on(1, "baal"))
    after = apply(state, Activate(P1, 1, ()))
    assert after.pending is not None and after.pending.kind is PendingKind.BAAL
    with pytest.raises(IllegalEvent, match="not in p2's city"):
        apply(after, StealCard(P1, "stone_pit"))  # type: ignore[arg-type]
    done = apply(after, StealCard(P1, "lumber_yard"))  # type: ignore[arg-type]
    assert "lumber_yard" in done.city(P1).cards and "lumber_yard" not in done.city(P2).cards
    assert done.city(P1).produces[0] == 1 and done.city(P2).produces[0] == 0


def test_baal_without_brown_or_grey_card_does_nothing() -> None:
    after = apply(age_2(spaces=on(1, "baal")), Activate(P1, 1, ()))
    assert after.pending is None and after.current is P2


def test_hades_builds_a_discarded_card_for_free_with_its_effects() -> None:
    state = evolve(age_2(city(coins=3), spaces=on(1, "hades")), discard=("garrison",))  # type: ignore[arg-type]
    after = apply(apply(state, Activate(P1, 1, ())), HadesBuild(P1, "garrison"))  # type: ignore[arg-type]
    assert "garrison" in after.city(P1).cards and after.position == 1 and after.discard == ()
    assert after.city(P1).coins == 0


def test_zeus_gives_the_discarded_cards_offering_token() -> None:
    from companion.engine.events import Deal

    cards = tuple(c.id for c in CATALOG.age_deck(2))[:20]
    state = age_2(city(coins=5), spaces=on(1, "zeus"))
    state = apply(state, Deal(2, cards, ("4", "2", "3")))  # type: ignore[arg-type]
    after = apply(state, Activate(P1, 1, ()))
    assert after.pending is not None and after.pending.kind is PendingKind.ZEUS
    done = apply(after, DiscardFromStructure(P1, 6))  # a face-down card of row 2, with the 4
    assert done.pantheon.offerings == ((4,), ())  # type: ignore[union-attr]
    assert done.discard == (cards[6],) and done.taken == 1 and done.current is P2


def test_discarded_card_token_goes_to_player_and_starts_placement() -> None:
    from companion.engine.events import Deal

    cards = tuple(c.id for c in CATALOG.age_deck(1))[:20]
    tokens = ("greek", "roman", "egyptian", "greek", "phoenician")
    state = age_2(city(coins=5), spaces=on(1, "zeus"))
    state = apply(evolve(state, age=1), Deal(1, cards, tokens))  # type: ignore[arg-type]
    state = evolve(state, age=2)  # Zeus in a structure that still holds a Mythology token
    done = apply(apply(state, Activate(P1, 1, ())), DiscardFromStructure(P1, 2))
    assert done.pantheon.mythology_tokens == (("greek",), ())  # type: ignore[union-attr]
    assert done.pending is not None and done.pending.kind is PendingKind.DIVINITY


def test_anubis_unbuilds_a_wonder_its_card_to_the_discard() -> None:
    p2 = city(wonders_built=["piraeus"])
    p2 = evolve(p2, tucked=("baths",))
    state = age_2(city(coins=3), p2, spaces=on(1, "anubis"))
    done = apply(apply(state, Activate(P1, 1, ())), UnbuildWonder(P1, "piraeus"))  # type: ignore[arg-type]
    assert done.city(P2).wonders_built == () and "piraeus" in done.city(P2).wonders_unbuilt
    assert done.city(P2).choices == () and done.discard == ("baths",)


def test_isis_builds_a_wonder_the_player_cannot_afford() -> None:
    p1 = city(coins=3, wonders_unbuilt=["the_pyramids"])  # the Pyramids: 3 stone, 1 papyrus
    state = evolve(age_2(p1, spaces=on(1, "isis")), discard=("baths",))  # type: ignore[arg-type]
    done = apply(apply(state, Activate(P1, 1, ())), IsisWonder(P1, "the_pyramids", "baths"))  # type: ignore[arg-type]
    assert done.city(P1).wonders_built == ("the_pyramids",) and done.city(P1).tucked == ("baths",)
    assert score_sheet(done).p1.wonders == 9


def test_isis_applies_the_wonders_effects() -> None:
    # the Temple of Artemis: 12 coins and an extra turn
    p1 = city(coins=3, wonders_unbuilt=["the_temple_of_artemis"])
    state = evolve(age_2(p1, spaces=on(1, "isis")), discard=("baths",))  # type: ignore[arg-type]
    done = apply(
        apply(state, Activate(P1, 1, ())), IsisWonder(P1, "the_temple_of_artemis", "baths")
    )  # type: ignore[arg-type]
    assert done.city(P1).coins == 12 and done.current is P1


def test_isis_building_the_divine_theater_activates_a_divinity() -> None:
    p1 = city(coins=3, wonders_unbuilt=["the_divine_theater"])
    state = evolve(age_2(p1, spaces=on(1, "isis")), discard=("baths",))  # type: ignore[arg-type]
    done = apply(apply(state, Activate(P1, 1, ())), IsisWonder(P1, "the_divine_theater", "baths"))  # type: ignore[arg-type]
    assert done.pending is not None and done.pending.kind is PendingKind.THEATER
    tanit = apply(done, TheaterActivation(P1, "tanit"))  # type: ignore[arg-type]
    assert tanit.city(P1).coins == 12 and "tanit" in tanit.pantheon.activated[0]  # type: ignore[union-attr]


def test_ra_takes_an_unbuilt_wonder_of_the_opponent() -> None:
    state = age_2(city(coins=3), city(wonders_unbuilt=["piraeus"]), spaces=on(1, "ra"))
    done = apply(apply(state, Activate(P1, 1, ())), StealWonder(P1, "piraeus"))  # type: ignore[arg-type]
    assert "piraeus" in done.city(P1).wonders_unbuilt and done.city(P2).wonders_unbuilt == ()


def test_minerva_blocks_moves_of_either_player() -> None:
    state = age_2(city(coins=3), spaces=on(1, "minerva"))
    placed = apply(apply(state, Activate(P1, 1, ())), PlaceMinerva(P1, -2))
    assert placed.pantheon.minerva == -2  # type: ignore[union-attr]
    # p2 moves toward p1 with Mars' 2 shields... here a 3-shield move from 0: stops at -1
    from companion.engine.effects import add_shields
    from companion.engine.turn import Turn

    turn = Turn(placed, P2)
    add_shields(turn, 3)
    assert turn.position == -1 and turn.pantheon.minerva is None  # type: ignore[union-attr]


def test_minerva_next_to_the_pawn_stops_it_at_once_and_leaves() -> None:
    from companion.engine.effects import add_shields
    from companion.engine.turn import Turn

    state = age_2(minerva=1)
    turn = Turn(state, P1)
    add_shields(turn, 2)
    assert turn.position == 0 and turn.pantheon.minerva is None  # type: ignore[union-attr]
    with pytest.raises(IllegalEvent, match="not on the conflict pawn's space"):
        after = apply(age_2(city(coins=3), spaces=on(1, "minerva")), Activate(P1, 1, ()))
        apply(after, PlaceMinerva(P1, 0))


def test_poliorcetics_costs_one_coin_per_space_really_moved() -> None:
    from companion.engine.effects import add_shields
    from companion.engine.turn import Turn

    # Minerva at 3: a 4-shield move from 0 stops at 2: p2 loses 2 coins, not 4
    state = age_2(city(tokens=["poliorcetics"]), city(coins=5), minerva=3)
    turn = Turn(state, P1)
    add_shields(turn, 4)
    assert turn.position == 2 and turn.opponent.coins == 3
    # a short treasury: 1 coin, 3 spaces moved (and the 2-coin loot at 3): down to 0
    short = age_2(city(tokens=["poliorcetics"]), city(coins=1), astarte=(0, 4))
    turn = Turn(short, P1)
    add_shields(turn, 3)
    assert turn.opponent.coins == 0 and turn.pantheon.astarte == (0, 4)  # type: ignore[union-attr]


def test_neptune_discards_one_loot_token_and_applies_another() -> None:
    state = age_2(city(coins=3), city(coins=9), spaces=on(1, "neptune"))
    asked = apply(state, Activate(P1, 1, ()))
    with pytest.raises(IllegalEvent, match="choose a loot token to apply"):
        apply(asked, NeptuneLoot(P1, -3, None))
    done = apply(asked, NeptuneLoot(P1, -3, 6))  # p2's 5-coin token applied
    assert done.loot == frozenset({-6, 3}) and done.city(P2).coins == 4


def test_neptune_applies_a_token_of_the_players_own_side_to_the_opponent() -> None:
    # the 2-coin token at -3 lies on p1's side; applied by p1, it takes p2's coins
    state = age_2(city(coins=3), city(coins=9), spaces=on(1, "neptune"))
    done = apply(apply(state, Activate(P1, 1, ())), NeptuneLoot(P1, 6, -3))
    assert done.city(P1).coins == 0 and done.city(P2).coins == 7


def test_neptune_with_one_loot_token_left_discards_it() -> None:
    state = evolve(age_2(city(coins=3), spaces=on(1, "neptune")), loot=frozenset({3}))
    done = apply(apply(state, Activate(P1, 1, ())), NeptuneLoot(P1, 3, None))
    assert done.loot == frozenset() and done.city(P2).coins == 7


def test_ishtar_gives_law_and_makes_a_pair_with_the_law_token() -> None:
    state = age_2(city(coins=3, tokens=["law"]), spaces=on(1, "ishtar"))
    after = apply(state, Activate(P1, 1, ()))
    assert after.pending is not None and after.pending.kind is PendingKind.PROGRESS


def test_nisaba_without_opponent_green_card_does_nothing_and_scores() -> None:
    after = apply(age_2(city(coins=3), spaces=on(1, "nisaba")), Activate(P1, 1, ()))
    assert after.pending is None and after.pantheon.snake is None  # type: ignore[union-attr]
    assert score_sheet(after).p1.total == 0


def test_nisaba_symbol_completes_scientific_supremacy() -> None:
    # p1 has 5 symbols (plumb bob, wheel, quill, mortar, sundial); p2's University's globe
    # is the 6th
    p1 = city("workshop", "apothecary", "scriptorium", "pharmacist", "academy", coins=3)
    state = age_2(p1, city("university"), spaces=on(1, "nisaba"))
    done = apply(apply(state, Activate(P1, 1, ())), PlaceSnake(P1, "university"))  # type: ignore[arg-type]
    assert len(p1.symbols) == 5 and done.victory is Victory.SCIENCE and done.winner is P1


def test_enki_law_token_completes_scientific_supremacy() -> None:
    p1 = city("workshop", "apothecary", "scriptorium", "pharmacist", "academy", coins=3)
    state = age_2(p1, spaces=on(1, "enki"))
    asked = apply(state, Activate(P1, 1, ()))
    drawn = ("mysticism", "theology")
    with pytest.raises(IllegalEvent, match="'law' cannot be drawn"):
        apply(asked, TakeEnkiToken(P1, ("law", "theology"), "law"))  # type: ignore[arg-type]
    board = evolve(asked, board_tokens=("agriculture",))  # the Law token set aside
    done = apply(board, TakeEnkiToken(P1, ("law", "theology"), "law"))  # type: ignore[arg-type]
    assert done.victory is Victory.SCIENCE
    kept = apply(asked, TakeEnkiToken(P1, drawn, "theology"))  # type: ignore[arg-type]
    assert "theology" in kept.city(P1).tokens and "mysticism" in available_library_tokens(kept)


def test_enki_holds_at_most_2_tokens_after_gate_and_theater_reveals() -> None:
    # Enki's tokens are drawn when Enki is activated (here through the Gate): 2, never more
    state = age_2(city(coins=20), spaces=on(6, "gate"))
    asked = apply(state, Activate(P1, 6, ()))
    assert asked.pending is not None and asked.pending.kind is PendingKind.GATE
    revealed = ("anubis", "aphrodite", "enki", "astarte", "mars")
    chosen = apply(asked, GateActivation(P1, revealed, "enki"))  # type: ignore[arg-type]
    answers = legal_events(chosen)
    assert answers and all(len(e.drawn) == 2 for e in answers)  # type: ignore[union-attr]
    assert chosen.pantheon.tops == ("anubis", "aphrodite", None, "astarte", "mars")  # type: ignore[union-attr]


def test_the_gate_costs_twice_and_activates_one_revealed_divinity_free() -> None:
    state = age_2(city(coins=16), spaces=on(6, "gate"))  # 2 x 8
    asked = apply(state, Activate(P1, 6, ()))
    assert asked.city(P1).coins == 0
    done = apply(
        asked, GateActivation(P1, ("anubis", "aphrodite", "enki", "tanit", "mars"), "tanit")
    )  # type: ignore[arg-type]
    assert done.city(P1).coins == 12 and done.pantheon.activated[0] == ("gate", "tanit")  # type: ignore[union-attr]


def test_the_sanctuary_gives_an_extra_turn_and_2_coins_off() -> None:
    p1 = city(
        "quarry", "stone_pit", "glassworks", "press", coins=7, wonders_unbuilt=["the_sanctuary"]
    )
    state = evolve(age_2(p1), age=1)
    built = apply(state, BuildWonder(P1, "the_sanctuary", "lumber_yard"))  # type: ignore[arg-type]
    assert built.current is P1


def test_divine_theater_costs_2_wood_1_glass_2_papyrus() -> None:
    assert CATALOG.wonder("the_divine_theater").cost.resources == (2, 0, 0, 1, 2)


def test_grand_temple_free_with_its_mythology_token_and_urbanism_pays() -> None:
    p1 = city(coins=0, tokens=["urbanism"])
    p1 = evolve(p1, chain_symbols=frozenset({"greek"}))
    state = evolve(age_2(p1, mythology_tokens=(("greek",), ())), age=3)
    done = apply(state, Build(P1, "greek_grand_temple"))  # type: ignore[arg-type]
    assert done.city(P1).coins == 4 and score_sheet(done).p1.purple == 5


def test_engineering_builds_a_chain_card_for_1_coin_without_urbanism() -> None:
    # Horse Breeders (1 clay, 1 wood, chain horseshoe) with nothing produced: 1 coin
    state = age_2(city(coins=1, tokens=["engineering", "urbanism"]))
    done = apply(state, Build(P1, "horse_breeders"))  # type: ignore[arg-type]
    assert done.city(P1).coins == 0


@pytest.mark.parametrize(("temples", "points"), [(1, 5), (2, 12), (3, 21)])
def test_grand_temples_score_5_12_21(temples: int, points: int) -> None:
    names = ["greek_grand_temple", "roman_grand_temple", "egyptian_grand_temple"][:temples]
    state = age_2(city(*names, coins=0))
    assert score_sheet(state).p1.purple == points


def test_mysticism_scores_2_per_mythology_and_offering_token() -> None:
    state = age_2(city(coins=0, tokens=["mysticism"]), mythology_tokens=(("greek", "roman"), ()),
                  offerings=((3,), ()))  # fmt: skip
    assert score_sheet(state).p1.progress == 2 * 3


def test_progress_answer_after_ishtar_takes_a_token() -> None:
    state = age_2(city(coins=3, tokens=["law"]), spaces=on(1, "ishtar"))
    done = apply(apply(state, Activate(P1, 1, ())), TakeProgress(P1, "agriculture"))  # type: ignore[arg-type]
    assert "agriculture" in done.city(P1).tokens and done.current is P2


def test_the_snake_on_a_symbol_the_player_has_makes_a_pair() -> None:
    # p1 owns the Library (quill); the Snake on p2's Scriptorium (quill): a pair, a token
    state = age_2(city("library", coins=3), city("scriptorium"), spaces=on(1, "nisaba"))
    asked = apply(state, Activate(P1, 1, ()))
    done = apply(asked, PlaceSnake(P1, "scriptorium"))  # type: ignore[arg-type]
    assert done.pending is not None and done.pending.kind is PendingKind.PROGRESS
    assert "scriptorium" in done.city(P2).cards  # p2 keeps the card and its symbol
    with pytest.raises(IllegalEvent, match="Baths is not a green card"):
        refused = age_2(city(coins=3), city("baths", "scriptorium"), spaces=on(1, "nisaba"))
        apply(apply(refused, Activate(P1, 1, ())), PlaceSnake(P1, "baths"))  # type: ignore[arg-type]


def test_a_decision_refuses_an_activation_until_answered() -> None:
    state = age_2(
        city(coins=10), city("lumber_yard"), spaces=("baal", "tanit", None, None, None, None)
    )
    asked = apply(state, Activate(P1, 1, ()))
    with pytest.raises(IllegalEvent, match="p1 must first choose a card for Baal to take"):
        apply(asked, Activate(P1, 2, ()))


def test_catalog_json_with_the_expansion_is_not_read_back() -> None:
    from companion.engine.catalog import CatalogError
    from companion.engine.catalog_json import catalog_from_json, catalog_to_json

    with pytest.raises(CatalogError, match="only a base game catalog can be read back"):
        catalog_from_json(catalog_to_json(CATALOG))


def test_zeus_through_the_divine_theater_on_the_ages_last_card_does_nothing() -> None:
    # The Divine Theater built with the 20th card of Age II: Zeus finds no card to discard,
    # and the age ends: p1, the last player with the pawn central, chooses who begins.
    from companion.engine.events import Deal

    cards = tuple(c.id for c in CATALOG.age_deck(2))[:20]
    p1 = city("quarry", "clay_pit", "lumber_yard", "glassworks", "press", "forum",
              coins=9, wonders_unbuilt=["the_divine_theater"])  # fmt: skip
    p1 = evolve(p1, produces=(2, 0, 0, 1, 2))
    state = apply(age_2(p1), Deal(2, cards, ("2", "3", "4")))  # type: ignore[arg-type]
    structure = evolve(state.structure, gone=(1 << 20) - 1 - (1 << 19), open=1 << 19)  # type: ignore[type-var]
    state = evolve(state, structure=structure, taken=19)
    asked = apply(state, BuildWonder(P1, "the_divine_theater", cards[19]))  # type: ignore[arg-type]
    assert asked.pending is not None and asked.pending.kind is PendingKind.THEATER
    done = apply(asked, TheaterActivation(P1, "zeus"))  # type: ignore[arg-type]
    assert done.pending is not None and done.pending.kind is PendingKind.NEXT_AGE
