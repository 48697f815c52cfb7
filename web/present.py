"""What the pages show, as plain JSON-able dicts: the templates only loop and print.

Each page's JSON twin is exactly the dict built here, so tests and scripts read the same
values a person sees. Names are in the configured language (`catalog.name(id, lang)`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.device import words
from companion.device.guided import asked
from companion.device.overhead import offers
from companion.device.pantheon import hidden_mythology
from companion.device.solo import table_known
from companion.device.words import Voice
from companion.engine.cards import Catalog, Color, Counted
from companion.engine.decisions import DECISIONS
from companion.engine.events import event_from_record
from companion.engine.pantheon_rules import activation_price
from companion.engine.plural import plural
from companion.engine.pricing import unit_prices
from companion.engine.rules import cards_left
from companion.engine.scoring import PANTHEON_ROWS, ROWS, Score, count_in, score_sheet
from companion.engine.state import COLORS, GameState, Player
from companion.records.journal import GameSummary, Record, Row
from companion.records.reader import RecordRefused
from companion.records.replay import replay

PLAYERS = (Player.P1, Player.P2)
RESOURCE_NAMES = ("wood", "clay", "stone", "glass", "papyrus")
ROW_LABELS = {
    "blue": "Civilian buildings (blue)",
    "green": "Scientific buildings (green)",
    "yellow": "Commercial buildings (yellow)",
    "purple": "Guilds (purple)",
    "wonders": "Wonders",
    "progress": "Progress tokens",
    "coins": "Coins (1 per 3)",
    "military": "Military",
    "divinities": "Divinities",
}
PANTHEON_LABELS = {"purple": "Grand Temples (purple)"}  # with Pantheon the guilds stay out


class Unreplayable(Exception):
    """A journal game the rules no longer accept; the message names the row."""


@dataclass(frozen=True, slots=True)
class Step:
    """One journal row told in plain words, with the state it led to."""

    seq: int
    text: str
    undone: bool
    undo: bool
    age: int


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game read from the journal: its summary, effective states and its told rows."""

    summary: GameSummary
    seq: int
    records: tuple[Record, ...]
    states: tuple[GameState, ...]
    steps: tuple[Step, ...]

    @property
    def state(self) -> GameState:
        """The state after the latest effective event."""
        return self.states[-1]


def player_names(summary: GameSummary, state: GameState) -> dict[str, str]:
    """The names to show: set from the phone, else from the setup, else "Player 1/2"."""
    p1, p2 = words.player_names(state, summary.players)
    return {"p1": p1, "p2": p2}


def load(catalog: Catalog, language: str, summary: GameSummary, rows: list[Row]) -> Loaded:
    """Replay a game's rows (undo rows included) into states and plain-word steps.

    Raises:
        Unreplayable: a row the rules refuse.
    """
    try:
        replayed = replay(catalog, [(row.seq, row.record) for row in rows], label="row")
    except RecordRefused as refused:
        raise Unreplayable(str(refused)) from None
    texts: list[str] = []
    steps: list[Step] = []
    names: dict[str, str] | None = None
    for index, step in enumerate(replayed.steps):
        if step.undoes is not None:
            text = words.undone(texts[step.undoes])
            steps.append(Step(step.number, text, False, True, step.after.age))
        else:
            if names is None or step.record.get("type") == "setup":
                names = player_names(summary, step.after)
            text = describe(catalog, language, names, step.record, step.before, step.after)
            undone = index in replayed.undone
            steps.append(Step(step.number, text, undone, False, step.before.age))
        texts.append(text)
    seq = rows[-1].seq if rows else 0
    return Loaded(summary, seq, replayed.records, replayed.states, tuple(steps))


# --- the log in plain words -------------------------------------------------------------


def describe(
    catalog: Catalog,
    lang: str,
    names: dict[str, str],
    record: Record,
    before: GameState,
    after: GameState,
) -> str:
    """One event in the words of the OLED's feedback (companion.device.words), with the
    coins and the pawn it moved, as one log line; full names, not the OLED's short ones."""
    voice = Voice((names["p1"], names["p2"]), lambda any_id: catalog.name(any_id, lang))
    return words.log_text(words.told(voice, before, after, event_from_record(record)))


