"""Light playouts to the end of the game, and a tree that stops at the end of the age."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine.cards import CardId, Catalog, Color, TokenId
from companion.engine.events import (
    Build,
    BuildFromDiscard,
    BuildWonder,
    Discard,
    Event,
    IllegalEvent,
    TakeProgress,
)
from companion.engine.rules import accessible_cards, apply
from companion.engine.scoring import civilian_ranks
from companion.engine.state import GameState, PendingKind, Player, Victory, evolve, opponent_of
from companion.play.simulate import play
from companion.search.determinize import deal_if_needed, determinize
from companion.search.mcts import PLAYOUTS, Node, Settings, Tree, _amaf, key_of, shaped_value
from companion.search.player import Level, suggest
from companion.search.policy import (
    decisive_move,
    evaluate,
    guarding_move,
    light_event,
    move_score,
    moves,
    redrawn_move,
    science_wonder,
)

LAW = TokenId("law")
STRATEGY = TokenId("strategy")


def states_of_random_games(catalog: Catalog, seeds: range) -> list[GameState]:
    return [
        state
        for seed in seeds
        for state in play(catalog, random.Random(seed), check=False).states[2::7]
        if state.structure is not None and not state.finished
    ]


def test_a_light_playout_plays_legal_events_to_the_end(catalog: Catalog) -> None:
    rng = random.Random(0)
    for state in states_of_random_games(catalog, range(3)):
        world = determinize(state, rng)
        for _ in range(300):  # a game has far fewer events
            if world.finished:
                break
            world = deal_if_needed(apply(world, light_event(world, rng, (True, False))), rng)
        assert world.finished


def test_a_science_minded_player_builds_the_green_card_it_can(catalog: Catalog) -> None:
    state = next(
        s
        for s in states_of_random_games(catalog, range(10))
        if s.pending is None and s.age > 1 and _affordable_greens(s)
    )
    greens = _affordable_greens(state)
    rng = random.Random(1)
    for _ in range(10):
        event = light_event(state, rng, (True, True))
        assert event.type == "build" and getattr(event, "card", None) in greens


def test_a_plain_playout_follows_no_plan_in_age_1(catalog: Catalog) -> None:
    # in age 1 a light playout's player builds a brown, grey or yellow card it can afford
    # first; a plain one (as the C++ engine's playouts) draws a card and what to do with it
    economy = {Color.BROWN, Color.GREY, Color.YELLOW}
    state = next(
        s
        for s in states_of_random_games(catalog, range(10))
        if s.pending is None and s.age == 1 and _affordable_greens(s, economy)
    )
    cheap = _affordable_greens(state, economy)
    planned = [light_event(state, random.Random(seed), (False, False)) for seed in range(40)]
    plain = [
        light_event(state, random.Random(seed), (False, False), plain=True) for seed in range(40)
    ]
    assert all(e.type == "build" and getattr(e, "card", None) in cheap for e in planned)
    # the last move: a wonder under WONDER_SHARE of the roll, a build under BUILD_SHARE, else
    # a discard; 40 draws of a uniform roll give each kind some of them
    assert any(e.type == "discard" for e in plain)
    assert any(getattr(e, "card", None) not in cheap for e in plain)


def _affordable_greens(
    state: GameState, colors: frozenset[Color] | set[Color] = frozenset({Color.GREEN})
) -> set[CardId]:
    """The cards of `colors` (green) the player to move can take and build now (the engine
    says so)."""
    found = set()
    for card_id in accessible_cards(state):
        if state.catalog.card(card_id).color not in colors:
            continue
        try:
            apply(state, Build(state.current, card_id))
        except IllegalEvent:
            continue
        found.add(card_id)
    return found


def test_an_age_bound_tree_has_no_node_after_the_age(catalog: Catalog) -> None:
    # 3 cards before the end of age 1: a tree of 400 iterations would reach age 2's moves
    game = play(catalog, random.Random(2), check=False)
    state = next(s for s in game.states if s.age == 1 and s.taken == 17 and s.pending is None)
    ages: dict[bool, set[int]] = {}
    for bound in (False, True):
        tree = Tree(state, random.Random(0), settings=Settings(plies=0, age_bound=bound))
        tree.run(400)
        ages[bound] = {catalog.card(c).age for c in _cards(tree.root)}
    assert ages[False] == {1, 2}
    assert ages[True] == {1}


def _cards(node: Node) -> list[CardId]:
    found = [CardId(str(getattr(node.event, "card", "")))] if hasattr(node.event, "card") else []
    for child in node.children.values():
        found += _cards(child)
    return found


def test_a_science_minded_player_builds_a_play_again_wonder_to_reach_a_green_card(
    catalog: Catalog,
) -> None:
    rng = random.Random(3)
    combos = 0
    for state in states_of_random_games(catalog, range(40)):
        if state.pending is not None or _affordable_greens(state):
            continue
        world = determinize(state, rng)
        event = science_wonder(world, accessible_cards(world)[0])
        if not isinstance(event, BuildWonder) or catalog.wonder(event.wonder).builds_from_discard:
            continue
        combos += 1
        after = apply(world, event)  # legal: the engine takes it
        assert after.current is world.current and after.pending is None  # another turn
        assert _affordable_greens(after)  # and a green card it can build
        assert light_event(after, rng, (True, True)).type == "build"
    assert combos >= 3


def test_a_science_minded_player_takes_a_green_card_with_the_mausoleum(
    catalog: Catalog,
) -> None:
    rng = random.Random(4)
    taken = 0
    for state in states_of_random_games(catalog, range(60)):
        if state.pending is not None or _affordable_greens(state):
            continue
        world = determinize(state, rng)
        event = science_wonder(world, accessible_cards(world)[0])
        if not isinstance(event, BuildWonder) or event.wonder != "the_mausoleum":
            continue
        after = apply(world, event)
        assert after.pending is not None and after.pending.kind is PendingKind.MAUSOLEUM
        greens = {c for c in after.discard if catalog.card(c).color is Color.GREEN}
        answer = light_event(after, rng, (True, True))
        assert isinstance(answer, BuildFromDiscard) and answer.card in greens
        taken += 1
    assert taken >= 1


def test_by_mean_ranks_the_well_visited_moves_by_their_mean(catalog: Catalog) -> None:
    game = play(catalog, random.Random(5), check=False)
    state = next(
        s for s in game.states if s.age == 2 and s.structure is not None and s.pending is None
    )
    by_visits = Level("v", 300, settings=PLAYOUTS)
    by_mean = Level("m", 300, settings=replace(PLAYOUTS, by_mean=True))
    visits = suggest(state, by_visits, 0).moves
    means = suggest(state, by_mean, 0).moves  # the same search: only the order differs
    assert sorted(visits, key=repr) == sorted(means, key=repr)
    enough = max(m.visits for m in visits) / 10
    well = [m for m in means if m.visits >= enough]
    assert [m.win for m in well] == sorted((m.win for m in well), reverse=True)
    assert list(means[: len(well)]) == well  # the others after them
    assert visits[0].visits == max(m.visits for m in visits)
    assert means[0].win == max(m.win for m in well)


def test_a_redrawn_move_is_legal_and_discards_only_by_choice(catalog: Catalog) -> None:
    rng = random.Random(6)
    discards = {False: 0, True: 0}
    turns = 0
    for state in states_of_random_games(catalog, range(12)):
        if state.pending is not None or state.age == 1:
            continue
        world = determinize(state, rng)
        cards = accessible_cards(world)
        for _ in range(20):
            turns += 1
            found = {}
            for redraw in (False, True):
                same = random.Random()
                same.setstate(rng.getstate())  # both draw from the same point
                found[redraw] = light_event(world, same, (False, False), redraw)
                apply(world, found[redraw])  # legal: the engine takes it
                discards[redraw] += found[redraw].type == "discard"
            if found[False].type != "discard":  # a move paid at the first draw is the same
                assert found[True] == found[False]
            rng.random()
            move = redrawn_move(world, cards, rng)
            apply(world, move)
            if not any(_payable(world, e) for e in _builds(world, cards)):
                assert move.type == "discard"  # nothing else can be paid
    assert turns >= 200
    assert discards[True] < discards[False] * 0.8


def _builds(state: GameState, cards: tuple[CardId, ...]) -> list[Build | BuildWonder]:
    player = state.current
    unbuilt = state.city(player).wonders_unbuilt
    found: list[Build | BuildWonder] = [Build(player, c) for c in cards]
    return found + [BuildWonder(player, w, cards[0]) for w in unbuilt]


def _payable(state: GameState, event: Build | BuildWonder) -> bool:
    try:
        apply(state, event)
    except IllegalEvent:
        return False
    return True


def test_the_progressive_bias_sends_the_first_visits_to_the_move_the_heuristic_likes(
    catalog: Catalog,
) -> None:
    game = play(catalog, random.Random(5), check=False)
    state = next(
        s for s in game.states if s.age == 1 and s.structure is not None and s.pending is None
    )
    events = moves(state)
    scores = {key_of(e): move_score(state, e)[0] for e in events}
    best = max(scores, key=lambda k: scores[k])
    assert sorted(scores.values())[-2] < scores[best] and scores[best] > 0
    tree = Tree(state, random.Random(1), settings=replace(PLAYOUTS, bias=1000.0))
    tree.run(len(events))  # each move added once, in the order of its score
    children = tree.root.children
    assert set(children) == set(scores) and all(n.visits == 1 for n in children.values())
    for key, node in children.items():  # the prior: the score clamped to -10..10, over 10
        assert node.prior == max(-1.0, min(scores[key] / 10, 1.0))
    tree.run(1)  # the bias outweighs any result: the best-scored move again
    assert children[best].visits == 2
    plain = Tree(state, random.Random(1), settings=PLAYOUTS)
    plain.run(len(events))
    assert all(n.prior == 0.0 for n in plain.root.children.values())


def test_a_shaped_reward_counts_a_narrow_win_on_points_less(catalog: Catalog) -> None:
    finals = [play(catalog, random.Random(seed), check=False).states[-1] for seed in range(12)]
    on_points = [s for s in finals if s.victory is Victory.CIVILIAN and not s.shared]
    assert len(on_points) >= 3
    for final in on_points:
        (one, _), (two, _) = civilian_ranks(final)
        margin = abs(one - two)
        value = evaluate(final, Player.P1)  # 1 or 0: the winner's
        cut = 0.3 * (1 - min(margin, 10) / 10)  # 0.27 at 1 VP, 0 at 10 VP or more
        expected = 1 - cut if final.winner is Player.P1 else cut
        assert shaped_value(final, value, 0.3) == pytest.approx(expected)


def _winning_moves(state: GameState) -> set[Event]:
    """The builds and wonders of the player to move that the engine says win at once by a
    supremacy (Law taken when the build makes a pair), every card and wonder tried."""
    player = state.current
    cards = accessible_cards(state)
    tried: list[Event] = [Build(player, c) for c in cards]
    tried += [BuildWonder(player, w, cards[0]) for w in state.city(player).wonders_unbuilt]
    found = set()
    for event in tried:
        try:
            after = apply(state, event)
        except IllegalEvent:
            continue
        pending = after.pending
        if (
            pending is not None
            and pending.kind is PendingKind.PROGRESS
            and LAW in after.board_tokens
        ):
            after = apply(after, TakeProgress(player, LAW))
        if after.winner is player and after.victory is not Victory.CIVILIAN:
            found.add(event)
    return found


def _turns_of_random_games(catalog: Catalog, seeds: range) -> list[GameState]:
    """Every turn (no decision pending, a dealt structure) of random games."""
    return [
        state
        for seed in seeds
        for state in play(catalog, random.Random(seed), check=False).states
        if state.structure is not None and not state.finished and state.pending is None
    ]


def test_a_decisive_playout_wins_at_once_when_a_move_does(catalog: Catalog) -> None:
    rng = random.Random(7)
    won = plain_missed = 0
    for state in _turns_of_random_games(catalog, range(40)):
        winning = _winning_moves(state)
        assert (decisive_move(state, accessible_cards(state)) is not None) == bool(winning)
        if not winning:
            continue
        won += 1
        for _ in range(3):  # the playout's next event is a win, whatever its plan
            science = (rng.random() < 0.5, rng.random() < 0.5)
            event = light_event(state, rng, science, decisive=True)
            after = apply(state, event)
            if after.pending is not None:  # a pair: the next event takes Law
                after = apply(after, light_event(after, rng, science, decisive=True))
            assert after.winner is state.current and after.victory is not Victory.CIVILIAN
        plain = apply(state, light_event(state, rng, (False, False)))
        plain_missed += not plain.finished
    assert won >= 5 and plain_missed >= 1  # without it the playout often plays on


def test_a_guarding_playout_takes_the_card_the_opponent_would_win_with(
    catalog: Catalog,
) -> None:
    rng = random.Random(8)
    guarded = 0
    for state in _turns_of_random_games(catalog, range(40)):
        # the opponent's winning cards: the same position with the opponent to move
        rival = evolve(state, current=opponent_of(state.current))
        threats = {e.card for e in _winning_moves(rival) if isinstance(e, Build)}
        cards = accessible_cards(state)
        if decisive_move(state, cards) is not None:
            continue  # a player who can win does (checked above)
        event = light_event(state, rng, (False, False), guard=True)
        if not threats:
            assert guarding_move(state, cards, rng) is None
            continue
        guarded += 1
        assert isinstance(event, Build | BuildWonder | Discard) and event.card in threats
        after = apply(state, event)
        assert event.card not in accessible_cards(after)
    assert guarded >= 5


def test_a_military_minded_player_builds_the_red_card_it_can(catalog: Catalog) -> None:
    rng = random.Random(9)
    seen = plain_other = 0
    for state in _turns_of_random_games(catalog, range(10)):
        reds = {c for c in _payable_cards(state) if catalog.card(c).color is Color.RED}
        if not reds or decisive_move(state, accessible_cards(state)) is not None:
            continue
        seen += 1
        event = light_event(state, rng, (False, False), military=(True, True))
        assert isinstance(event, Build) and event.card in reds
        plain = light_event(state, rng, (False, False))
        plain_other += not (isinstance(plain, Build) and plain.card in reds)
    assert seen >= 20 and plain_other >= 5


def test_a_military_minded_player_takes_strategy(catalog: Catalog) -> None:
    rng = random.Random(10)
    offers = 0
    for seed in range(300):
        for state in play(catalog, random.Random(seed), check=False).states:
            pending = state.pending
            if pending is None or pending.kind is not PendingKind.PROGRESS:
                continue
            if STRATEGY not in state.board_tokens:
                continue
            offers += 1
            event = light_event(state, rng, (False, False), military=(True, True))
            assert isinstance(event, TakeProgress) and event.token == STRATEGY
    assert offers >= 5


def _payable_cards(state: GameState) -> set[CardId]:
    """The accessible cards the player to move can build now (the engine says so)."""
    return {c for c in accessible_cards(state) if _payable(state, Build(state.current, c))}


def test_rave_credits_each_move_its_mover_made_then_or_later() -> None:
    # root (p1 to move) -a-> A (p2 to move) -b-> B; the playout then made x (p1) and z (p2)
    a, x, b, y, z = ("build", "a"), ("build", "x"), ("build", "b"), ("build", "y"), ("build", "z")
    w = ("discard", "w")
    root = Node(None, None)
    first = root.children[a] = Node(None, Player.P1)
    other = root.children[x] = Node(None, Player.P1)
    theirs = root.children[w] = Node(None, Player.P1)
    second = first.children[b] = Node(None, Player.P2)
    untouched = first.children[y] = Node(None, Player.P2)
    made = [(Player.P1, a), (Player.P2, b), (Player.P1, x), (Player.P2, z), (Player.P2, w)]
    _amaf([root, first, second], made, 1.0)  # p1 won
    # at the root p1's moves a (made) and x (made later) each count a win for p1
    assert (first.amaf_visits, first.amaf_reward) == (1, 1.0)
    assert (other.amaf_visits, other.amaf_reward) == (1, 1.0)
    assert theirs.amaf_visits == 0  # w was made by p2, not by the root's mover
    # at A p2's move b counts a loss for p2; y was never made
    assert (second.amaf_visits, second.amaf_reward) == (1, 0.0)
    assert untouched.amaf_visits == 0
    assert second.visits == first.visits == 0  # the plain statistics are not RAVE's


def test_a_rave_search_keeps_all_moves_as_first_counts(catalog: Catalog) -> None:
    game = play(catalog, random.Random(5), check=False)
    state = next(s for s in game.states[9:] if s.structure is not None and s.pending is None)
    tree = Tree(state, random.Random(1), settings=replace(PLAYOUTS, rave=100.0))
    tree.run(300)
    children = tree.root.children.values()
    # every visit of a move counts for it, and moves made later in the age count as well
    assert all(node.amaf_visits >= node.visits for node in children)
    assert sum(node.amaf_visits for node in children) > tree.root.visits
    plain = Tree(state, random.Random(1), settings=PLAYOUTS)
    plain.run(300)
    assert all(node.amaf_visits == 0 for node in plain.root.children.values())


def test_progressive_widening_adds_a_move_only_as_the_visits_grow(catalog: Catalog) -> None:
    game = play(catalog, random.Random(5), check=False)
    state = next(s for s in game.states if s.structure is not None and s.pending is None)
    assert len(moves(state)) >= 10  # the root's moves are the same in every world
    widened = Tree(state, random.Random(1), settings=replace(PLAYOUTS, widening=0.5))
    plain = Tree(state, random.Random(1), settings=PLAYOUTS)
    counts = []
    for _ in range(10):
        widened.run(1)
        plain.run(1)
        counts.append(len(widened.root.children))
    assert len(plain.root.children) == 10  # an untried move first, every visit
    # before its n-th visit the root adds a move only while it has fewer than
    # 2 * n ** 0.5 children: 2, 2.83, 3.46, 4, 4.47, 4.90 (no), 5.29, 5.66 (no), 6 (no), 6.32
    assert counts == [1, 2, 3, 4, 5, 5, 6, 6, 6, 7]
