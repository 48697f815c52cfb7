"""Reading an age's structure from an overhead frame: what lies at each of the 20 positions.

No pixel position is fixed (the camera is never mounted twice the same way): the layout is
found in the frame from the stickers read. Each sticker sits at the same place on its card
(data/table.toml), so one sticker gives its card's place, turn and scale; the offsets between
cards, counted in half-card columns and rows, say which positions they hold, and the offset
that puts the most cards on positions of the age's layout wins. A homography (an affine map
or a similarity with few cards) fitted on the codes' corners then gives every position's
place in the frame, and each position is told:

- a card id: a sticker of a card of this age sits there, where the fit puts it, at the size
  and turn it should have (a card held up, one lying in a city or a code of another kind is
  never put into a position, and a card read twice is dropped);
- "back": a face-down position with a card over it (a card still covered cannot be gone);
- "empty": nothing over it and its visible part looks like the table around the structure;
- None: cannot tell (a hand over it, a face-up card whose sticker is not read, no layout
  found, or two placements of the cards read fit the frame equally well).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.catalog import default_catalog
from companion.engine.cards import Catalog, Layout
from companion.vision import payloads
from companion.vision.decode import Decoder, Sticker
from companion.vision.table import TableModel, table_model

Slot = str | None
"""A card id, "back", "empty", or None for cannot tell."""

LATTICE_TOLERANCE = 0.2  # of a column or a row: how far a card may lie from its place
FIT_TOLERANCE_MM = 4.0  # a code's corners this far from where the fit expects them: not placed
SIZE_TOLERANCE = 0.15  # a code larger or smaller than the fit expects (held up): not placed
TABLE_SHARE = 0.88  # share of a position's samples that look like the table: empty


@dataclass(frozen=True, slots=True)
class StructureReading:
    """The 20 positions in layout order, and the codes seen but not placed."""

    slots: tuple[Slot, ...]
    placed: int  # stickers placed in positions
    ignored: int  # codes in view not placed (other ages, wonders, foreign, off the layout)


@dataclass(frozen=True, slots=True)
class _Card:
    """A sticker of a card of the age: its card, corners and the card's pose in the frame."""

    id: str
    sticker: Sticker
    origin: np.ndarray  # the card's top-left corner, pixels
    u: np.ndarray  # pixels per mm along the card's width
    v: np.ndarray  # pixels per mm along the card's height


def _pose(card_id: str, sticker: Sticker, model: TableModel) -> _Card:
    c = np.array(sticker.corners, dtype=np.float64)
    tl, tr, _, _ = model.code_corners()
    side = tr[0] - tl[0]
    u = ((c[1] - c[0]) + (c[2] - c[3])) / 2 / side
    v = ((c[3] - c[0]) + (c[2] - c[1])) / 2 / side
    origin = c[0] - u * tl[0] - v * tl[1]
    return _Card(card_id, sticker, origin, u, v)


def _same_turn(a: _Card, b: _Card) -> bool:
    """Two cards lying the same way at about the same scale (a card held up is larger)."""
    na, nb = float(np.linalg.norm(a.u)), float(np.linalg.norm(b.u))
    cos = float(a.u @ b.u) / (na * nb)
    return cos > math.cos(math.radians(15)) and abs(nb / na - 1) < 2 * SIZE_TOLERANCE


def _assignments(
    cards: list[_Card], layout: Layout, model: TableModel, keep: int = 8
) -> list[dict[int, int]]:
    """Placements (position -> card index) that put cards on the layout's positions, from
    every card taken as the reference at every position; the `keep` placing the most."""
    where = {(p.row, p.col): p.index for p in layout.positions}
    found: list[dict[int, int]] = []
    origins = np.array([card.origin for card in cards])
    for r, ref in enumerate(cards):
        to_mm = np.linalg.inv(np.column_stack([ref.u, ref.v]))
        steps = (origins - ref.origin) @ to_mm.T / [model.col_mm, model.row_mm]
        near = np.all(np.abs(steps - np.round(steps)) < LATTICE_TOLERANCE, axis=1)
        offsets = [  # (card, rows, cols) from the reference
            (int(j), round(steps[j, 1]), round(steps[j, 0]))
            for j in np.flatnonzero(near)
            if _same_turn(ref, cards[j])
        ]
        for p in layout.positions:
            placed: dict[int, int] = {}
            for j, rows, cols in offsets:
                index = where.get((p.row + rows, p.col + cols))
                if index is not None and index not in placed and j not in placed.values():
                    placed[index] = j
            if r in placed.values() and placed not in found:
                found.append(placed)
    found.sort(key=len, reverse=True)
    return found[:keep]