def log_view(loaded: Loaded) -> dict[str, Any]:
    """The log page: every row in plain words, undone ones marked."""
    return {
        "game": loaded.summary.id,
        "seq": loaded.seq,
        "entries": [
            {"seq": s.seq, "age": s.age, "text": s.text, "undone": s.undone, "undo": s.undo}
            for s in loaded.steps
        ],
    }


# --- the score pad ----------------------------------------------------------------------


def score_view(catalog: Catalog, lang: str, loaded: Loaded) -> dict[str, Any]:
    """The score pad: a column per player, a row per category with its sources."""
    state = loaded.state
    catalog = state.catalog  # a Pantheon game's replay has the expansion's catalog
    names = player_names(loaded.summary, state)
    sheet = score_sheet(state)
    scores = {p.value: sheet.of(p) for p in PLAYERS}
    rows = []
    for row in PANTHEON_ROWS if state.pantheon is not None else ROWS:
        rows.append(
            {
                "row": row,
                "label": PANTHEON_LABELS.get(row, ROW_LABELS[row])
                if state.pantheon is not None
                else ROW_LABELS[row],
                "points": {p: scores[p].row(row) for p in scores},
                "sources": {
                    p: _sources(catalog, lang, state, Player(p), scores[p], row, names)
                    for p in scores
                },
            }
        )
    return {
        "game": loaded.summary.id,
        "seq": loaded.seq,
        "status": "finished" if state.finished else "in_progress",
        "players": names,
        "rows": rows,
        "total": {p: scores[p].total for p in scores},
        "result": _result(catalog, lang, loaded, names, scores),
    }


def _sources(
    catalog: Catalog,
    lang: str,
    state: GameState,
    player: Player,
    score: Score,
    row: str,
    names: dict[str, str],
) -> list[dict[str, Any]]:
    found = []
    for source_row, source, points in score.sources:
        if source_row != row:
            continue
        if source == "coins":
            text = words.coins(state.city(player).coins)
        elif source == "military":
            text = f"conflict pawn {abs(state.position)} from the centre"
        elif source == "grand_temples":
            temples = sum(1 for c in state.city(player).cards if catalog.card(c).is_temple)
            text = plural(temples, "Grand Temple")
        elif source == "astarte" and state.pantheon is not None:
            left = state.pantheon.astarte[0 if player is Player.P1 else 1]
            text = f"{catalog.name(source, lang)}: {words.coins(left)} left on the card"
        else:
            text = catalog.name(source, lang)
            if catalog.is_card(source) and (guild := catalog.card(source).guild) is not None:
                text += " " + _guild_detail(guild.counts, guild.points, guild.per, state, player)
                text = text.replace("{mine}", names[player.value]).replace(
                    "{theirs}", names[player.opponent.value]
                )
        found.append({"id": source, "text": text, "points": points})
    return found


def _guild_detail(
    counts: tuple[Counted, ...], points: int, per: int, state: GameState, player: Player
) -> str:
    mine = count_in(state.city(player), counts)
    theirs = count_in(state.city(player.opponent), counts)
    what = " and ".join(c.words for c in counts)
    unit = f"{points} VP per {per} {what}" if per > 1 else f"{points} VP per {what}"
    city = "{mine}" if mine >= theirs else "{theirs}"
    return f"({unit}; counted in {city}'s city: {max(mine, theirs)})"


def _result(
    catalog: Catalog,
    lang: str,
    loaded: Loaded,
    names: dict[str, str],
    scores: dict[str, Score],
) -> dict[str, Any]:
    state = loaded.state
    if not state.finished:
        return {"finished": False, "winner": None, "victory": None, "text": "Game in progress"}
    victory = state.victory.value if state.victory else None
    winner = "shared" if state.shared else (state.winner.value if state.winner else None)
    result: dict[str, Any] = {"finished": True, "winner": winner, "victory": victory}
    if winner == "shared":
        result["text"] = f"{words.SHARED}: the same total and the same blue points"
    else:
        assert winner is not None
        result["text"] = words.winner_text(names[winner], victory)
    one, two = scores["p1"], scores["p2"]
    if victory == "civilian" and one.total == two.total and winner != "shared":
        won, lost = (one, two) if winner == "p1" else (two, one)
        result["tie_break"] = words.tie_broken(
            one.total, names[str(winner)], "blue cards", won.blue, lost.blue
        )
    if victory in ("military", "science"):
        result["moment"] = _moment(catalog, lang, loaded, names, str(victory))
        result["note"] = "A supremacy wins at once, whatever the points."
    return result


