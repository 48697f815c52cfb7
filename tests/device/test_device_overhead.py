"""The overhead camera's tables through the controller (companion/device/overhead.py): the
deal read from above, the accessible cards priced, a card gone proposed or refused, a card
turned up recorded without a press, and the frames that must agree first."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.device import controller, overhead, present, words
from companion.device.controller import Context, Mode, Press, Table, UiState
from companion.device.views import ChoiceView
from companion.device.words import Voice
from companion.engine.cards import CardId, Catalog
from companion.engine.events import Build, Deal, Reveal
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState, Player
from companion.engine.structure import UNKNOWN
from companion.service.playback import read_record
from companion.vision.structure import parse_known

RECORD = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"
ON = Context(overhead=True)


def _played(catalog: Catalog, count: int) -> GameState:
    """The partial-deals record's state after its first `count` events."""
    state = new_game(catalog)
    for event in read_record(RECORD)[:count]:
        state = apply(state, event)
    return state


def _table(state: GameState, **changed: str | None) -> Table:
    """What a camera sees of the dealt structure: the known cards where they lie, "back" for
    the unknown ones, "empty" where taken; `changed` sets positions ("p5": "empty")."""
    structure = state.structure
    assert structure is not None
    slots: list[str | None] = [
        "empty" if c is None else "back" if c in UNKNOWN else str(c) for c in structure.cards
    ]
    for key, value in changed.items():
        slots[int(key[1:])] = value
    return Table(tuple(slots), state.age)


def _step(state: GameState, table: Table, ui: UiState | None = None) -> controller.Step:
    return controller.step(ui or controller.settle(state, ON), state, table, ON)


def test_between_turns_the_list_prices_each_accessible_card_for_the_player_to_move(
    catalog: Catalog,
) -> None:
    state = _played(catalog, 2)  # setup (Ben, p2, begins with 7 coins) and the deal of age 1
    shown = present.view(controller.settle(state, ON), state, ON)
    assert isinstance(shown, ChoiceView)
    assert shown.title == "Ben: 7 coins"
    assert shown.subtitle == "6 cards to take"  # the open row: positions 14 to 19
    # Guard Tower costs nothing; Press and Logging Camp 1 coin; Stone and Clay Reserve 3
    # coins; Garrison 1 clay, bought from the bank at 2 (Ann produces no clay)
    assert [(o.label, o.detail, o.note) for o in shown.options] == [
        ("Guard Tower", "free", ""),
        ("Press", "1 coin", ""),
        ("Stone Reserve", "3 coins", ""),
        ("Logging Camp", "1 coin", ""),
        ("Garrison", "2 coins", "buys 1 clay"),
        ("Clay Reserve", "3 coins", ""),
    ]
    # the phone's list is the same, with the full names
    page = overhead.offers(state, Voice.page(state))
    assert [o.price for o in page] == [o.detail for o in shown.options]
    # without the overhead camera the idle screen stays as it was
    assert not isinstance(present.view(controller.settle(state, Context()), state,
                                       Context()), ChoiceView)  # fmt: skip


