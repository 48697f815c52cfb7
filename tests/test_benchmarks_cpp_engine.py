"""The adapter of the open C++ engine (benchmarks/cpp_engine/adapter.py) without the engine:
its name table covers the catalog, its own reading of data/ agrees with the catalog, the
check of the engine's listing refuses any difference, and records and answers translate
both ways."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from companion.engine.catalog import default_catalog

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "cpp_engine"))

from adapter import (
    ENGINE_NAMES,
    ENGINE_TYPES,
    Engine,
    Mismatch,
    Unanswerable,
    driver_line,
    event_of,
    matched,
    read_catalog,
)

CATALOG = default_catalog(())


def test_the_names_match_every_card_wonder_and_token_once() -> None:
    ours: list[str] = [c.id for c in CATALOG.cards] + [w.id for w in CATALOG.wonders]
    ours += [t.id for t in CATALOG.progress_tokens]
    assert sorted(ENGINE_NAMES.values()) == sorted(ours)
    # the engine's names are the English ones but for one spelling
    english = CATALOG.names["en"]
    differ = {name: ours for name, ours in ENGINE_NAMES.items() if english[ours] != name}
    assert differ == {"Glassblower": "glass_blower"}  # ours: "Glass-Blower"


def test_the_adapter_reads_the_catalog_as_the_companion_does() -> None:
    read = read_catalog()
    assert {c.id: (c.age, c.color.value) for c in CATALOG.cards} == {
        card: (read.ages[card], read.colours[card]) for card, k in read.kinds.items() if k == "card"
    }
    assert {w.id for w in CATALOG.wonders} == {i for i, k in read.kinds.items() if k == "wonder"}
    assert {t.id for t in CATALOG.progress_tokens} == {
        i for i, k in read.kinds.items() if k == "token"
    }
    # age 1: position 0 (row 1) lies under positions 2 and 3 (row 2); the open row covers none
    assert {p for p, covered in read.covers[1].items() if 0 in covered} == {2, 3}
    assert read.face_up[1] == frozenset({0, 1, 5, 6, 7, 8, *range(14, 20)})
    assert all(not read.covers[age][p] for age in (1, 2, 3) for p in range(2))


def listing(rename: dict[str, str] | None = None, deck: dict[str, str] | None = None) -> list[str]:
    """The driver's `objects` listing an engine that agrees with the catalog would give (its
    names renamed by `rename`, decks changed by `deck`)."""
    read = read_catalog()
    lines = []
    for number, (name, ours) in enumerate(ENGINE_NAMES.items()):
        kind = read.kinds[ours]
        if kind == "card":
            colour = read.colours[ours]
            type_, where = (
                ENGINE_TYPES[colour],
                "guild" if colour == "purple" else str(read.ages[ours]),
            )
        else:
            type_, where = ENGINE_TYPES[kind], kind
        where = (deck or {}).get(ours, where)
        lines.append(f"object {number} {type_} {where} {(rename or {}).get(name, name)}")
    lines += ["object 95 9 none Looting 1", "object 96 9 none Looting 2"]
    for age in (1, 2, 3):
        for position in range(20):
            up = int(position in read.face_up[age])
            covered = " ".join(map(str, sorted(read.covers[age][position])))
            lines.append(f"slot {age} {position} {up} {covered}".rstrip())
    return lines


def test_a_listing_that_agrees_is_matched() -> None:
    engine = matched(listing(), read_catalog())
    assert engine.ids["lumber_yard"] == 0 and engine.names[0] == "lumber_yard"
    assert engine.types[engine.ids["glass_blower"]] == ENGINE_TYPES["grey"]
    assert len(engine.ids) == 95


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (listing(rename={"Glassblower": "Glass Blower"}), "'Glass Blower' has no catalog id"),
        (listing(deck={"baths": "2"}), "baths: the engine's deck 2 is not 1"),
        (listing(deck={"merchants_guild": "3"}), "merchants_guild: the engine's deck 3"),
        (listing(deck={"law": "wonder"}), "law: the engine's type 7 / deck wonder"),
        ([line for line in listing() if not line.endswith(" Obelisk")], "no 'obelisk'"),
        (
            [line.replace("slot 3 9 0 5 6", "slot 3 9 0 5") for line in listing()],
            "age 3 position 9: the layouts differ",
        ),
    ],
)
def test_any_difference_stops_the_adapter(lines: list[str], reason: str) -> None:
    with pytest.raises(Mismatch, match=reason):
        matched(lines, read_catalog())


@pytest.fixture
def engine() -> Engine:
    return matched(listing(), read_catalog())


SETUP: dict[str, Any] = {
    "type": "setup",
    "first_player": "p2",
    "progress_tokens": ["strategy", "theology", "architecture", "mathematics", "law"],
    "wonders": {
        "p1": ["the_mausoleum", "the_hanging_gardens", "the_great_lighthouse", "the_great_library"],
        "p2": ["the_statue_of_zeus", "the_temple_of_artemis", "circus_maximus", "piraeus"],
    },
}


def test_a_record_becomes_the_drivers_line(engine: Engine) -> None:
    layout: list[str | None] = [None] * 20
    layout[14], layout[15] = "lumber_yard", "baths"
    record = [
        SETUP,
        {"type": "deal", "age": 1, "layout": layout},
        {"type": "build", "player": "p2", "card": "lumber_yard"},
        {"type": "reveal", "position": 9, "card": "tavern"},
        {"type": "wonder", "player": "p1", "wonder": "the_great_library", "card": "baths"},
    ]
    line = driver_line(record, ["law", "economy", "urbanism"], engine, ("seconds", 0.2), 7, 4)
    n = engine.ids
    deal = ["-1"] * 20
    deal[14], deal[15], deal[9] = str(n["lumber_yard"]), str(n["baths"]), str(n["tavern"])
    wonders = SETUP["wonders"]
    assert line.split() == [
        "move", "seconds", "0.2", "7", "4", "first", "1",
        "tokens", "5", *(str(n[t]) for t in SETUP["progress_tokens"]),
        "wonders", *(str(n[w]) for w in wonders["p1"] + wonders["p2"]),
        "deal", "1", *deal,
        "draw", "3", str(n["law"]), str(n["economy"]), str(n["urbanism"]),
        "moves", "2",
        "0", str(n["lumber_yard"]), "-1",
        "0", str(n["baths"]), str(n["the_great_library"]),
        "end",
    ]  # fmt: skip


def test_guild_backs_decisions_and_the_library_draw_translate(engine: Engine) -> None:
    n = engine.ids
    layout: list[str | None] = [None] * 20
    layout[2] = "guild"
    record = [
        SETUP,
        {"type": "deal", "age": 3, "layout": layout},
        {"type": "discard", "player": "p2", "card": "palace"},
        {"type": "progress", "player": "p1", "token": "law"},
        {"type": "great_library", "player": "p1", "drawn": ["economy"], "token": "economy"},
        {"type": "mausoleum", "player": "p2", "card": "palace"},
        {"type": "destroy", "player": "p1", "card": "press"},
        {"type": "next_age", "player": "p2", "starter": "p1"},
    ]
    words = driver_line(record, None, engine, ("playouts", 300), 0, 1).split()
    assert words[words.index("deal") + 2 : words.index("deal") + 5] == ["-1", "-1", "-2"]
    assert words[words.index("draw") : words.index("draw") + 3] == ["draw", "1", str(n["economy"])]
    moves = words[words.index("moves") + 2 : -1]
    assert moves == [
        "0", str(n["palace"]), "-2",
        "1", str(n["law"]), "-100",
        "2", str(n["economy"]), "-100",
        "3", str(n["palace"]), "-100",
        "4", str(n["press"]), str(ENGINE_TYPES["grey"]),
        "6", "0", "-100",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "record",
    [
        [],
        [{"type": "deal", "age": 1, "layout": [None] * 20}],
        [{**SETUP, "expansions": ["pantheon"]}],
        [SETUP, {"type": "build", "player": "p1", "card": "glassblower"}],
        [SETUP, {"type": "undo"}],
        [SETUP, {"type": "reveal", "position": 3, "card": "baths"}],
    ],
)
def test_records_the_driver_cannot_replay_are_refused(
    engine: Engine, record: list[dict[str, object]]
) -> None:
    with pytest.raises(Unanswerable):
        driver_line(record, None, engine, ("playouts", 300), 0, 1)


def test_the_drivers_answers_become_record_lines(engine: Engine) -> None:
    n = engine.ids

    def event(answer: str, drawn: list[str] | None = None) -> dict[str, object]:
        return event_of(answer, "p2", drawn, engine)[0]

    palace, piraeus = n["palace"], n["piraeus"]
    assert event(f"action 0 {palace} -1 0.01 300 1") == {
        "type": "build", "player": "p2", "card": "palace",
    }  # fmt: skip
    assert event(f"action 0 {palace} -2 0.01 300 1")["type"] == "discard"
    assert event(f"action 0 {palace} {piraeus} 0.01 300 1") == {
        "type": "wonder", "player": "p2", "wonder": "piraeus", "card": "palace",
    }  # fmt: skip
    assert event(f"action 1 {n['law']} -100 0 0 1")["token"] == "law"
    assert event(f"action 2 {n['law']} -100 0 0 1", ["law", "economy", "urbanism"]) == {
        "type": "great_library", "player": "p2", "drawn": ["law", "economy", "urbanism"],
        "token": "law",
    }  # fmt: skip
    assert event(f"action 3 {palace} -100 0 0 1")["type"] == "mausoleum"
    assert event(f"action 4 {n['press']} 1 0 0 1")["card"] == "press"
    assert event("action 6 0 -100 0 0 1") == {"type": "next_age", "player": "p2", "starter": "p1"}
    assert event_of("action 6 1 -100 0.125 320 1", "p2", None, engine)[1:] == (0.125, 320.0)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("error the card at position 9 is not known", "C\\+\\+ engine: the card at position 9"),
        ("action 6 0 -100 0 0 0", "p1 acts now, not p2"),
        ("action 0 95 -1 0 0 1", "object 95, which has no catalog id"),
        ("action 5 83 -100 0 0 1", "an action of type 5"),
        ("ready 1 0 12", "the driver answered"),
    ],
)
def test_answers_that_are_no_move_of_the_player_are_refused(
    engine: Engine, answer: str, reason: str
) -> None:
    with pytest.raises(Unanswerable, match=reason):
        event_of(answer, "p2", None, engine)
