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
- "empty": the game recorded its card as taken (`known`), or nothing lies over it and its
  visible part looks like the table around the structure;
- None: cannot tell (a hand over it, a face-up card whose sticker is not read, no layout
  found, or two placements of the cards read fit the frame equally well).
"""

from __future__ import annotations

import functools
import json
import math
import statistics
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.engine.cards import Catalog, Layout, Position
from companion.engine.catalog import default_catalog
from companion.vision import known_codes, payloads
from companion.vision.decode import Corners, Decoder, Sticker, decode_all
from companion.vision.table import QR_MODULES, QUIET_MODULES, TableModel, table_model

Slot = str | None
"""A card id, "back", "empty", or None for cannot tell."""

EMPTY = "empty"  # a slot, and in `known` a position whose card the game recorded as taken
BACK = "back"  # a slot, and in `known` a face-down card not turned up yet (which one: unknown)

LATTICE_TOLERANCE = 0.2  # of a column or a row: how far a card may lie from its place
FIT_TOLERANCE_MM = 8.5  # a code's corners this far from where the fit expects them: not placed
# (a card laid by hand lies up to about 3 mm off its place and turned a few degrees, its
# sticker put on up to 1.5 mm off, and a fit's steps stray a little per row: generated
# hand-laid frame 440003 had a card turned up 7.8 mm from where the fit put its code; the
# nearest other position lies 23 mm away)
SIZE_TOLERANCE = 0.15  # a code larger or smaller than the fit expects (held up): not placed


@dataclass(frozen=True, slots=True)
class TableFit:
    """How this table's structure lies: the layout's column and row steps as the players laid
    it (mm), and the map from the table plane (mm, that layout) to frame pixels. Fitted from
    a frame and kept for the age (`read_structure(fit=)`): the mount holds still, and the
    structure is not laid again until the next age."""

    homography: np.ndarray
    col_mm: float
    row_mm: float


@dataclass(frozen=True, slots=True)
class StructureReading:
    """The 20 positions in layout order, and the codes seen but not placed; and the fit
    that told them (`TableFit`), for the next frame of a camera that holds still
    (`read_structure(fit=)`)."""

    slots: tuple[Slot, ...]
    placed: int  # stickers placed in positions
    ignored: int  # codes in view not placed (other ages, wonders, foreign, off the layout)
    fit: TableFit | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class _Card:
    """A sticker of a card of the age: its card, corners and the card's pose in the frame."""

    id: str
    sticker: Sticker
    origin: np.ndarray  # the card's top-left corner, pixels
    u: np.ndarray  # pixels per mm along the card's width
    v: np.ndarray  # pixels per mm along the card's height
    centre: np.ndarray  # the card's centre, pixels: where it lies whichever way it is turned
    ux: float = 0.0  # u as plain numbers, its length and its direction (radians): compared
    uy: float = 0.0  # for every pair of cards read, which numpy's calls made slow
    scale: float = 1.0
    turn: float = 0.0


def _pose(card_id: str, sticker: Sticker, model: TableModel) -> _Card:
    c = np.array(sticker.corners, dtype=np.float64)
    tl, tr, _, _ = model.code_corners()
    side = tr[0] - tl[0]
    u = ((c[1] - c[0]) + (c[2] - c[3])) / 2 / side
    v = ((c[3] - c[0]) + (c[2] - c[1])) / 2 / side
    origin = c[0] - u * tl[0] - v * tl[1]
    ux, uy = float(u[0]), float(u[1])
    return _Card(
        card_id, sticker, origin, u, v, origin + u * model.card_w / 2 + v * model.card_h / 2,
        ux, uy, math.hypot(ux, uy), math.atan2(uy, ux),
    )  # fmt: skip


SAME_TURN_COS = math.cos(math.radians(15))


def _same_turn(a: _Card, b: _Card) -> bool:
    """Two cards lying the same way at about the same scale (a card held up is larger)."""
    cos = (a.ux * b.ux + a.uy * b.uy) / (a.scale * b.scale)
    return cos > SAME_TURN_COS and abs(b.scale / a.scale - 1) < 2 * SIZE_TOLERANCE


def _assignments(
    cards: list[_Card],
    layout: Layout,
    model: TableModel,
    known: Sequence[str | None] | None = None,
) -> list[dict[int, int]]:
    """Placements (position -> card index) that put cards on the layout's positions, from
    every card taken as the reference at every position (at the position it was seen at,
    if `known`); all of those placing the most cards or up to two fewer, the most first.
    None of those is cut for being one too many: the true placement may be any of them (a
    few cards of a row fit it shifted along the row; one placing fewer cards may find no
    contradiction where the others find some, a city's card may complete a shifted one),
    and a position is told only where those nearly as good agree. Fewer cards (a lone card
    at each position, most of them) are not fitted: none came near in the sweeps
    (benchmarks/structure_sweep.py), and looking at them all made a frame read alone about
    four times slower."""
    where = {(p.row, p.col): p.index for p in layout.positions}
    seen_at = {card_id: i for i, card_id in enumerate(known or ()) if card_id not in (None, EMPTY)}
    found: list[dict[int, int]] = []
    centres = np.array([card.centre for card in cards])
    for r, ref in enumerate(cards):
        to_mm = np.linalg.inv(_frame_of(ref, cards))
        steps = (centres - ref.centre) @ to_mm.T / [model.col_mm, model.row_mm]
        near = np.all(np.abs(steps - np.round(steps)) < LATTICE_TOLERANCE, axis=1)
        offsets = [  # (card, rows, cols) from the reference
            (int(j), round(steps[j, 1]), round(steps[j, 0]))
            for j in np.flatnonzero(near)
            if _same_turn(ref, cards[j])
        ]
        for p in layout.positions:
            if seen_at.get(ref.id, p.index) != p.index:
                continue
            placed: dict[int, int] = {}
            for j, rows, cols in offsets:
                index = where.get((p.row + rows, p.col + cols))
                if index is not None and index not in placed and j not in placed.values():
                    placed[index] = j
            agrees = known is None or _agrees(placed, cards, known)
            if r in placed.values() and placed not in found and agrees:
                found.append(placed)
    most = max(map(len, found), default=0)
    return sorted((f for f in found if len(f) >= most - 2), key=len, reverse=True)


def _frame_of(ref: _Card, cards: Sequence[_Card]) -> np.ndarray:
    """Pixels per mm along the table's x and y near `ref` (columns u, v): `ref`'s scale, and
    the median turn of the cards lying about as it does, since each card of a structure
    laid by hand is turned a little its own way (a degree or two of one card's turn puts a
    card 150 mm away 4 mm off)."""
    turns = [c.turn for c in cards if _same_turn(ref, c)]
    own = ref.turn
    # the turns around ref's own, so a median across +-180 degrees stays right
    middle = own + statistics.median(math.remainder(turn - own, math.tau) for turn in turns)
    turn = middle - own
    c, s = math.cos(turn), math.sin(turn)
    rotation = np.array([[c, -s], [s, c]])
    return np.asarray(rotation @ np.column_stack([ref.u, ref.v]))


# how far apart people lay the rows (of the card's height) and the gaps of a row (mm), a
# little wider than the 50-60 % and 1-4 mm measured: a spacing outside is not looked for
ROW_SHARES = (0.45, 0.65)
GAPS_MM = (0.0, 6.0)
SPACING_SLACK_MM = 5.0  # a pair of cards this far off the steps: not counted (two cards'
# shifts, a few mm each)


def _spacing(
    cards: Sequence[_Card], layout: Layout, m: TableModel,
    known: Sequence[str | None] | None = None,
) -> tuple[float, float]:  # fmt: skip
    """The layout's column and row steps (mm) as this table's structure was laid, from the
    offsets between the cards read: pairs of cards lying about as the layout's rows and
    staggered columns allow, first those at most two rows and five columns apart (their
    steps cannot be mistaken), then every pair at the steps found (`_staggered`), fitted by
    least squares, loosely then tightly, along the structure's own axes (`_turned`).
    Where the box knows a card's position (`known`) the pair's steps are the layout's.
    The file's steps where the cards read do not tell (one row seen, or no pair)."""
    rows_mm = (ROW_SHARES[0] * m.card_h, ROW_SHARES[1] * m.card_h)
    cols_mm = ((m.card_w + GAPS_MM[0]) / 2, (m.card_w + GAPS_MM[1]) / 2)
    position = {p.index: (p.row, p.col) for p in layout.positions}
    where = {
        card_id: position[i]
        for i, card_id in enumerate(known or ())
        if card_id not in (None, EMPTY)
    }
    pairs: list[tuple[float, float, tuple[int, int] | None]] = []
    frames = [_frame_of(card, cards) for card in cards]
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            if not _same_turn(a, b):
                continue
            frame = (frames[i] + frames[j]) / 2
            dx, dy = np.linalg.solve(frame, b.centre - a.centre)
            steps = None
            if a.id in where and b.id in where:
                steps = (where[b.id][0] - where[a.id][0], where[b.id][1] - where[a.id][1])
            pairs.append((float(dx), float(dy), steps))
    placed = [steps for _, _, steps in pairs if steps is not None]
    if any(n for n, _ in placed) and any(k for _, k in placed):
        # the cards where the box knows them tell the steps alone (a card read beside the
        # structure, in a city, is not one of them)
        pairs = [pair for pair in pairs if pair[2] is not None]
    col, row = m.col_mm, m.row_mm
    # the medians of near pairs, then least squares on every pair twice: first within a
    # loose share of the offset (the medians of a few near pairs stray by a mm a column,
    # 10 mm across the structure), then a tight one around the steps found
    for guess, share in ((True, 0.0), (False, SPACING_LOOSE), (False, SPACING_SHARE)):
        col_try, row_try = (sum(cols_mm) / 2, sum(rows_mm) / 2) if guess else (col, row)
        most_rows, most_cols = (2, 5) if guess else (8, 12)
        col_terms: list[tuple[int, float]] = []
        row_terms: list[tuple[int, float]] = []
        for dx, dy, steps in pairs:
            if steps is not None:
                n, k = steps
            elif guess:
                n, k = round(dy / row_try), round(dx / col_try)
            else:
                n, k = _staggered(dx, dy, col_try, row_try)
            if n < 0 or (n == 0 and k < 0):
                n, k, dx, dy = -n, -k, -dx, -dy
            if (n + k) % 2 or n > most_rows or abs(k) > most_cols or (n, k) == (0, 0):
                continue
            if guess:  # within the steps people lay, a card's shifts aside
                slack = SPACING_SLACK_MM
                fits = (
                    abs(dy) <= slack if n == 0
                    else rows_mm[0] - slack / n <= dy / n <= rows_mm[1] + slack / n
                ) and (
                    abs(dx) <= slack if k == 0
                    else cols_mm[0] - slack / abs(k) <= dx / k <= cols_mm[1] + slack / abs(k)
                )  # fmt: skip
            else:
                fits = abs(dy - n * row) <= SPACING_SLACK_MM + share * abs(dy) and abs(
                    dx - k * col
                ) <= SPACING_SLACK_MM + share * abs(dx)
            if fits:
                if n:
                    row_terms.append((n, dy))
                if k:
                    col_terms.append((k, dx))
        if guess:  # the medians first: a city's card beside the structure pulls no mean
            col = statistics.median(dx / k for k, dx in col_terms) if col_terms else col
            row = statistics.median(dy / n for n, dy in row_terms) if row_terms else row
            pairs = _turned(pairs, col, row, m)
        else:
            if col_terms:
                col = sum(k * dx for k, dx in col_terms) / sum(k * k for k, _ in col_terms)
            if row_terms:
                row = sum(n * dy for n, dy in row_terms) / sum(n * n for n, _ in row_terms)
    col = min(max(col, cols_mm[0]), cols_mm[1])
    row = min(max(row, rows_mm[0]), rows_mm[1])
    return col, row


SPACING_LOOSE = 0.07  # of a pair's offset, off the steps of the medians: still counted
SPACING_SHARE = 0.02  # of a pair's offset, off the steps fitted: still counted


def _staggered(dx: float, dy: float, col: float, row: float) -> tuple[int, int]:
    """The rows and columns (of `row` and `col` mm) nearest an offset of (dx, dy) mm that
    the layout's staggered steps allow (rows and columns both even or both odd)."""
    n = round(dy / row)
    return n, n + 2 * round((dx / col - n) / 2)


AXIS_PAIR_MM = 90.0  # pairs of cards this far apart tell the structure's axes
AXIS_MOST = math.radians(5)  # a pair's offset turned more than this off the layout's: not one


def _turned(
    pairs: list[tuple[float, float, tuple[int, int] | None]], col: float, row: float,
    m: TableModel,
) -> list[tuple[float, float, tuple[int, int] | None]]:  # fmt: skip
    """The pairs' offsets turned to the structure's own axes. They are measured along the
    median turn of the cards read (`_frame_of`), and each card laid by hand is turned its
    own way by a few degrees: the median of a few cards strays by a degree or two from the
    structure's axes, 4 to 8 mm across it, which a fit of the steps takes for a row that is
    not one (generated hand-laid deal 630001, fine light: seven cards, 1.5 degrees, the
    fit's column step 0.8 mm too long and nothing read). The structure's axes are the
    median direction of the offsets between cards far apart against the layout's at the
    steps they lie at."""
    angles = []
    for dx, dy, steps in pairs:
        n, k = steps if steps is not None else _staggered(dx, dy, col, row)
        ex, ey = k * col, n * row
        length = math.hypot(ex, ey)
        off = abs(math.hypot(dx, dy) - length)
        if length < AXIS_PAIR_MM or off > SPACING_SLACK_MM + SPACING_LOOSE * length:
            continue
        angle = math.remainder(math.atan2(dy, dx) - math.atan2(ey, ex), math.tau)
        if abs(angle) <= AXIS_MOST:
            angles.append(angle)
    if len(angles) < 3:
        return pairs
    turn = statistics.median(angles)
    c, s = math.cos(turn), math.sin(turn)
    return [(c * dx + s * dy, c * dy - s * dx, steps) for dx, dy, steps in pairs]


def _laid(
    cards: list[_Card], layout: Layout, m: TableModel, known: Sequence[str | None] | None
) -> list[TableModel]:
    """The table models with the layout's steps this structure may have been laid with: the
    steps the offsets between the cards read suggest (`_spacing`), fitted again on the cards
    of the largest placement they make, their positions known; and the file's steps too
    unless the steps suggested place more cards on the layout's positions. A city's cards,
    laid in columns 50 mm apart, suggest steps of their own, and late in an age the
    structure's few cards may be outnumbered; a blurred code's corners make its card look a
    little small, so that steps measured by the codes stray by a few per cent; and a few
    cards of rows laid further apart than the file says fit the file's steps shifted by two
    rows (generated hand-laid frame 410015, hard light): the placements of both are then
    looked at, and a position is told only where they agree."""
    col, row = _spacing(cards, layout, m, known)
    if abs(col - m.col_mm) <= 0.1 and abs(row - m.row_mm) <= 0.1:
        return [m]
    top = _assignments(cards, layout, m, known=known)
    laid = replace(m, col_mm=col, row_mm=row)
    found = _assignments(cards, layout, laid, known=known)
    if found:
        steps: list[str | None] = [None] * len(layout.positions)
        for i, j in found[0].items():
            steps[i] = cards[j].id
        col, row = _spacing([cards[j] for j in found[0].values()], layout, laid, steps)
        laid = replace(m, col_mm=col, row_mm=row)
    if found and (not top or len(found[0]) > len(top[0])):
        return [laid]
    return [m, laid] if found else [m]


def _fit(
    points_mm: np.ndarray, points_px: np.ndarray, cards: int, rows: int = 2
) -> np.ndarray | None:
    """Table plane -> pixels: a homography with 3 cards or more on 2 rows or more (the
    camera's tilt shows across the structure), else an affine map (2 cards) or a similarity
    (1 card, or cards of one row), as 3x3 matrices. Cards of one row tell little across it:
    a homography or an affine map fitted on them strays far from the row (a few tenths of a
    mm on the codes' corners, laid by hand, became a position two rows away seen bare)."""
    if cards >= 3 and rows >= 2:
        found, _ = cv2.findHomography(points_mm, points_px, 0)
        return None if found is None else np.asarray(found)
    if cards >= 2 and rows >= 2:
        affine, _ = cv2.estimateAffine2D(points_mm, points_px, method=cv2.LMEDS)
    else:
        affine, _ = cv2.estimateAffinePartial2D(points_mm, points_px, method=cv2.LMEDS)
    return None if affine is None else np.vstack([affine, [0.0, 0.0, 1.0]])


def _fit_at(
    stickers: dict[int, Sticker], origins: Sequence[tuple[float, float]], m: TableModel
) -> np.ndarray | None:
    """`_fit` on the codes of cards at positions (position -> its sticker in the frame)."""
    mm, px = _code_points(stickers, origins, m)
    rows = len({round(origins[i][1], 3) for i in stickers})
    return _fit(mm, px, len(stickers), rows)


