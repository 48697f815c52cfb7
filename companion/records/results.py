"""A finished game as other play loggers see it: the game, when, how long, where, and each
player's score, rank, win and start (standard library only).

BG Stats and BoardGameGeek keep plays, not events or score sheets: every export to them
(`companion.records.bgstats`, `companion.records.bggxml`) goes through `Play`, and a play
imported from them is kept as one (`companion.records.logged`). The games the box knows are
in `GAMES` with their BoardGameGeek ids, in one place.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.records.stats import GameFacts


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game or expansion the box knows: its key, its name, its BoardGameGeek id (0 when
    none is set: the play is then matched by name)."""

    key: str
    name: str
    bgg_id: int


GAMES: Mapping[str, GameInfo] = {
    info.key: info
    for info in (
        GameInfo("duel", "7 Wonders Duel", 173346),
        GameInfo("7wonders", "7 Wonders", 68448),
        GameInfo("7wonders-dice", "7 Wonders Dice", 0),
    )
}
EXPANSIONS: Mapping[str, GameInfo] = {
    info.key: info
    for info in (
        GameInfo("edifice", "7 Wonders: Edifice", 0),
        GameInfo("pantheon", "7 Wonders Duel: Pantheon", 202976),
    )
}
"""The expansions, keyed as a game's `expansions` name them. An id is set only where two
public sources agree on it (docs/statistics.md, "BG Stats and BoardGameGeek"); 0 is matched
by name."""
STATS_GAMES: Mapping[str, str] = {
    "duel": "7 Wonders Duel",
    "7wonders": "7 Wonders",
    "7wonders-two-player": "7 Wonders for two",
    "7wonders-dice": "7 Wonders Dice",
}
"""The games statistics and the CSV keep apart (`GameFacts.kind`), with their names."""

UNKNOWN_GAME = "not a game the box keeps"
NO_PLAYERS = "no players"
"""Why an imported play is skipped: another game, or a play of a game the box keeps that names
no player (BG Stats' empty `playerScores`, a BoardGameGeek play without `<player>`): it tells
no winner nor score, and a file is not refused whole for it."""
Skipped = dict[tuple[str, str], int]
"""Plays skipped by an import: (game name, reason) -> how many."""

NAMESPACE = uuid.UUID("6f0b3c52-27a1-5d6e-9c0f-7d75e1c0de27")  # uuid5 names of this program


class UnknownGame(ValueError):
    """A game name the box does not know; the message is one line listing the known ones."""


def known_game(name: str) -> str:
    """`name` if statistics and exports know it.

    Raises:
        UnknownGame: any other name.
    """
    if name not in STATS_GAMES:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(STATS_GAMES)})")
    return name


def game_by_bgg(bgg_id: int, name: str) -> str | None:
    """The key of the game a logged play names by BoardGameGeek id or (id unknown) by name,
    or None for a game the box does not know."""
    for info in GAMES.values():
        if (bgg_id and bgg_id == info.bgg_id) or name.strip().casefold() == info.name.casefold():
            return info.key
    return None