def _fit(points_mm: np.ndarray, points_px: np.ndarray, cards: int) -> np.ndarray | None:
    """Table plane -> pixels: a homography with 4 cards or more, else an affine map (2, 3
    cards) or a similarity (1 card), as 3x3 matrices."""
    if cards >= 4:
        found, _ = cv2.findHomography(points_mm, points_px, 0)
        return None if found is None else np.asarray(found)
    if cards >= 2:
        affine, _ = cv2.estimateAffine2D(points_mm, points_px, method=cv2.LMEDS)
    else:
        affine, _ = cv2.estimateAffinePartial2D(points_mm, points_px, method=cv2.LMEDS)
    return None if affine is None else np.vstack([affine, [0.0, 0.0, 1.0]])


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return np.asarray(
        cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)
    ).reshape(-1, 2)


def _code_mm(model: TableModel, origin: tuple[float, float]) -> np.ndarray:
    return np.array([(origin[0] + x, origin[1] + y) for x, y in model.code_corners()])


def _px_per_mm(homography: np.ndarray, at: tuple[float, float]) -> float:
    a, b = _project(homography, np.array([at, (at[0] + 1.0, at[1])]))
    return float(np.linalg.norm(b - a))


def _fits(card: _Card, homography: np.ndarray, origin: tuple[float, float], m: TableModel) -> bool:
    """The card's code is where and as large as the fit says a card at `origin` has it."""
    expected = _project(homography, _code_mm(m, origin))
    seen = np.array(card.sticker.corners, dtype=np.float64)
    scale = _px_per_mm(homography, origin)
    if float(np.max(np.linalg.norm(expected - seen, axis=1))) > FIT_TOLERANCE_MM * scale:
        return False
    side = float(np.linalg.norm(expected[1] - expected[0]))
    return abs(card.sticker.side / side - 1) < SIZE_TOLERANCE * 1.5


def _placement(
    cards: list[_Card],
    placed: dict[int, int],
    origins: Sequence[tuple[float, float]],
    m: TableModel,
) -> tuple[np.ndarray, dict[int, int]] | None:
    """Fit the placement, drop the cards that do not fit, then place every card of the
    age that lies where a free position is; None if nothing fits."""
    placed = dict(placed)
    for _ in range(3):
        if not placed:
            return None
        mm = np.vstack([_code_mm(m, origins[i]) for i in placed])
        px = np.vstack([np.array(cards[j].sticker.corners) for j in placed.values()])
        homography = _fit(mm.astype(np.float32), px.astype(np.float32), len(placed))
        if homography is None:
            return None
        kept = {i: j for i, j in placed.items() if _fits(cards[j], homography, origins[i], m)}
        used = set(kept.values())
        inverse = np.linalg.inv(homography)
        slots = np.array(origins)
        code = np.array(m.code_corners()[0])
        for j, card in enumerate(cards):  # cards the first lattice missed (perspective)
            if j in used:
                continue
            seen = _project(inverse, np.array([card.sticker.corners[0]]))[0] - code
            i = int(np.argmin(np.linalg.norm(slots - seen, axis=1)))
            if i not in kept and _fits(card, homography, origins[i], m):
                kept[i] = j
                used.add(j)
        if kept == placed:
            return homography, placed
        placed = kept
    return None


