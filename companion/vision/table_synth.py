"""Generated top views of the table: an age's structure at some moment of the age, seen by
the overhead camera, with its truth.

A pinhole camera (66-degree horizontal field of view, like the Raspberry Pi Camera Module 3)
hangs `height_mm` (500 to 600) above the table, turned any way around and tilted up to 15
degrees, at 2304x1296 or 4608x2592. The structure of an age is dealt from the catalog and
some cards are taken as the rules allow (accessible ones only; a face-down card shows its
face once uncovered); the cards lie a little askew. Beside the structure lie what a table
holds: both cities (cards of this and earlier ages, with their stickers), wonders and
progress tokens with their stickers, and a phone or a box with a foreign QR code. A hand may
reach over the structure.

`spread` lays the structure as people do, by eye: 0 is the spacing data/table.toml names
(rows 34 mm apart, 2 mm between the cards of a row, each card within about a millimetre and
a degree of its place); 1 draws the table's rows 50 to 60 % of a card's height apart (34 to
40.8 mm) and its gaps 1 to 4 mm, turns each card a few degrees and shifts it a few mm, and
puts each sticker a little off its place (about a millimetre); between, the same drawn
deviations scaled. Those draws come from their own generator, so a seed's table at spread 0
is the one it always was. The frame then gets blur, light, glare, noise and JPEG like the
hand-held frames (companion/vision/synth.py). All is drawn from `random.Random(seed)`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import cv2
import numpy as np

from companion.engine.catalog import default_catalog
from companion.vision import payloads, synth
from companion.vision.table import TableModel, table_model

Moment = Literal["start", "middle", "late", "any"]
RESOLUTIONS = {"2304x1296": (2304, 1296), "4608x2592": (4608, 2592)}
HFOV_DEG = 66.0  # Camera Module 3, standard lens
BACK_LUMA = {1: 130.0, 2: 100.0, 3: 85.0, 4: 55.0}  # age 1, 2, 3 backs; 4: the guilds' back


@dataclass(slots=True)
class TableScene:
    """A generated top view and its truth, slot by slot in layout order."""

    frame: np.ndarray
    age: int
    truth: list[str]  # a card id, "back" or "empty"
    hidden: list[bool]  # the slot's visible part is under a hand
    plane_to_frame: np.ndarray  # homography, table plane (mm, structure model) -> pixels
    module_px: float  # size of a code module in the frame, pixels
    beside: list[str]  # ids of the stickers lying beside the structure (cities, wonders...)
    foreign: int  # foreign QR codes in view
    deal: list[str]  # the card dealt at each position, in layout order
    taken: list[int]  # the positions gone, in the order they were taken
    covered: list[bool] = field(default_factory=lambda: [False] * 20)  # a card laid over
    # part of the slot's face-up code (laid by hand, off its place): no reader can read it
    col_mm: float = 23.0  # the layout's half-card step as laid on this table
    row_mm: float = 34.0  # how far apart its rows were laid
    codes: dict[int, np.ndarray] = field(default_factory=dict)  # each face-up card's code:
    # its four corners on the table (mm, the frame of `plane_to_frame`), by position

    @property
    def seen(self) -> list[str | None]:
        """The card a camera watching the age saw at each position: every card that lay face
        up (at the deal or once uncovered, taken ones too); None for those still face down."""
        pairs = zip(self.deal, self.truth, strict=True)
        return [None if truth == "back" else card for card, truth in pairs]

    @property
    def known(self) -> list[str | None]:
        """What the box knows at each position when the last card taken has just left the
        structure (as `overhead.known_cards` gives it; the frame is the first one that shows
        that card gone): "empty" where a card was taken and recorded before, the card where
        it lay face up at the deal or was turned up since (the last card taken too: not
        recorded yet), None for a card face down until the last card taken uncovered it."""
        layout = default_catalog().layout(self.age)
        before = set(self.taken[:-1])
        known: list[str | None] = []
        for position, card in zip(layout.positions, self.deal, strict=True):
            if position.index in before:
                known.append("empty")
            elif position.face_up or all(i in before for i in position.covered_by):
                known.append(card)
            else:
                known.append(None)
        return known

    @property
    def taken_cards(self) -> list[str]:
        """The cards the game has recorded as taken (all but the last one taken)."""
        return [self.deal[i] for i in self.taken[:-1]]

    @property
    def newly_empty(self) -> int | None:
        """The position of the last card taken (the one the box has not recorded yet)."""
        return self.taken[-1] if self.taken else None


def _deal(age: int, rng: random.Random) -> list[str]:
    """20 cards of `age` in layout order (age 3: 17 age cards and 3 guilds)."""
    catalog = default_catalog()
    deck: list[str] = [c.id for c in catalog.age_deck(age)]
    cards = rng.sample(deck, 20 if age < 3 else 17)
    if age == 3:
        cards += rng.sample([g.id for g in catalog.guilds], 3)
        rng.shuffle(cards)
    return cards


def _take(age: int, count: int, rng: random.Random) -> list[int]:
    """The positions taken, in order, after `count` cards were taken, each accessible when
    taken."""
    layout = default_catalog().layout(age)
    taken: list[int] = []
    for _ in range(count):
        free = [
            p.index
            for p in layout.positions
            if p.index not in taken and all(i in taken for i in p.covered_by)
        ]
        taken.append(rng.choice(free))
    return taken


def _order(age: int, taken: Collection[int]) -> list[int]:
    """Given positions gone, an order in which they could have been taken (each accessible
    when taken; the nearest first)."""
    layout = default_catalog().layout(age)
    order: list[int] = []
    while len(order) < len(taken):
        free = [
            p.index
            for p in reversed(layout.positions)
            if p.index in taken and p.index not in order
            and all(i in order or i not in taken for i in p.covered_by)
        ]  # fmt: skip
        if not free:  # not a set the rules allow: in layout order
            return order + sorted(set(taken) - set(order))
        order.append(free[0])
    return order


def _back_texture(age: int, scale: float, rng: random.Random, model: TableModel) -> np.ndarray:
    """A card back: the age's shade and a pattern of lines."""
    w, h = round(model.card_w * scale), round(model.card_h * scale)
    base = BACK_LUMA[age] + rng.uniform(-8, 8)
    tex = np.full((h, w), base, dtype=np.float32)
    step = max(2, round(6 * scale))
    for k in range(-h, w + h, step):
        cv2.line(tex, (k, 0), (k + h, h), base + 25, max(1, round(0.6 * scale)))
        cv2.line(tex, (k, 0), (k - h, h), base - 20, max(1, round(0.6 * scale)))
    cv2.rectangle(tex, (0, 0), (w - 1, h - 1), base + 40, max(1, round(1.2 * scale)))
    return tex


