"""BG Stats: the "Send to BG Stats" link of one play, and the app's backup file out and in.

The link follows the vendor's page "Push plays to BG Stats from other apps or websites"
(bgstatsapp.com/support): `https://app.bgstatsapp.com/createPlay.html?data=<url-encoded
JSON>`, with `sourceName` and `sourcePlayId` so that sending a play again updates it. The
backup file has the names BG Stats writes in its own backups (`games`, `players`,
`locations`, `plays` with `playerScores`); ids count from 1 in a fixed order (games in the
order the box knows them, players and locations as they first appear), uuids are derived from
names, so the same history gives the same file.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from companion.records.results import (
    EXPANSIONS,
    GAMES,
    NO_PLAYERS,
    UNKNOWN_GAME,
    GameInfo,
    Play,
    PlayerResult,
    Skipped,
    game_by_bgg,
    stable_uuid,
)
from companion.records.stats import ranks

SOURCE_NAME = "Duel Companion"
LINK = "https://app.bgstatsapp.com/createPlay.html?data="
PLAY_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\Z")
CATALOG: tuple[GameInfo, ...] = (*GAMES.values(), *EXPANSIONS.values())
"""The games and expansions of a backup, in the order of their ids."""


class BackupRefused(ValueError):
    """A file that is not a BG Stats backup the box can read; one line naming the place."""


def play_date(play: Play) -> str:
    """The play's date as BG Stats writes it, "YYYY-MM-DD hh:mm:ss" (a day alone at 0:00)."""
    return play.played if len(play.played) > 10 else f"{play.played} 00:00:00"


def link_data(play: Play) -> dict[str, Any]:
    """The JSON of the "Send to BG Stats" link of one play."""
    game = GAMES[play.game]
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.uuid,
        "playDate": play_date(play),
        "location": play.location,
        "comments": play.comments,
        "game": {
            "name": game.name,
            "sourceGameId": game.key,
            "highestWins": True,
            "noPoints": False,
            **({"bggId": game.bgg_id} if game.bgg_id else {}),
        },
        "players": [
            {
                "name": p.name,
                "sourcePlayerId": p.name,
                **({"score": p.score} if p.score is not None else {}),
                "rank": p.rank,
                "winner": p.winner,
                "startPlayer": p.start,
            }
            for p in play.players
        ],
    }
    if play.minutes is not None:
        data["durationMin"] = play.minutes
    if play.expansions:
        data["expansions"] = [
            {"name": e.name, "sourceGameId": e.key, **({"bggId": e.bgg_id} if e.bgg_id else {})}
            for e in (EXPANSIONS[key] for key in play.expansions if key in EXPANSIONS)
        ]
    return data


def link(play: Play) -> str:
    """The "Send to BG Stats" link of one play."""
    text = json.dumps(link_data(play), ensure_ascii=False, separators=(",", ":"))
    return LINK + quote(text, safe="")


def backup(plays: Sequence[Play]) -> dict[str, Any]:
    """The plays as a BG Stats backup file (oldest first)."""
    games = {info.key: index for index, info in enumerate(CATALOG, start=1)}
    players: dict[str, int] = {}
    locations: dict[str, int] = {}
    written = []
    for play in plays:
        for person in play.players:
            players.setdefault(person.name, len(players) + 1)
        if play.location:
            locations.setdefault(play.location, len(locations) + 1)
        written.append(_play(play, games, players, locations))
    used = {play.game for play in plays} | {e for play in plays for e in play.expansions}
    return {
        "games": [
            {"id": games[info.key], "uuid": stable_uuid(f"game:{info.key}"), "name": info.name,
             "bggId": info.bgg_id, "highestWins": True,
             "isExpansion": info.key in EXPANSIONS}
            for info in CATALOG
            if info.key in used
        ],
        "players": [
            {"id": pid, "uuid": stable_uuid(f"player:{name}"), "name": name}
            for name, pid in players.items()
        ],
        "locations": [
            {"id": lid, "uuid": stable_uuid(f"location:{name}"), "name": name}
            for name, lid in locations.items()
        ],
        "plays": written,
    }  # fmt: skip


def _play(
    play: Play, games: Mapping[str, int], players: Mapping[str, int], locations: Mapping[str, int]
) -> dict[str, Any]:
    return {
        "uuid": play.uuid,
        "gameRefId": games[play.game],
        "locationRefId": locations.get(play.location, 0),
        "bggId": GAMES[play.game].bgg_id,
        "playDate": play_date(play),
        "durationMin": play.minutes or 0,
        "comments": play.comments,
        "playerScores": [
            {
                "playerRefId": players[p.name],
                "score": "" if p.score is None else str(p.score),
                "winner": p.winner,
                "startPlayer": p.start,
                "rank": p.rank,
                "seatOrder": seat,
            }
            for seat, p in enumerate(play.players, start=1)
        ],
        "expansionPlays": [
            {"gameRefId": games[key], "bggId": EXPANSIONS[key].bgg_id}
            for key in play.expansions
            if key in EXPANSIONS
        ],
    }