class _Table:
    """What the bare table looks like around the structure, to tell an empty position."""

    def __init__(
        self, gray: np.ndarray, homography: np.ndarray, origins: Sequence[tuple[float, float]],
        m: TableModel,
    ) -> None:  # fmt: skip
        xs = [x for x, _ in origins]
        ys = [y for _, y in origins]
        grid = (
            np.mgrid[
                min(xs) - 30 : max(xs) + m.card_w + 30 : 4.0,
                min(ys) - 30 : max(ys) + m.card_h + 30 : 4.0,
            ]
            .reshape(2, -1)
            .T
        )
        free = np.ones(len(grid), dtype=bool)
        for x, y in origins:
            free &= ~(
                (grid[:, 0] > x - 5) & (grid[:, 0] < x + m.card_w + 5)
                & (grid[:, 1] > y - 5) & (grid[:, 1] < y + m.card_h + 5)
            )  # fmt: skip
        self._gray = gray
        self._homography = homography
        self.points, self.values = self._sample(grid[free])
        self._bare: dict[tuple[float, float], bool] = {}

    def _sample(self, points_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The points inside the frame and their luma."""
        if len(points_mm) == 0:
            return points_mm, np.zeros(0)
        px = np.round(_project(self._homography, points_mm)).astype(int)
        h, w = self._gray.shape
        inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
        px = px[inside]
        return points_mm[inside], self._gray[px[:, 1], px[:, 0]].astype(np.float64)

    def paper(self, origins: Sequence[tuple[float, float]], m: TableModel) -> float | None:
        """The luma of the stickers' white margins (from the stickers placed)."""
        if not origins:
            return None
        _, values = self._sample(np.vstack([_ring(m, o) for o in origins]))
        return float(np.median(values)) if len(values) else None

    def shows_cards_below(self, origin: tuple[float, float], m: TableModel, paper: float) -> bool:
        """Whether the sticker place of the position at `origin` shows no sticker's white
        margin (less than half of it paper-white) and some texture (not a smooth hand)."""
        points = _ring(m, origin)
        _, values = self._sample(points)
        if len(values) < len(points):
            return False
        white = float(np.mean(np.abs(values - paper) <= 25))
        return white < 0.35 and float(np.std(values)) > 20

    def looks_bare(self, origin: tuple[float, float], m: TableModel) -> bool:
        """Whether the visible part of the position at `origin` looks like the table near it:
        the same light (a hand is lighter or darker) and no more texture (a card has art, a
        sticker, a back's pattern and edges)."""
        if origin not in self._bare:
            self._bare[origin] = self._looks_bare(origin, m)
        return self._bare[origin]

    def _looks_bare(self, origin: tuple[float, float], m: TableModel) -> bool:
        if len(self.values) < 20:
            return False
        x, y = origin
        height = min(m.row_mm, m.card_h)
        grid = np.mgrid[x + 3 : x + m.card_w - 3 : 1.5, y + 3 : y + height - 3 : 1.5]
        wanted = grid.reshape(2, -1).T
        _, values = self._sample(wanted)
        if len(values) < len(wanted):  # partly out of the frame
            return False
        centre = np.array([x + m.card_w / 2, y + height / 2])
        distance = np.linalg.norm(self.points - centre, axis=1)
        near = np.argpartition(distance, 40)[:40] if len(distance) > 40 else slice(None)
        reference = self.values[near]
        middle = float(np.median(reference))
        spread = 1.4826 * float(np.median(np.abs(reference - middle)))
        tolerance = min(30.0, max(14.0, 3 * spread))
        alike = float(np.mean(np.abs(values - middle) <= tolerance)) >= TABLE_SHARE
        texture = float(np.std(values))  # a hand is smoother than wood, a card rougher
        return alike and 0.5 * spread <= texture <= max(8.0, 1.5 * spread)


def _ring(m: TableModel, origin: tuple[float, float]) -> np.ndarray:
    """Points of the sticker's white margin (its quiet zone) for a card at `origin`."""
    (left, top), (right, _), _, (_, bottom) = m.code_corners()
    q = (right - left) * 2 / 21 * 0.5  # the middle of the 2-module margin
    points = []
    for t in np.linspace(0, 1, 24):
        points += [
            (left - q + t * (right - left + 2 * q), top - q),
            (left - q + t * (right - left + 2 * q), bottom + q),
            (left - q, top - q + t * (bottom - top + 2 * q)),
            (right + q, top - q + t * (bottom - top + 2 * q)),
        ]
    return np.asarray(np.array(points) + np.array(origin), dtype=np.float64)


def _classify(
    placed: dict[int, int], cards: list[_Card], layout: Layout, table: _Table,
    origins: Sequence[tuple[float, float]], m: TableModel,
) -> tuple[list[Slot], int]:  # fmt: skip
    """The 20 slots from the placed cards, the layout's covering and the table's look; and
    the number of contradictions found (a read card over a bare position, a face-down
    position read while covered, a covered position that looks bare).

    A position with nothing over it and no sticker read is empty when what shows there is
    what an empty position shows: the bare table, or (when the cards it lay on are still
    there) their lower halves, not a sticker's white margin nor a smooth hand."""
    slots: list[Slot] = [None] * len(layout.positions)
    paper = table.paper([origins[i] for i in placed], m)
    for _ in range(len(layout.positions)):  # until nothing changes: each round frees a row
        before = list(slots)
        contradictions = 0
        open_: list[int] = []
        for p in reversed(layout.positions):  # nearest row first: what covers is known
            over = [slots[i] for i in p.covered_by]
            covered = any(s is not None and s != "empty" for s in over)
            slots[p.index] = None if slots[p.index] != "empty" else "empty"
            if p.index in placed:
                if covered and not p.face_up:  # a face-down card shows no sticker
                    contradictions += 1
                    slots[p.index] = None
                else:
                    slots[p.index] = cards[placed[p.index]].id
            elif covered:
                if table.looks_bare(origins[p.index], m):  # a card must lie there
                    contradictions += 1
                    slots[p.index] = None
                else:
                    slots[p.index] = None if p.face_up else "back"
            elif all(s == "empty" for s in over):
                open_.append(p.index)
            else:
                slots[p.index] = None
        for index in sorted(open_):  # farthest row first: the cards it lay on are known
            p = layout.positions[index]
            under = [slots[i] for i in p.covers]
            lying = any(s not in (None, "empty") for s in under)
            # bare table where a card lies under this position's place: a hand, not a hole
            bare = (not lying and table.looks_bare(origins[index], m)) or (
                None not in under
                and any(s != "empty" for s in under)
                and paper is not None
                and table.shows_cards_below(origins[index], m, paper)
            )
            slots[index] = "empty" if bare else None
        if slots == before:
            break
    for p in layout.positions:  # a card lies on the cards it covers: they cannot be gone
        if slots[p.index] not in (None, "empty"):
            for below in p.covers:
                if slots[below] == "empty":
                    slots[below] = None
                    contradictions += 1
    return slots, contradictions


def _strays(
    cards: list[_Card], placed: dict[int, int], homography: np.ndarray,
    origins: Sequence[tuple[float, float]], m: TableModel,
) -> int:  # fmt: skip
    """Cards of the age read inside the structure's outline but at none of its positions: a
    placement that leaves them there is wrong (two cards of a city side by side fit the
    layout as well as two cards of a row)."""
    xs = [x for x, _ in origins]
    ys = [y for _, y in origins]
    inverse = np.linalg.inv(homography)
    used = set(placed.values())
    strays = 0
    for j, card in enumerate(cards):
        if j in used:
            continue
        x, y = _project(inverse, np.array([card.sticker.center]))[0]
        strays += bool(
            min(xs) - 5 <= x <= max(xs) + m.card_w + 5 and min(ys) - 5 <= y <= max(ys) + m.card_h
        )
    return strays


def read_structure(
    frame: np.ndarray,
    age: int,
    decoder: Decoder,
    *,
    catalog: Catalog | None = None,
    model: TableModel | None = None,
    stickers: list[Sticker] | None = None,
) -> StructureReading:
    """The 20 positions of age `age`'s structure in a grayscale overhead frame (`stickers`:
    the codes already decoded from it, else the decoder reads them)."""
    catalog = catalog or default_catalog()
    m = model or table_model()
    layout = catalog.layout(age)
    gray = np.ascontiguousarray(
        frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    )
    found = decoder.decode(gray) if stickers is None else stickers
    ids = [payloads.parse(s.text) for s in found]
    counts: dict[str, int] = {}
    for card_id in ids:
        if card_id is not None:
            counts[card_id] = counts.get(card_id, 0) + 1
    cards = [
        _pose(card_id, sticker, m)
        for card_id, sticker in zip(ids, found, strict=True)
        if card_id is not None
        and counts[card_id] == 1  # a card read twice: neither copy is trusted
        and catalog.is_card(card_id)
        and catalog.card(card_id).age == age
    ]
    unknown = (None,) * len(layout.positions)
    if not cards:
        return StructureReading(unknown, 0, len(found))
    origins = m.slot_corners(layout)
    options = []
    tried: set[frozenset[tuple[int, int]]] = set()
    for placed in _assignments(cards, layout, m):
        fitted = _placement(cards, placed, origins, m)
        if fitted is None or frozenset(fitted[1].items()) in tried:
            continue
        homography, placed = fitted
        tried.add(frozenset(placed.items()))
        table = _Table(gray, homography, origins, m)
        slots, contradictions = _classify(placed, cards, layout, table, origins, m)
        strays = _strays(cards, placed, homography, origins, m)
        rows = {layout.positions[i].row for i in placed}
        trusted = strays == 0 and (len(rows) >= 2 or len(placed) >= 3)
        options.append((len(placed) - contradictions - strays, slots, trusted))
    if not options:
        return StructureReading(unknown, 0, len(found))
    # the placement that explains the frame best: the most cards placed less the
    # contradictions; another nearly as good that puts cards elsewhere (the cards read may
    # fit the layout shifted by a column when a row's ends are gone): cannot tell
    options.sort(key=lambda o: -o[0])
    best = options[0]

    def conflict(a: list[Slot], b: list[Slot]) -> bool:
        """Whether two readings put a card in different places."""
        where = {s: i for i, s in enumerate(a) if s not in (None, "back", "empty")}
        return any(
            s not in (None, "back", "empty") and where.get(s, i) != i for i, s in enumerate(b)
        ) or any(x != y and None not in (x, y) and "back" not in (x, y) and "empty" not in (x, y)
                 for x, y in zip(a, b, strict=True))  # fmt: skip

    rivals = [o for o in options[1:] if o[0] >= best[0] - 1 and conflict(o[1], best[1])]
    if rivals or not best[2]:
        # another placement nearly as good, a card of the age lying inside the outline but
        # at no position, or too little of the structure seen (a lone pair of cards lies in
        # a row of a structure as well as side by side in a city): cannot tell
        return StructureReading(unknown, 0, len(found))
    placed_count = sum(1 for s in best[1] if s not in (None, "back", "empty"))
    return StructureReading(tuple(best[1]), placed_count, len(found) - placed_count)