def _card_corners(origin: tuple[float, float], angle_deg: float, model: TableModel) -> np.ndarray:
    """The four corners of a card with its top-left near `origin`, turned about its centre."""
    cx, cy = origin[0] + model.card_w / 2, origin[1] + model.card_h / 2
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    half = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    return np.array(
        [
            (
                cx + c * dx * model.card_w / 2 - s * dy * model.card_h / 2,
                cy + s * dx * model.card_w / 2 + c * dy * model.card_h / 2,
            )
            for dx, dy in half
        ],
        dtype=np.float64,
    )


def _to_frame(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.perspectiveTransform(points[None].astype(np.float64), homography)[0])


def _put(
    frame: np.ndarray,
    alpha: np.ndarray,
    tex: np.ndarray,
    corners_mm: np.ndarray,
    plane_to_frame: np.ndarray,
) -> None:
    th, tw = tex.shape
    source = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], dtype=np.float32)
    target = _to_frame(plane_to_frame, corners_mm).astype(np.float32)
    synth._place(frame, alpha, tex, cv2.getPerspectiveTransform(source, target))


def _camera_homography(
    geometry: synth.Geometry, rng: random.Random, centre: tuple[float, float], difficulty: str
) -> np.ndarray:
    """Table plane (mm) -> pixels for a camera above the structure's `centre`, turned and
    tilted at random."""
    yaw = (
        rng.uniform(0, 360)
        if difficulty != "fine"
        else rng.choice((0, 90, 180, 270)) + rng.gauss(0, 5)
    )
    tilt = rng.uniform(0, 15) if difficulty != "fine" else rng.uniform(0, 6)
    rotation = synth._rotation(yaw, tilt, rng.uniform(0, 360))
    offset = np.array([rng.uniform(-40, 40), rng.uniform(-25, 25), geometry.table_mm])
    plane = np.array([[-100, -100], [100, -100], [100, 100], [-100, 100]], dtype=np.float64)
    flat = np.hstack([plane, np.zeros((4, 1))])
    pixels = synth._project(geometry, (rotation @ flat.T).T + offset)
    shifted = plane + np.array(centre)
    return np.asarray(
        cv2.getPerspectiveTransform(shifted.astype(np.float32), pixels.astype(np.float32))
    )