def read_backup(data: Any) -> tuple[list[Play], Skipped]:
    """The plays of a parsed BG Stats backup of the games the box knows, and the number of
    plays skipped, by game name and reason (another game; no player scores).

    Raises:
        BackupRefused: not a backup, or a play that cannot be read (its index and key).
    """
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise BackupRefused('not a BG Stats backup (no "plays" list)')
    games = _table(data, "games", lambda e: (str(e.get("name", "")), _int(e.get("bggId", 0))))
    people = _table(data, "players", lambda e: str(e.get("name", "")))
    places = _table(data, "locations", lambda e: str(e.get("name", "")))
    plays: list[Play] = []
    skipped: Counter[tuple[str, str]] = Counter()
    for index, raw in enumerate(data["plays"]):
        where = f"plays[{index}]"
        if not isinstance(raw, dict):
            raise BackupRefused(f"{where}: expected an object")
        ref = raw.get("gameRefId")
        if ref not in games:
            raise BackupRefused(f"{where}: gameRefId {ref!r} is not in games")
        name, bgg_id = games[ref]
        key = game_by_bgg(_int(raw.get("bggId")) or bgg_id, name)
        if key is None:
            skipped[(name or f"game {ref}", UNKNOWN_GAME)] += 1
            continue
        try:
            play = _read_play(raw, key, games, people, places)
        except (BackupRefused, ValueError) as bad:
            raise BackupRefused(f"{where}: {bad}") from None
        if play.players:
            plays.append(play)
        else:
            skipped[(GAMES[key].name, NO_PLAYERS)] += 1
    return plays, dict(skipped)


def _table(data: Mapping[str, Any], key: str, value: Any) -> dict[Any, Any]:
    entries = data.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise BackupRefused(f"{key}: expected a list of objects")
    table = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry.get("id"), int):
            raise BackupRefused(f"{key}[{index}]: id: expected a whole number")
        table[entry["id"]] = value(entry)
    return table


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _read_play(
    raw: Mapping[str, Any],
    game: str,
    games: Mapping[Any, tuple[str, int]],
    people: Mapping[Any, str],
    places: Mapping[Any, str],
) -> Play:
    uuid = raw.get("uuid")
    if not isinstance(uuid, str) or not uuid.strip():
        raise BackupRefused("uuid: expected text")
    when = raw.get("playDate")
    if not isinstance(when, str) or not PLAY_DATE.match(when):
        raise BackupRefused(f"playDate: expected 'YYYY-MM-DD hh:mm:ss', got {when!r}")
    datetime.fromisoformat(when)  # ValueError for a day that does not exist
    minutes = raw.get("durationMin", 0)
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or minutes < 0:
        raise BackupRefused(f"durationMin: expected a number of minutes, got {minutes!r}")
    comments = raw.get("comments", "")
    scores = raw.get("playerScores", [])
    if not isinstance(scores, list) or not all(isinstance(s, dict) for s in scores):
        raise BackupRefused("playerScores: expected a list of objects")
    expansions = [
        game_key
        for e in raw.get("expansionPlays", []) or []
        if isinstance(e, dict) and e.get("gameRefId") in games
        for game_key in _expansion(games[e["gameRefId"]])
    ]
    return Play(
        uuid=uuid,
        game=game,
        played=when,
        minutes=round(minutes) or None,
        location=places.get(raw.get("locationRefId"), ""),
        comments=comments if isinstance(comments, str) else "",
        players=_players(scores, people),
        expansions=tuple(expansions),
    )


def _expansion(game: tuple[str, int]) -> list[str]:
    name, bgg_id = game
    return [
        info.key
        for info in EXPANSIONS.values()
        if (bgg_id and bgg_id == info.bgg_id) or name.casefold() == info.name.casefold()
    ]


def _players(scores: list[dict[str, Any]], people: Mapping[Any, str]) -> tuple[PlayerResult, ...]:
    read = []
    for index, entry in enumerate(scores):
        where = f"playerScores[{index}]"
        ref = entry.get("playerRefId")
        if ref not in people:
            raise BackupRefused(f"{where}: playerRefId {ref!r} is not in players")
        read.append((_int(entry.get("seatOrder")) or index + 1, index, entry, _score(entry, where)))
    read.sort(key=lambda r: (r[0], r[1]))
    computed = ranks([(score or 0, bool(e.get("winner"))) for _, _, e, score in read])
    return tuple(
        PlayerResult(
            name=people[entry["playerRefId"]],
            score=score,
            rank=_int(entry.get("rank")) or rank,
            winner=bool(entry.get("winner")),
            start=bool(entry.get("startPlayer")),
        )
        for (_, _, entry, score), rank in zip(read, computed, strict=True)
    )


def _score(entry: Mapping[str, Any], where: str) -> int | None:
    score = entry.get("score", "")
    if score in ("", None):
        return None
    try:
        value = float(score)
    except (TypeError, ValueError):
        raise BackupRefused(f"{where}: score: expected a number, got {score!r}") from None
    if not value.is_integer():
        raise BackupRefused(f"{where}: score: expected a whole number, got {score!r}")
    return int(value)