def _code_points(
    stickers: dict[int, Sticker], origins: Sequence[tuple[float, float]], m: TableModel
) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the codes of cards at positions (position -> its sticker in the
    frame): where the layout puts them (mm) and where they lie in the frame (pixels)."""
    mm = np.vstack([_code_mm(m, origins[i]) for i in stickers])
    px = np.vstack([np.array(s.corners) for s in stickers.values()])
    return mm.astype(np.float32), px.astype(np.float32)


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return np.asarray(
        cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)
    ).reshape(-1, 2)


def _code_mm(model: TableModel, origin: tuple[float, float]) -> np.ndarray:
    return np.array([(origin[0] + x, origin[1] + y) for x, y in model.code_corners()])


def _px_per_mm(homography: np.ndarray, at: tuple[float, float]) -> float:
    a, b = _project(homography, np.array([at, (at[0] + 1.0, at[1])]))
    return float(np.linalg.norm(b - a))


def _fits(
    card: _Card, homography: np.ndarray, origin: tuple[float, float], m: TableModel,
    loose: float = 1.0,
) -> bool:  # fmt: skip
    """The card's code is where (within `loose` times the tolerance) and as large as the
    fit says a card at `origin` has it."""
    expected = _project(homography, _code_mm(m, origin))
    seen = np.array(card.sticker.corners, dtype=np.float64)
    scale = _px_per_mm(homography, origin)
    distance = float(np.max(np.linalg.norm(expected - seen, axis=1)))
    if distance > FIT_TOLERANCE_MM * loose * scale:
        return False
    side = float(np.linalg.norm(expected[1] - expected[0]))
    return abs(card.sticker.side / side - 1) < SIZE_TOLERANCE * 1.5


def _placement(
    cards: list[_Card],
    placed: dict[int, int],
    origins: Sequence[tuple[float, float]],
    m: TableModel,
    deal: bool = False,
) -> tuple[np.ndarray, dict[int, int]] | None:
    """Fit the placement, drop the cards that do not fit, then place every card of the
    age that lies where a free position is; None if nothing fits, or if the fit leans the
    table's columns against its rows where the cards lie (`_leans`). At the deal not
    recorded yet (`deal`) every card of the age read lies at a position: one within twice
    the tolerance of a free position's place is added there, then kept only if the fit on
    all of them puts it where it lies, as a fit on few cards adds one (a fit on the cards
    of one side of the structure strays at its far end, where a card left out is a stray
    that leaves the true placement untrusted: generated hand-laid deals 1950175, fine
    light, and 1950252, hard light, spread 1, an arm over the structure's middle, the card
    at a row's far end 12.4 and 10.5 mm off the place the fit on the others put it, the
    frame left untold)."""
    placed = dict(placed)
    rejected: set[int] = set()  # cards added on a first fit that the next fit refused
    added: set[int] = set()
    for _ in range(4):
        if not placed:
            return None
        homography = _fit_at({i: cards[j].sticker for i, j in placed.items()}, origins, m)
        if homography is None:
            return None
        kept = {i: j for i, j in placed.items() if _fits(cards[j], homography, origins[i], m)}
        rejected |= set(placed.values()) - set(kept.values())
        used = set(kept.values())
        inverse = np.linalg.inv(homography)
        slots = np.array(origins)
        code = np.array(m.code_corners()[0])
        for j, card in enumerate(cards):  # cards the first lattice missed (perspective)
            if j in used or j in rejected:
                continue
            seen = _project(inverse, np.array([card.sticker.corners[0]]))[0] - code
            i = int(np.argmin(np.linalg.norm(slots - seen, axis=1)))
            # far from the cards fitted, a fit on few cards strays more: added if near,
            # then kept only if the fit on all of them puts it where it lies
            loose = 2.0 if (len(kept) < 4 or deal) and j not in added else 1.0
            if i not in kept and _fits(card, homography, origins[i], m, loose):
                kept[i] = j
                used.add(j)
                added.add(j)
        if kept == placed:
            return None if _leans(cards, placed, homography, origins, m) else (homography, placed)
        placed = kept
    return None


LEAN_LIMIT_DEG = 12.0  # how far a fit may lean the table's columns against its rows, at
# the median card placed: the true placements fitted in generated hand-laid frames (spread
# 1: 440000-440011 and 510000-510011 at 2304x1296, 770020-770029 at 4608x2592, both lights)
# lean up to 6.5 degrees (three cards on two rows, each a few mm off its place); placements
# of a city's columns on the staggered rows there lean 15 to 29


def _leans(
    cards: Sequence[_Card], placed: dict[int, int], homography: np.ndarray,
    origins: Sequence[tuple[float, float]], m: TableModel,
) -> bool:  # fmt: skip
    """Whether the fit of a placement shears the table: at the median card placed, the
    fit's columns turn more than LEAN_LIMIT_DEG against its rows, measured against the
    card's code. The code is a square on the table, seen through the same perspective as
    the table around it: a camera turns and tilts both of the table's axes as it does the
    code's, and a card laid by hand turns as a whole, so the true placement leans only as
    far as its cards lie off their places. A homography (three cards or more) or an affine
    map (two on two rows) bends to whatever lattice it is given, though: a city's cards lie
    in straight columns where the structure's rows step half a card sideways, and a
    placement grown from one of them a card at a time (each within the tolerance of the fit
    before) ends on a fit that leans by the stagger, 20 degrees or more (generated
    hand-laid frame 770028, fine light, late in age 1, read from the frame alone: a city's
    two columns placed on the layout's top three rows, four positions told wrongly)."""
    if len(placed) < 2:  # fitted by a similarity, which leans nothing
        return False
    cx, cy = m.code_centre()
    leans = []
    for i, j in placed.items():
        x, y = origins[i][0] + cx, origins[i][1] + cy
        at, across, down = _project(homography, np.array([(x, y), (x + 1, y), (x, y + 1)]))
        # the code's axes in the fit's table plane: turned as the card is, and sheared as
        # far as the fit leans
        code = np.linalg.solve(
            np.column_stack([across - at, down - at]), np.column_stack([cards[j].u, cards[j].v])
        )
        row_turn = math.atan2(code[1, 0], code[0, 0])
        column_turn = math.atan2(-code[0, 1], code[1, 1])
        leans.append(abs(math.remainder(column_turn - row_turn, math.tau)))
    return math.degrees(statistics.median(leans)) > LEAN_LIMIT_DEG


LINES_SIGMA_MM = 0.5  # the blur a back's lines stand out of (`_View.lines`)
RECTIFIED_PX_PER_MM = 2.0  # the rectified view of the structure's part of the table
MARGIN_MM = 30.0  # table kept around the structure's outline in the rectified view
WINDOW_MM = 3.0  # the neighbourhood of a pixel for its local texture
EDGE_MM = 2.0  # how far a card lies from its place (its corners, turned a little)
HAND_MM = 5.0  # a hand (or an arm) is a smooth blob at least twice this across
HAND_SHARE = 0.02  # share of a position's visible part under a hand: cannot tell
BARE_SHARE = 0.85  # share of a position's visible part that must look like the table
ALL_BARE_SHARE = 0.95  # a lower half this bare: no card there, its upper half aside
BAND_MM = (0.5, 1.5)  # the blurs whose difference keeps a card's print and a back's lines
# and smooths the sensor's noise away (`_View.patterned`)
BAND_SHARE = 1.8  # that band's spread over a part of a position, against the table's: more,
# and a card lies there, whatever its light


class _View:
    """The structure's part of the table seen from straight above (the frame warped by the
    fit at RECTIFIED_PX_PER_MM), and per pixel: whether it looks like the bare table (its
    light, fitted as a smooth surface over what lies outside every position, and its
    texture), and whether a hand lies there (a smooth blob that is not the table, large and
    reaching out of the structure, as an arm does)."""

    def __init__(
        self, gray: np.ndarray, homography: np.ndarray, origins: Sequence[tuple[float, float]],
        m: TableModel, margin: float = MARGIN_MM,
    ) -> None:  # fmt: skip
        k = RECTIFIED_PX_PER_MM
        xs = [x for x, _ in origins]
        ys = [y for _, y in origins]
        self.left = min(xs) - margin
        self.top = min(ys) - margin
        width = round((max(xs) + m.card_w + margin - self.left) * k)
        height = round((max(ys) + m.card_h + margin - self.top) * k)
        to_view = np.array([[k, 0, -self.left * k], [0, k, -self.top * k], [0, 0, 1.0]])
        source = gray
        shrink = max(1, int(_px_per_mm(homography, (xs[0], ys[0])) / (1.5 * k)))
        if shrink > 1:  # average first: a plain warp to fewer pixels aliases
            source = cv2.resize(
                gray, (gray.shape[1] // shrink, gray.shape[0] // shrink),
                interpolation=cv2.INTER_AREA,
            )  # fmt: skip
            homography = np.diag([1 / shrink, 1 / shrink, 1.0]) @ homography
        warp = to_view @ np.linalg.inv(homography)
        size = (width, height)
        self.image = cv2.warpPerspective(source, warp, size, flags=cv2.INTER_LINEAR).astype(
            np.float32
        )
        # the view's corners inside the frame, so is all of it (a convex quadrilateral): no
        # warp of the frame's cover needed
        corners = np.array([(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)])
        back = _project(np.linalg.inv(warp), corners)
        rows, cols = source.shape
        if ((back >= 1) & (back <= (cols - 2, rows - 2))).all():
            self.valid = np.ones((height, width), bool)
        else:
            inside = _lit(source.shape)
            self.valid = cv2.warpPerspective(inside, warp, size, flags=cv2.INTER_NEAREST) > 0
            self.valid = cv2.erode(self.valid.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        window = (round(WINDOW_MM * k) | 1,) * 2
        mean = cv2.blur(self.image, window)
        texture = np.sqrt(np.maximum(cv2.blur(self.image * self.image, window) - mean * mean, 0))
        cards = np.zeros((height, width), np.uint8)
        for x, y in origins:
            cards[self._rows(y - 4, y + m.card_h + 4), self._cols(x - 4, x + m.card_w + 4)] = 1
        table = self.valid & (cards == 0)
        self.table = table
        self.bare = np.zeros((height, width), bool)
        self.hand = np.zeros((height, width), bool)
        self.rival = 0.0  # `_surface`'s second plane, against the table's blocks
        if table.sum() < 200:
            return
        fitted, spread, self.rival = _surface(self.image, table)
        smooth = float(np.median(texture[table]))
        tolerance = min(20.0, max(8.0, 2.5 * spread))
        flat = texture <= max(6.0, 2.5 * smooth)
        residual = np.abs(self.image - fitted)
        self.bare = self.valid & (residual <= tolerance) & flat
        blob = (self.valid & flat & ~self.bare).astype(np.uint8)
        disc = _disc(round(2 * HAND_MM * k) | 1)
        blob = _dilated(_eroded(blob, disc), disc)  # opened: what a disc fits in
        _, labels = cv2.connectedComponents(blob)
        edge = np.zeros_like(blob)
        band = round(10 * k)
        edge[:band] = edge[-band:] = 1
        edge[:, :band] = edge[:, -band:] = 1
        edge |= ~self.valid  # an arm also leaves the frame
        reaching = set(np.unique(labels[(edge > 0) & (blob > 0)]).tolist()) - {0}
        if reaching:
            lookup = np.zeros(int(labels.max()) + 1, bool)
            lookup[sorted(reaching)] = True
            hand = lookup[labels]
        else:
            hand = np.zeros(labels.shape, bool)
        # a hand of about the table's shade still has an outline: the view is split along
        # its edges, the table is the part most of the border shows; another part that
        # reaches out of the view (an arm) is never bare, and a hand if it is large and
        # reaches into the structure
        low = max(15.0, 6 * smooth)
        blurred = cv2.GaussianBlur(self.image, (0, 0), 1.0).astype(np.uint8)
        outline = cv2.dilate(cv2.Canny(blurred, low, 2.5 * low, L2gradient=True), np.ones((3, 3)))
        count, parts = cv2.connectedComponents(
            (self.valid & (outline == 0)).astype(np.uint8), None, 4
        )
        outer = np.bincount(parts[(edge > 0) & self.valid], minlength=count)
        outer[0] = 0
        table_part = int(np.argmax(outer))
        reaching_parts = outer > 0
        reaching_parts[table_part] = False
        if reaching_parts.any():  # (else no part is bare but the table's, and none large)
            self.bare &= ~reaching_parts[parts]
            area = np.bincount(parts.ravel(), minlength=count)
            inner = np.bincount(parts[cards > 0], minlength=count)
            large = reaching_parts & (area >= (2 * HAND_MM * k) ** 2 * 4)
            large &= inner >= (HAND_MM * k) ** 2
            if large.any():
                hand |= large[parts]
        if hand.any():
            self.hand = _dilated(hand.astype(np.uint8), disc) > 0
        # the table's grain and bands stray from a smooth surface in the middle, where it
        # is not fitted: there, no hand found, a part of the table's own looks bare a
        # little further from the surface
        self.bare |= (
            self.valid & flat & ~self.hand & (parts == table_part) & (residual <= 1.5 * tolerance)
        )

    @functools.cached_property
    def lines(self) -> np.ndarray:
        """The view less its light blurred over LINES_SIGMA_MM: a card back's lines, where
        the bare table (its grain, a shadow, a glare's gradient) leaves about nothing."""
        sigma = LINES_SIGMA_MM * RECTIFIED_PX_PER_MM
        return np.asarray(self.image - cv2.GaussianBlur(self.image, (0, 0), sigma))

    @functools.cached_property
    def band(self) -> np.ndarray:
        """The view in a band of a few mm (`BAND_MM`): a card's print and a back's lines
        stand out there, the sensor's noise of a dim room is smoothed away."""
        k = RECTIFIED_PX_PER_MM
        fine, coarse = (cv2.GaussianBlur(self.image, (0, 0), s * k) for s in BAND_MM)
        return np.asarray(fine - coarse)

    @functools.cached_property
    def _table_band(self) -> float:
        return _spread(self.band[self.table]) if self.table.sum() >= 200 else math.inf

    def patterned(self, area: tuple[slice, slice]) -> bool:
        """Whether the area shows a card's pattern the table lacks (`BAND_SHARE`): in a dim
        room a back's lines and shade are as faint as the table's grain and light, and the
        back looks like the bare table (generated hand-laid deal 2490061, hard light)."""
        part = self.band[area]
        return part.size > 0 and _spread(part) > BAND_SHARE * self._table_band

    def shows_no_card(self, area: tuple[slice, slice]) -> bool:
        """Whether the area shows the bare table and no card's pattern (`patterned`): where a
        card must lie, the placement is wrong."""
        return self.bare_share(area) >= BARE_SHARE and not self.patterned(area)

    def _rows(self, top: float, bottom: float) -> slice:
        k = RECTIFIED_PX_PER_MM
        return slice(max(0, round((top - self.top) * k)), max(0, round((bottom - self.top) * k)))

    def _cols(self, left: float, right: float) -> slice:
        k = RECTIFIED_PX_PER_MM
        return slice(max(0, round((left - self.left) * k)), max(0, round((right - self.left) * k)))

    def region(self, left: float, top: float, right: float, bottom: float) -> tuple[slice, slice]:
        """The pixels of a rectangle of the table plane (mm)."""
        return self._rows(top, bottom), self._cols(left, right)

    def seen(self, area: tuple[slice, slice]) -> bool:
        """Whether the area lies in the frame."""
        part = self.valid[area]
        return part.size > 0 and bool(part.all())

    def bare_share(self, area: tuple[slice, slice]) -> float:
        """The share of the area that looks like the bare table."""
        part = self.bare[area]
        return float(part.mean()) if part.size else 0.0

    def under_hand(self, area: tuple[slice, slice]) -> bool:
        """Whether a hand lies over part of the area."""
        part = self.hand[area]
        return part.size > 0 and float(part.mean()) > HAND_SHARE

    def sticker_shows(self, area: tuple[slice, slice], code: tuple[slice, slice]) -> bool:
        """Whether a sticker lies there: a light margin on all four sides of a code of dark
        and light modules (a card there whose code was not read; the light name band of a
        card below is light on one side only)."""
        sticker, inner = self.image[area], self.image[code]
        if sticker.size == 0 or inner.size == 0 or float(np.std(inner)) <= CODE_SPREAD:
            return False
        light = float(np.percentile(inner, 90)) - 40
        top = code[0].start - area[0].start
        bottom = code[0].stop - area[0].start
        left = code[1].start - area[1].start
        right = code[1].stop - area[1].start
        sides = (sticker[:top], sticker[bottom:], sticker[:, :left], sticker[:, right:])
        return all(side.size > 0 and float(np.mean(side >= light)) > 0.5 for side in sides)


def _spread(values: np.ndarray) -> float:
    """A robust spread of values (the median absolute deviation, as a normal's sigma): an
    edge or a code crossing a part of the view moves it little."""
    flat = values.ravel()
    return float(1.4826 * np.median(np.abs(flat - np.median(flat))))


CODE_SPREAD = 20.0  # grey spread of a code's modules in view, at least: a sticker (25 before:
# generated hand-laid frame 1900028, hard light, spread 0, from the frame alone: logging
# camp's code, turned up and not read, spread 22.4 and its margins light, its art below
# 93 % like the table, told empty; the bare table's grain spreads a few greys)
BLOCK_PX = 8  # the table's light is fitted to the means of blocks this wide (4 mm)
SURFACE_BAND = 8.0  # a block this far from a plane tried lies on it (the table's grain)
SURFACE_TRIES = 80  # planes tried through three blocks drawn at random (a fixed draw)
RIVAL_SHARE = 0.25  # blocks off the table's light on a plane of their own, against the
# table's: the view's table may be an arm (generated hand-laid frame 570005: 0.37; in
# hand-laid frames 510000-510014 with a hand in each, read as the device knows, 0.01-0.34)


@functools.cache
def _lit(shape: tuple[int, ...]) -> np.ndarray:
    """A frame's shape all 255, warped to tell which pixels of a view lie in the frame (the
    same every view: made once, and never written)."""
    lit = np.full(shape, 255, np.uint8)
    lit.setflags(write=False)
    return lit


@functools.cache
def _disc(size: int) -> tuple[np.ndarray, ...]:
    """A disc `size` pixels across (OpenCV's ellipse), as the rectangles whose union it is
    (one per half-width of its rows): eroding or dilating by each rectangle and taking the
    least or the most gives the disc's erosion or dilation exactly, in a fraction of the
    time (OpenCV filters a rectangle by rows then columns, a disc pixel by pixel)."""
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    widths = ellipse.sum(axis=1)
    return tuple(
        cv2.getStructuringElement(cv2.MORPH_RECT, (width, int((widths >= width).sum())))
        for width in sorted({int(w) for w in widths if w})
    )


def _eroded(image: np.ndarray, disc: tuple[np.ndarray, ...]) -> np.ndarray:
    """`image` eroded by the disc `_disc` gives (OpenCV's borders: nothing beyond them)."""
    return np.asarray(functools.reduce(np.minimum, (cv2.erode(image, r) for r in disc)))


def _dilated(image: np.ndarray, disc: tuple[np.ndarray, ...]) -> np.ndarray:
    """`image` dilated by the disc `_disc` gives."""
    return np.asarray(functools.reduce(np.maximum, (cv2.dilate(image, r) for r in disc)))


@functools.cache
def _picks(blocks: int) -> np.ndarray:
    """The fixed draw of SURFACE_TRIES triples of blocks among `blocks` (`_surface`)."""
    picks = np.random.default_rng(0).integers(0, blocks, (SURFACE_TRIES, 3))
    picks.setflags(write=False)
    return picks


def _plane_blocks(plane: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The blocks (`plane`: their terms 1, x, y; `values`: their means) within SURFACE_BAND
    of the plane through three of them that has the most so (SURFACE_TRIES drawn)."""
    none = np.zeros(len(values), bool)
    if len(values) < 3:
        return none
    picks = _picks(len(values))
    systems = plane[picks]  # tries x 3 x 3
    solvable = np.abs(np.linalg.det(systems)) > 1e-9  # a block drawn twice, or in a line
    if not solvable.any():
        return none
    coefs = np.linalg.solve(systems[solvable], values[picks[solvable]][..., None])[..., 0]
    # each plane at every block, term by term: a matrix product here goes to OpenBLAS,
    # whose threads spin on a busy machine (16 ms of CPU for this line, against 0.2 ms)
    off = coefs[:, :1] + coefs[:, 1:2] * plane[None, :, 1] + coefs[:, 2:3] * plane[None, :, 2]
    off -= values[None, :]
    near = np.abs(off, out=off) <= SURFACE_BAND
    return np.asarray(near[int(np.argmax(near.sum(axis=1)))])


def _surface(image: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The table's light: a quadratic surface fitted to the bare-looking blocks of `mask`;
    and the spread of the pixels of those blocks around it.

    An arm or a city's cards may cover a large part of the table in view, and a fit over
    all of it bends toward them (then an arm lies within the tolerance of the bent
    surface). So the blocks' means are fitted first by a plane through the most of them
    (planes through three blocks drawn at random, each scored by the blocks within
    SURFACE_BAND of it), and the quadratic only on those, trimmed again around itself: what
    lies apart from the table never pulls the fit, however much of the view it covers, as
    long as the table shows more than it."""
    h, w = image.shape
    b = BLOCK_PX
    rows, cols = h // b, w // b
    inside = cv2.resize(mask[: rows * b, : cols * b].astype(np.float32), (cols, rows),
                        interpolation=cv2.INTER_AREA) >= 0.9  # fmt: skip
    means = cv2.resize(image[: rows * b, : cols * b], (cols, rows), interpolation=cv2.INTER_AREA)
    by, bx = np.nonzero(inside)
    values = means[by, bx].astype(np.float64)
    ys, xs = (by + 0.5) * b, (bx + 0.5) * b

    def terms(x: np.ndarray, y: np.ndarray, count: int = 6) -> np.ndarray:
        x, y = x / w - 0.5, y / h - 0.5
        return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y][:count], axis=-1)

    if len(values) < 6:  # too little table: a flat surface at its median
        level = float(np.median(image[mask])) if mask.any() else 0.0
        return np.full((h, w), level, np.float32), 0.0, 0.0
    plane = terms(xs, ys, 3)
    keep = _plane_blocks(plane, values)
    full = terms(xs, ys)
    for _ in range(3):
        a = full[keep]
        normal = np.einsum("ij,ik->jk", a, a)  # a.T @ a without OpenBLAS's threads
        coef = np.linalg.solve(normal + 1e-9 * np.eye(6), np.einsum("ij,i->j", a, values[keep]))
        residual = values - np.einsum("ij,j->i", full, coef)
        spread = 1.4826 * float(np.median(np.abs(residual[keep])))
        keep = np.abs(residual) <= min(SURFACE_BAND, max(4.0, 3 * spread))
    x = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
    y = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
    c = coef.astype(np.float32)
    surface = c[0] + c[1] * x + c[3] * x * x + c[2] * y + c[5] * y * y + c[4] * x * y
    # the pixels' spread (the table's grain and the camera's noise) over the blocks kept
    # (every fourth: a median of some 20,000 pixels)
    ky, kx = by[keep][::4], bx[keep][::4]
    offsets = np.arange(b)
    py = (ky[:, None, None] * b + offsets[None, :, None]).repeat(b, axis=2)
    px = (kx[:, None, None] * b + offsets[None, None, :]).repeat(b, axis=1)
    spread = 1.4826 * float(np.median(np.abs(image[py, px] - surface[py, px])))
    # the blocks left out, on a plane of their own: as many as that, the view's table may
    # be them (an arm covering more of the view than the table shows, fitted as the table)
    rest = ~keep
    rival = int(_plane_blocks(plane[rest], values[rest]).sum()) / max(1, int(keep.sum()))
    return np.asarray(surface, dtype=np.float32), spread, rival


def _classify(
    placed: dict[int, int], cards: list[_Card], layout: Layout, view: _View,
    origins: Sequence[tuple[float, float]], m: TableModel, gone: frozenset[int],
    known: Sequence[str | None] | None = None,
) -> tuple[list[Slot], int, frozenset[int]]:  # fmt: skip
    """The 20 slots from the placed cards, the layout's covering and the rectified view;
    and the number of contradictions found (a face-down position read while covered, a
    covered position that shows the bare table, a card over an empty position, and with
    what was known the positions told empty that it rules out: `_unlikely_empties`).

    Nearest row first, so that whether a position is covered is known: a position under a
    hand and not read cannot be told. A covered face-down position holds a card: "back". A
    position nothing covers any more is empty when its lower half (which lies over the
    table then) and the part of its upper half over no card show the bare table and no
    sticker shows where its card's would be; a card there still shows its sticker."""
    present: list[bool | None] = [False if i in gone else None for i in range(len(origins))]
    slots: list[Slot] = [EMPTY if i in gone else None for i in range(len(origins))]
    contradictions = 0
    refuted: set[int] = set()  # positions seen bare where a card must lie
    misread: set[int] = set()  # positions seen bare where a card lies (so the view says)
    (left, top), (right, _), _, (_, bottom) = m.code_corners()
    quiet = (right - left) * QUIET_MODULES / QR_MODULES
    k = RECTIFIED_PX_PER_MM
    for _ in range(3):  # again while a pass decides more (what lies below is known then)
        before = list(present)
        for p in reversed(layout.positions):
            if present[p.index] is not None:
                continue
            x, y = origins[p.index]
            upper = view.region(x + 3, y + 3, x + m.card_w - 3, y + m.row_mm - 3)
            lower = view.region(x + 3, y + m.row_mm + 2, x + m.card_w - 3, y + m.card_h - 3)
            over = [present[i] for i in p.covered_by]
            covered = any(o is True for o in over)
            if p.index in placed:
                present[p.index] = True
                if covered and not p.face_up:  # a face-down card shows no sticker
                    contradictions += 1
                else:
                    slots[p.index] = cards[placed[p.index]].id
                continue
            sticker = view.region(
                x + left - quiet, y + top - quiet, x + right + quiet, y + bottom + quiet
            )
            code = view.region(x + left + 1, y + top + 1, x + right - 1, y + bottom - 1)
            if covered:
                present[p.index] = True
                if not view.seen(upper) or view.under_hand(upper):
                    continue
                if view.shows_no_card(upper):  # a card must lie there
                    contradictions += 1
                    refuted.add(p.index)
                    misread.add(p.index)
                elif not p.face_up:
                    slots[p.index] = "back"
                continue
            if not view.seen(upper) or view.under_hand(upper):
                continue
            shows = view.sticker_shows(sticker, code)  # a card, or the name band of one below
            # the part of the upper half that lies over no card this position covered
            over_table = np.ones(view.image[upper].shape, bool)
            for below in p.covers:
                if present[below] is not False:
                    bx, _ = origins[below]
                    edge = EDGE_MM + WINDOW_MM / 2  # the card's edge: not the table's texture
                    a = max(0, round((bx - edge - x - 3) * k))
                    b = max(0, round((bx + m.card_w + edge - x - 3) * k))
                    over_table[:, a:b] = False
            share = float(over_table.mean())
            upper_bare = share < 0.2 or float(view.bare[upper][over_table].mean()) >= BARE_SHARE
            if all(o is False for o in over):  # nothing covers it: its lower half shows
                # (the table all over it says no card lies there, whatever lies under
                # its upper half: the cards it covered, a shadow)
                lower_bare = view.bare_share(lower) if view.seen(lower) else 0.0
                empty = not view.under_hand(lower) and (
                    lower_bare >= ALL_BARE_SHARE
                    or (lower_bare >= BARE_SHARE and upper_bare and not shows)
                )
            else:  # whether a card covers it is not known: its upper half alone, where
                # its sticker would show too
                sticker_over_table = over_table[:, round((left - 3) * k) :].all()
                empty = share >= 0.5 and upper_bare and bool(sticker_over_table) and not shows
            if empty:
                present[p.index] = False
                slots[p.index] = "empty"
        if present == before:
            break
    for p in layout.positions:  # a card lies on the cards it covers: they cannot be gone
        if present[p.index]:
            for below in p.covers:
                if slots[below] == "empty":
                    slots[below] = None
                    contradictions += 1
                    misread.add(below)
    if known is not None:
        # a card covered at the moment known cannot have been taken since: its upper half
        # shows it, its lower half it or the card over it (a placement shifted by a
        # column puts such positions over the bare table beside the structure)
        for p in layout.positions:
            if p.index in placed or p.index in refuted or not _held(p, known):
                continue
            x, y = origins[p.index]
            for half in (
                view.region(x + 3, y + 3, x + m.card_w - 3, y + m.row_mm - 3),
                view.region(x + 3, y + m.row_mm + 2, x + m.card_w - 3, y + m.card_h - 3),
            ):
                if view.seen(half) and not view.under_hand(half) and view.shows_no_card(half):
                    contradictions += 1
                    misread.add(p.index)
                    break
    return slots, contradictions + _unlikely_empties(slots, known, layout, gone), frozenset(misread)


def _held(p: Position, known: Sequence[str | None]) -> bool:
    """Whether position `p` still holds its card: a card lay there at the moment known and
    another one over it (a covered card cannot be taken)."""
    return known[p.index] != EMPTY and any(known[i] != EMPTY for i in p.covered_by)


def _unlikely_empties(
    slots: Sequence[Slot], known: Sequence[str | None] | None, layout: Layout,
    gone: frozenset[int],
) -> int:  # fmt: skip
    """The positions a placement tells empty that what was known rules out, as
    contradictions: `known` is the moment before the last card was taken, so one card at
    most has left since, and it lay uncovered then. A position a known card lay over, and
    every position newly bare but one, held a card (at the deal, told so by `known` all
    "back", every position does): a placement shifted by a column puts the structure's end
    positions over the bare table beside it, the true one does not."""
    if known is None:
        return 0
    fresh = _newly_empty(slots, layout, gone)
    if _unrecorded_deal(known):
        return len(fresh)
    covered = sum(1 for p in fresh if _held(p, known))
    return covered + max(0, len(fresh) - covered - 1)


def _newly_empty(slots: Sequence[Slot], layout: Layout, gone: frozenset[int]) -> list[Position]:
    """The positions told empty that were not known to be (`gone`: taken and recorded)."""
    return [p for p in layout.positions if slots[p.index] == EMPTY and p.index not in gone]


def _unrecorded_deal(known: Sequence[str | None]) -> bool:
    """Whether `known` is the deal not recorded yet: every position a face-down card or one
    not named (20 "back" entries, as the device gives them before the deal is recorded,
    when no card is taken: once recorded, the face-up cards are named). Every position
    holds a card then, and none is told empty (in a dim room a card can look like the
    bare table: generated hand-laid deal 560004, hard light, position 17)."""
    return all(card_id is None for card_id in known)


KNOWN_NEAR_MM = 2 * FIT_TOLERANCE_MM  # a card known at a position, read this near its
# place: not a stray (`_strays`); the nearest other position's sticker lies 23 mm away


def _strays(
    cards: list[_Card], placed: dict[int, int], homography: np.ndarray,
    origins: Sequence[tuple[float, float]], m: TableModel, layout: Layout,
    known: Sequence[str | None] | None = None, inset: float = 0.0,
) -> int:  # fmt: skip
    """Cards of the age read inside the structure's outline but at none of its positions: a
    placement that leaves them there is wrong (two cards of a city side by side fit the
    layout as well as two cards of a row). With what was known, the moment before the last
    card was taken, one of them may be that card: a card known face up where nothing lay
    over it, in a hand or laid down beside its place now (generated hand-laid frame 440003:
    a card just taken, read between the cards left, made every position a cannot-tell).
    At the deal any card of the age read and not placed counts, wherever it lies. Nor does a
    card the box knew face up at a position, read within KNOWN_NEAR_MM of where the
    placement puts that position's sticker: it lies at its place, further off than a
    placement's fit reaches (a camera turned far, the fit strays at the structure's end:
    generated hand-laid frame 1570043, hard light, temple read 12 mm off its place with 8
    cards placed where the box knew them, the frame left untold). With what was known, the
    outline is that of the positions not known taken: late in an age the structure is a
    few cards of its first rows, and a city laid beside its last, widest row lay inside
    the outline of all 20 beside its narrower rows (generated hand-laid frame 1800015,
    fine light, age 1: four cards left in rows 1 and 2, two cards of the left city inside
    that outline by a few mm of the fit's drift, the frame left untold). From the frame
    alone a card beyond the first row or the last, between the outline's sides, counts
    too (`OFF_ROWS_MM`): no city lies there."""
    held = [o for o, k in zip(origins, known or [None] * len(origins), strict=True) if k != EMPTY]
    xs = [x for x, _ in held]
    ys = [y for _, y in held]
    inverse = np.linalg.inv(homography)
    used = set(placed.values())
    free = {
        card_id
        for p in layout.positions
        if known is not None
        and _is_card(card_id := known[p.index])
        and all(known[i] == EMPTY for i in p.covered_by)
    }
    # at the deal not recorded yet (no card of the age taken) every card of the age lies in
    # the structure: one read and not placed is one the placement left out, wherever it
    # lies (shifted by a column, a row's end card read lies beyond its row; a fit made on
    # the cards beyond a hand over the middle strays some 50 mm at the structure's far end,
    # where the true placement then finds its card inside the outline, at no position, and
    # one shifted by a column found it just beyond a card's place past its own outline:
    # generated hand-laid deal 1730032, hard light, five positions told wrongly)
    deal = known is not None and _unrecorded_deal(known)
    beyond = _row_ends(layout, m, far=True) if known is None else np.empty((0, 2))
    # the places one beyond each row's end (`ROW_END_MM`; looking only inside the side
    # bands, `inset`, a city's card beside a position taken may lie that far off one:
    # FIT_TOLERANCE_MM there), then those two rows beyond the first and the last row, which
    # lie further from the cards a fit was made on, and no city lies there: a wider reach
    # (`BEYOND_ROWS_MM`)
    reach = np.full(len(beyond), ROW_END_MM if not inset else FIT_TOLERANCE_MM)
    reach[2 * len({p.row for p in layout.positions}) :] = BEYOND_ROWS_MM
    where = {c: i for i, c in enumerate(known or ()) if _is_card(c)}
    strays = taken = 0
    for j, card in enumerate(cards):
        if j in used:
            continue
        x, y = _project(inverse, np.array([card.sticker.center]))[0]
        if card.id in where:
            cx, cy = _code_mm(m, origins[where[card.id]]).mean(axis=0)
            if math.hypot(x - cx, y - cy) <= KNOWN_NEAR_MM:
                continue
        across = min(xs) - 5.0 + inset <= x <= max(xs) + m.card_w + 5.0 - inset
        inside = (
            deal
            or (across and min(ys) - 5.0 <= y <= max(ys) + m.card_h)
            # from the frame alone, beyond the first row or the last, across the rows
            # (`OFF_ROWS_MM`)
            or (
                known is None
                and across
                and min(ys) - OFF_ROWS_MM <= y <= max(ys) + m.card_h + OFF_ROWS_MM
            )
            or bool(np.any(np.hypot(*(beyond - (x, y)).T) <= reach))
        )
        if inside and card.id in free and not taken:
            taken = 1
        else:
            strays += bool(inside)
    return strays


EDGE_BAND_MM = 8.0  # of a placement's outline, at its sides: a card left out there may be
# a city's beside a row's end position taken (from the frame alone, `_read_structure`):
# generated hand-laid frame 1903001 (fine light, a later moment of age 2, an arm over the
# structure's right): the right city's column lay 1 to 4 mm inside the outline of the true
# placement, whose end position of the first row was taken, and the placement of the same
# five cards a column over, with no card left inside its outline, was told: seven
# positions wrongly, by the reader before too. The two stand beside each other now, and
# nothing is told. 8 mm inside the outline's 5 mm margin: at 20 mm, 5 readings from the
# frame alone of later moments with a hand (seeds 1970000-1970059, spread 0.5) told
# nothing where the reader before told 38 positions right
BEYOND_ROWS_MM = 12.0  # how far from a place two rows beyond the first or last row a card
# read left out of a placement lies there (`_strays`): a fit from the cards beyond an arm
# over the structure strays 9 to 10 mm there (generated hand-laid deal 1900021, fine light,
# age 3: academy two rows above a placement shifted by two rows, 9.1 mm off the place, as
# likely as the placement of every card read, and nothing told); read from the frame
# alone in the later moments of 1900000-1900047 and 1901000-1901047 (both lights, spreads
# 0, 0.5 and 1), no city's card came within 65 mm of such a place of the true placement
# (the cities lie beside the rows: within 7 mm of one place beyond a row's end)


OFF_ROWS_MM = 80.0  # how far beyond the first row's outline or the last's, between its
# sides, a card read left out of a placement lies in the structure's way (`_strays`, from
# the frame alone): no city lies there, and two rows beyond are 75 mm at most. A fit on a few
# cards of two rows strays far from them (a card turned a few degrees turns the fit's
# perspective): generated hand-laid deal 2490061 (hard light, spread 1, age 2), a placement
# shifted by two rows, its fit on four cards, put archery range 27 mm off its place two
# rows beyond the first (`BEYOND_ROWS_MM` is 12), stood beside the true one, nothing told
ROW_END_MM = 14.0  # how far from a place one beyond a row's end a card read left out of a
# placement lies there (`_strays`, from the frame alone): a placement shifted by a column
# under an arm leaves the first row's far end card there, and its fit, made on the cards
# at the other end, strays 8.5 to 13.3 mm at that place at spread 1 (generated hand-laid
# deals 2420004 and 2420115, fine light, and 2420022, hard light, age 2: seven cards read,
# the shifted placement of six as likely as the true one of seven, nothing told); 8.5 mm
# (`FIT_TOLERANCE_MM`) before. A city beside a row's end whose card lies that near makes
# the true placement a cannot-tell (read from the frame alone, two later moments of
# 1951000-1951099, spread 0.5, lost so), and not within the outline's side bands
# (`EDGE_BAND_MM`: generated hand-laid frame 1903001, where a city's card 8.5 to 14 mm off
# the first row's end made the true placement leave a card there, and the placement
# shifted a column was told alone, wrongly)


def _row_ends(layout: Layout, m: TableModel, *, far: bool = False) -> np.ndarray:
    """Where the stickers of the cards one place beyond each end of each row would lie (mm):
    a card read there lies on the row's line, as a row's end card does (from the frame
    alone, with a hand over one end of the structure, the cards read fit the layout
    shifted by a column too, the top row's end card then left one place beyond it:
    generated hand-laid deal 840045). A city's cards lie further out. So do the places two
    rows beyond the first row and the last, at their columns: a card read there lies on
    the structure's lattice, as a card of those rows does (from the frame alone, the cards
    read fit the layout shifted by two rows too, the row's card read then left two rows
    beyond it: generated hand-laid deal 1560020, hard light, age 2, seven cards read, six
    of them fitting two rows up as well as the seven where they lie). `far`: two rows
    beyond the first and the last row, one place beyond their ends too: a placement
    shifted by two rows and a card leaves a card of the structure's end there (generated
    hand-laid deal 1700018, hard light, no hand: five cards read, four of them fitting so
    with no position looking bare). The cities lie beside the structure, not above or
    below it; two places beyond a row's end, one of them may lie (generated frame 1720230,
    fine light, a city's card two places beyond the second row's end of age 3)."""
    cx, cy = m.code_centre()
    rows: dict[int, list[int]] = {}
    for p in layout.positions:
        rows.setdefault(p.row, []).append(p.col)
    ends = [
        m.card_origin(row, col)
        for row, cols in rows.items()
        for col in (min(cols) - 2, max(cols) + 2)
    ]
    first, last = min(rows), max(rows)
    for row, cols in ((first - 2, rows[first]), (last + 2, rows[last])):
        wider = [min(cols) - 2, max(cols) + 2] if far else []
        ends += [m.card_origin(row, col) for col in cols + wider]
    return np.array([(x + cx, y + cy) for x, y in ends])


@dataclass(frozen=True, slots=True)
class _Option:
    """A placement looked at in the view: the cards it places (less the strays), the
    contradictions found, the 20 slots it tells, its fit and the cards it placed where."""

    bound: int
    contradictions: int
    slots: list[Slot]
    trusted: bool
    homography: np.ndarray
    model: TableModel  # the layout's steps it was placed with
    placed: dict[int, int]  # position -> card (index into the cards read)
    misread: frozenset[int] = frozenset()  # positions its view shows bare where a card lies
    doubtful: bool = False  # whether its view's table may be something else (`RIVAL_SHARE`)
    view: _View | None = field(default=None, compare=False)  # the view it was looked at in

    @property
    def score(self) -> int:
        return self.bound - self.contradictions


def _best_score(options: Sequence[_Option]) -> int:
    """The highest score of the placements looked at."""
    return max(o.score for o in options)


def _near(options: Sequence[_Option], known: Sequence[str | None] | None) -> list[_Option]:
    """The placement that explains the frame best (the most cards placed less the
    contradictions; the one looked at first of those as good), then the others nearly as
    good that put a card read elsewhere: as likely, so a position is told only where they
    all agree (the cards read may fit the layout shifted by a column when a row's ends are
    gone). Nearly as good: a score one lower; one card fewer placed and one contradiction
    more (a city's card beside the structure may complete a placement shifted toward it);
    or more cards placed, whatever its contradictions (in a dim room a card's back may look
    like the table, a contradiction for the true placement as much as for a shifted one, so
    a placement of fewer cards can outscore the true one); or as many cards placed with two
    contradictions more, or as many more as its positions that look bare where it puts a
    card (its dim backs): three at most, any number when its view's table or the best's
    may be something else (`_Option.doubtful`: a contradiction that is the view's doubt,
    not the placement's); five at the deal not recorded yet (every position holds a card).
    With what was known only trusted placements stand beside the best."""
    ranked = sorted(options, key=lambda o: -o.score)
    best = ranked[0]

    # at the deal not recorded yet every position holds a card: a few positions a view
    # shows bare are the view's doubt, whichever placement it is (`DEAL_BARE`)
    most = DEAL_BARE if known is not None and _unrecorded_deal(known) else 3

    def more(o: _Option) -> int:
        """The contradictions more than the best's a placement of as many cards may have:
        two, or its positions that look bare where it puts a card (three at most, DEAL_BARE
        at the deal not recorded yet, unless a view's table may be something else)."""
        bare = len(o.misread)
        return max(2, bare if best.doubtful or o.doubtful else min(most, bare))

    def as_likely(o: _Option) -> bool:
        return (
            o.score >= best.score - 1
            or o.bound > best.bound
            or (o.bound == best.bound - 1 and o.contradictions <= best.contradictions + 1)
            # as many cards placed, two contradictions more: a few cards of rows laid
            # further apart fit the layout shifted by two rows too, and the dim backs of
            # the true placement looked like the table (generated hand-laid frame 410015);
            # more when as many of its positions look bare where it puts a card: up to
            # three (three dim backs: generated hand-laid deal 750055, hard light), any
            # number when its view's table or the best's may be something else (dim backs
            # on a plane of their own, `RIVAL_SHARE`: five, a column off, in deal 1100313
            # with three codes readable; eleven in 1100300 with five; up to three let 4 of
            # 1,504 readings of benchmarks/structure_fewcodes.py place cards wrongly).
            # Not any number always: a placement two rows down over the bare table has as
            # many positions looking bare (seed 73, hard light, a later moment)
            or (o.bound == best.bound and o.contradictions <= best.contradictions + more(o))
        )

    where = {s: i for i, s in enumerate(best.slots) if _is_card(s)}

    def rival(other: list[Slot]) -> bool:
        """Whether a placement puts a card read elsewhere than the best one does (not one
        that only places fewer of the same cards)."""
        return any(
            _is_card(s) and (where.get(s, i) != i or best.slots[i] == EMPTY)
            for i, s in enumerate(other)
        )

    near = [best] + [o for o in ranked[1:] if as_likely(o) and rival(o.slots)]
    if known is not None:
        # cards where they were seen: a lone pair of cards of a city still fits, but only
        # if it lay so in the structure; it does not outweigh a placement trusted
        near = [best] + [o for o in near[1:] if o.trusted]
    return near


DEAL_BARE = 5  # positions a placement's view may show bare more than the best's, at the
# deal not recorded yet (three otherwise, `_near`): generated hand-laid deal 2450075 (hard
# light, spread 0.5, told it is the deal): the true placement's view saw five dim backs and
# cards bare, the placement a column over, its end column over a city's card and an arm,
# none, and was told alone, eight positions wrongly. Not any number: placements shifted onto
# the bare table beside the structure see eight to twelve positions bare (deal 1100225,
# hard light, given only the codes decoded: the true placement's view saw two)
ALL_READ_PLACED = 5  # cards: a trusted placement of every card read, this many or more,
# outweighs placements that leave a card read inside their outline (`_standing`); five
# from generated hand-laid deal 1900029 (hard light, an arm over 8 positions: five codes
# read on rows 1, 2 and 5, three dim backs looking bare, more than 12 placements of three
# or four of them near enough to be looked at, a cannot-tell), six before


def _standing(
    options: list[_Option], read: int, known: Sequence[str | None] | None
) -> list[_Option]:
    """The placements that can stand beside the others (`_near`): from the frame alone and
    at the deal not recorded yet (`known` all "back"), when a trusted placement places every
    one of the `read` cards of the age read, at least ALL_READ_PLACED, not those that place
    fewer and leave a card read inside their outline at no position (`_strays`). Such a
    placement says that the card lies at no position of a structure that holds every card
    of the age read but in cities beside it (at the deal, all of them); the
    placement of every card explains the frame's codes whole, and where its view sees the
    bare table where a card lies, what sees it so sees no card in a dim room (dim backs
    looking like the table: generated hand-laid deals 1560015, 1700007 and 1700014, hard
    light, no hand, all the cards read placed where they lie with 5 or 6 such positions,
    and a placement of fewer of them two rows or a column over with fewer, a card read
    left inside its outline, made every position a cannot-tell; told it is the deal,
    1700014 at spread 0.5: twelve placements looked at, a cannot-tell at once)."""
    if (known is not None and not _unrecorded_deal(known)) or not _all_read_placed(options, read):
        return options
    return [o for o in options if o.trusted or len(o.placed) == o.bound]


def _outweighed(
    known: Sequence[str | None] | None, strays: int, options: Sequence[_Option], read: int
) -> bool:
    """Whether a placement that leaves `strays` cards read inside its outline cannot stand
    beside the placements looked at (`options`), of `read` cards read (`_standing`)."""
    alone = known is None or _unrecorded_deal(known)
    return alone and strays > 0 and _all_read_placed(options, read)


def _all_read_placed(options: Sequence[_Option], read: int) -> bool:
    """Whether a trusted placement places every one of the `read` cards of the age read,
    at least ALL_READ_PLACED (`_standing`)."""
    return any(o.trusted and len(o.placed) == read >= ALL_READ_PLACED for o in options)


def _told_apart(near: list[_Option], against: Sequence[bool]) -> list[_Option]:
    """Of placements as likely (`_near`), from the frame alone, those the codes at their
    places do not contradict (`_contradicted`), when some others are (of those left, as
    `_near` keeps them); else all of them. A hand over one end of the structure, or a few
    codes read in hard light, leaves the cards read fitting the layout shifted by a card
    too: the shifted placement then puts the structure's end short of a card whose code is
    there (generated hand-laid deal 1400032, hard light), a back where a code is, or a card
    under a card it tells over the bare table beyond the structure's end."""
    if all(against) or not any(against):
        return near
    # those left as `_near` keeps them: the best of them and the others that put a card
    # elsewhere (not the same cards placed with the other steps)
    return _near([o for o, no in zip(near, against, strict=True) if not no], None)


WIDE_MARGIN_MM = 90.0  # table kept around the structure's outline in `_wider`'s view


def _wider(
    option: _Option, gray: np.ndarray, cards: list[_Card], layout: Layout, gone: frozenset[int]
) -> _Option:
    """A placement looked at again in a view with WIDE_MARGIN_MM of table around the
    structure's outline: its slots, its contradictions, the positions it shows bare where a
    card lies, and whether its table may be something else, as that view finds them. An arm over one
    side of the structure can cover more of a view's 30 mm margin than the table shows
    there, most of all in the view of a placement shifted toward the arm: the table's light
    is then fitted to the arm, the bare table beyond the structure's other end reaches out
    of the view as a hand would, and the shifted placement finds no contradiction where it
    puts cards over that table (generated hand-laid deal 1570004, fine light, age 3: six
    cards read that fit where they lie and a column toward the arm)."""
    m = option.model
    origins = m.slot_corners(layout)
    view = _View(gray, option.homography, origins, m, WIDE_MARGIN_MM)
    slots, contradictions, misread = _classify(
        option.placed, cards, layout, view, origins, m, gone, None
    )
    return replace(
        option,
        slots=slots,
        contradictions=contradictions,
        misread=misread,
        doubtful=view.rival >= RIVAL_SHARE,
        view=view,
    )


def _in_doubt(
    option: _Option, gray: np.ndarray, cards: list[_Card], layout: Layout,
    gone: frozenset[int], wider: dict[int, _Option],
) -> set[int]:  # fmt: skip
    """The positions a placement tells empty (none known taken) whose view finds a hand,
    that its view with WIDE_MARGIN_MM of table around the outline (`_wider`; the one
    already looked at in `wider`, by the placement's id, else looked at now) does not tell
    empty. An arm
    over one side of the structure can cover more of a view's 30 mm margin than the table
    shows there: the table's light is then fitted to the arm, the bare table beside it is
    found a hand, and the positions under the arm look like the table, empty (generated
    hand-laid frame 1900311, fine light, a later moment: a card under an arm along the
    structure's first row told empty from the frame alone). The wider view holds more of
    the table, whose light is fitted to it, and finds the arm a hand."""
    empties = {i for i, s in enumerate(option.slots) if s == EMPTY and i not in gone}
    if not empties or option.view is None or not option.view.hand.any():
        return set()
    if id(option) not in wider:
        wider[id(option)] = _wider(option, gray, cards, layout, gone)
    return {i for i in empties if wider[id(option)].slots[i] != EMPTY}


def _looked_wider(near: list[_Option], wide: list[_Option], layout: Layout) -> list[_Option]:
    """Of placements as likely (`_near`, from the frame alone, not told apart by their
    codes), those no other one rules out in the wider views (`_wider`, in the same order):
    a placement is ruled out by another one that places at least as many cards, sees no
    position bare where it puts a card, and whose view's table is not in doubt once the
    hands it finds are set aside (`_table_doubt`), when every position it sees bare where
    it puts a card lies, by the other one's fit, on the table beside that one's structure,
    bare there too. The shifted placement puts cards over the bare table beyond the true
    structure's far end, which the true one explains as table; a dim back of the true
    placement that looks bare lies inside any placement shifted from it by a column, which
    then sees it bare too and rules nothing out. The others are kept as their own views
    told them, the best first."""
    clean = [
        q for q in wide
        if not q.misread and q.view is not None and _table_doubt(q, layout) < RIVAL_SHARE
    ]  # fmt: skip
    kept = [
        o for o, w in zip(near, wide, strict=True)
        if not any(
            q is not w and q.bound >= w.bound and w.misread and _beside(w, q, layout)
            for q in clean
        )
    ]  # fmt: skip
    return kept if kept and len(kept) < len(near) else near


BESIDE_GRID = 5  # points a side sampled on a position's upper half (`_beside`)


def _beside(option: _Option, other: _Option, layout: Layout) -> bool:
    """Whether every position `option` sees bare where it puts a card has its upper half
    on the table beside `other`'s structure: no point of it (a grid, inset 3 mm) more
    than EDGE_MM inside any of `other`'s cards, and the part of `other`'s view it lies in
    (the grid's bounding box) in view, under no hand and bare (BARE_SHARE). Placements a
    column apart share the layout's lattice, so such a position either is one of the
    other's (a dim back of both) or lies beside the other's structure; steps fitted a
    little apart move it a few mm toward the other's cards (generated hand-laid deal
    1570026, hard light, spread 1: 2 mm at steps 0.55 mm apart)."""
    view = other.view
    if view is None:
        return False
    m, n = option.model, other.model
    origins, theirs = m.slot_corners(layout), n.slot_corners(layout)
    into = np.linalg.inv(other.homography) @ option.homography
    for i in option.misread:
        x, y = origins[i]
        grid = np.linspace(0.0, 1.0, BESIDE_GRID)
        points = np.array(
            [(x + 3 + a * (m.card_w - 6), y + 3 + b * (m.row_mm - 6)) for a in grid for b in grid]
        )
        at = _project(into, points)
        for ox, oy in theirs:
            on = (
                (at[:, 0] > ox + EDGE_MM) & (at[:, 0] < ox + n.card_w - EDGE_MM)
                & (at[:, 1] > oy + EDGE_MM) & (at[:, 1] < oy + n.card_h - EDGE_MM)
            )  # fmt: skip
            if on.any():
                return False
        area = view.region(*at.min(axis=0), *at.max(axis=0))
        if not view.seen(area) or view.under_hand(area) or view.bare_share(area) < BARE_SHARE:
            return False
    return True


def _table_doubt(option: _Option, layout: Layout) -> float:
    """`_View.rival` of a placement's view with the hands it finds set aside: the blocks
    off the table's light on a plane of their own, against the table's, outside every
    position and every hand (an arm over a third of the view is such a plane, and no
    doubt about the table once it is told a hand)."""
    view, m = option.view, option.model
    assert view is not None
    cards = np.zeros(view.bare.shape, bool)
    for x, y in m.slot_corners(layout):
        cards[view.region(x - 4, y - 4, x + m.card_w + 4, y + m.card_h + 4)] = True
    table = view.valid & ~cards & ~view.hand
    if table.sum() < 200:
        return 1.0
    return _surface(view.image, table)[2]


NO_CODE = 0.15  # `known_codes.code_at`'s match of the pattern every code has: below, no
# code lies at a place (generated hand-laid deals 1400000-1400047, fine and hard light: at
# the 42 places in view where the true placement put a face-up card whose code was not read
# it matched 0.26 to 0.83, median 0.73; at the places of placements shifted by a card, 5 %
# of them matched below 0.07 and a quarter below 0.14)


def _contradicted(
    option: _Option, gray: np.ndarray, layout: Layout, unread: Collection[str]
) -> bool:
    """Whether a place in view (no hand over it) shows a sticker not as a placement says:
    a face-up card it does not place (its code not read), under a card or back it tells,
    where the place looks like the bare table and no code lies (`NO_CODE`); or a code of a
    card of the age not read in the frame (`unread`, told among them by
    `known_codes.code_at`) where it says a face-down card lies, a card was taken, one
    place beyond a row's end or two rows beyond its first or last row (`_row_ends`)."""
    view, m = option.view, option.model
    if view is None:
        return False
    origins = m.slot_corners(layout)
    (left, top), (right, _), _, (_, bottom) = m.code_corners()
    cx, cy = m.code_centre()
    # (a code is said there, the place, the positions over it)
    places: list[tuple[bool, tuple[float, float], Sequence[int]]] = []
    for p in layout.positions:
        slot = option.slots[p.index]
        if p.index in option.placed:
            continue
        if slot in (BACK, EMPTY):
            places.append((False, origins[p.index], p.covered_by))
        elif p.face_up or all(option.slots[i] == EMPTY for i in p.covered_by):
            places.append((True, origins[p.index], p.covered_by))
    places += [(False, (float(x - cx), float(y - cy)), ()) for x, y in _row_ends(layout, m)]
    places.sort(key=lambda place: not place[0])  # a code missing first: no code told there
    for face_up, (x, y), covered_by in places:
        code = view.region(x + left - 2, y + top - 2, x + right + 2, y + bottom + 2)
        if not view.seen(code) or view.under_hand(code):
            continue
        # a code missing only where the place looks like the bare table and a card this
        # placement tells lies over it (a covered card is never taken): a card's code
        # blurred past reading matches the pattern of every code as little as the table
        # (benchmarks/structure_fewcodes.py), and the card may have been taken
        held = any(_is_card(option.slots[i]) or option.slots[i] == BACK for i in covered_by)
        bare = view.bare_share(code) >= BARE_SHARE  # (a sticker never looks like the table)
        if (not bare or not held) if face_up else bare:
            continue
        crop = _place_crop(gray, option.homography, (x, y), m)
        shown, told = known_codes.code_at(crop, () if face_up else unread)
        if shown < NO_CODE if face_up else told is not None:
            return True
    return False


def _agreed(near: Sequence[_Option]) -> list[Slot]:
    """The slots all the placements as likely agree on, None elsewhere."""
    return [
        values[0] if all(v == values[0] for v in values) else None
        for values in zip(*(o.slots for o in near), strict=True)
    ]


def _tells_nothing(near: Sequence[_Option], known: Sequence[str | None] | None) -> bool:
    """Whether the placements as likely leave every position untold: one of them is not
    trusted (a card of the age lying inside the outline but at no position, or too little
    of the structure seen: a lone pair of cards lies in a row of a structure as well as side
    by side in a city), or, from the frame alone, they agree nowhere (no code is read again
    unless one placement alone is left), or agree on no card: then the backs and empties
    they agree on are each placement's own inference at places that differ (generated
    hand-laid frame 1850210, fine light, a later moment: two placements a column apart, each
    with a city's card as a structure's three rows below two cards of the first row, both
    inferred a back at 8 from the cards they put over it, where the structure had none)."""
    if not all(option.trusted for option in near):
        return True
    return known is None and len(near) > 1 and not any(_is_card(s) for s in _agreed(near))


def parse_known(entries: object, age: int, catalog: Catalog | None = None) -> tuple[Slot, ...]:
    """What the box knew of age `age`'s structure, as `scan --structure --known` and the
    device give it: 20 entries in layout order, each a card id of the age where that card
    lay face up, "back" where a face-down card lay, "empty" where the card had been taken.

    Raises:
        ValueError: one line naming the first entry that is wrong.
    """
    catalog = catalog or default_catalog()
    count = len(catalog.layout(age).positions)
    if not isinstance(entries, list) or len(entries) != count:
        raise ValueError(f"a list of {count} entries in layout order is needed")
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if entry in (BACK, EMPTY):
            continue
        if not isinstance(entry, str) or not _of_age(entry, age, catalog):
            raise ValueError(
                f'entry {index}: {json_text(entry)} is not a card of age {age}, "back" or "empty"'
            )
        if entry in seen:
            raise ValueError(f"entry {index}: {entry} is listed twice")
        seen.add(entry)
    return tuple(entries)


def json_text(value: object) -> str:
    """A value as JSON writes it (for a message naming what was given)."""
    return json.dumps(value)


def read_structure(
    frame: np.ndarray,
    age: int,
    decoder: Decoder,
    *,
    catalog: Catalog | None = None,
    model: TableModel | None = None,
    stickers: list[Sticker] | None = None,
    known: Sequence[str | None] | None = None,
    taken: Collection[str] = (),
    fit: TableFit | None = None,
    undecoded: Sequence[Corners] = (),
) -> StructureReading:
    """The 20 positions of age `age`'s structure in a grayscale overhead frame (`stickers`:
    the codes already decoded from it, with `undecoded` the corners of those found there but
    not decoded (`decode.decode_all`: the device's camera thread decodes each frame once),
    else the decoder reads them, and again sharpened when they hold few cards; `known`:
    what is known at each position, in layout order: the card seen there earlier in the
    age, which settles where the cards read lie when the frame
    alone fits them in several places, "back" (or None) where a face-down card lay, "empty"
    where the card was taken and recorded, told "empty" whatever the frame shows: the
    `parse_known` entries of `scan --structure --known`, which the device gives too. It is
    the moment before the last card was taken (one card at most has left since): a
    placement that leaves bare a position that must still hold a card counts a
    contradiction (`_classify`), and 20 "back" entries are the deal not recorded yet, when
    every position holds a card (`_unrecorded_deal`);
    `taken`: the cards of the age recorded as taken, never put into the structure; `fit`:
    the fit of an earlier
    frame of this age, `StructureReading.fit`, for a camera that holds still: with `known`,
    the cards known but not read in the whole frame are looked for where it puts their
    stickers, 10 mm around, and a code read there that is the card known is added to the
    codes read; the frame's own fit is still made from its codes, so a camera moved since
    only reads fewer). The layout's column and row steps are the fit's (as the structure was
    laid at this table, kept for the age); without a fit they are fitted from the codes of
    the frame (`_laid`), and the file keeps only the card's and the sticker's sizes and the
    steps tried first."""
    gray = np.ascontiguousarray(
        frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    )
    catalog = catalog or default_catalog()
    if known is not None:  # a face-down card: which one is not known
        known = tuple(None if card_id == BACK else card_id for card_id in known)
    # the frame's codes looked for once: a frame read again reads the same codes
    codes = _decoded(decoder, gray, stickers, undecoded)
    found, blobs, missing = _found(gray, age, decoder, catalog, codes, known, taken)
    reading = _read_structure(gray, age, decoder, catalog, model, found, known, taken, fit)
    # with what the box knew (once the deal is recorded), a frame that places nothing is
    # read again with the codes' blobs no decoder reads told among the cards known face up
    # (`_known_blobs`); not before: such codes' corners are a registration's, less exact
    # than a decoding's, and a fit on them missed a code at its place that the fit on the
    # codes decoded alone read (generated hand-laid frame 1440015 at spread 1, hard light).
    # At the deal not recorded yet they are told among the cards of the age not read, which
    # all lie in the structure then (generated hand-laid deal 1900168, hard light, a camera
    # turned 45 degrees: blobs at the twelve face-up stickers, two of them decoded, nothing
    # placed)
    if known is None or reading.placed:
        return reading
    told = _known_blobs(gray, blobs, found, missing)
    if not _unrecorded_deal(known):
        told += _beside_known(gray, age, decoder, catalog, model, found, known, taken, fit)
    if not told:  # the same codes read again: the same reading
        return reading
    return _read_structure(gray, age, decoder, catalog, model, found + told, known, taken, fit)


def _as_laid(model: TableModel | None, fit: TableFit | None) -> TableModel:
    """The table's model (`model`, else the file's) with the layout's steps of `fit`, the
    structure as laid at this table and kept for the age, when there is one."""
    m = model or table_model()
    return m if fit is None else replace(m, col_mm=fit.col_mm, row_mm=fit.row_mm)


def _found(
    gray: np.ndarray,
    age: int,
    decoder: Decoder,
    catalog: Catalog,
    codes: tuple[list[Sticker], list[Sticker], int],
    known: Sequence[str | None] | None,
    taken: Collection[str],
) -> tuple[list[Sticker], list[Blob], set[str]]:
    """The codes of the frame `gray` a reading places (`codes`, `_decoded`'s, and when they
    hold few cards of the age, those read from the codes' blobs and from the frame
    sharpened); the codes' blobs looked at; and, when the cards known face up among them
    are still few, those cards not read (at the deal not recorded yet, the cards of the age
    not read; for `_known_blobs`; else none). `known`: as `read_structure` passes it on,
    None where a face-down card lay."""
    layout = catalog.layout(age)
    decoded, matched, unread = codes
    found = decoded + matched

    def here(card_id: str | None) -> bool:
        """A card of the age not recorded taken (in a city, under a wonder or discarded:
        never in the structure)."""
        return _of_age(card_id, age, catalog) and card_id not in taken

    # the codes told by their modules alone do not count here: their corners are the
    # failed decoding's, and a few of them place the structure worse than the codes read
    # decoded (generated hand-laid deal 940044, hard light: six cards, four of them told
    # by their modules, fit several placements; the codes of the cuts read all 12)
    of_age = {c for c in map(payloads.parse, (s.text for s in decoded)) if here(c)}
    # the cards of the age known face up (or, at the deal, the face-up positions)
    expected = sum(
        1
        for p in layout.positions
        if known is not None
        and known[p.index] != EMPTY
        and (p.face_up or known[p.index] is not None)
    )
    few_cards = min(FEW_CARDS, expected) if known is not None else FEW_CARDS
    # codes found but not decoded (blurred, dim): the frame's codes are looked for again
    blobs: list[Blob] = []
    if len(_in_structure(of_age, known)) < few_cards or unread:
        blobs = _code_blobs(gray)
        # a blob at a code already read (its centre within half the code's side of the
        # code's) is not cut again: the same code read there again is merged away, and
        # half the blobs of a frame in hard light are such (about 6 ms a frame, 40 % of
        # the cuts' time, on generated hand-laid frames 1900000-1900039, hard light, the
        # deal and a later moment at each spread: the codes merged the same in all 184)
        fresh = [b for b in blobs if not _at_a_code(b[0], found)]
        found = _merged(found, _blob_codes(gray, decoder, fresh), 1)
        of_age = {c for c in map(payloads.parse, (s.text for s in found)) if here(c)}
    if len(of_age) < few_cards:
        found = _merged(found, _every_code(decoder, _sharpened(gray)), _zoom(gray))
        of_age = {c for c in map(payloads.parse, (s.text for s in found)) if here(c)}
    # still few: the codes' blobs no decoder reads may be told among the cards known face up
    # (at the deal not recorded yet, among the cards of the age: every one lies in it)
    missing: set[str] = set()
    if known is not None and len(_in_structure(of_age, known)) < few_cards:
        if _unrecorded_deal(known):
            missing = {str(c.id) for c in catalog.cards if here(c.id)} - of_age
        else:
            missing = {c for c in known if c not in (None, EMPTY) and here(c)} - of_age
    return found, blobs, missing


def _read_structure(
    gray: np.ndarray,
    age: int,
    decoder: Decoder,
    catalog: Catalog,
    model: TableModel | None,
    found: list[Sticker],
    known: Sequence[str | None] | None,
    taken: Collection[str],
    fit: TableFit | None,
) -> StructureReading:
    """`read_structure`'s reading of the grayscale frame `gray` from the codes `found` in
    it (`_found`'s, with the codes' blobs told among the cards known face up when the first
    reading placed nothing); `known` as `read_structure` passes it on, None where a
    face-down card lay."""
    m = _as_laid(model, fit)
    layout = catalog.layout(age)

    def here(card_id: str | None) -> bool:
        """A card of the age not recorded taken (in a city, under a wonder or discarded:
        never in the structure)."""
        return _of_age(card_id, age, catalog) and card_id not in taken

    origins = m.slot_corners(layout)
    read = {payloads.parse(s.text) for s in found}
    # a frame whose codes place the structure themselves is left to them: a code read from
    # a crop has its corners less exactly (blurred), and the position reads of step 7 find
    # the rest once the frame's own fit is made
    few = sum(1 for c in read if here(c)) < FEW_CARDS
    if fit is not None and known is not None and few:
        found = list(found)  # not the caller's list
        for i, card_id in enumerate(known):
            if card_id in (None, EMPTY) or card_id in read or card_id in taken:
                continue
            sticker = _read_slot(gray, fit.homography, origins[i], m, decoder, CITY_REACH_MM)
            if sticker is not None and payloads.parse(sticker.text) == card_id:
                found.append(sticker)
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
        and here(card_id)
    ]
    gone = frozenset(i for i, card_id in enumerate(known or ()) if card_id == EMPTY)
    unknown = tuple(EMPTY if i in gone else None for i in range(len(layout.positions)))
    if not cards:
        return StructureReading(unknown, 0, len(found))
    # the structure as laid at this table: kept for the age, else from the cards read
    models = [m] if fit is not None else _laid(cards, layout, m, known)
    fits: list[tuple[int, np.ndarray, dict[int, int], bool, TableModel]] = []
    tried: set[tuple[frozenset[tuple[int, int]], float, float]] = set()
    candidates = [(laid, p) for laid in models for p in _assignments(cards, layout, laid, known)]
    alone = known is None  # (from the frame alone: `EDGE_BAND_MM`)
    deal = known is not None and _unrecorded_deal(known)  # the deal not recorded yet
    edged: list[int] = []  # placements (in `fits`) whose strays all lie at their sides
    for m, placed in candidates:
        origins = m.slot_corners(layout)
        fitted = _placement(cards, placed, origins, m, deal)
        if fitted is None or (frozenset(fitted[1].items()), m.col_mm, m.row_mm) in tried:
            continue
        homography, placed = fitted
        tried.add((frozenset(placed.items()), m.col_mm, m.row_mm))
        if known is not None and not (
            _agrees(placed, cards, known) and _can_turn_up(placed, layout, known)
        ):
            continue
        strays = _strays(cards, placed, homography, origins, m, layout, known)
        rows = {layout.positions[i].row for i in placed}
        # two cards lying where the box knows them (neither taken) are two cards of the
        # structure, not of a city: a card just taken lies off its place, and one of them
        # at its place puts the other at its own
        confirmed = sum(
            1 for i, j in placed.items() if known is not None and known[i] == cards[j].id
        )
        trusted = strays == 0 and (len(rows) >= 2 or len(placed) >= 3 or confirmed >= 2)
        fits.append((len(placed) - strays, homography, placed, trusted, m))
        if strays and alone and len(rows) >= 2:
            inner = _strays(cards, placed, homography, origins, m, layout, known, EDGE_BAND_MM)
            if not inner:  # every card it leaves out lies in its outline's side bands
                edged.append(len(fits) - 1)
    # from the frame alone, a placement of the same cards as the best trusted one, elsewhere,
    # that leaves out only cards lying in its outline's side bands (`EDGE_BAND_MM`), is
    # looked at as if it left none out: the view and the codes at their places tell them
    # apart, or they stand beside each other
    best_fit = max((f for f in fits if f[3]), key=lambda f: f[0], default=None)
    for k in edged:
        _, homography, placed, _, m = fits[k]
        if best_fit is not None and set(placed.values()) == set(best_fit[2].values()):
            fits[k] = (len(placed), homography, placed, True, m)
    # a placement that is another one less some of its cards (one the fit dropped) only
    # leaves them inside the outline at no position: it never tells more than the other
    fits = [
        f for f in fits
        if not any(f[2].items() < g[2].items() for g in fits)
    ]  # fmt: skip
    # the view is looked at only for placements that can come near the best (each
    # contradiction found there lowers a placement's score)
    fits.sort(key=lambda f: -f[0])
    # a placement within one card of the most placed is always looked at (no score can
    # exceed the most placed): more than MOST_VIEWS of them and the frame is a cannot-tell
    # at once, without building their views
    if sum(1 for f in fits if f[0] >= fits[0][0] - 1) > MOST_VIEWS:
        return StructureReading(unknown, 0, len(found))
    # none trusted: the best is not, and tells nothing (`_tells_nothing`), whatever the views
    # (a hand over most of the structure leaves a few lone cards, a dozen views)
    if not any(trusted for _, _, _, trusted, _ in fits):
        return StructureReading(unknown, 0, len(found))
    options: list[_Option] = []
    looked = 0  # placements counted toward MOST_VIEWS, their view built or not
    # from the frame alone, the placements as likely told apart by the codes at the places
    # each puts a sticker (`_told_apart`), each placement's looked at once
    not_read = {c.id for c in catalog.cards if c.age == age and c.id not in read and here(c.id)}
    against: dict[int, bool] = {}
    wider: dict[int, _Option] = {}  # each placement as likely looked at in a wider view

    def apart(near: list[_Option]) -> list[_Option]:
        # past APART_VIEWS placements looked at, no more places are looked at (the views
        # of more placements cost more than their codes ever told apart), but what those
        # looked at already told stands: a placement found contradicted is no less so for
        # the placements looked at after it (generated hand-laid deal 1700014 at spread 1,
        # hard light: the placement shifted by a card, contradicted by its codes' places,
        # stood again beside the true one once a seventh placement was looked at). At the
        # deal not recorded yet what was known names no card, and the frame is looked at
        # as from the frame alone (generated hand-laid deal 1800007, fine light, an arm
        # over 11 positions: read from the frame alone, nothing told when told it is the
        # deal)
        if (known is not None and not _unrecorded_deal(known)) or len(near) < 2:
            return near
        for o in near:
            if id(o) not in against and looked <= APART_VIEWS:
                against[id(o)] = _contradicted(o, gray, layout, not_read)
        near = _told_apart(near, [against.get(id(o), False) for o in near])
        # nor, past them, are placements looked at in a wider view (`_wider`)
        if len(near) < 2 or looked > APART_VIEWS:
            return near
        for o in near:
            if id(o) not in wider:
                wider[id(o)] = _wider(o, gray, cards, layout, gone)
        return _looked_wider(near, [wider[id(o)] for o in near], layout)

    for bound, homography, placed, trusted, m in fits:
        if options and bound < _best_score(options) - 1:
            break
        # one that leaves a card read inside its outline cannot stand beside a placement
        # of every card read (`_standing`): its view is not built, nor counted
        if _outweighed(known, len(placed) - bound, options, len(cards)):
            continue
        if looked == MOST_VIEWS:  # that many placements near the best: cannot tell
            return StructureReading(unknown, 0, len(found))
        looked += 1
        if options and bound <= _best_score(options):
            # no placement left can become the best (its score is at most its bound, and
            # the placement looked at first wins a tie): one only joins those as likely,
            # and only if it puts a card elsewhere than the best (`_near`). So once these
            # already tell nothing, the rest cannot change that;
            # and the view of one that places the best's cards where it does (the same
            # cards with the other steps), or of one not trusted beside what was known
            # (only trusted placements stand beside the best then), changes nothing
            near = apart(_near(_standing(options, len(cards), known), known))
            if _tells_nothing(near, known):
                return StructureReading(unknown, 0, len(found))
            if all(s is None or i in gone for i, s in enumerate(_agreed(near))):
                break  # with what was known: the placements as likely agree nowhere already
            if placed.items() <= near[0].placed.items() or (known is not None and not trusted):
                continue
        origins = m.slot_corners(layout)
        view = _View(gray, homography, origins, m)
        slots, contradictions, misread = _classify(
            placed, cards, layout, view, origins, m, gone, known
        )
        options.append(
            _Option(
                bound,
                contradictions,
                slots,
                trusted,
                homography,
                m,
                placed,
                misread,
                view.rival >= RIVAL_SHARE,
                view,
            )
        )
    if not options:
        return StructureReading(unknown, 0, len(found))
    # the best placement and those as likely (`_near`): a position is told where they agree
    near = apart(_near(_standing(options, len(cards), known), known))
    best = near[0]
    m, origins = best.model, best.model.slot_corners(layout)
    if _tells_nothing(near, known):
        return StructureReading(unknown, 0, len(found))
    slots = _agreed(near)
    # from the frame alone, a view that finds a hand may have fitted the table's light to
    # an arm: positions it tells empty are looked at again in a wider view (`_in_doubt`)
    if known is None or _unrecorded_deal(known):
        for o in near:
            for i in _in_doubt(o, gray, cards, layout, gone, wider):
                slots[i] = None
    # a view that shows the bare table where a card lies is wrong somewhere (an arm that
    # covers more of the table in view than the table shows, its light fitted as the
    # table's: generated hand-laid frame 570005; a dim card in a dim room: 560004), and
    # no position it shows bare is told empty but those known to be
    if any(o.misread and (known is None or o.doubtful) for o in near):
        slots = [None if s == EMPTY and i not in gone else s for i, s in enumerate(slots)]
    # nor, from the frame alone, is a face-down card that only positions it shows holding a
    # card lie over, no card read there (its placement may be wrong too: generated
    # hand-laid frame 730048, hard light, the cards left and a city's card placed with the
    # steps of the cities' columns, a back told under the cities' cards)
    if known is None and any(o.misread for o in near):
        for p in layout.positions:
            if slots[p.index] == BACK and not all(
                any(i in o.placed for i in p.covered_by) for o in near
            ):
                slots[p.index] = None
    # (at the deal no city holds a card of the age: not looked for)
    if not deal and any(
        _stacked_city(o, cards, gray, layout, decoder, age, catalog)
        or (known is None and _city_column(o, found, layout, age, catalog))
        for o in near
    ):
        return StructureReading(unknown, 0, len(found))
    if len(near) == 1:  # the codes not read in the whole frame, read where each should be
        homography = near[0].homography
        used = {s for s in slots if s is not None} | {c for c, n in counts.items() if n > 1}
        used |= set(taken)
        # the cards that can lie at a position: the one known there, else the age's cards
        # neither read in the frame nor known elsewhere
        elsewhere = {c for c in known or () if c is not None} | {c for c in read if c}
        age_cards = [c.id for c in catalog.cards if c.age == age]

        def can_lie(i: int, used: set[str]) -> set[str]:
            there = None if known is None else known[i]
            if there is not None and there != EMPTY:
                return {there} - used
            return {c for c in age_cards if c not in used and c not in elsewhere}

        # twice: the second time on the placement fitted again with the codes decoded at
        # their places the first time (`_refit`): a fit on a few codes of one row strays by
        # 7 mm or more at the far rows, where a blurred code is then cut at its edge and
        # refused (generated hand-laid frame 1420006, hard light, 11 cards taken)
        at_place: dict[int, Sticker] = {}
        for attempt in range(2):
            if attempt:
                refit = _refit(cards, near[0].placed, at_place, origins, m)
                if refit is None:
                    break
                homography = refit
            for p in layout.positions:
                if slots[p.index] is not None or not (
                    p.face_up or all(slots[i] == "empty" for i in p.covered_by)
                ):
                    continue
                sticker = _read_slot(gray, homography, origins[p.index], m, decoder)
                card_id = _card_id(sticker)
                if card_id is None:  # no decoder reads it: told among the cards there
                    crop = _place_crop(gray, homography, origins[p.index], m)
                    # a card known face up here is the only card that can lie here (or
                    # none, when it was the card taken, and a bare place registers no
                    # code): it needs a smaller lead over the other stickers printed
                    # (generated hand-laid frame 1600003, hard light: observatory, dim
                    # and blurred, 0.18 above the second best)
                    # and, dimmer, a clear lead (`known_codes.told_known`)
                    there = None if known is None else known[p.index]
                    if there is not None and there != EMPTY:
                        text = known_codes.told_known(crop, there) if there not in used else None
                    else:
                        text = known_codes.told_among(crop, can_lie(p.index, used))
                    card_id = payloads.parse(text or "")
                if card_id is not None and card_id not in used and _of_age(card_id, age, catalog):
                    slots[p.index] = card_id
                    used.add(card_id)
                    if sticker is not None:
                        at_place[p.index] = sticker
            if not at_place:
                break
        if known is not None and not deal:
            _known_off_place(homography, origins, m, layout, found, known, slots, used)
        # a face-up position still null looked for further out (`_told_further`): at the
        # deal among the cards that can lie there; later only where a card the box knew
        # face up there is held by a card over it (`_held`: it cannot have been taken, so
        # its code is nowhere else), that card alone (generated hand-laid frame 1960142,
        # hard light, spread 1: the rows' step fitted 43 mm on two codes where they lay
        # about 38 mm apart, caravansery's code 12 mm off the place cut)
        for p in layout.positions:
            held = (
                known is not None
                and not deal
                and known[p.index] not in (None, EMPTY)
                and _held(p, known)
            )
            if slots[p.index] is not None or not ((deal and p.face_up) or held):
                continue
            lie = can_lie(p.index, used)  # later: the card known there, if not read elsewhere
            if not lie:
                continue
            card_id = _told_further(gray, homography, origins, p.index, m, lie)
            if card_id is not None:
                slots[p.index] = card_id
                used.add(card_id)
    # a card whose art is about the table's shade (dim, blurred) may look like the bare
    # table, and a fit from a few cards strays by several mm at its far side, where the
    # sticker is then looked for in the wrong place: a position about to be told empty (not
    # known taken) is read again, its sticker looked for further out; a code of ours found
    # there leaves it untold, decoded or told by its blurred modules as a card of the age
    # (`_told_further`: generated hand-laid frame 2304051, hard light, spread 1, the device's
    # reading: baths, turned up, dim, laid 5 mm off the row's fit, its code read by no
    # decoder, was told empty)
    of_age = {c.id for c in catalog.cards if c.age == age}
    for p in layout.positions:
        if (
            slots[p.index] == EMPTY
            and p.index not in gone
            and (
                _read_slot(gray, best.homography, origins[p.index], m, decoder, CITY_REACH_MM)
                is not None
                or _told_further(gray, best.homography, origins, p.index, m, of_age) is not None
            )
        ):
            slots[p.index] = None
    # what was known tells a face-down card still covered: `known` is the moment before the
    # last card was taken, so of two cards that lay over it one at least lies there still
    # (a hand over them all, the view tells none of them); at the deal not recorded yet no
    # card is taken, and one card over it is enough
    if known is not None:
        least = 1 if _unrecorded_deal(known) else 2
        for p in layout.positions:
            over = sum(1 for i in p.covered_by if known[i] != EMPTY)
            face_down = not p.face_up and known[p.index] is None
            if slots[p.index] is None and face_down and over >= least:
                slots[p.index] = BACK
    # a fit strays with the distance from the cards it was made on (far more when they lie
    # on one row, or the steps are off by a little per row): a position more than a row away
    # from every card placed is not told empty from how it looks (generated hand-laid frame
    # 400017, hard light: a fit on three cards of row 1 saw row 4's card as bare table); from
    # the frame alone, nor one more than FAR_COLUMNS along its row from them (deal 1100305,
    # fine light, five codes readable at the right: a fit on them saw the card at the far
    # left of row 5 so). The device, which knows what lay there, still sees the card it
    # just took at the far end of a row gone (a late age's last cards)
    # Nor is one where the fit and an affine map of the same codes lie apart
    # (`FITS_APART_MM`, `_fits_apart`). What was known is weighed first, on every position
    # the view told empty: of two told newly empty, neither is told, one of them may be
    # a place the fit strays at, the other the card just taken or not
    if known is not None:
        _impossible_to_none(slots, known, layout, gone)
    at = [layout.positions[i] for i, s in enumerate(best.slots) if _is_card(s)]
    reach = FAR_COLUMNS if known is None else math.inf
    parted = _fits_apart(best, cards, layout)
    for p in layout.positions:
        far = all(abs(p.row - q.row) > 1 or abs(p.col - q.col) > reach for q in at)
        far = far or parted[p.index] > FITS_APART_MM
        if slots[p.index] == EMPTY and p.index not in gone and far:
            slots[p.index] = None
    _backs_under_cards(slots, layout, near, known, len(cards))
    _backs_under_placed(slots, layout, near, known, len(cards))
    _backs_seen(slots, layout, near, known, gone)
    _backs_under_known(slots, layout, near, known)
    placed_count = sum(1 for s in slots if s not in (None, "back", "empty"))
    told = (
        TableFit(near[0].homography, m.col_mm, m.row_mm)
        if len(near) == 1 and placed_count
        else None
    )
    return StructureReading(tuple(slots), placed_count, len(found) - placed_count, told)


def _beside_known(
    gray: np.ndarray,
    age: int,
    decoder: Decoder,
    catalog: Catalog,
    model: TableModel | None,
    found: Sequence[Sticker],
    known: Sequence[str | None],
    taken: Collection[str],
    fit: TableFit | None,
) -> list[Sticker]:
    """The codes of the cards known face up that no decoder read in the whole frame, read
    at their places (`_read_slot`, CITY_REACH_MM around) as a card read where the box knew
    it puts them, each such card alone (a hand over the rest of the structure): the card
    known at each place read there (for a reading that placed nothing). One card read
    where the box knew it places nothing by itself, since it may be the card just taken,
    laid in a city or held; a second card known, decoded where the first puts its place,
    lies where the box knew it, and so does the first (generated hand-laid frame 1910003,
    hard light, spread 0, age 3: observatory decoded, builders guild two places along
    decoded only at its place, palace just taken read in a city, nothing told)."""
    m = _as_laid(model, fit)
    origins = m.slot_corners(catalog.layout(age))
    ids = [payloads.parse(s.text) for s in found]
    where = {c: i for i, c in enumerate(known) if c is not None and _is_card(c)}
    beside: dict[str, Sticker] = {}
    for card_id, sticker in zip(ids, found, strict=True):
        if card_id not in where or ids.count(card_id) > 1 or card_id in taken:
            continue
        homography = _fit_at({where[card_id]: sticker}, origins, m)
        if homography is None or not _of_age(card_id, age, catalog):
            continue
        for other, i in where.items():
            if other in ids or other in taken or other in beside:
                continue
            read = _read_slot(gray, homography, origins[i], m, decoder, CITY_REACH_MM)
            if read is not None and payloads.parse(read.text) == other:
                beside[other] = read
    return list(beside.values())


def _in_structure(read: set[str | None], known: Sequence[str | None] | None) -> set[str | None]:
    """The cards of the age read that can count toward a frame's FEW_CARDS: all of them
    from the frame alone and at the deal not recorded yet; with `known` otherwise, only
    those known face up in the structure. Late in an age most cards of the age lie in the
    cities, decoded sharp beside the structure, while the few left in it are dim and
    blurred: counting the cities' cards, the frame looked no further and placed nothing
    (generated hand-laid frame 1440002, hard light, age 1, five cards left, a camera turned
    30 degrees: five cities' codes decoded, the structure's five read only from the codes'
    blobs)."""
    if known is None or _unrecorded_deal(known):  # at the deal every card lies in it
        return read
    return read & {c for c in known if c not in (None, EMPTY)}


BLOB_MODULES = (23.0, 25.0)  # a blob is the sticker (the code's 21 modules and its margin) or less
BLOB_MARGIN_MODULES = 4.0  # the cut around a blob's code for `known_codes.told_square`


def _known_blobs(
    gray: np.ndarray, blobs: Sequence[Blob], found: Sequence[Sticker], missing: set[str]
) -> list[Sticker]:
    """Of the codes' `blobs` (`_code_blobs`), those where no code was read, each told among
    `missing` (cards known face up in the structure and not read in the frame) by its
    blurred data modules as a position's code is (`known_codes.told_square`: each quarter
    turn, the blob taken as the sticker or a little less, the best registered told),
    corners in frame pixels. The telling's margin is over every sticker we print, so a
    city's card or a card not known there is refused as at a position. A dim room with a
    turned camera, late in an age: every code of the structure too blurred to decode,
    nothing placed (generated hand-laid frame 1440015, hard light, age 1, four cards left,
    one decoded from its blob)."""
    if not missing:
        return []
    told: list[Sticker] = []
    px = known_codes.PLACE_PX
    for centre, side, turn in blobs:
        if any(math.dist(s.center, centre) < max(s.side, side) / 2 for s in found):
            continue
        crops, backs = [], []
        for modules in BLOB_MODULES:
            module = side / modules
            cut = round((QR_MODULES + 2 * (QUIET_MODULES + BLOB_MARGIN_MODULES)) * px)
            scale = px / module
            for quarter in range(4):
                warp = cv2.getRotationMatrix2D(centre, turn + 90.0 * quarter, scale)
                warp[:, 2] += np.array([cut / 2 - centre[0], cut / 2 - centre[1]])
                crops.append(cv2.warpAffine(gray, warp, (cut, cut), flags=cv2.INTER_LINEAR))
                backs.append(cv2.invertAffineTransform(warp))
        got = known_codes.told_square(crops, missing)
        if got is not None:
            index, text, corners = got
            points = np.hstack([np.array(corners), np.ones((4, 1))]) @ backs[index].T
            told.append(Sticker(text, tuple(map(tuple, points))))  # type: ignore[arg-type]
            missing = missing - {payloads.parse(text)}
    return told


OFF_PLACE_MM = 16.0  # how far from where the fit puts a known card's code it is placed
# (generated hand-laid frame 1950021, hard light, spread 1, age 3: lighthouse, alone on its
# row between backs, decoded 14 mm from where a fit on the other rows put its code)


def _known_off_place(
    homography: np.ndarray,
    origins: Sequence[tuple[float, float]],
    m: TableModel,
    layout: Layout,
    found: Sequence[Sticker],
    known: Sequence[str | None],
    slots: list[Slot],
    used: set[str],
) -> None:
    """Each position left untold where the box knew a card face up, told that card when its
    code was decoded in the frame, placed nowhere, within OFF_PLACE_MM of where the fit
    puts the position's code and as large as a code laid there: a fit strays by a
    centimetre or more at a row laid far off the steps fitted, where the placements leave
    the code unplaced. Only the card known there is told there, and a code decoded is that
    card's; and only where a card known lay over it (`_held`: a covered card cannot have
    been taken since, whereas the card just taken, still known at its place, may lie a
    centimetre off it in a hand sliding it away)."""
    (left, top), (right, _), _, (_, bottom) = m.code_corners()
    for i, slot in enumerate(slots):
        card_id = known[i]
        if (
            slot is not None
            or card_id in (None, EMPTY)
            or card_id in used
            or not _held(layout.positions[i], known)
        ):
            continue
        centre_mm = (origins[i][0] + (left + right) / 2, origins[i][1] + (top + bottom) / 2)
        centre = _project(homography, np.array([centre_mm]))[0]
        per_mm = _px_per_mm(homography, centre_mm)
        expected = (right - left) * per_mm
        codes = [s for s in found if payloads.parse(s.text) == card_id]
        if len(codes) == 1 and (
            math.dist(codes[0].center, centre) <= OFF_PLACE_MM * per_mm
            and abs(codes[0].side / expected - 1) < SIZE_TOLERANCE
        ):
            slots[i] = card_id
            used.add(card_id)


FAR_COLUMNS = 6  # half-card steps: three cards along a row
FITS_APART_MM = 15.0  # a position where a placement's fit and an affine map of the same
# codes lie this far apart: the fit may stray there, and the view there is not told empty
# (generated hand-laid frame 2494027, hard light, spread 1, a later moment of age 3 with
# what the box knew: a fit on four cards at the structure's upper right put town hall's
# place, under an arm, 29.5 mm off the affine map's, over the bare table beside the card,
# and it was told empty). A card less than that off its place still lies over much of
# the parts of it looked at; at 8.5 mm (`FIT_TOLERANCE_MM`) 5 of 266 cards just taken in
# the later moments of 2490000-2490143 (hard light, spreads 0.5 and 1) were not told
# empty, at 15 mm none


def _fits_apart(option: _Option, cards: list[_Card], layout: Layout) -> list[float]:
    """For each position, how far apart (mm) the placement's fit and an affine map fitted
    on the same codes put its centre: a homography bends far from the codes it was made on
    (a card turned a few degrees turns its perspective), an affine map does not; where they
    part, neither is sure."""
    m = option.model
    origins = m.slot_corners(layout)
    if len(option.placed) < 3:  # fitted as an affine map or a similarity already
        return [0.0] * len(origins)
    stickers = {i: cards[j].sticker for i, j in option.placed.items()}
    affine, _ = cv2.estimateAffine2D(*_code_points(stickers, origins, m), method=cv2.LMEDS)
    if affine is None:
        return [math.inf] * len(origins)
    centres = np.array([(x + m.card_w / 2, y + m.card_h / 2) for x, y in origins])
    seen = _project(option.homography, centres)
    back = _project(np.linalg.inv(np.vstack([affine, [0.0, 0.0, 1.0]])), seen)
    return [float(d) for d in np.hypot(*(back - centres).T)]


def _impossible_to_none(
    slots: list[Slot], known: Sequence[str | None], layout: Layout, gone: frozenset[int]
) -> None:
    """Not told, the positions whose reading what was known rules out. `known` is the
    moment before the last card was taken: one card at most has left since, and it lay
    uncovered then (every position over it known empty). A position told empty that a card
    known there lay over, or more than one position told newly empty, is the view mistaken
    (a dark hand in a dim room passes for the bare table); so is one that did not lie over
    a card turned up since (a card read where a face-down card lay: the card taken was one
    of those over it; generated hand-laid frame 1950818, fine light, spread 1: lighthouse
    taken, senate turned up under it, and gardens, under a hand two places off, told
    empty); and a card read where another card was known to lie cannot be either."""
    fresh = _newly_empty(slots, layout, gone)
    deal = _unrecorded_deal(known)
    # of each card turned up since, the positions known over it: the card taken is among them
    over_turned = [
        {i for i in p.covered_by if known[i] != EMPTY}
        for p in layout.positions
        if not deal and known[p.index] is None and _is_card(slots[p.index])
    ]
    for p in fresh:
        uncovered = all(p.index in over for over in over_turned if over)
        if _held(p, known) or len(fresh) > 1 or deal or not uncovered:
            slots[p.index] = None
    for i, (slot, was) in enumerate(zip(slots, known, strict=True)):
        if _is_card(slot) and was is not None and was != EMPTY and was != slot:
            slots[i] = None


def _backs_under_cards(
    slots: list[Slot], layout: Layout, near: Sequence[_Option],
    known: Sequence[str | None] | None, read: int = 0,
) -> None:  # fmt: skip
    """Told "back", the face-down positions not told that a card told lies over: a covered
    card cannot have been taken, and it is turned up only once uncovered. Its own view
    may not tell it (a hand's edge over it; the card over it read only at its place, step
    7, after the view was classified: generated hand-laid deal 630000, fine light,
    position 15 under 18), but never where a placement as likely sees it bare. From the
    frame alone (no `known`), when a view of those placements shows the bare table where a
    card lies, only a card read in the whole frame and placed over it counts (step 10:
    its placement may be wrong too). With `known`, a card read by its code where the box
    knew it lay, in the one placement as likely, is where it lies: the face-down position
    it lies over holds a card even where its view looks bare (a dim back in hard light:
    generated hand-laid frame 1000011, a later moment, four backs each under one card
    left, every one looking bare)."""
    strict = known is None and any(o.misread for o in near)
    # one placement of many cards read (a structure whose codes are read nearly whole) is
    # not a placement shifted along a row or a diagonal: a face-down position every card
    # over which is told (two, or one at a row's end; each placed by its code or read at
    # its place, step 7) holds a card even where its view looks bare (a dim back in hard
    # light: generated hand-laid deal 940019, every back of the deal looked bare; 1000024,
    # the row ends; 1000035, a card over it read at its place; 1400036, the one card over
    # it read at its place); so is one with both ends of the layout's widest row placed
    # (`_holds_widest_row`); and from the frame alone, one that places every card read,
    # ALL_READ_PLACED or more, left alone by `_standing` (generated hand-laid deal
    # 1700014, hard light, seven cards read: six of its dim backs looked bare)
    whole = _unshiftable(near, layout, known, read)
    for p in layout.positions:
        if slots[p.index] is not None or p.face_up:
            continue
        covering = [i for i in p.covered_by if i in near[0].placed]
        if whole and p.covered_by and all(_is_card(slots[i]) for i in p.covered_by):
            slots[p.index] = BACK
            continue
        if (
            known is not None
            and len(near) == 1
            and known[p.index] is None
            and any(known[i] == slots[i] and _is_card(slots[i]) for i in covering)
        ):
            slots[p.index] = BACK
            continue
        if any(p.index in o.misread for o in near):
            continue
        if any(
            _is_card(slots[i]) and (not strict or all(i in o.placed for o in near))
            for i in p.covered_by
        ):
            slots[p.index] = BACK


def _backs_under_placed(
    slots: list[Slot], layout: Layout, near: Sequence[_Option],
    known: Sequence[str | None] | None, read: int,
) -> None:  # fmt: skip
    """From the frame alone, in one placement alone that cannot be shifted (as
    `_backs_under_cards` tells it: 8 cards or more placed by their codes, both ends of the
    widest row, or every card read), told "back": a face-down position not told that a
    card placed by its code lies over, even where its view looks bare and the card over
    its other side is not told (a hand over it). A card lies over it, so a card lies there
    and is face down (a covered card is neither taken nor turned up), whatever the view
    shows of it: in a dim room a back looks like the bare table (generated hand-laid deals
    1930013 and 1930024, hard light, a hand over the cards of the next row but one or two,
    the backs under those placed by their codes looking bare)."""
    if known is not None or not _unshiftable(near, layout, known, read):
        return
    option = near[0]
    for p in layout.positions:
        if (
            slots[p.index] is None
            and not p.face_up
            and any(i in option.placed and _is_card(slots[i]) for i in p.covered_by)
        ):
            slots[p.index] = BACK


WHOLE_PLACED = 8  # cards placed by their codes: a placement that cannot be shifted


def _unshiftable(
    near: Sequence[_Option], layout: Layout, known: Sequence[str | None] | None, read: int
) -> bool:
    """Whether the placements as likely are one that cannot be shifted along a row or a
    diagonal: WHOLE_PLACED cards or more placed by their codes, both ends of the layout's
    widest row placed (`_holds_widest_row`), or, from the frame alone, every one of the
    `read` cards of the age read placed, ALL_READ_PLACED or more (`_all_read_placed`)."""
    return len(near) == 1 and (
        len(near[0].placed) >= WHOLE_PLACED
        or _holds_widest_row(near[0].placed, layout)
        or (known is None and _all_read_placed(near, read))
    )


def _holds_widest_row(placed: Collection[int], layout: Layout) -> bool:
    """Whether cards are placed by their codes at both ends of the layout's widest row,
    when no other row is as wide (ages 1 and 2: six cards): such a placement cannot be
    shifted along a row, nor by rows (no other row reaches both its ends), as one of 8
    cards cannot (generated hand-laid deal 1500012, hard light, age 2: a hand over the
    middle, six cards placed, four of them on row 1 with both its ends; the back at 6,
    dim, under the card read at 11, looked bare)."""
    rows: dict[int, list[int]] = {}
    for p in layout.positions:
        rows.setdefault(p.row, []).append(p.index)
    widths = sorted((len(row) for row in rows.values()), reverse=True)
    if len(widths) > 1 and widths[0] == widths[1]:
        return False
    widest = max(rows.values(), key=len)
    return min(widest) in placed and max(widest) in placed


SEEN_CARD_SHARE = 0.5  # of a position's upper half at most this bare: a card lies there
BACK_TEXTURE = (0.5, 1.6)  # a back's grey spread against the backs told: at least, at most
# (2.0 before: generated hand-laid frame 1950430, hard light, spread 1, a later moment of
# age 3: the fingers of a hand the view did not find lay over academy, turned up, at 15,
# spread 1.81 times the backs told and told "back"; the backs so told in 1900000-1900059
# (deals) and 1950400-1950459 (later moments), spread 1 with a hand: 0.76 to 1.28; in
# 1900000-1900099 and 1930000-1930099 earlier, 0.79 to 1.55)
BACK_LIGHTER = 20.0  # grey a back's mean and 90th percentile may lie above the backs told
BACK_LINES = 0.5  # a back's lines (`_View.lines`' spread) against the backs told: at least
# (generated hand-laid frame 1900004, fine light, spread 0, from the frame alone: a glare
# on the bare table where a back had lain, 0.21 of the backs told, its grey spread and mean
# as a back's, told "back"; the backs told so in 1900000-1900059 at spreads 0 and 1: 0.91
# to 1.12)
BACK_BAND = 0.5  # a back's spread in the band of a few mm (`_View.band`) against the backs
# told: at least (generated hand-laid frame 2491064, hard light, spread 1, a later moment of
# age 3 from the frame alone: a hand the view did not find over position 15, taken, its
# grey and lines as the backs told, 0.27 of their band's spread, told "back"; the backs
# told there 2.3 to 3.8 times the table's, the hand 0.9)
BACKS_TOLD = 2  # backs told in the view, the least to compare a position with
HAND_EDGE_SHARE = 0.2  # of a position's upper half, and of its sticker's place, a hand's
# edge may lie over: its look is that of the rest
EDGE_TEXTURE = (0.67, 1.5)  # a back's grey spread against the backs told, where a hand's edge
# lies over it (more than HAND_SHARE): at least, at most (generated hand-laid deals 1900006,
# 1900013, 1900021 and frame 1700036: 1.00 to 1.04; frame 2001618, fine light, spread 1, a
# later moment from the frame alone, the camera turned half round: an arm over more of a
# taken position than the view found, the rest the arm's edge and the lower halves of the
# cards it had covered, 1.78, told "back" within BACK_TEXTURE)
TOLD_HAND_SHARE = 0.5  # of a back told's upper half a hand may lie over: the rest shows it


def _backs_seen(
    slots: list[Slot],
    layout: Layout,
    near: Sequence[_Option],
    known: Sequence[str | None] | None,
    gone: Collection[int],
) -> None:
    """In one placement alone, told "back": a face-down position not told (nor known to
    have turned up), no position over it told but those known taken (`gone`; a hand over
    the others), whose upper half shows a card's back
    as the backs told in the same view show theirs. Such a position holds a face-down card
    whose cover lies under the hand, or was uncovered: its card turned up (its sticker
    shows: paper, lighter than any back), or it was taken too (the cards it covered show
    their lower halves there: a card's art, far more varied in grey than a back). So its
    upper half must be in view (the view's hand, widened by a hand's width, over at most
    HAND_EDGE_SHARE of it and of its sticker's place: the edge of the hand over its covers),
    the part of it no hand lies over look bare over at most SEEN_CARD_SHARE, show no
    sticker, and its grey spread lie within BACK_TEXTURE of the median of BACKS_TOLD or more
    backs told whose upper halves show the same way, each on the part no hand lies over, at
    least half of it (a back's lines; the table's grain under a shadow is smoother; within
    EDGE_TEXTURE where a hand's edge lies over it), its lines (`_View.lines`) spread at
    least BACK_LINES of theirs (a glare's gradient on the bare table spreads its grey as
    much, but smoothly) and its spread in the band of a few mm at least BACK_BAND of
    theirs (a hand the view did not find is smooth there), its mean and 90th percentile at
    most BACK_LIGHTER above theirs (a guild's back is darker than its age's). Generated
    hand-laid deals 1900006, 1900013 and 1900021
    (fine light): the widened hand over 3 or 4 % of the back's upper half; 1900000: one
    back told in view with no hand over it, a second with the hand over a third of it.
    Not when the view shows the bare table where a card lies (step 10: the placement may
    be wrong too). Generated hand-laid deals 1500007, 1500021 (fine light) and 1500037
    (hard): a hand over the one card over the back, the back's lines in view; in the later
    moments of seeds 1500000-1500047 read from the frame alone, the 21 positions of the
    kind that were not backs (taken, or turned up) spread their grey 2.4 to 6 times the
    backs told. With what the box knew, a back with one card over it known taken and the
    other under a hand is told the same way (generated hand-laid frame 1700036, hard light:
    two such backs beside a hand over three cards of the last row)."""
    view = near[0].view
    if len(near) != 1 or view is None or near[0].misread:
        return
    option, m = near[0], near[0].model
    origins = m.slot_corners(layout)
    (left, top), (right, _), _, (_, bottom) = m.code_corners()
    quiet = (right - left) * QUIET_MODULES / QR_MODULES

    def upper_half(i: int, told: bool = False) -> tuple[np.ndarray, np.ndarray, float, bool] | None:
        """The grey and the lines (`_View.lines`) of the part of position i's upper half no
        hand lies over, its spread in the band of a few mm (`_View.band`), and whether a
        hand's edge lies over it (`_View.under_hand`), if that half is in view, a hand's
        edge at most over HAND_EDGE_SHARE of it and of its
        sticker's place (a back told: over at most TOLD_HAND_SHARE of it, its sticker's
        place aside), and that part shows a card, no sticker (None otherwise)."""
        x, y = origins[i]
        upper = view.region(x + 3, y + 3, x + m.card_w - 3, y + m.row_mm - 3)
        sticker = view.region(
            x + left - quiet, y + top - quiet, x + right + quiet, y + bottom + quiet
        )
        code = view.region(x + left + 1, y + top + 1, x + right - 1, y + bottom - 1)
        if not view.seen(upper) or not view.seen(sticker):
            return None
        free = ~view.hand[upper]
        if told:
            if float(free.mean()) < 1 - TOLD_HAND_SHARE:
                return None
        elif (
            float(free.mean()) < 1 - HAND_EDGE_SHARE
            or float(view.hand[sticker].mean()) > HAND_EDGE_SHARE
        ):
            return None
        bare = float(view.bare[upper][free].mean())
        if bare > SEEN_CARD_SHARE or view.sticker_shows(sticker, code):
            return None
        return (
            view.image[upper][free],
            view.lines[upper][free],
            _spread(view.band[upper][free]),
            view.under_hand(upper),
        )

    todo = [
        p
        for p in layout.positions
        if not p.face_up
        and slots[p.index] is None
        and p.index not in option.misread
        and p.covered_by
        and (known is None or known[p.index] is None)
        and all(slots[i] is None or i in gone for i in p.covered_by)
    ]
    if not todo:
        return
    told = [g for i, s in enumerate(slots) if s == BACK if (g := upper_half(i, True)) is not None]
    if len(told) < BACKS_TOLD:
        return
    spread = float(np.median([float(g.std()) for g, _, _, _ in told]))
    mean = float(np.median([float(g.mean()) for g, _, _, _ in told]))
    light = float(np.median([float(np.percentile(g, 90)) for g, _, _, _ in told]))
    lines = float(np.median([float(f.std()) for _, f, _, _ in told]))
    band = float(np.median([b for _, _, b, _ in told]))
    for p in todo:
        half = upper_half(p.index)
        if half is None:
            continue
        grey, fine, pattern, edged = half
        low, high = EDGE_TEXTURE if edged else BACK_TEXTURE
        if (
            float(fine.std()) >= BACK_LINES * lines
            and pattern >= BACK_BAND * band
            and low * spread <= float(grey.std()) <= high * spread
            and float(grey.mean()) <= mean + BACK_LIGHTER
            and float(np.percentile(grey, 90)) <= light + BACK_LIGHTER
        ):
            slots[p.index] = BACK


def _backs_under_known(
    slots: list[Slot], layout: Layout, near: Sequence[_Option],
    known: Sequence[str | None] | None,
) -> None:  # fmt: skip
    """With what was known, in the one placement as likely, told "back": a position known
    face down and not told, that a card known over it lies over still, read at its place
    (by its code in the whole frame, or at its place: step 7) where the box knew it. The
    card over it was not taken, so the card under it was neither taken nor turned up, even
    where the view shows it bare (a dim back in hard light, the fit a little off where no
    card was placed by its code: generated hand-laid frame 1910012, hard light, spread 1,
    brewery read at its place over two backs both looking bare). `_backs_under_cards`
    counts only the cards placed by their codes in the whole frame."""
    if known is None or len(near) != 1 or _unrecorded_deal(known):
        return
    for p in layout.positions:
        if (
            slots[p.index] is None
            and not p.face_up
            and known[p.index] is None
            and any(_is_card(slots[i]) and slots[i] == known[i] for i in p.covered_by)
        ):
            slots[p.index] = BACK


CITY_REACH_MM = 10.0  # how far from a half-step a code may lie and still be found there
CITY_ROW_SLACK_MM = 3.0  # per row further: a city's rows lie a little wider apart


def _stacked_city(
    option: _Option, cards: Sequence[_Card], gray: np.ndarray, layout: Layout,
    decoder: Decoder, age: int, catalog: Catalog,
) -> bool:  # fmt: skip
    """Whether the cards placed lie in two columns at most, as a city side's do, and a
    card of the age lies straight above or below one of them, a row (34 mm) away or two
    rows where the layout has no position: the cards placed are then a city's, laid in
    columns, each card straight under the one before (a city's rows lie about as far apart
    as the layout's, so two cards two rows apart in a city's column fit two rows of the
    pyramid; generated hand-laid frame 570084: a city's column of four cards, the fourth
    two rows and 10.5 mm above the top row of the three placed). The structure's rows are
    staggered by half a card, so none of its cards lies a row straight above another (its
    stickers are 23 mm or more away, and one is found only within CITY_REACH_MM), and
    none two rows above its top row or below its bottom one. A card a row away is looked
    for in the frame too (its code may not have been read in the whole frame)."""
    slots, homography, m = option.slots, option.homography, option.model
    where = {(p.row, p.col) for p in layout.positions}
    placed = [p for p in layout.positions if slots[p.index] not in (None, "back", "empty")]
    if not placed or len({p.col for p in placed}) > 2:
        return False
    inverse = np.linalg.inv(homography)
    used = set(option.placed.values())
    others = [
        _project(inverse, card.origin[None, :])[0]
        for j, card in enumerate(cards)
        if j not in used and any(_same_turn(card, cards[i]) for i in used)
    ]
    for p in placed:
        x, y = _project(inverse, cards[option.placed[p.index]].origin[None, :])[0]
        if any(_in_column(p, (x, y), other, m, where) for other in others):
            return True
        for row in (p.row - 1, p.row + 1):
            if (row, p.col) in where:
                continue
            at = m.card_origin(row, p.col)
            card_id = _card_id(_read_slot(gray, homography, at, m, decoder, CITY_REACH_MM))
            if _of_age(card_id, age, catalog):
                return True
    return False


def _city_column(
    option: _Option, found: Sequence[Sticker], layout: Layout, age: int, catalog: Catalog
) -> bool:
    """Whether, from the frame alone, a code of a card of another age than the structure's
    lies straight above or below a card placed, a row or two away where the layout has no
    position: the cards placed are then, some of them, a city's, laid in columns, each card
    straight under the one before, with cards of the ages before among them (no card of
    another age lies in the structure, and the structure's rows are staggered by half a
    card, so none of its cards lies a row straight above another). A city's columns fit
    the layout's rows two apart with steps fitted to them, and a card of the structure read
    beside them completed a placement of five cards in three columns, the city's cards of
    age 1 a row and a half above two of them (generated hand-laid frame 1901445, hard
    light, a later moment of age 2, a camera turned 35 degrees, an arm between the
    structure and the city: six positions told wrongly, by the reader before too)."""
    others = [
        s.center
        for s in found
        if (card_id := payloads.parse(s.text)) is not None
        and catalog.is_card(card_id)
        and not _of_age(card_id, age, catalog)
    ]
    if not others:
        return False
    m, inverse = option.model, np.linalg.inv(option.homography)
    where = {(p.row, p.col) for p in layout.positions}
    at = _project(inverse, np.array(others))
    origins = m.slot_corners(layout)
    for p in layout.positions:
        if p.index not in option.placed:
            continue
        x, y = _code_mm(m, origins[p.index]).mean(axis=0)
        if any(_in_column(p, (x, y), other, m, where) for other in at):
            return True
    return False


def _in_column(
    p: Position, at: tuple[float, float], other: np.ndarray, m: TableModel,
    where: Collection[tuple[int, int]],
) -> bool:  # fmt: skip
    """Whether a card at `other` (mm) lies straight above or below the card of position
    `p` at `at` (the same point of each card), a row or two away where the layout (`where`:
    its rows and columns) has no position, within CITY_REACH_MM, 3 mm more a row further
    (a city's rows lie a little wider apart than the layout's)."""
    (x, y), (ox, oy) = at, other
    rows = round((oy - y) / m.row_mm)
    return (
        rows != 0
        and abs(rows) <= 2
        and (p.row + rows, p.col) not in where
        and abs(ox - x) <= CITY_REACH_MM
        and abs(oy - y - rows * m.row_mm) <= CITY_REACH_MM + abs(rows) * CITY_ROW_SLACK_MM
    )


SLOT_REACH_MM = 7.0  # the margin of the second cut, where nothing was read in the first: not
# FIT_TOLERANCE_MM's 8.5 mm, since a wider cut stretches the grey of a dim code otherwise and
# reads fewer (generated hand-laid frame 470011, hard light: a card read at 7 mm, not at 8.5)
SLOT_PX_PER_MM = 6.0  # the sticker of a position rectified for the decoder: 5 px a module


def _refit(
    cards: Sequence[_Card],
    placed: dict[int, int],
    at_place: dict[int, Sticker],
    origins: Sequence[tuple[float, float]],
    m: TableModel,
) -> np.ndarray | None:
    """The placement fitted again (`_fit_at`) on the codes it placed and those decoded at
    their places since (`at_place`, position -> sticker); None when the fit fails or a card
    it placed does not lie where the new fit puts it (`_fits`)."""
    stickers = {i: cards[j].sticker for i, j in placed.items()} | at_place
    homography = _fit_at(stickers, origins, m)
    if homography is None or not all(
        _fits(cards[j], homography, origins[i], m) for i, j in placed.items()
    ):
        return None
    return homography


def _read_slot(
    gray: np.ndarray,
    homography: np.ndarray,
    origin: tuple[float, float],
    m: TableModel,
    decoder: Decoder,
    reach: float = SLOT_REACH_MM,
) -> Sticker | None:
    """The code of ours whose sticker lies at the place of a card at `origin`, decoded
    from that place alone, rectified and enlarged, its corners in frame pixels; None if no
    code of ours is read there, or a code not where (within `reach` mm) and as large as
    that place's (a card held up, or beside). The place is cut out with 4 mm around it
    first (a wider cut changes the stretch of grey of a dim code), then, when nothing is
    read there, with `reach` around it (a card laid by hand a few mm off its place)."""
    k = SLOT_PX_PER_MM
    (left, _), (right, _), _, _ = m.code_corners()
    for pad in (SLOT_PAD_MM, reach) if reach > SLOT_PAD_MM else (SLOT_PAD_MM,):
        crop, to_crop = _sticker_cut(gray, homography, origin, m, pad, k, cv2.INTER_CUBIC)
        size = crop.shape[0]
        for image in _variants(crop, SLOT_BLUR_MM * k):
            for sticker in _every_code(decoder, image):
                card_id = payloads.parse(sticker.text)
                expected = (right - left) * k
                if (
                    card_id is not None
                    and math.dist(sticker.center, (size / 2, size / 2)) <= reach * k
                    and abs(sticker.side / expected - 1) < SIZE_TOLERANCE
                ):
                    corners = _project(np.linalg.inv(to_crop), np.array(sticker.corners))
                    return Sticker(sticker.text, tuple(map(tuple, corners)))  # type: ignore[arg-type]
    return None


SLOT_PAD_MM = 4.0  # the margin of the first cut of a position's sticker


def _is_card(slot: Slot) -> bool:
    """Whether a slot names a card (not "back", "empty" or None)."""
    return slot not in (None, BACK, EMPTY)


def _card_id(sticker: Sticker | None) -> str | None:
    return None if sticker is None else payloads.parse(sticker.text)


SLOT_BLUR_MM = 0.6  # the unsharp mask's reach on a sticker's crop (about 3/4 of a module)


def _variants(crop: np.ndarray, blur: float) -> Iterator[np.ndarray]:
    """A sticker's crop as it is, then stretched to the full range of grey (a dim or glared
    room), then sharpened too (a blurred one), then the sticker alone (`_sticker_alone`):
    each decoded in turn until one reads."""
    yield np.ascontiguousarray(crop)
    stretched = _stretched(crop)
    if stretched is None:
        return
    yield stretched.astype(np.uint8)
    yield from _sharp(stretched, blur)
    alone = _sticker_alone(stretched.astype(np.uint8))
    if alone is not None:
        yield alone


def _stretched(crop: np.ndarray) -> np.ndarray | None:
    """A crop stretched to the full range of grey (float), None when it is about flat."""
    low, high = _percentiles(crop, (2, 98))
    if high - low < 8:
        return None
    return np.asarray(np.clip((crop.astype(np.float32) - low) * (255 / (high - low)), 0, 255))


def _percentiles(image: np.ndarray, qs: Sequence[float]) -> list[float]:
    """`np.percentile(image, qs)` of a uint8 image (its linear interpolation between the two
    nearest ranks, computed as NumPy does, so the same values), from the image's histogram:
    a fifth of the time on a sticker's crop, where a partition of every pixel took 0.25 ms."""
    if image.dtype != np.uint8:
        return [float(v) for v in np.percentile(image, qs)]
    flat = image.ravel()
    last = flat.size - 1
    ranks = np.cumsum(np.bincount(flat, minlength=256))
    values = []
    for q in qs:
        index = last * (q / 100)
        below = math.floor(index)
        gamma = index - below
        a = float(np.searchsorted(ranks, below, side="right"))
        b = float(np.searchsorted(ranks, min(below + 1, last), side="right"))
        values.append(a + (b - a) * gamma if gamma < 0.5 else b - (b - a) * (1 - gamma))
    return values


def _sharp(stretched: np.ndarray, blur: float) -> Iterator[np.ndarray]:
    """A stretched crop with unsharp masks of reach `blur`, the second twice as strong."""
    for amount in (1.5, 3.0):
        soft = cv2.GaussianBlur(stretched, (0, 0), blur)
        sharp = cv2.addWeighted(stretched, 1 + amount, soft, -amount, 0)
        yield np.clip(sharp, 0, 255).astype(np.uint8)


def _sticker_alone(crop: np.ndarray) -> np.ndarray | None:
    """The crop with everything outside the sticker's white square painted white: a
    neighbour's dark edge laid against the code takes its quiet zone, and the finder
    patterns on that side are not found (generated hand-laid deal 840033, position 2). The
    sticker is the largest light part of the crop (Otsu's threshold), filled to its outline
    (the code's dark modules inside it); None when no light part is found."""
    _, light = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    # its hull is the hull of its outline's pixels (a few hundred, not thousands)
    outline, _ = cv2.findContours(
        (labels == largest).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    inside = np.zeros_like(crop)
    cv2.fillConvexPoly(inside, cv2.convexHull(np.concatenate(outline)), 255)
    inside = cv2.erode(inside, np.ones((3, 3), np.uint8))
    return np.where(inside > 0, crop, 255).astype(np.uint8)


def _of_age(card_id: str | None, age: int, catalog: Catalog) -> bool:
    """Whether a code read is a card of the age (not a token, a wonder or a foreign code)."""
    return card_id is not None and catalog.is_card(card_id) and catalog.card(card_id).age == age


# placements looked at in the view before the frame is a cannot-tell: in 128 generated
# frames (seeds 0-39 and 200000-200023, both lights, from the frame alone) none that needed
# more told any position (they disagree; benchmarks/structure_limits.py), and such frames
# took up to 2 s here
MOST_VIEWS = 12
APART_VIEWS = 6  # placements looked at past which those as likely are not told apart by
# their codes (`_told_apart`): generated hand-laid deals 1400000-1400047 (2304x1296, hard) read
# the same with this bound as without, and those that looked at more placements, told
# apart nowhere, took up to 0.26 CPU s without it
FEW_CARDS = 4  # fewer cards of the age read in a frame: decoded again, sharpened
SHARPEN_SIGMA = 2.0  # px at 2304 wide: the blur an unsharp mask takes away


def _zoom(gray: np.ndarray) -> int:
    """How much a frame is enlarged before its sharpened decoding: twice at 2304x1296 (2.6
    px a module, too few for a blurred code), not at full resolution (5 px a module)."""
    return 2 if gray.shape[1] <= 2600 else 1


def _sharpened(gray: np.ndarray) -> np.ndarray:
    """The frame stretched, with an unsharp mask (the defocus of a dim room taken back) and
    enlarged by `_zoom` (cubic), for a second decoding when the first reads few codes."""
    zoom = _zoom(gray)
    sigma = SHARPEN_SIGMA * gray.shape[1] / 2304
    soft = cv2.GaussianBlur(gray, (0, 0), sigma)
    # stretched to the full range of grey at once (a dim room), a lamp's highlight aside
    low, high = _percentiles(gray[::8, ::8], (1, 99.5))
    gain = 255 / max(float(high - low), 16.0)
    sharp = cv2.addWeighted(gray, 1.8 * gain, soft, -0.8 * gain, -float(low) * gain)
    if zoom > 1:
        sharp = cv2.resize(sharp, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    return np.ascontiguousarray(sharp)


def _every_code(decoder: Decoder, gray: np.ndarray) -> list[Sticker]:
    """`_decoded`'s codes, read and told by their modules, together."""
    found, matched, _ = _decoded(decoder, gray)
    return found + matched


def _decoded(
    decoder: Decoder,
    gray: np.ndarray,
    stickers: list[Sticker] | None = None,
    undecoded: Sequence[Corners] = (),
) -> tuple[list[Sticker], list[Sticker], int]:
    """The codes `decoder` reads in `gray` (or `stickers`, already read there, with
    `undecoded`, the corners of those found there but not decoded), those it found but
    could not decode told by their modules (`known_codes.match`: zxing-cpp reports them; a
    blurred code in hard light), each once (a code found where another one lies is not
    told), and how many codes it found but could not decode."""
    if stickers is None:
        found, unread = decode_all(decoder, gray)
    else:
        found, unread = stickers, list(undecoded)
    matched: list[Sticker] = []
    for corners in unread:
        sticker = known_codes.match(gray, _squared(corners))
        if sticker is not None and not _at_a_code(sticker.center, found + matched):
            matched.append(sticker)
    return found, matched, len(unread)


def _at_a_code(centre: tuple[float, float], stickers: Sequence[Sticker]) -> bool:
    """Whether `centre` lies at one of `stickers`' codes: within half its side of its centre
    (a code found there is that code again)."""
    return any(math.dist(s.center, centre) < s.side / 2 for s in stickers)


def _squared(corners: Corners) -> Corners:
    """The corners of a code found but not decoded (top-left, top-right, bottom-right,
    bottom-left of the code), its bottom-right corner, the one without a finder pattern,
    put where the other three make the code a parallelogram: the decoder guesses that corner
    from modules it could not read, and its guess may lie a few modules off (generated
    hand-laid deal 1900003, fine light, a camera turned half round: sawmill's corner 12 px
    off at a side of 50 px, so the code looked a quarter larger than its neighbours and no
    fit kept it at its place). A code 50 to 60 cm below the camera shows no perspective
    within its own square; a corner within OFF_MODULES of that place is left as the
    decoder found it."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    x, y = x1 + x3 - x0, y1 + y3 - y0
    module = (math.dist((x0, y0), (x1, y1)) + math.dist((x0, y0), (x3, y3))) / 2 / QR_MODULES
    if math.dist((x, y), (x2, y2)) <= OFF_MODULES * module:
        return corners
    return ((x0, y0), (x1, y1), (x, y), (x3, y3))


OFF_MODULES = 3.0  # how far a code's guessed corner may lie off its parallelogram's place


BLOB_SIDES_PX = (35.0, 80.0)  # a code's side at 2304 wide: 2.3 to 2.8 px a module from 50-60 cm
BLOB_EDGE_SHARE = 0.6  # of the frame's strongest edges (99.5th percentile): a code's edges
BLOB_CLOSE_PX = 7  # at 2304 wide: a code's modules closed into one blob, a line opened away
BLOB_SMOOTH_PX = 1.0  # at 2304 wide: a dim room's noise smoothed away, a code's modules kept
BLOB_FILL = 0.75  # share of its turned bounding square a code's blob fills
BLOB_CUT = 1.35  # the cut around a blob, of its side: the code's quiet zone and a margin
BLOB_PX_PER_MODULE = 5.0
BLOB_BLUR_MODULES = 0.75  # the unsharp mask's reach on a blob's cut (SLOT_BLUR_MM's)


Blob = tuple[tuple[float, float], float, float]  # a code's blob: its centre, side and turn


def _code_blobs(gray: np.ndarray) -> list[Blob]:
    """Where codes may lie in a frame: blobs of strong edges (dense dark and light modules,
    closed into one blob; an outline or a line of a card's art is opened away) about as
    large as a code and square: each its centre, side and turn (degrees)."""
    zoom = gray.shape[1] / 2304
    low, high = (side * zoom for side in BLOB_SIDES_PX)
    smooth = cv2.GaussianBlur(gray, (0, 0), BLOB_SMOOTH_PX * zoom)  # the sensor's noise
    edges = cv2.morphologyEx(smooth, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    level = BLOB_EDGE_SHARE * _percentiles(edges[::4, ::4], (99.5,))[0]
    _, strong = cv2.threshold(edges, level, 255, cv2.THRESH_BINARY)
    kernel = np.ones((round(BLOB_CLOSE_PX * zoom),) * 2, np.uint8)
    blobs = cv2.morphologyEx(strong, cv2.MORPH_CLOSE, kernel)
    blobs = cv2.morphologyEx(blobs, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(blobs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        # most parts are specks of noise or lines: only those of a code's size are looked at
        _, _, w, h = cv2.boundingRect(contour)
        if max(w, h) < low or min(w, h) > high * 1.2 * math.sqrt(2):
            continue
        centre, (width, height), turn = cv2.minAreaRect(contour)
        if min(width, height) < low or max(width, height) > high * 1.2:
            continue
        fill = cv2.contourArea(contour) / (width * height)
        if max(width, height) > 1.35 * min(width, height) or fill < BLOB_FILL:
            continue
        found.append(((float(centre[0]), float(centre[1])), max(width, height), turn))
    return found


def _blob_codes(gray: np.ndarray, decoder: Decoder, blobs: Sequence[Blob]) -> list[Sticker]:
    """The codes read in `blobs` (where `_code_blobs` finds a code may lie), each cut out
    turned square and enlarged to 5 px a module, then decoded as a position's sticker is
    (`_variants`): a frame whose codes the whole frame's decoding finds but cannot read
    (hard light at 2304x1296: 2.6 px a module, blurred), corners in frame pixels."""
    found: list[Sticker] = []
    for centre, side, turn in blobs:
        cut = side * BLOB_CUT
        size = round(BLOB_CUT * QR_MODULES * BLOB_PX_PER_MODULE)
        corners = cv2.boxPoints((centre, (cut, cut), turn)).astype(np.float32)
        square = np.array([[0, size], [0, 0], [size, 0], [size, size]], dtype=np.float32)
        to_crop = cv2.getPerspectiveTransform(corners, square)
        crop = cv2.warpPerspective(gray, to_crop, (size, size), flags=cv2.INTER_CUBIC)
        stretched = _stretched(crop)
        if stretched is None:
            continue
        # sharpened at once: of the codes these cuts read in generated hard frames (seeds
        # 940000-940029, spread 1), the first unsharp mask reads all but 9 of 336, the
        # cut as it is or stretched only 2 more
        read: list[Sticker] = []
        for image in _sharp(stretched, BLOB_BLUR_MODULES * BLOB_PX_PER_MODULE):
            read = [s for s in _every_code(decoder, image) if payloads.parse(s.text)]
            if read:
                break
        else:  # no finder pattern found: its modules placed by the patterns every code has
            told = known_codes.match_square(stretched, size / BLOB_CUT)
            read = [] if told is None else [told]
        back = np.linalg.inv(to_crop)
        for sticker in read:
            points = _project(back, np.array(sticker.corners))
            found.append(Sticker(sticker.text, tuple(map(tuple, points))))  # type: ignore[arg-type]
    return found


def _merged(first: list[Sticker], more: list[Sticker], zoom: int) -> list[Sticker]:
    """The codes of both decodings (`more`'s corners divided by `zoom`), a code found by
    both at the same place once (at different places it stays twice: read twice)."""
    found = list(first)
    for sticker in more:
        corners = tuple((x / zoom, y / zoom) for x, y in sticker.corners)
        again = Sticker(sticker.text, corners)  # type: ignore[arg-type]
        if not any(
            s.text == again.text and math.dist(s.center, again.center) < s.side / 2 for s in first
        ):
            found.append(again)
    return found


def _agrees(placed: dict[int, int], cards: list[_Card], known: Sequence[str | None]) -> bool:
    """Whether a placement puts every card read that was seen earlier where it was seen,
    and no card read where another one was seen."""
    where = {card_id: i for i, card_id in enumerate(known) if card_id is not None}
    return all(
        where.get(cards[j].id, i) == i and known[i] in (None, cards[j].id)
        for i, j in placed.items()
    )


def _can_turn_up(placed: dict[int, int], layout: Layout, known: Sequence[str | None]) -> bool:
    """Whether the face-down positions known (`known` None) where a placement puts a card
    read can have turned up since: `known` is the moment before the last card was taken, so
    the cards over all of them not known taken are one card at most (the one just taken).
    A city's two cards on a row otherwise fit two positions under cards the box knows lie
    there still (generated hand-laid frame 1530043, hard light, age 3: as likely as the two
    cards read where the box knew them, and nothing was told)."""
    over = {
        i
        for p in (layout.positions[k] for k in placed)
        if not p.face_up and known[p.index] is None
        for i in p.covered_by
        if known[i] != EMPTY
    }
    return len(over) <= 1


BLURRED_REACH_MM = 7.0  # how far off its place a code is looked for (SLOT_REACH_MM)


DEAL_REACH_MM = 12.0  # how far off its place a code is looked for again (`_told_further`)


def _told_further(
    gray: np.ndarray, homography: np.ndarray, origins: Sequence[tuple[float, float]],
    index: int, m: TableModel, candidates: Collection[str],
) -> str | None:  # fmt: skip
    """The card of a position no code was read at (face up at the deal not recorded yet,
    held there since the box knew it, or about to be told empty), its sticker looked for
    DEAL_REACH_MM around its place (BLURRED_REACH_MM's cut leaves out a code further off)
    and told among `candidates` (`known_codes.told_where`), when the code told lies nearer
    that position's sticker than any other position's, by the fit. A fit on the cards read
    strays by 8 to 15 mm at a row's far end (generated hand-laid deals 1950065, 1950204
    and 1950233, hard light, spread 1: the cut at the place held part of the code, told by
    no sticker). The positions' stickers lie 40 mm apart or more: the code found is that
    of the position nearest it (at the deal no card of the age lies in a city; later, only
    the card held there is a candidate)."""
    crop, to_crop = _place_cut(gray, homography, origins[index], m, DEAL_REACH_MM)
    text, at = known_codes.told_where(crop, candidates)
    if text is None:
        return None
    x, y = _project(np.linalg.inv(homography) @ np.linalg.inv(to_crop), np.array([at]))[0]
    cx, cy = m.code_centre()
    nearest = min(
        range(len(origins)),
        key=lambda i: math.hypot(origins[i][0] + cx - x, origins[i][1] + cy - y),
    )
    return payloads.parse(text) if nearest == index else None


def _place_crop(
    gray: np.ndarray, homography: np.ndarray, origin: tuple[float, float], m: TableModel
) -> np.ndarray:
    """The place of the sticker of a card at `origin` rectified at known_codes.PLACE_PX a
    module: the code, its quiet zone and BLURRED_REACH_MM around them."""
    return _place_cut(gray, homography, origin, m, BLURRED_REACH_MM)[0]


def _place_cut(
    gray: np.ndarray, homography: np.ndarray, origin: tuple[float, float], m: TableModel,
    reach: float,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The place of the sticker of a card at `origin` rectified at known_codes.PLACE_PX a
    module (the code, its quiet zone and `reach` mm around them), and the map from the
    frame's pixels to the cut's (`_sticker_cut`)."""
    (left, _), (right, _), _, _ = m.code_corners()
    module = (right - left) / QR_MODULES
    pad = reach + QUIET_MODULES * module
    k = known_codes.PLACE_PX / module
    return _sticker_cut(gray, homography, origin, m, pad, k, cv2.INTER_LINEAR)


def _sticker_cut(
    gray: np.ndarray,
    homography: np.ndarray,
    origin: tuple[float, float],
    m: TableModel,
    pad: float,
    k: float,
    flags: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The place of the sticker of a card at `origin` (its code and `pad` mm around it)
    rectified square at `k` px a mm, and the map from the frame's pixels to the cut's."""
    (left, top), (right, _), _, _ = m.code_corners()
    x0, y0 = origin[0] + left - pad, origin[1] + top - pad
    to_crop = np.array([[k, 0, -x0 * k], [0, k, -y0 * k], [0, 0, 1.0]]) @ np.linalg.inv(homography)
    size = round((right - left + 2 * pad) * k)
    crop = cv2.warpPerspective(gray, to_crop, (size, size), flags=flags)
    return np.asarray(crop), to_crop
