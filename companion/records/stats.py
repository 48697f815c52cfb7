"""Statistics over finished games: a pure function of per-game summaries (standard library only).

A summary is what a finished game leaves for statistics (written by
`companion.records.summaries` when the game finishes): the game type ("duel", "7wonders"), when
it finished, how long it took, who began, who won (several seats for a shared victory) and by
which victory, and per seat the points of every category, the wonders built and the progress
tokens taken. Names are not in it: they come from the journal's games (so a renamed player is
renamed in the statistics too). Any game type that writes such a summary has statistics; the
categories are the keys of its seats' scores, in their order.

Decisions where the issue is silent (docs/statistics.md):
- a shared victory counts in `shared` (players, victories, head to head, first player), never as
  a win nor in `civilian`;
- with a player chosen, the games are theirs, and the per-seat statistics (points per category,
  wonders, progress tokens) count their seat only;
- a period is a range of finishing dates (UTC), both ends included;
- the longest and shortest games are measured in minutes from the first to the last event, so
  only games played at the box count (an imported record has no real times);
- the points over time are averaged per seat and grouped by day when the games span at most 31
  days, by month up to 36 months, else by year.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import combinations
from typing import Any

VICTORIES = ("civilian", "military", "science", "shared")
EXTREMES = 3  # games listed as the longest and as the shortest


@dataclass(frozen=True, slots=True)
class Seat:
    """One player of a finished game: name ("" when unnamed), points, wonders and tokens."""

    seat: str
    name: str
    scores: Mapping[str, int]
    total: int
    wonders: tuple[str, ...]
    tokens: tuple[str, ...]
    won: bool


@dataclass(frozen=True, slots=True)
class GameFacts:
    """A finished game as statistics see it."""

    id: int
    game: str
    finished: str
    minutes: float | None
    cards: int
    first: str | None
    victory: str | None
    seats: tuple[Seat, ...]

    @property
    def shared(self) -> bool:
        """Whether more than one seat won (a shared victory)."""
        return sum(seat.won for seat in self.seats) > 1

    @property
    def day(self) -> str:
        """The finishing date, "YYYY-MM-DD" (UTC)."""
        return self.finished[:10]


def facts_from_summary(
    game_id: int, summary: Mapping[str, Any], names: Mapping[str, str]
) -> GameFacts:
    """A stored summary (JSON) and the game's names as `GameFacts`."""
    winners = set(summary["winners"])
    seats = tuple(
        Seat(
            seat=str(entry["seat"]),
            name=str(names.get(entry["seat"]) or ""),
            scores=entry["scores"],
            total=int(entry["total"]),
            wonders=tuple(entry.get("wonders", ())),
            tokens=tuple(entry.get("tokens", ())),
            won=entry["seat"] in winners,
        )
        for entry in summary["seats"]
    )
    return GameFacts(
        id=game_id,
        game=str(summary["game"]),
        finished=str(summary["finished"]),
        minutes=summary.get("minutes"),
        cards=int(summary.get("cards", 0)),
        first=summary.get("first"),
        victory=summary.get("victory"),
        seats=seats,
    )