def test_a_card_the_player_cannot_pay_says_so_on_its_line(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    poor = state.city(state.current)
    broke = replace(state, cities=(state.cities[0], replace(poor, coins=2)))
    found = {o.card: o for o in overhead.offers(broke, Voice.oled(broke))}
    # Stone Reserve costs 3 coins: Ben has 2
    assert found[CardId("stone_reserve")].how == "Costs 3 coins, has 2"
    assert not found[CardId("stone_reserve")].affordable
    assert found[CardId("garrison")].affordable  # 2 coins for the clay: exactly what he has


def test_a_card_gone_from_the_open_row_is_proposed_and_built_after_select(
    catalog: Catalog,
) -> None:
    state = _played(catalog, 2)
    step = _step(state, _table(state, p18="empty"))  # Garrison (position 18) gone
    assert step.event is None and step.ui.mode is Mode.CARD and step.ui.card == "garrison"
    assert step.ui.cursor == 0  # build by default
    confirmed = controller.step(step.ui, state, Press("select"), ON)
    assert confirmed.event == Build(state.current, CardId("garrison"))
    # right then select: the discard instead
    moved = controller.step(step.ui, state, Press("right"), ON)
    other = controller.step(moved.ui, state, Press("select"), ON)
    assert other.event is not None and other.event.type == "discard"


def test_a_card_taken_that_was_still_covered_is_refused_at_once(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    before = controller.settle(state, ON)
    step = _step(state, _table(state, p5="empty"))  # Clay Pool, row 3: covered by row 4
    assert step.event is None
    assert step.ui.mode is Mode.IDLE and step.ui.notice == "Clay Pool: still covered"
    assert replace(step.ui, notice="") == before  # nothing else changed


def test_two_cards_gone_at_once_ask_for_one_back_and_a_hand_in_view_changes_nothing(
    catalog: Catalog,
) -> None:
    state = _played(catalog, 2)
    two = _step(state, _table(state, p18="empty", p19="empty"))
    assert two.event is None and two.ui.notice == "2 cards gone: put 1 back"
    assert two.ui.mode is Mode.IDLE
    # a hand over the open row: those positions cannot be told; nothing is gone
    hand = _step(state, _table(state, p17=None, p18=None, p19=None))
    assert hand.event is None and hand.ui.mode is Mode.IDLE and not hand.ui.notice


def test_a_card_seen_before_and_not_seen_now_is_gone_unless_a_hand_hides_more(
    catalog: Catalog,
) -> None:
    state = _played(catalog, 2)
    everything = frozenset(range(20))  # the whole structure was seen in earlier tables
    alone = replace(_table(state, p18=None), seen=everything)
    assert _step(state, alone).ui.card == "garrison"  # only Garrison's place is not seen
    hand = replace(_table(state, p17=None, p18=None, p19=None), seen=everything)
    waiting = _step(state, hand)  # a hand over three cards seen before: wait, say nothing
    assert waiting.ui.mode is Mode.IDLE and waiting.event is None and not waiting.ui.notice
    # never seen there (the sticker was never read): not taken for gone
    assert _step(state, _table(state, p18=None)).ui.mode is Mode.IDLE


def test_a_covered_card_the_view_cannot_tell_does_not_hold_back_the_card_seen_gone(
    catalog: Catalog,
) -> None:
    state = _played(catalog, 2)
    everything = frozenset(range(20))
    # Garrison's place seen bare, Clay Pool (position 5, covered by row 4) not told in this
    # frame: nobody may take a covered card, so Garrison is proposed
    glare = replace(_table(state, p18="empty", p5=None), seen=everything)
    assert _step(state, glare).ui.card == "garrison"
    # an open card not told beside it may be a hand taking it: the box waits
    hand = replace(_table(state, p18="empty", p17=None), seen=everything)
    assert _step(state, hand).ui.mode is Mode.IDLE


def test_a_view_that_tells_no_card_of_the_structure_takes_nothing_for_gone(
    catalog: Catalog,
) -> None:
    state = new_game(catalog)
    for event in read_record(RECORD):  # to the last card of age 1
        state = apply(state, event)
        if state.structure is not None and state.structure.cards.count(None) == 19:
            break
    structure = state.structure
    assert structure is not None and state.age == 1
    last = next(i for i, card in enumerate(structure.cards) if card is not None)
    everything = frozenset(range(20))
    # alone in the view the last card cannot be told (too few cards to place the
    # structure; the places taken are known empty): nobody has taken it, nothing is proposed
    alone = tuple(None if i == last else "empty" for i in range(20))
    step = _step(state, Table(alone, 1, everything))
    assert step.ui.mode is Mode.IDLE and step.event is None
    # its place seen bare is another matter: taken
    bare = tuple("empty" for _ in range(20))
    assert _step(state, Table(bare, 1, everything)).ui.card == structure.cards[last]


def test_a_proposed_card_put_back_withdraws_the_proposal(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    proposed = _step(state, _table(state, p18="empty")).ui
    back = _step(state, _table(state), proposed)
    assert back.ui.mode is Mode.IDLE and back.event is None


def test_a_card_turned_face_up_is_recorded_without_a_press(catalog: Catalog) -> None:
    state = _played(catalog, 4)  # Garrison and Clay Reserve built: row 4's last card uncovered
    assert controller.settle(state, ON).mode is Mode.REVEAL
    step = _step(state, _table(state, p13="theater"))
    assert step.event == Reveal(13, CardId("theater"))
    assert step.ui.mode is Mode.FEEDBACK and step.ui.lines[0] == "Turned up: Theater"
    # still face down on the table: nothing yet
    waiting = _step(state, _table(state, p13="back"))
    assert waiting.event is None and waiting.ui.mode is Mode.REVEAL


def test_the_turned_card_is_told_after_the_action_that_uncovered_it(catalog: Catalog) -> None:
    state = _played(catalog, 3)  # Garrison built; Ann takes Clay Reserve
    step = _step(state, _table(state, p19="empty"))
    done = controller.step(step.ui, state, Press("select"), ON)
    after = apply(state, done.event) if done.event else state
    turned = controller.step(done.ui, after, _table(after, p13="theater"),
                             Context(overhead=True, events=4))  # fmt: skip
    assert turned.event == Reveal(13, CardId("theater"))
    assert turned.ui.lines[0] == "Ann builds Clay Reserve"
    assert turned.ui.lines[-1] == "Turned up: Theater"


def test_the_deal_is_read_from_above_and_recorded_when_every_face_up_card_is_read(
    catalog: Catalog,
) -> None:
    recorded = read_record(RECORD)
    deal = recorded[1]
    assert isinstance(deal, Deal)
    state = _played(catalog, 1)
    ui = controller.settle(state, ON)
    assert ui.mode is Mode.GUIDED
    slots = tuple("back" if c is None else str(c) for c in deal.layout)
    # the last face-up card not read (a hand over it): the rest fills the guided entry
    partial = tuple(None if i == 19 else s for i, s in enumerate(slots))
    first = controller.step(ui, state, Table(partial, 1), ON)
    assert first.event is None and first.ui.mode is Mode.GUIDED and len(first.ui.dealt) == 11
    # the card asked next is one the view cannot tell: the bottom line says so
    assert first.ui.notice == words.CAMERA_CANNOT_TELL == "Camera can't tell it"
    again = controller.step(first.ui, state, Table(partial, 1), ON)
    assert again.event is None and again.ui.notice == words.CAMERA_CANNOT_TELL
    whole = controller.step(first.ui, state, Table(slots, 1), ON)
    assert whole.event == deal  # face-down cards unknown (null), as the record has them


def test_frames_that_each_miss_another_card_of_the_deal_add_up(catalog: Catalog) -> None:
    # Found by benchmarks/overhead_games.py (generated game 73, age 1): two frames told every
    # position but 7, the third told 7 but missed one already entered, and the box still
    # asked for 7 by hand. A card entered stays entered where a later frame cannot tell it.
    recorded = read_record(RECORD)
    deal = recorded[1]
    assert isinstance(deal, Deal)
    state = _played(catalog, 1)
    slots = tuple("back" if c is None else str(c) for c in deal.layout)
    # age 1's face-up positions in the entry's order: 0, 1, 5, 6, 7, 8, 14 to 19
    first = controller.step(controller.settle(state, ON), state, Table(_without(slots, 7), 1), ON)
    assert first.event is None and first.ui.dealt == tuple(slots[i] for i in (0, 1, 5, 6))
    assert first.ui.notice == words.CAMERA_CANNOT_TELL  # 7 is asked for next
    second = controller.step(first.ui, state, Table(_without(slots, 5), 1), ON)
    assert second.event == deal and second.ui.notice == ""  # nothing scanned by hand
    # a frame that reads another card where one was entered changes nothing
    other = tuple("glassworks" if i == 5 else s for i, s in enumerate(_without(slots, 7)))
    assert slots[5] != "glassworks"
    wrong = controller.step(first.ui, state, Table(other, 1), ON)
    assert wrong.event is None and wrong.ui.dealt == first.ui.dealt


def _without(slots: tuple[str | None, ...], position: int) -> tuple[str | None, ...]:
    """`slots` with the view unable to tell `position` (None there)."""
    return tuple(None if i == position else s for i, s in enumerate(slots))


def test_the_oled_says_when_the_view_cannot_tell_the_card_it_asks_for(catalog: Catalog) -> None:
    state = _played(catalog, 1)
    ui = controller.settle(state, ON)
    deal = read_record(RECORD)[1]
    assert isinstance(deal, Deal)
    slots = tuple("back" if c is None else str(c) for c in deal.layout)
    # a hand over row 1: the first card asked cannot be told, nothing is entered
    hidden = tuple(None if i in (0, 1) else s for i, s in enumerate(slots))
    step = controller.step(ui, state, Table(hidden, 1), ON)
    assert step.event is None and step.ui.dealt == () and step.ui.notice == words.CAMERA_CANNOT_TELL
    # every face-up card told (a back not told, a hand over it): the deal, no such line
    told = tuple(None if i == 3 else s for i, s in enumerate(slots))
    step = controller.step(ui, state, Table(told, 1), ON)
    assert step.event == deal and step.ui.notice == ""
    # a card to turn up that the view cannot tell (a hand over it)
    later = _played(catalog, 4)  # row 4's last card uncovered
    assert controller.settle(later, ON).mode is Mode.REVEAL
    waiting = _step(later, _table(later, p13=None))
    assert waiting.event is None and waiting.ui.notice == words.CAMERA_CANNOT_TELL
    view = waiting.view
    assert getattr(view, "notice", "") == words.CAMERA_CANNOT_TELL


def test_tables_are_ignored_without_the_overhead_camera(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    step = controller.step(controller.settle(state, Context()), state,
                           _table(state, p18="empty"), Context())  # fmt: skip
    assert step.event is None and step.ui.mode is Mode.IDLE


def test_the_watch_gives_a_table_once_frames_in_a_row_agree_and_only_once() -> None:
    watch = overhead.Watch(agree=3)
    still: tuple[str | None, ...] = ("a", "empty", None)
    hand: tuple[str | None, ...] = (None, None, None)
    assert watch.frame(still, 1, at=1.0) is None
    assert watch.frame(hand, 1, at=2.0) is None  # a hand: the run starts again
    assert watch.frame(still, 1, at=3.0) is None
    assert watch.frame(still, 1, at=4.0) is None
    table = watch.frame(still, 1, at=5.0)  # third frame in a row
    assert table == Table(still, 1) and table is not None and table.at == 3.0
    assert watch.frame(still, 1, at=6.0) is None  # the same table is not given twice
    # a bare position told "empty" in one frame and not told in the next: the same table
    assert watch.frame(("a", None, None), 1, at=6.5) is None
    for at in (7.0, 8.0):
        assert watch.frame(hand, 1, at=at) is None
    # the card seen at position 0 in the first table is "seen" in the next one
    assert watch.frame(hand, 1, at=9.0) == Table(hand, 1, frozenset({0}))
    # frames that tell every position (no hand over any): two in a row are enough
    told: tuple[str | None, ...] = ("a", "empty", "back")
    assert watch.frame(told, 1, at=10.0) is None
    assert watch.frame(told, 1, at=10.5) == Table(told, 1, frozenset({0}))
    # one of them with a position not told: three again
    assert watch.frame(("a", None, "back"), 1, at=10.7) is None
    assert watch.frame(("a", "empty", "b"), 1, at=10.8) is None
    assert watch.frame(("a", None, "b"), 1, at=10.9) is None
    assert watch.frame(("a", "empty", "b"), 1, at=10.95) is not None
    # a new age starts afresh: nothing of its structure seen yet
    for at in (10.0, 11.0):
        assert watch.frame(still, 2, at=at) is None
    assert watch.frame(still, 2, at=12.0) == Table(still, 2)


def test_the_watch_gives_a_reading_again_when_a_place_not_told_reads_bare() -> None:
    # generated game 17, age 3: the Town Hall's place was not told (None) while covered, and
    # read "empty" once the Town Hall was taken; "empty" and None agree with each other, so
    # no new table came and the card was scanned by hand where the view had seen it gone
    watch = overhead.Watch(agree=3)
    covered: tuple[str | None, ...] = ("a", None, "back")
    taken: tuple[str | None, ...] = ("a", "empty", "back")
    assert [watch.frame(covered, 1) for _ in range(3)][-1] == Table(covered, 1)
    assert [watch.frame(taken, 1) for _ in range(2)] == [None, None]
    assert watch.frame(taken, 1) == Table(taken, 1, frozenset({0, 2}))  # bare in all three
    # a bare place flickering between "empty" and None gives no table again
    for slots in (covered, taken, covered, covered, taken, taken, taken):
        assert watch.frame(slots, 1) is None


def test_a_reading_given_again_after_an_event_takes_no_place_not_told_for_gone(
    catalog: Catalog,
) -> None:
    # generated game 17, age 3: the reading that showed the Observatory gone could not tell
    # the Town Hall's place, under the Observatory; given again once the Observatory was
    # recorded, it made the box propose the Town Hall, which lay there still
    state = _played(catalog, 2)
    alone = replace(_table(state, p18=None), seen=frozenset(range(20)))
    assert _step(state, alone).ui.card == "garrison"  # a fresh reading: seen gone
    again = _step(state, replace(alone, again=True))
    assert again.ui.mode is Mode.IDLE and again.event is None
    # a place read bare is gone in a reading given again too
    assert _step(state, replace(_table(state, p18="empty"), again=True)).ui.card == "garrison"


def test_the_reader_is_given_the_cards_the_box_knows_where_they_lie(catalog: Catalog) -> None:
    assert overhead.known_cards(new_game(catalog)) is None  # no game set up
    # set up, the deal not recorded yet: every position holds a card, which one not known
    # (the reader then rules out placements that leave a position bare)
    assert overhead.known_cards(_played(catalog, 1)) == ("back",) * 20
    # a card taken without a recorded deal (table mode): nothing is known of the positions
    untold = apply(_played(catalog, 1), Build(Player.P2, CardId("garrison")))
    assert untold.structure is None and overhead.known_cards(untold) is None
    dealt = overhead.known_cards(_played(catalog, 2))
    # The deal's own layout: face-up cards named, face-down ones "back" (which: unknown),
    # as `scan --structure --known` reads it
    assert dealt == (
        "workshop", "apothecary", "back", "back", "back", "clay_pool", "stone_pit",
        "pharmacist", "scriptorium", "back", "back", "back", "back", "back", "guard_tower",
        "press", "stone_reserve", "logging_camp", "garrison", "clay_reserve",
    )  # fmt: skip
    assert parse_known(list(dealt), 1, catalog) == dealt
    assert overhead.taken_cards(_played(catalog, 2)) == frozenset()
    # Garrison (position 18) and Clay Reserve (19) taken, Theater turned up at 13: the
    # positions taken are empty for certain, and the cards taken are never in the structure
    state = apply(_played(catalog, 4), Reveal(13, CardId("theater")))
    known = overhead.known_cards(state)
    assert known is not None and known[18] == "empty" and known[19] == "empty"
    assert known[13] == "theater" and known[:13] == dealt[:13]
    assert overhead.taken_cards(state) == {"garrison", "clay_reserve"}
