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
MODES = ("base", "pantheon")  # a Duel without an expansion, and with Pantheon
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
    rank: int = 1
    """1 for a winner; otherwise 1 + the seats that did better (`ranks`)."""
    side: str = ""
    """The wonder board's side of a family game ("A" or "B"), "" in a Duel."""
    stages: int | None = None
    """The wonder stages built on a family game's board (None in a Duel)."""


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
    shared: bool
    """Whether more than one seat won (a shared victory)."""
    variant: str = ""
    """A family game's variant: "base" or "two-player" ("" in a Duel)."""
    expansions: tuple[str, ...] = ()
    imported: bool = False
    """A play imported from BG Stats or BoardGameGeek: who played, won and ranked where, and
    their scores (`scored`: when every player has one), nothing more (`Tally.add`)."""
    scored: bool = True

    @property
    def kind(self) -> str:
        """The game as statistics keep it apart: the two-player variant of the base game is
        "7wonders-two-player", any other game its `game`."""
        return f"{self.game}-two-player" if self.variant == "two-player" else self.game

    @property
    def mode(self) -> str:
        """A Duel's mode as statistics split it: "pantheon" with the expansion, else "base"."""
        return MODES[1] if "pantheon" in self.expansions else MODES[0]

    @property
    def day(self) -> str:
        """The finishing date, "YYYY-MM-DD" (UTC)."""
        return self.finished[:10]


def facts_from_summary(
    game_id: int, summary: Mapping[str, Any], names: Mapping[str, str]
) -> GameFacts:
    """A stored summary (JSON) and the game's names as `GameFacts`."""
    winners = set(summary["winners"])
    played = [(int(entry["total"]), entry["seat"] in winners) for entry in summary["seats"]]
    seats = tuple(
        Seat(
            seat=str(entry["seat"]),
            name=str(names.get(entry["seat"]) or ""),
            scores=entry["scores"],
            total=int(entry["total"]),
            wonders=tuple(entry.get("wonders", ())),
            tokens=tuple(entry.get("tokens", ())),
            won=entry["seat"] in winners,
            rank=rank,
            side=str(entry.get("side", "")),
            stages=entry.get("stages"),
        )
        for entry, rank in zip(summary["seats"], ranks(played), strict=True)
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
        shared=len(winners) > 1,
        variant=str(summary.get("variant", "")),
        expansions=tuple(summary.get("expansions", ())),
    )


def ranks(seats: Sequence[tuple[int, bool]]) -> list[int]:
    """The rank of each (total, won) seat: 1 for every winner, else 1 + the seats that did
    better (the winners, and the other seats with more points): a player who lost a tie on
    coins comes after the winner."""
    return [1 if won else 1 + sum(1 for t, w in seats if w or t > total) for total, won in seats]


def select(
    games: Iterable[GameFacts],
    *,
    game: str = "duel",
    player: str | None = None,
    since: str | None = None,
    until: str | None = None,
    mode: str | None = None,
) -> list[GameFacts]:
    """The games of type `game` (and `mode`, "base" or "pantheon", when given) that `player`
    sat in, finished between `since` and `until` ("YYYY-MM-DD", both included), oldest first."""
    chosen = [
        facts
        for facts in games
        if facts.kind == game
        and (since is None or facts.day >= since)
        and (until is None or facts.day <= until)
        and (player is None or any(seat.name == player for seat in facts.seats))
        and (mode is None or facts.mode == mode)
    ]
    return sorted(chosen, key=lambda facts: (facts.finished, facts.id))


def statistics(
    games: Iterable[GameFacts], player: str | None = None, game: str = "duel"
) -> dict[str, Any]:
    """Every statistic of the games chosen by `select` (with the same `player` and `game`),
    as JSON."""
    tally = Tally(player, game)
    for facts in games:
        tally.add(facts)
    return tally.result()


def matches(
    facts: GameFacts,
    *,
    game: str = "duel",
    player: str | None = None,
    since: str | None = None,
    until: str | None = None,
    mode: str | None = None,
) -> bool:
    """Whether `select` with these filters keeps the game."""
    return bool(select([facts], game=game, player=player, since=since, until=until, mode=mode))


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