def select(
    games: Iterable[GameFacts],
    *,
    game: str = "duel",
    player: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> list[GameFacts]:
    """The games of type `game` that `player` sat in, finished between `since` and `until`
    ("YYYY-MM-DD", both included), oldest first."""
    chosen = [
        facts
        for facts in games
        if facts.game == game
        and (since is None or facts.day >= since)
        and (until is None or facts.day <= until)
        and (player is None or any(seat.name == player for seat in facts.seats))
    ]
    return sorted(chosen, key=lambda facts: (facts.finished, facts.id))


def statistics(games: Sequence[GameFacts], player: str | None = None) -> dict[str, Any]:
    """Every statistic of the games chosen by `select` (with the same `player`), as JSON."""
    seats = [seat for facts in games for seat in _counted(facts, player)]
    return {
        "games": len(games),
        "players": players_table(games),
        "head_to_head": head_to_head(games),
        "victories": victories(games),
        "first_player": first_player(games),
        "categories": categories(seats),
        "over_time": over_time(games, player),
        "wonders": owners_won(games, player, "wonders"),
        "progress_tokens": owners_won(games, player, "tokens"),
        "longest": extremes(games, longest=True),
        "shortest": extremes(games, longest=False),
    }


def _counted(facts: GameFacts, player: str | None) -> tuple[Seat, ...]:
    """The seats whose points count: all, or the chosen player's."""
    if player is None:
        return facts.seats
    return tuple(seat for seat in facts.seats if seat.name == player)


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def players_table(games: Iterable[GameFacts]) -> list[dict[str, Any]]:
    """Games, wins, shared victories and losses per named player, most wins first."""
    table: dict[str, dict[str, Any]] = {}
    for facts in games:
        for seat in facts.seats:
            if not seat.name:
                continue
            row = table.setdefault(
                seat.name, {"name": seat.name, "games": 0, "wins": 0, "shared": 0}
            )
            row["games"] += 1
            if seat.won:
                row["shared" if facts.shared else "wins"] += 1
    for row in table.values():
        row["losses"] = row["games"] - row["wins"] - row["shared"]
        row["rate"] = _rate(row["wins"], row["games"])
    return sorted(table.values(), key=lambda r: (-r["wins"], -r["games"], r["name"]))


def head_to_head(games: Iterable[GameFacts]) -> list[dict[str, Any]]:
    """Each pair of named players who met: games, each one's wins, shared victories."""
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    for facts in games:
        named = sorted((seat for seat in facts.seats if seat.name), key=lambda s: s.name)
        for a, b in combinations(named, 2):
            if a.name == b.name:
                continue
            row = pairs.setdefault(
                (a.name, b.name),
                {"players": [a.name, b.name], "games": 0, "wins": [0, 0], "shared": 0},
            )
            row["games"] += 1
            if a.won and b.won:
                row["shared"] += 1
            elif a.won or b.won:
                row["wins"][0 if a.won else 1] += 1
    return sorted(pairs.values(), key=lambda r: (-r["games"], r["players"]))


def victories(games: Iterable[GameFacts]) -> dict[str, int]:
    """How the games were won; a shared victory counts in `shared` only."""
    counts = dict.fromkeys(VICTORIES, 0)
    for facts in games:
        kind = "shared" if facts.shared else facts.victory
        if kind is not None:
            counts[kind] = counts.get(kind, 0) + 1
    return counts


def first_player(games: Iterable[GameFacts]) -> dict[str, Any]:
    """How often the player who began the game won it (games with a known first player)."""
    played = wins = shared = 0
    for facts in games:
        first = next((seat for seat in facts.seats if seat.seat == facts.first), None)
        if first is None:
            continue
        played += 1
        if first.won:
            shared += facts.shared
            wins += not facts.shared
    return {"games": played, "wins": wins, "shared": shared, "rate": _rate(wins, played)}


def _rows(seats: Sequence[Seat]) -> list[str]:
    """The categories, in the order of the first seat's scores."""
    return list(seats[0].scores) if seats else []


def _average(seats: Sequence[Seat]) -> dict[str, float]:
    rows = _rows(seats)
    sums = dict.fromkeys([*rows, "total"], 0)
    for seat in seats:
        for row in rows:
            sums[row] += seat.scores.get(row, 0)
        sums["total"] += seat.total
    return {row: round(value / len(seats), 1) for row, value in sums.items()} if seats else {}


def categories(seats: Sequence[Seat]) -> dict[str, Any]:
    """The average points of a player in a game, per category and in total."""
    return {"rows": _rows(seats), "average": _average(seats), "seats": len(seats)}


def period_of(first: str, last: str) -> int:
    """How many characters of a date name its period: 10 (day), 7 (month) or 4 (year)."""
    if not first:
        return 10
    start, end = date.fromisoformat(first[:10]), date.fromisoformat(last[:10])
    if (end - start).days <= 31:
        return 10
    months = (end.year - start.year) * 12 + end.month - start.month
    return 7 if months <= 36 else 4


def over_time(games: Sequence[GameFacts], player: str | None) -> list[dict[str, Any]]:
    """The average points per category of a seat, per period, oldest first."""
    if not games:
        return []
    width = period_of(games[0].day, games[-1].day)
    periods: dict[str, tuple[list[Seat], list[int]]] = {}
    for facts in games:
        seats, ids = periods.setdefault(facts.day[:width], ([], []))
        seats.extend(_counted(facts, player))
        ids.append(facts.id)
    return [
        {"period": period, "games": len(ids), "average": _average(seats)}
        for period, (seats, ids) in periods.items()
    ]


def owners_won(games: Iterable[GameFacts], player: str | None, kind: str) -> list[dict[str, Any]]:
    """Per wonder (kind "wonders") or progress token ("tokens"): how often it was built or
    taken, and how often its owner won the game (a shared victory is not a win)."""
    table: dict[str, dict[str, Any]] = {}
    for facts in games:
        for seat in _counted(facts, player):
            for owned in seat.wonders if kind == "wonders" else seat.tokens:
                row = table.setdefault(owned, {"id": owned, "owned": 0, "won": 0})
                row["owned"] += 1
                row["won"] += seat.won and not facts.shared
    for row in table.values():
        row["rate"] = _rate(row["won"], row["owned"])
    return sorted(table.values(), key=lambda r: (-r["owned"], -r["rate"], r["id"]))


def extremes(games: Iterable[GameFacts], *, longest: bool) -> list[dict[str, Any]]:
    """The longest (or shortest) games in minutes, among games with real times."""
    timed = [facts for facts in games if facts.minutes is not None]
    timed.sort(key=lambda facts: (facts.minutes or 0.0, facts.id), reverse=longest)
    return [
        {
            "id": facts.id,
            "minutes": facts.minutes,
            "cards": facts.cards,
            "finished": facts.finished,
            "players": [seat.name for seat in facts.seats],
            "winners": [seat.name for seat in facts.seats if seat.won],
            "victory": "shared" if facts.shared else facts.victory,
        }
        for facts in timed[:EXTREMES]
    ]