def stable_uuid(identity: str) -> str:
    """The uuid of something named by `identity` (the same for the same identity)."""
    return str(uuid.uuid5(NAMESPACE, identity))


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player of a play, in seating order."""

    name: str
    score: int | None
    rank: int
    winner: bool
    start: bool
    new: bool = False
    """Their first play of the game (BoardGameGeek's `new`), as the logger it came from said."""


@dataclass(frozen=True, slots=True)
class Play:
    """A finished game as a play logger keeps it. `played` is "YYYY-MM-DD hh:mm:ss" (UTC),
    or "YYYY-MM-DD" for a play read from BoardGameGeek, which keeps no time."""

    uuid: str
    game: str
    played: str
    minutes: int | None
    location: str
    comments: str
    players: tuple[PlayerResult, ...]
    expansions: tuple[str, ...] = ()
    variant: str = ""
    """The base game's variant ("two-player"), as in `GameFacts.variant`."""
    bgg_play: int | None = None
    """The play's id on BoardGameGeek, when it came from there."""

    @property
    def kind(self) -> str:
        """The game as statistics and `--game` keep it apart (`GameFacts.kind`)."""
        return f"{self.game}-two-player" if self.variant == "two-player" else self.game

    def to_json(self) -> dict[str, Any]:
        """The play as the journal keeps an imported one and the history file carries it."""
        return {
            "uuid": self.uuid,
            "game": self.game,
            "expansions": list(self.expansions),
            "variant": self.variant,
            "played": self.played,
            "minutes": self.minutes,
            "location": self.location,
            "comments": self.comments,
            "players": [
                {"name": p.name, "score": p.score, "rank": p.rank, "winner": p.winner,
                 "start": p.start, **({"new": True} if p.new else {})}
                for p in self.players
            ],
            "bgg_play": self.bgg_play,
        }  # fmt: skip

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Play:
        """The play `to_json` wrote.

        Raises:
            ValueError: a missing or mistyped key (named).
        """
        try:
            players = tuple(
                PlayerResult(
                    name=_text(p["name"], "name"),
                    score=None if p["score"] is None else _whole(p["score"], "score"),
                    rank=_whole(p["rank"], "rank"),
                    winner=bool(p["winner"]),
                    start=bool(p["start"]),
                    new=p.get("new") is True,
                )
                for p in raw["players"]
            )
            minutes = raw["minutes"]
            bgg_play = raw.get("bgg_play")
            return cls(
                uuid=_text(raw["uuid"], "uuid"),
                game=known_game(_text(raw["game"], "game")),
                played=_text(raw["played"], "played"),
                minutes=None if minutes is None else _whole(minutes, "minutes"),
                location=_text(raw["location"], "location"),
                comments=_text(raw["comments"], "comments"),
                players=players,
                expansions=tuple(_text(e, "expansions") for e in raw.get("expansions", [])),
                variant=_text(raw.get("variant", ""), "variant"),
                bgg_play=None if bgg_play is None else _whole(bgg_play, "bgg_play"),
            )
        except KeyError as missing:
            raise ValueError(f"missing key {missing}") from None
        except TypeError:
            raise ValueError("expected an object with a list of player objects") from None


def _text(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{key}: expected text, got {value!r}")
    return value


def _whole(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key}: expected a whole number, got {value!r}")
    return value


def play_of(facts: GameFacts, identity: str, location: str) -> Play:
    """The play of a finished game of this box; `identity` names it for its uuid (the same
    game gives the same uuid on every export)."""
    players = tuple(
        PlayerResult(
            name=seat.name or f"Player {index}",
            score=seat.total,
            rank=seat.rank,
            winner=seat.won,
            start=seat.seat == facts.first,
        )
        for index, seat in enumerate(facts.seats, start=1)
    )
    return Play(
        uuid=stable_uuid(identity),
        game=facts.game,
        played=facts.finished[:19].replace("T", " "),
        minutes=None if facts.minutes is None else int(facts.minutes + 0.5),  # half up
        location=location,
        comments=comments(facts),
        players=players,
        expansions=facts.expansions,
        variant=facts.variant,
    )


def comments(facts: GameFacts) -> str:
    """The play's comments: the variant and expansions, then every player's categories."""
    parts = []
    if facts.variant == "two-player":
        parts.append("Two-player variant with the Free City.")
    parts += [f"With {EXPANSIONS[e].name}." for e in facts.expansions if e in EXPANSIONS]
    for index, seat in enumerate(facts.seats, start=1):
        rows = ", ".join(f"{row.replace('_', ' ')} {points}" for row, points in seat.scores.items())
        parts.append(f"{seat.name or f'Player {index}'} {seat.total}: {rows}.")
    if facts.shared:
        parts.append("Shared victory.")
    elif facts.victory is not None:
        parts.append(f"{facts.victory.capitalize()} victory.")
    return " ".join(parts)


def pad_identity(saved: str, sheet: Any) -> str:
    """What names a saved score pad: when it was saved and its sheet."""
    text = json.dumps(sheet, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f"pad:{saved}:{hashlib.sha256(text.encode()).hexdigest()}"


def signature(play: Play) -> tuple[Any, ...]:
    """What two loggers agree on about a play (BoardGameGeek keeps no time nor ids): its
    day, game and each player's name and score. Plays with the same signature are one."""
    people = sorted((p.name.casefold(), -1 if p.score is None else p.score) for p in play.players)
    return (play.played[:10], play.game, tuple(people))