def _px_per_mm(plane_to_frame: np.ndarray, at: tuple[float, float]) -> float:
    """Pixels per millimetre of the table plane at `at` (mm)."""
    a, b = _to_frame(plane_to_frame, np.array([at, (at[0] + 1.0, at[1])]))
    return float(np.linalg.norm(b - a))


def _hand(
    frame: np.ndarray,
    alpha: np.ndarray,
    plane_to_frame: np.ndarray,
    rng: random.Random,
    tip: tuple[float, float],
    bottom: float,
) -> np.ndarray:
    """A hand reaching from the players' side to `tip` (mm): arm, palm, four fingers and a
    thumb, in a skin shade darker or lighter than the table, rounded (darker toward its
    outline) and casting a soft shadow. Returns the mask (0..1) drawn."""
    h, w = frame.shape
    mask = np.zeros((h, w), dtype=np.uint8)
    arm = np.array(
        [[tip[0] - 32, tip[1] + 40], [tip[0] + 32, tip[1] + 40],
         [tip[0] + 45 + rng.uniform(-20, 20), bottom + 400],
         [tip[0] - 45 + rng.uniform(-20, 20), bottom + 400]]
    )  # fmt: skip
    cv2.fillPoly(mask, [np.round(_to_frame(plane_to_frame, arm)).astype(np.int32)], 255)
    palm = np.asarray(
        cv2.ellipse2Poly(
            (round(tip[0]), round(tip[1] + 25)), (42, 55), round(rng.uniform(-20, 20)), 0, 360, 10
        )
    )
    cv2.fillPoly(
        mask, [np.round(_to_frame(plane_to_frame, palm.astype(np.float64))).astype(np.int32)], 255
    )
    px_per_mm = _px_per_mm(plane_to_frame, tip)
    side = rng.choice((-1, 1))  # the thumb's side: a left or a right hand
    fingers = [  # four fingers toward the far rows, and the thumb out to the side
        ((tip[0] - 27 + k * 18, tip[1] - 10), (rng.uniform(-6, 6), -rng.uniform(25, 45)), 15)
        for k in range(4)
    ] + [((tip[0] + side * 38, tip[1] + 30), (side * rng.uniform(15, 30), -rng.uniform(5, 25)), 18)]
    for base, (dx, dy), thickness in fingers:
        line = np.array([base, (base[0] + dx, base[1] + dy)])
        a, b = np.round(_to_frame(plane_to_frame, line)).astype(np.int32)
        width = max(2, round(thickness * px_per_mm))
        cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255, width)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 3)
    # the shadow it casts on the table and cards, offset away from the light
    offset = np.array(
        [[1, 0, rng.uniform(-12, 12) * px_per_mm], [0, 1, rng.uniform(4, 14) * px_per_mm]],
        dtype=np.float32,
    )
    moved = np.asarray(cv2.warpAffine(soft, offset, (w, h)), dtype=np.float32)
    shadow = cv2.GaussianBlur(moved, (0, 0), max(1.0, 4 * px_per_mm))
    frame[:] = frame * (1 - rng.uniform(0.15, 0.35) * shadow * (1 - soft))
    # rounded: the skin darkens toward the outline
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 5) / max(1.0, 12 * px_per_mm)
    # darker or lighter than the table: a hand of the table's very shade has no outline
    # in a grey frame (docs/vision.md)
    under = (mask > 0) & (alpha < 0.01)  # the table where the hand lies
    table = float(np.median(frame[under])) if under.any() else float(np.median(frame))
    contrast = rng.uniform(40, 100)
    darker, lighter = table - contrast, table + contrast / 0.9  # its outline too
    skin = lighter if darker < 50 or (lighter <= 230 and rng.random() < 0.5) else darker
    shade = cv2.GaussianBlur(
        np.random.default_rng(rng.randrange(2**32)).normal(0, 12, (h // 16 + 1, w // 16 + 1)),
        (0, 0),
        2,
    )
    skin_map = skin * (0.9 + 0.1 * np.minimum(inside, 1.0)) + cv2.resize(
        shade.astype(np.float32), (w, h)
    )
    frame[:] = frame * (1 - soft) + skin_map * soft
    return soft


@dataclass(frozen=True, slots=True)
class HandLaid:
    """A structure laid by eye: the spacing of its rows and columns, and per position (layout
    order) how far each card lies off its place (mm), how much it is turned (degrees) and how
    far its sticker sits off the place data/table.toml gives it (mm)."""

    col_mm: float
    row_mm: float
    shifts: tuple[tuple[float, float], ...]
    turns: tuple[float, ...]
    sticker_offsets: tuple[tuple[float, float], ...]


def hand_laid(seed: int, spread: float, model: TableModel) -> HandLaid:
    """The layout of the structure of `seed` laid by hand with `spread` (0: as the file
    says; 1: rows 50-60 % of a card's height apart, gaps of 1-4 mm, cards turned up to about
    4 degrees and shifted up to about 3 mm, stickers up to about 1.5 mm off)."""
    rng = random.Random(f"{seed}:laid")
    gap = 2 * model.col_mm - model.card_w
    row = model.row_mm + spread * rng.uniform(0, 0.6 * model.card_h - model.row_mm)
    col = (model.card_w + gap + spread * rng.uniform(1 - gap, 4 - gap)) / 2

    def gauss(sigma: float, limit: float) -> float:
        return max(-limit, min(limit, rng.gauss(0, sigma))) * spread

    shifts = tuple((gauss(1.2, 3.0), gauss(1.2, 3.0)) for _ in range(20))
    turns = tuple(gauss(1.6, 4.0) for _ in range(20))
    offsets = tuple((gauss(0.6, 1.5), gauss(0.6, 1.5)) for _ in range(20))
    return HandLaid(col, row, shifts, turns, offsets)


def _code_on(
    outline: np.ndarray, offset: tuple[float, float], code: Sequence[tuple[float, float]]
) -> np.ndarray:
    """The corners of the code of a card lying at `outline` (its corners, mm), its sticker
    put `offset` mm off its place."""
    origin, right, _, bottom = outline
    u = (right - origin) / np.linalg.norm(right - origin)
    v = (bottom - origin) / np.linalg.norm(bottom - origin)
    return np.array([origin + u * (x + offset[0]) + v * (y + offset[1]) for x, y in code])


def _covered(codes: dict[int, np.ndarray], lying: list[tuple[int, np.ndarray]]) -> list[bool]:
    """Per position, whether a card laid after it lies over part of its code (a card laid
    by hand a few mm off its place, on a row laid close): no reader can read that sticker."""
    covered = [False] * 20
    k = 4.0  # px per mm of the raster the shapes are drawn on
    for index, corners in codes.items():
        low = corners.min(axis=0) - 1
        size = (np.ceil((corners.max(axis=0) + 1 - low) * k)).astype(int)
        code = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(code, np.round((corners - low) * k).astype(np.int32), 1)
        later = False
        for other, outline in lying:
            if other == index:
                later = True
                continue
            if not later:
                continue
            over = np.zeros_like(code)
            cv2.fillConvexPoly(over, np.round((outline - low) * k).astype(np.int32), 1)
            if (over & code).sum() > k * k:  # more than about a square millimetre
                covered[index] = True
                break
    return covered


def _moment(age: int, moment: Moment, rng: random.Random) -> int:
    """How many cards have been taken at `moment`."""
    ranges = {"start": (0, 2), "middle": (3, 12), "late": (13, 18), "any": (0, 18)}
    low, high = ranges[moment]
    return rng.randint(low, high)


def random_table(
    seed: int,
    *,
    age: int | None = None,
    moment: Moment = "any",
    resolution: str = "2304x1296",
    sticker_mm: float | None = None,
    difficulty: synth.Difficulty = "fine",
    hands: bool | None = None,
    deal: Sequence[str] | None = None,
    taken: Collection[int] | None = None,
    spread: float = 0.0,
    laid: HandLaid | None = None,
) -> TableScene:
    """A top view of an age's structure drawn from `seed` (the same seed gives the same table
    at every resolution and sticker size). `difficulty` "hard" turns the camera any way,
    tilts it more and dims, blurs and glares the frame; "occluded" always has a hand over the
    structure (`hands` forces a hand or none). `deal` (20 ids in layout order) and `taken`
    (positions gone) put a given game's table on the drawn one (the device-flow tests).
    `spread` (0 to 1) lays the structure by hand (`hand_laid`); `laid` lays it so."""
    model = table_model()
    laid = laid or hand_laid(seed, spread, model)
    rng = random.Random(f"{seed}:table")
    age = age or rng.choice((1, 2, 3))
    catalog = default_catalog()
    layout = catalog.layout(age)
    cards = _deal(age, rng)  # drawn even when given: a seed's table stays the same
    order = _take(age, _moment(age, moment, rng), rng)
    cards = list(deal) if deal is not None else cards
    order = _order(age, taken) if taken is not None else order
    gone = set(order)
    width, height = RESOLUTIONS[resolution]
    geometry = synth.Geometry(
        width=width, height=height, hfov_deg=HFOV_DEG, table_mm=rng.uniform(500, 600)
    )
    origins = replace(model, col_mm=laid.col_mm, row_mm=laid.row_mm).slot_corners(layout)
    xs = [x for x, _ in origins]
    ys = [y for _, y in origins]
    left, right = min(xs), max(xs) + model.card_w
    top, bottom = min(ys), max(ys) + model.card_h
    centre = ((left + right) / 2, (top + bottom) / 2)
    plane_to_frame = _camera_homography(geometry, rng, centre, difficulty)
    px_per_mm = _px_per_mm(plane_to_frame, centre)
    scale = min(16.0, max(4.0, 1.6 * px_per_mm))
    frame = synth._table(geometry, rng)
    alpha = np.zeros_like(frame)
    size = sticker_mm or model.sticker_mm
    spec = synth.SceneSpec(geometry=geometry, sticker_mm=size)
    code = model.code_corners(size)
    sticker_centre = ((code[0][0] + code[1][0]) / 2, (code[0][1] + code[2][1]) / 2)

    def face(card_id: str, off: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        centre = (sticker_centre[0] + off[0], sticker_centre[1] + off[1])
        return synth._card_texture(card_id, payloads.payload_for(card_id), spec, scale, rng, centre)

    # beside the structure: both cities, wonders and tokens, a foreign code
    beside: list[str] = []
    earlier: list[str] = [c.id for c in catalog.cards if c.age < age]
    this_age_taken = [cards[i] for i in sorted(gone)]
    for side in (-1, 1):
        city = rng.sample(earlier, min(len(earlier), rng.randrange(0, 6)))
        city += [c for i, c in enumerate(this_age_taken) if i % 2 == (side > 0)]
        for k, card_id in enumerate(city[:8]):
            x = (left - 70 - (k % 2) * 50) if side < 0 else (right + 25 + (k % 2) * 50)
            y = top + (k // 2) * 40 + rng.uniform(-3, 3)
            corners = _card_corners((x, y), rng.gauss(0, 3), model)
            _put(frame, alpha, face(card_id), corners, plane_to_frame)
            beside.append(card_id)
    for k, kind in enumerate("WP"):  # a wonder and a progress token
        if rng.random() < 0.6:
            at = len(payloads.PREFIX)
            pool = [i for i in payloads.sticker_ids() if payloads.payload_for(i)[at] == kind]
            card_id = rng.choice(pool)
            x = rng.uniform(left, right - 60)
            y = bottom + 35 + k * 45
            corners = _card_corners((x, y), rng.gauss(0, 8), model)
            _put(frame, alpha, face(card_id), corners, plane_to_frame)
            beside.append(card_id)
    foreign = 0
    if rng.random() < 0.5:
        spot = (rng.choice((left - 90, right + 60)), rng.uniform(top, bottom))
        target = tuple(_to_frame(plane_to_frame, np.array([spot]))[0])
        synth._draw_foreign(
            frame, alpha, spec, rng, distance=geometry.table_mm, target=(target[0], target[1])
        )
        foreign = 1
    # the structure, row after row (each row lies over the one before)
    truth: list[str] = []
    lying: list[tuple[int, np.ndarray]] = []  # each card's outline (mm), in the order laid
    codes: dict[int, np.ndarray] = {}  # each face-up card's code (mm)
    for position, card_id in zip(layout.positions, cards, strict=True):
        if position.index in gone:
            truth.append("empty")
            continue
        uncovered = all(i in gone for i in position.covered_by)
        if position.face_up or uncovered:
            tex = face(card_id, laid.sticker_offsets[position.index])
            truth.append(card_id)
        else:
            back = 4 if catalog.card(card_id).is_guild else age
            tex = _back_texture(back, scale, rng, model)
            truth.append("back")
        x, y = origins[position.index]
        dx, dy = laid.shifts[position.index]
        jitter = (x + dx + rng.gauss(0, 1.0), y + dy + rng.gauss(0, 1.0))
        turn = laid.turns[position.index] + rng.gauss(0, 1.2)
        outline = _card_corners(jitter, turn, model)
        _put(frame, alpha, tex, outline, plane_to_frame)
        lying.append((position.index, outline))
        if truth[-1] != "back":
            codes[position.index] = _code_on(outline, laid.sticker_offsets[position.index], code)
    covered = _covered(codes, lying)
    # a hand over the structure
    hidden = [False] * 20
    if hands if hands is not None else (difficulty == "occluded" or rng.random() < 0.25):
        present = [i for i, t in enumerate(truth) if t != "empty"] or list(range(20))
        tip_slot = rng.choice(present)
        tx, ty = origins[tip_slot]
        mask = _hand(frame, alpha, plane_to_frame, rng, (tx + model.card_w / 2, ty + 20), bottom)
        for index, (x, y) in enumerate(origins):
            strip = np.array([[x, y], [x + model.card_w, y], [x + model.card_w, y + laid.row_mm],
                              [x, y + laid.row_mm]])  # fmt: skip
            poly = np.round(_to_frame(plane_to_frame, strip)).astype(np.int32)
            area = np.zeros(mask.shape, dtype=np.uint8)
            cv2.fillPoly(area, [poly], 1)
            inside = area.astype(bool)
            hidden[index] = bool(inside.any() and mask[inside].mean() > 0.03)
    conditions = synth._conditions(difficulty, rng)
    zoom = width / 2304  # the same optics at full resolution blur over more pixels
    conditions = replace(
        conditions, defocus=conditions.defocus * zoom, motion=conditions.motion * zoom
    )
    out = synth._camera(frame, alpha, conditions, rng, [])
    modules = 21 + 2 * 2
    return TableScene(
        frame=out,
        age=age,
        truth=truth,
        hidden=hidden,
        plane_to_frame=plane_to_frame,
        module_px=px_per_mm * size / modules,
        beside=beside,
        foreign=foreign,
        deal=cards,
        taken=order,
        covered=covered,
        col_mm=laid.col_mm,
        row_mm=laid.row_mm,
        codes=codes,
    )


def dimmed(frame: np.ndarray) -> np.ndarray:
    """The same view with the room's light down: 0.4 of it (plus 15), defocused (1.2 px)
    and noisy (3 grey, a fixed draw); the camera has not moved (the tests of a fit kept
    from an earlier frame)."""
    soft = np.asarray(cv2.GaussianBlur(frame.astype(np.float32), (0, 0), 1.2)) * 0.4 + 15
    soft += np.random.default_rng(1).normal(0, 3, soft.shape)
    return np.asarray(np.clip(soft, 0, 255), dtype=np.uint8)


UNREADABLE_BLUR_MODULES = 2.0  # a Gaussian's sigma: no decoder and no module match reads it
UNREADABLE_MARGIN = 1.2  # of a code's side: the blur covers its quiet zone's inner part too


def with_codes_unreadable(scene: TableScene, keep: Collection[int]) -> np.ndarray:
    """`scene`'s frame with the face-up codes of every position not in `keep` blurred past
    reading (a Gaussian of two modules over each code: its texture kept, its modules
    gone); codes under a hand are left as they are. A frame whose reader has only a few
    cards to place the structure by."""
    frame = scene.frame.copy()
    smooth = cv2.GaussianBlur(frame, (0, 0), UNREADABLE_BLUR_MODULES * scene.module_px)
    for index, code in scene.codes.items():
        if index in keep or scene.hidden[index]:
            continue
        corners = np.asarray(code, dtype=np.float64)
        centre = corners.mean(axis=0)
        wider = centre + (corners - centre) * UNREADABLE_MARGIN
        quad = cv2.perspectiveTransform(np.array([wider]), scene.plane_to_frame)[0]
        mask = np.zeros(frame.shape[:2], dtype=np.uint8)
        cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
        frame[mask > 0] = smooth[mask > 0]
    return frame
