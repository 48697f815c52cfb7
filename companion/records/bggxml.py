"""BoardGameGeek plays: the history in the shape of the XML API2 `plays` answer, and such a
file (a player's plays downloaded from BoardGameGeek) read back.

`<plays><play date length location><item name objecttype objectid/><comments/><players>
<player name startposition score win new/></players></play></plays>`. BoardGameGeek keeps a
day without a time, no uuid and no rank: the start player is the player at start position 1,
the others follow in seating order; ranks are made from the wins and scores. The file is
read with expat and a document type declaration is refused, so no entity can be declared and
expanded (a hostile file cannot blow up memory).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from typing import Any
from xml.parsers import expat

from companion.records.results import (
    GAMES,
    NO_PLAYERS,
    UNKNOWN_GAME,
    Play,
    PlayerResult,
    Skipped,
    game_by_bgg,
    signature,
    stable_uuid,
)
from companion.records.stats import ranks

DAY = re.compile(r"\d{4}-\d\d-\d\d\Z")
WHOLE = re.compile(r"-?\d+\Z")


class PlaysRefused(ValueError):
    """A file that is not a BoardGameGeek plays file the box can read; one line."""


def plays_xml(plays: Sequence[Play]) -> str:
    """The plays as a BoardGameGeek `plays` document, by day (then by content)."""
    elements = sorted(
        (_play(play) for play in plays),
        key=lambda e: (e.get("date", ""), ET.tostring(e, encoding="unicode")),
    )
    root = ET.Element("plays", {"total": str(len(elements)), "page": "1"})
    root.extend(elements)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _play(play: Play) -> ET.Element:
    attributes = {"id": str(play.bgg_play)} if play.bgg_play else {}
    attributes |= {
        "date": play.played[:10],
        "quantity": "1",
        "length": str(play.minutes or 0),
        "incomplete": "0",
        "nowinstats": "0",
        "location": play.location,
    }
    element = ET.Element("play", attributes)
    game = GAMES[play.game]
    item = ET.SubElement(
        element, "item", {"name": game.name, "objecttype": "thing", "objectid": str(game.bgg_id)}
    )
    ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", {"value": "boardgame"})
    if play.comments:
        ET.SubElement(element, "comments").text = play.comments
    players = ET.SubElement(element, "players")
    order = [p for p in play.players if p.start] + [p for p in play.players if not p.start]
    for person in play.players:
        ET.SubElement(
            players,
            "player",
            {
                "name": person.name,
                "startposition": str(order.index(person) + 1),
                "score": "" if person.score is None else str(person.score),
                "new": "1" if person.new else "0",
                "win": "1" if person.winner else "0",
            },
        )
    return element


def parse_xml(data: bytes) -> ET.Element:
    """The root element of an XML document; a document type declaration is refused.

    Raises:
        PlaysRefused: not well-formed XML, or a DTD (where entities would be declared).
    """

    def refuse(*_: Any) -> None:
        raise PlaysRefused("a document type declaration (DTD) is refused")

    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.buffer_text = True
    try:
        parser.Parse(data, True)
    except expat.ExpatError as bad:
        raise PlaysRefused(f"not well-formed XML: {expat.ErrorString(bad.code)}, "
                           f"line {bad.lineno}") from None  # fmt: skip
    root = builder.close()
    assert isinstance(root, ET.Element)
    return root


def read_plays(data: bytes) -> tuple[list[Play], Skipped]:
    """The plays of a BoardGameGeek plays file of the games the box knows, and the number of
    plays skipped, by game name and reason (another game; no player).

    Raises:
        PlaysRefused: not such a file, or a play that cannot be read (its number and what).
    """
    root = parse_xml(data)
    if root.tag != "plays":
        raise PlaysRefused(f"not a BoardGameGeek plays file (root <{root.tag}>, expected <plays>)")
    plays: list[Play] = []
    skipped: Counter[tuple[str, str]] = Counter()
    for number, element in enumerate(root.findall("play"), start=1):
        item = element.find("item")
        if item is None:
            raise PlaysRefused(f"play {number}: no <item> naming the game")
        name = item.get("name", "")
        objectid = item.get("objectid", "")
        key = game_by_bgg(int(objectid) if objectid.isdigit() else 0, name)
        if key is None:
            skipped[(name or f"object {objectid}", UNKNOWN_GAME)] += 1
            continue
        try:
            play = _read_play(element, key)
        except PlaysRefused as bad:
            raise PlaysRefused(f"play {number}: {bad}") from None
        if play.players:
            plays.append(play)
        else:
            skipped[(GAMES[key].name, NO_PLAYERS)] += 1
    return plays, dict(skipped)


def _read_play(element: ET.Element, game: str) -> Play:
    day = element.get("date", "")
    if not DAY.match(day):
        raise PlaysRefused(f"date: expected YYYY-MM-DD, got {day!r}")
    try:
        date.fromisoformat(day)
    except ValueError:
        raise PlaysRefused(f"date: {day!r} is not a day") from None
    length = element.get("length", "0") or "0"
    if not length.isdigit():
        raise PlaysRefused(f"length: expected a number of minutes, got {length!r}")
    ident = element.get("id", "")
    players = _players(element)
    comments = element.findtext("comments") or ""
    play = Play(
        uuid="",
        game=game,
        played=day,
        minutes=int(length) or None,
        location=element.get("location", ""),
        comments=comments.strip(),
        players=players,
        bgg_play=int(ident) if ident.isdigit() and int(ident) else None,
    )
    identity = f"bgg:{play.bgg_play}" if play.bgg_play else f"bgg:{signature(play)!r}"
    return replace(play, uuid=stable_uuid(identity))


def _players(element: ET.Element) -> tuple[PlayerResult, ...]:
    read = []
    for person in element.findall("players/player"):
        name = person.get("name") or person.get("username") or ""
        score = (person.get("score") or "").strip()
        if score and not WHOLE.match(score):
            raise PlaysRefused(f"player {name!r}: score: expected a whole number, got {score!r}")
        read.append((name, int(score) if score else None, person.get("win") == "1",
                     person.get("startposition", "").strip() == "1",
                     person.get("new") == "1"))  # fmt: skip
    computed = ranks([(score or 0, won) for _, score, won, _, _ in read])
    return tuple(
        PlayerResult(name=name, score=score, rank=rank, winner=won, start=start, new=new)
        for (name, score, won, start, new), rank in zip(read, computed, strict=True)
    )