class Tally:
    """The running sums behind every statistic: games are added one at a time, oldest first
    (the streaks need the order), so that a page adds a newly finished game instead of
    counting all again. What it keeps grows with the players, wonders and days, never with
    the games (the records kept are the few best)."""

    def __init__(self, player: str | None = None, game: str = "duel") -> None:
        self.player = player
        self.game = game
        self.games = 0
        self.imported = 0  # plays imported from BG Stats or BoardGameGeek (`add`)
        self.players: dict[str, list[int]] = {}  # name -> [games, wins, shared, sum of ranks]
        self.streaks: dict[str, list[int]] = {}  # name -> [current, longest] outright wins
        self.best: list[tuple[int, int, str, str]] = []  # (total, -id, name, finished), kept few
        self.margins: list[tuple[int, int, str, str]] = []  # (margin, -id, winner, finished)
        self.peaks: dict[str, tuple[int, int, str]] = {}  # science/guilds -> (points, -id, name)
        self.pairs: dict[tuple[str, str], list[int]] = {}  # -> [games, wins a, wins b, shared]
        self.victories = dict.fromkeys(VICTORIES, 0)
        self.first = [0, 0, 0]  # games, wins, shared
        self.modes = dict.fromkeys(MODES, 0)  # a Duel's games per mode
        self.rows: list[str] = []
        self.days: dict[str, list[Any]] = {}  # day -> [games, seats, [sums per row + total]]
        self.owned: dict[str, dict[str, list[int]]] = {"wonders": {}, "tokens": {}, "sides": {}}
        self.timed: dict[bool, list[tuple[float, int, GameFacts]]] = {True: [], False: []}
        """The longest (True) and shortest (False) games with real times, the few kept."""

    def add(self, facts: GameFacts) -> None:
        """Count one finished game (chosen by the same filters as the others). An imported
        play counts in what it can tell: the players' games, wins and ranks, head to head,
        wins in a row, and with every score known the best scores and margins; not in the
        games, victory types, first player, categories, wonders, tokens or times."""
        if facts.imported:
            self.imported += 1
            self._players(facts)
            self._records(facts)
            return
        self.games += 1
        kind = "shared" if facts.shared else facts.victory
        if kind is not None:
            self.victories[kind] = self.victories.get(kind, 0) + 1
        self._players(facts)
        self._first(facts)
        self._records(facts)
        self.modes[facts.mode] = self.modes.get(facts.mode, 0) + 1
        counted = _counted(facts, self.player)
        if counted and len(counted[0].scores) > len(self.rows):
            self._widen(list(counted[0].scores))
        day = self.days.setdefault(facts.day, [0, 0, [0] * (len(self.rows) + 1)])
        day[0] += 1
        for seat in counted:
            day[1] += 1
            sums = day[2]
            for index, row in enumerate(self.rows):
                sums[index] += seat.scores.get(row, 0)
            sums[-1] += seat.total
            won = int(seat.won and not facts.shared)
            sides = tuple(f"{w}:{seat.side}" for w in seat.wonders if seat.side)
            for kind_, owned in (("wonders", seat.wonders), ("tokens", seat.tokens),
                                 ("sides", sides)):  # fmt: skip
                table = self.owned[kind_]
                for item in owned:
                    counts = table.setdefault(item, [0, 0])
                    counts[0] += 1
                    counts[1] += won
        if facts.minutes is not None:
            self.time(facts)

    def _widen(self, rows: list[str]) -> None:
        """Count the categories `rows` from now on: a Pantheon game's are a base game's and
        `divinities` after them, which the games counted before had none of."""
        added = len(rows) - len(self.rows)
        for day in self.days.values():
            day[2] = [*day[2][:-1], *[0] * added, day[2][-1]]
        self.rows = rows

    def time(self, facts: GameFacts) -> None:
        """Keep a game with real times if it is among the longest or the shortest."""
        assert facts.minutes is not None
        for longest, kept in self.timed.items():
            entry = (facts.minutes, facts.id, facts)
            chosen = sorted([*kept, entry], key=lambda t: (t[0], t[1]), reverse=longest)
            self.timed[longest] = chosen[:EXTREMES]

    def _players(self, facts: GameFacts) -> None:
        named = sorted((seat for seat in facts.seats if seat.name), key=lambda s: s.name)
        for seat in named:
            row = self.players.setdefault(seat.name, [0, 0, 0, 0])
            row[0] += 1
            row[3] += seat.rank
            if seat.won:
                row[2 if facts.shared else 1] += 1
            streak = self.streaks.setdefault(seat.name, [0, 0])
            streak[0] = streak[0] + 1 if seat.won and not facts.shared else 0
            streak[1] = max(streak)
        for a, b in combinations(named, 2):
            if a.name == b.name:
                continue
            pair = self.pairs.setdefault((a.name, b.name), [0, 0, 0, 0])
            pair[0] += 1
            if a.won and b.won:
                pair[3] += 1
            elif a.won or b.won:
                pair[1 if a.won else 2] += 1

    def _records(self, facts: GameFacts) -> None:
        """The best scores, the biggest margins of victory on points, the most science and
        guild points: only the few best are kept."""
        counted = _counted(facts, self.player) if facts.scored else ()
        for seat in counted:
            self.best = _top([*self.best, (seat.total, -facts.id, seat.name, facts.finished)])
            for row in ("science", "guilds"):
                points = seat.scores.get(row)
                if points is not None and (points, -facts.id) > self.peaks.get(row, (-1, 0))[:2]:
                    self.peaks[row] = (points, -facts.id, seat.name)
        winners = [seat for seat in facts.seats if seat.won]
        on_points = facts.victory in (None, "civilian")  # a Duel won on military or science: no
        others = [seat.total for seat in facts.seats if not seat.won]
        if (
            len(winners) == 1
            and facts.scored
            and others
            and on_points
            and (self.player is None or any(seat.name == self.player for seat in counted))
        ):
            margin = winners[0].total - max(others)
            self.margins = _top([*self.margins, (margin, -facts.id, winners[0].name,
                                                 facts.finished)])  # fmt: skip

    def _first(self, facts: GameFacts) -> None:
        first = next((seat for seat in facts.seats if seat.seat == facts.first), None)
        if first is not None:
            self.first[0] += 1
            if first.won:
                self.first[2 if facts.shared else 1] += 1

    def result(self) -> dict[str, Any]:
        """The statistics as JSON (the object `/stats.json` serves)."""
        seats = sum(day[1] for day in self.days.values())
        sums = [sum(column) for column in zip(*(d[2] for d in self.days.values()), strict=True)]
        return {
            "games": self.games,
            "imported": self.imported,
            "players": self._players_table(),
            "head_to_head": self._head_to_head(),
            "streaks": self._streaks(),
            "best_scores": [
                {"id": -minus_id, "name": name, "total": total, "finished": finished}
                for total, minus_id, name, finished in self.best
            ],
            "margins": [
                {"id": -minus_id, "winner": name, "margin": margin, "finished": finished}
                for margin, minus_id, name, finished in self.margins
            ],
            **(self._duel() if self.game == "duel" else self._family(seats, sums)),
            "categories": {
                "rows": list(self.rows),
                "average": self._average(sums, seats),
                "seats": seats,
            },
            "over_time": self._over_time(),
            "wonders": self._owned("wonders"),
            "longest": self._extremes(longest=True),
            "shortest": self._extremes(longest=False),
        }

    def _duel(self) -> dict[str, Any]:
        """What only a Duel has: victory types, the first player, progress tokens."""
        return {
            "victories": dict(self.victories),
            "first_player": {
                "games": self.first[0],
                "wins": self.first[1],
                "shared": self.first[2],
                "rate": _rate(self.first[1], self.first[0]),
            },
            "progress_tokens": self._owned("tokens"),
            "modes": dict(self.modes),
        }

    def _family(self, seats: int, sums: Sequence[int]) -> dict[str, Any]:
        """What the other games have: the boards' sides, science and guild points."""
        average = self._average(sums, seats)
        return {
            "sides": self._owned("sides"),
            "science_and_guilds": {
                row: {
                    "average": average[row],
                    "most": {"points": peak[0], "id": -peak[1], "name": peak[2]},
                }
                for row in ("science", "guilds")
                if row in average and (peak := self.peaks.get(row)) is not None
            },
        }

    def _streaks(self) -> list[dict[str, Any]]:
        """Per named player: the longest run of outright wins and the current one."""
        table = [
            {"name": name, "longest": longest, "current": current}
            for name, (current, longest) in self.streaks.items()
        ]
        return sorted(table, key=lambda r: (-r["longest"], -r["current"], r["name"]))

    def _average(self, sums: Sequence[int], seats: int) -> dict[str, float]:
        if not seats:
            return {}
        names = [*self.rows, "total"]
        return {row: round(value / seats, 1) for row, value in zip(names, sums, strict=True)}

    def _players_table(self) -> list[dict[str, Any]]:
        """Games, wins, shared victories and losses per named player, most wins first."""
        table = [
            {"name": name, "games": games, "wins": wins, "shared": shared,
             "losses": games - wins - shared, "rate": _rate(wins, games),
             "average_rank": round(ranks / games, 2)}
            for name, (games, wins, shared, ranks) in self.players.items()
        ]  # fmt: skip
        return sorted(table, key=lambda r: (-r["wins"], -r["games"], r["name"]))

    def _head_to_head(self) -> list[dict[str, Any]]:
        """Each pair of named players who met: games, each one's wins, shared victories."""
        table = [
            {"players": [a, b], "games": games, "wins": [wins_a, wins_b], "shared": shared}
            for (a, b), (games, wins_a, wins_b, shared) in self.pairs.items()
        ]
        return sorted(table, key=lambda r: (-r["games"], r["players"]))

    def _over_time(self) -> list[dict[str, Any]]:
        """The average points per category of a seat, per period, oldest first."""
        days = sorted(self.days)
        if not days:
            return []
        width = period_of(days[0], days[-1])
        periods: dict[str, list[Any]] = {}
        for day in days:
            games, seats, sums = self.days[day]
            period = periods.setdefault(day[:width], [0, 0, [0] * len(sums)])
            period[0] += games
            period[1] += seats
            period[2] = [a + b for a, b in zip(period[2], sums, strict=True)]
        return [
            {"period": name, "games": games, "average": self._average(sums, seats)}
            for name, (games, seats, sums) in periods.items()
        ]

    def _owned(self, kind: str) -> list[dict[str, Any]]:
        """Per wonder or progress token: how often it was owned and its owner won."""
        table = [
            {"id": item, "owned": owned, "won": won, "rate": _rate(won, owned)}
            for item, (owned, won) in self.owned[kind].items()
        ]
        return sorted(table, key=lambda r: (-r["owned"], -r["rate"], r["id"]))

    def _extremes(self, *, longest: bool) -> list[dict[str, Any]]:
        """The longest (or shortest) games in minutes, among games with real times."""
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
            for _, _, facts in self.timed[longest]
        ]


RECORDS = 3  # best scores and biggest margins listed


def _top(entries: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """The best `RECORDS` entries, highest first (the older game first among equals)."""
    return sorted(entries, reverse=True)[:RECORDS]


def _counted(facts: GameFacts, player: str | None) -> tuple[Seat, ...]:
    """The seats whose points count: all, or the chosen player's."""
    if player is None:
        return facts.seats
    return tuple(seat for seat in facts.seats if seat.name == player)


def period_of(first: str, last: str) -> int:
    """How many characters of a date name its period: 10 (day), 7 (month) or 4 (year)."""
    start, end = date.fromisoformat(first[:10]), date.fromisoformat(last[:10])
    if (end - start).days <= 31:
        return 10
    months = (end.year - start.year) * 12 + end.month - start.month
    return 7 if months <= 36 else 4