def _moment(
    catalog: Catalog, lang: str, loaded: Loaded, names: dict[str, str], victory: str
) -> dict[str, Any]:
    """When and how a supremacy happened: the last effective event."""
    last = next(s for s in reversed(loaded.steps) if not s.undone and not s.undo)
    turns = sum(1 for s in loaded.steps if not s.undone and not s.undo and s.age == last.age)
    state = loaded.state
    winner = state.winner.value if state.winner else "p1"
    if victory == "military":
        how = f"The conflict pawn reached {names[Player(winner).opponent.value]}'s capital"
    else:
        symbols = len(state.city(Player(winner)).symbols)
        how = f"{names[winner]} gathered {symbols} different science symbols"
    return {"seq": last.seq, "age": last.age, "event": turns, "text": last.text, "how": how}


# --- the live board ---------------------------------------------------------------------


def live_view(
    catalog: Catalog, lang: str, loaded: Loaded, screen: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The board now: age, turn, pawn, coins, cities by colour, wonders, tokens, discard; in
    a dealt age the accessible cards priced for the player to move; what the box asks about
    the structure (`screen`: the device's saved screen, from the journal's meta)."""
    state = loaded.state
    names = player_names(loaded.summary, state)
    sheet = score_sheet(state)
    cities = {}
    for player in PLAYERS:
        city = state.city(player)
        prices = unit_prices(city, state.city(player.opponent))
        by_color = {color.value: [] for color in COLORS}  # type: dict[str, list[str]]
        for card in city.cards:
            by_color[catalog.card(card).color.value].append(catalog.name(card, lang))
        cities[player.value] = {
            "name": names[player.value],
            "coins": city.coins,
            "coins_text": words.coins(city.coins),
            "score": sheet.of(player).total,
            "cards": {c: v for c, v in by_color.items() if v},
            "card_count": len(city.cards),
            "wonders_built": [catalog.name(w, lang) for w in city.wonders_built],
            "wonders_unbuilt": [catalog.name(w, lang) for w in city.wonders_unbuilt],
            "progress_tokens": [catalog.name(t, lang) for t in sorted(city.tokens)],
            "science_symbols": len(city.symbols),
            "trade_prices": dict(zip(RESOURCE_NAMES, prices, strict=True)),
        }
    pending = state.pending
    recent = [s for s in loaded.steps if not s.undone][-6:]
    accessible = offers(state, Voice.page(state, lang, names))
    return {
        "game": loaded.summary.id,
        "seq": loaded.seq,
        "status": "finished" if state.finished else "in_progress",
        "phase": state.phase.value,
        "age": state.age,
        "current_player": state.current.value,
        "turn_text": _turn_text(state, names),
        "pending": None
        if pending is None
        else {"type": pending.kind.value, "player": pending.player.value},
        "military": _track(catalog, state, names),
        "players": cities,
        "board_tokens": [catalog.name(t, lang) for t in state.board_tokens],
        "discard": [catalog.name(c, lang) for c in state.discard],
        "cards_left_in_age": cards_left(state),
        "recent": [s.text for s in reversed(recent)],
        "accessible": [o.to_json() for o in accessible],
        "accessible_text": words.to_take(len(accessible))
        if table_known(state)
        else words.CARDS_NOT_KNOWN,
        "asked": _asked(state, screen),
        "pantheon": _pantheon(state, lang, names),
    }


def _pantheon(state: GameState, lang: str, names: dict[str, str]) -> dict[str, Any] | None:
    """The Pantheon board (None in a base game): each space with its card (only the
    mythology while face down in age 1) and what each player pays to activate it without
    Offering tokens; each player's Offering and Mythology tokens and the cards activated."""
    pantheon = state.pantheon
    if pantheon is None:
        return None
    catalog = state.catalog
    spaces = []
    for number, card in enumerate(pantheon.spaces, start=1):
        hidden = hidden_mythology(state, card)
        prices = {
            p.value: None if card is None else activation_price(state, p, number, ())
            for p in PLAYERS
        }
        spaces.append({
            "space": number,
            "card": None if card is None or hidden else card,
            "name": "" if card is None else (
                f"{hidden.capitalize()} divinity, face down" if hidden else catalog.name(card, lang)
            ),
            "price": prices,
            "price_text": {p: "" if v is None else words.coins(v) for p, v in prices.items()},
        })  # fmt: skip
    players = {}
    for index, p in enumerate(PLAYERS):
        players[p.value] = {
            "name": names[p.value],
            "offerings": list(pantheon.offerings[index]),
            "mythology_tokens": [m.capitalize() for m in pantheon.mythology_tokens[index]],
            "activated": [catalog.name(c, lang) for c in pantheon.activated[index]],
            "astarte": pantheon.astarte[index],
        }
    return {"spaces": spaces, "players": players, "to_move": state.current.value}


def _asked(state: GameState, screen: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The box's question about the structure, as the OLED words it (guided entry, a card to
    turn up), or None."""
    found = asked(state, screen)
    return None if found is None else {"title": found[0], "text": found[1]}


def _turn_text(state: GameState, names: dict[str, str]) -> str:
    if state.finished:
        return "Game over"
    if state.phase.value == "setup":
        return "Waiting for the setup"
    if state.pending is not None:
        who = names[state.pending.player.value]
        return f"{who} must {DECISIONS[state.pending.kind].asks}"
    return f"{names[state.current.value]} to play"


def _track(catalog: Catalog, state: GameState, names: dict[str, str]) -> dict[str, Any]:
    """The conflict pawn and the loot tokens still on the board, as 19 cells from -9 to 9."""
    loot = {}
    for signed in state.loot:
        zone = catalog.track.loot_token_at(signed)
        if zone is not None:
            loot[signed] = zone.loot
    cells = [
        {"at": at, "pawn": at == state.position, "loot": loot.get(at, 0)} for at in range(-9, 10)
    ]
    if state.position == 0:
        leader = "The pawn is in the centre"
    else:
        ahead = Player.P1 if state.position > 0 else Player.P2
        leader = f"{names[ahead.value]} leads by {abs(state.position)}"
    return {"position": state.position, "cells": cells, "text": leader}


def history_view(
    summaries: list[GameSummary],
    *,
    page: int = 1,
    pages: int = 1,
    total: int | None = None,
    expansions: Mapping[int, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """One page of the history: its games with players, winner, dates (ISO UTC, and as
    text for a page without script; the page's script shows them in the phone's time) and
    expansions (`mode` "Pantheon" for a Pantheon game, "" for a base game)."""
    games = []
    for summary in summaries:
        default = words.DEFAULT_NAMES
        names = {p: summary.players.get(p) or default[i] for i, p in enumerate(("p1", "p2"))}
        if summary.winner == "shared":
            result = words.SHARED
        elif summary.winner:
            result = words.winner_text(names[summary.winner], summary.victory)
        else:
            result = "In progress"
        when = {
            "started_text": utc_text(summary.started),
            "finished_text": utc_text(summary.finished, time_only=True),
        }
        used = list((expansions or {}).get(summary.id, ()))
        mode = "Pantheon" if "pantheon" in used else ""
        games.append(
            {**summary.to_json(), "names": names, "result": result, **when,
             "expansions": used, "mode": mode}
        )  # fmt: skip
    count = len(summaries) if total is None else total
    return {"games": games, "page": page, "pages": pages, "total": count}


def utc_text(stamp: str | None, *, time_only: bool = False) -> str:
    """A journal time ("2026-11-25T17:26:01Z") as "2026-11-25 17:26 UTC" ("17:26 UTC")."""
    if not stamp:
        return ""
    text = stamp[11:16] if time_only else stamp[:16].replace("T", " ")
    return f"{text} UTC"


def colors_in_order() -> list[str]:
    """The card colours in the order the live page lists a city."""
    return [color.value for color in COLORS if color is not Color.PURPLE] + ["purple"]
