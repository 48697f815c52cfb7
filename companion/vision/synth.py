"""Realistic test frames: cards with their QR stickers, seen by the box's camera.

A pinhole camera (1280x720, 70-degree horizontal field of view) looks down at the table from
`Geometry.table_mm`. Cards of the structure lie on the table; the player holds one or more
cards in the scan zone, `near_mm` to `far_mm` below the lens, turned and tilted. Stickers are
rendered at their printed size, then the frame gets what a cheap camera adds: defocus and
motion blur, dim light, glare, sensor noise and JPEG compression. Fingers hold the cards, and
foreign QR codes (a phone, a box) lie in view. Everything is drawn from `random.Random(seed)`,
so a seed is a fixed frame. Frames are grayscale, like the Y plane the Pi camera gives.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Literal

import cv2
import numpy as np
import segno

from companion.vision import payloads

Difficulty = Literal["fine", "hard", "occluded"]
DIFFICULTIES: tuple[Difficulty, ...] = ("fine", "hard", "occluded")
CARD_MM = (44.0, 68.0)  # width, height of a 7 Wonders Duel card
QUIET_MODULES = 2  # white margin of the printed sticker, in modules, on each side
STICKER_CENTER_MM = (32.0, 22.5)  # on the card face: top right, as data/table.toml places it
DEFAULT_STICKER_MM = 20.0

# Luma of the card colours (brown, grey, blue, green, yellow, red, purple, wonder beige).
CARD_LUMA = (92, 150, 105, 115, 170, 85, 80, 175)
PAPER, INK = 238.0, 28.0


@dataclass(frozen=True, slots=True)
class Geometry:
    """Camera and scan zone: the recommended set-up, in millimetres and pixels."""

    width: int = 1280
    height: int = 720
    hfov_deg: float = 70.0
    table_mm: float = 500.0  # lens above the table
    near_mm: float = 150.0  # scan zone: closest distance of a held card to the lens
    far_mm: float = 250.0  # scan zone: farthest
    zone: tuple[float, float, float, float] = (0.2, 0.15, 0.8, 0.85)  # left, top, right, bottom

    @property
    def focal_px(self) -> float:
        """The focal length in pixels."""
        return (self.width / 2) / math.tan(math.radians(self.hfov_deg) / 2)

    def px_per_mm(self, distance_mm: float) -> float:
        """Pixels per millimetre on a plane facing the lens at `distance_mm`."""
        return self.focal_px / distance_mm


@dataclass(frozen=True, slots=True)
class SceneSpec:
    """What a frame is made of; `random_scene` draws one from a seed and a difficulty."""

    geometry: Geometry = Geometry()
    sticker_mm: float = DEFAULT_STICKER_MM
    error_correction: str = "H"
    quiet_modules: int = QUIET_MODULES


@dataclass(frozen=True, slots=True)
class HeldCard:
    """A card in the frame and what the benchmark needs to know about it."""

    id: str
    distance_mm: float
    tilt_deg: float
    module_px: float  # apparent module size (pixels), before tilt
    covered: float  # fraction of the sticker hidden by a finger
    code_quad: tuple[tuple[float, float], ...]  # the code's corners in the frame
    readable: bool  # in view, not under a finger or a card held in front: should be read
    card_quad: tuple[tuple[float, float], ...] = ()  # the whole card's corners in the frame


@dataclass(slots=True)
class Scene:
    """A generated frame and its ground truth."""

    frame: np.ndarray
    held: list[HeldCard] = field(default_factory=list)
    background: list[HeldCard] = field(default_factory=list)
    foreign: int = 0

    def card_at(self, point: tuple[float, float]) -> HeldCard | None:
        """The held or background card whose code contains `point`, if any."""
        for card in [*self.held, *self.background]:
            quad = np.array(card.code_quad, dtype=np.float32)
            if cv2.pointPolygonTest(quad, point, False) >= 0:
                return card
        return None


@cache
def code_matrix(text: str, error_correction: str = "H") -> np.ndarray:
    """The QR modules of `text` (True = dark), without quiet zone; version 1 when it fits."""
    qr = segno.make_qr(text, error=error_correction.lower(), boost_error=False)
    return np.array(qr.matrix, dtype=bool)


def sticker_image(
    text: str,
    px_per_mm: float,
    sticker_mm: float,
    *,
    error_correction: str = "H",
    quiet_modules: int = QUIET_MODULES,
) -> np.ndarray:
    """The printed sticker, a white square `sticker_mm` wide holding the code, in luma."""
    modules = code_matrix(text, error_correction)
    padded = np.pad(modules, quiet_modules, constant_values=False)
    side = max(1, round(sticker_mm * px_per_mm))
    image = np.where(padded, INK, PAPER).astype(np.float32)
    return cv2.resize(image, (side, side), interpolation=cv2.INTER_NEAREST)


def _card_texture(
    card_id: str,
    text: str,
    spec: SceneSpec,
    scale: float,
    rng: random.Random,
    center_mm: tuple[float, float] = STICKER_CENTER_MM,
) -> np.ndarray:
    """A card face at `scale` px/mm: colour, some art, title and name bands, the sticker
    centred on `center_mm` of the card."""
    w, h = round(CARD_MM[0] * scale), round(CARD_MM[1] * scale)
    base = CARD_LUMA[zlib.crc32(card_id.encode()) % len(CARD_LUMA)]
    tex = np.full((h, w), float(base), dtype=np.float32)
    for _ in range(12):  # the art: soft shapes around the card's colour
        centre = (rng.randrange(w), rng.randrange(h))
        axes = (rng.randrange(2, max(3, w // 3)), rng.randrange(2, max(3, h // 4)))
        shade = float(np.clip(base + rng.uniform(-60, 60), 10, 245))
        cv2.ellipse(tex, centre, axes, rng.uniform(0, 180), 0, 360, shade, -1)
    tex = np.asarray(cv2.GaussianBlur(tex, (0, 0), max(0.5, scale * 0.6)), dtype=np.float32)
    tex[: round(12 * scale)] = base * 0.7  # effect band
    tex[round(60 * scale) :] = 225.0  # name band
    for i in range(rng.randrange(4, 9)):  # the name's letters
        x0 = round((8 + i * 3.5) * scale)
        cv2.rectangle(
            tex, (x0, round(62 * scale)), (x0 + round(2.5 * scale), round(65 * scale)), 40.0, -1
        )
    sticker = sticker_image(
        text,
        scale,
        spec.sticker_mm,
        error_correction=spec.error_correction,
        quiet_modules=spec.quiet_modules,
    )
    side = sticker.shape[0]
    x0 = round(center_mm[0] * scale - side / 2)
    y0 = round(center_mm[1] * scale - side / 2)
    tex[y0 : y0 + side, x0 : x0 + side] = sticker
    return tex


def _sticker_box_mm(spec: SceneSpec) -> tuple[float, float, float, float]:
    """Left, top, right, bottom of the whole sticker on the card, in mm."""
    half = spec.sticker_mm / 2
    cx, cy = STICKER_CENTER_MM
    return (cx - half, cy - half, cx + half, cy + half)


def _code_corners_mm(spec: SceneSpec, modules: int) -> np.ndarray:
    """The code's four corners (inside the quiet zone) on the card, in mm."""
    module = spec.sticker_mm / (modules + 2 * spec.quiet_modules)
    left, top, right, bottom = _sticker_box_mm(spec)
    q = spec.quiet_modules * module
    return np.array(
        [
            [left + q, top + q],
            [right - q, top + q],
            [right - q, bottom - q],
            [left + q, bottom - q],
        ],
        dtype=np.float64,
    )


def _add_finger(
    tex: np.ndarray, scale: float, spec: SceneSpec, rng: random.Random, *, cover: bool
) -> float:
    """Draw a finger from a card edge; over the sticker if `cover`. Return the sticker
    fraction it hides."""
    h, w = tex.shape
    left, top, right, bottom = (v * scale for v in _sticker_box_mm(spec))
    width = rng.uniform(14, 18) * scale
    for _ in range(50):
        side = rng.choice(("left", "right", "bottom", "top"))
        along = rng.uniform(0.15, 0.85)
        if side in ("left", "right"):
            base = (0.0 if side == "left" else float(w), along * h)
        else:
            base = (along * w, 0.0 if side == "top" else float(h))
        if cover:  # the tip lands inside the sticker
            tip = (rng.uniform(left, right), rng.uniform(top, bottom))
        else:  # a grip at the edge, short of the sticker
            depth = rng.uniform(3, 9) * scale
            dx, dy = {"left": (1, 0), "right": (-1, 0), "top": (0, 1), "bottom": (0, -1)}[side]
            tip = (base[0] + dx * depth, base[1] + dy * depth)
        mask = np.zeros_like(tex, dtype=np.uint8)
        cv2.line(
            mask,
            (round(base[0]), round(base[1])),
            (round(tip[0]), round(tip[1])),
            255,
            max(1, round(width)),
        )
        cv2.circle(mask, (round(tip[0]), round(tip[1])), max(1, round(width / 2)), 255, -1)
        covered = float(mask[round(top) : round(bottom), round(left) : round(right)].mean() / 255)
        if (cover and 0.03 <= covered <= 0.35) or (not cover and covered == 0.0):
            skin = rng.uniform(140, 200)
            shading = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), width / 6)
            tex[:] = tex * (1 - shading) + skin * shading
            return covered
    return 0.0


def _place(frame: np.ndarray, alpha: np.ndarray, tex: np.ndarray, homography: np.ndarray) -> None:
    """Warp `tex` into the frame (in place) through `homography`, only over its bounding box."""
    th, tw = tex.shape
    corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], dtype=np.float64)
    projected = cv2.perspectiveTransform(corners[None], homography)[0]
    x0, y0 = np.floor(projected.min(axis=0)).astype(int)
    x1, y1 = np.ceil(projected.max(axis=0)).astype(int)
    fh, fw = frame.shape
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1 + 1, fw), min(y1 + 1, fh)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64)
    local = shift @ homography
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(
        tex, local, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    mask = cv2.warpPerspective(np.ones_like(tex), local, size, flags=cv2.INTER_LINEAR)
    region = frame[y0:y1, x0:x1]
    region[:] = region * (1 - mask) + warped * mask
    alpha[y0:y1, x0:x1] = np.maximum(alpha[y0:y1, x0:x1], mask)


def _rotation(in_plane_deg: float, tilt_deg: float, tilt_axis_deg: float) -> np.ndarray:
    """Turn by `in_plane_deg` in the card plane, then tilt about an axis in that plane."""
    spin, _ = cv2.Rodrigues(np.array([0.0, 0.0, math.radians(in_plane_deg)]))
    axis = math.radians(tilt_axis_deg)
    tilt_vector = np.array([math.cos(axis), math.sin(axis), 0.0]) * math.radians(tilt_deg)
    tilt, _ = cv2.Rodrigues(tilt_vector)
    return np.asarray(tilt @ spin, dtype=np.float64)


def _project(geometry: Geometry, points: np.ndarray) -> np.ndarray:
    """Camera-space points (mm, z away from the lens) to pixels."""
    f = geometry.focal_px
    u = geometry.width / 2 + f * points[:, 0] / points[:, 2]
    v = geometry.height / 2 + f * points[:, 1] / points[:, 2]
    return np.stack([u, v], axis=1)


def _draw_card(
    frame: np.ndarray,
    alpha: np.ndarray,
    spec: SceneSpec,
    rng: random.Random,
    *,
    card_id: str,
    text: str,
    distance: float,
    target: tuple[float, float],
    in_plane: float,
    tilt: float,
    finger: Literal["none", "edge", "cover"],
) -> HeldCard:
    """Render one card whose sticker centre projects onto `target` at `distance` mm."""
    g = spec.geometry
    scale = min(24.0, max(4.0, 1.6 * g.px_per_mm(distance * math.cos(math.radians(tilt)))))
    tex = _card_texture(card_id, text, spec, scale, rng)
    covered = 0.0
    if finger != "none":
        covered = _add_finger(tex, scale, spec, rng, cover=finger == "cover")
    rotation = _rotation(in_plane, tilt, rng.uniform(0, 360))
    sticker_centre = np.array([*STICKER_CENTER_MM, 0.0])
    aim = np.array(
        [
            (target[0] - g.width / 2) * distance / g.focal_px,
            (target[1] - g.height / 2) * distance / g.focal_px,
            distance,
        ]
    )
    translation = aim - rotation @ sticker_centre

    def to_frame(points_mm: np.ndarray) -> np.ndarray:
        flat = np.hstack([points_mm, np.zeros((len(points_mm), 1))])
        return _project(g, (rotation @ flat.T).T + translation)

    th, tw = tex.shape
    tex_corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], dtype=np.float32)
    card_corners = to_frame(np.array([[0, 0], [CARD_MM[0], 0], [*CARD_MM], [0, CARD_MM[1]]]))
    homography = cv2.getPerspectiveTransform(tex_corners, card_corners.astype(np.float32))
    _place(frame, alpha, tex, homography)
    quad = to_frame(_code_corners_mm(spec, code_matrix(text, spec.error_correction).shape[0]))
    margin = 2.0
    inside = bool(np.all((quad >= margin) & (quad <= [g.width - margin, g.height - margin])))
    modules = code_matrix(text, spec.error_correction).shape[0] + 2 * spec.quiet_modules
    return HeldCard(
        id=card_id,
        distance_mm=distance,
        tilt_deg=tilt,
        module_px=g.px_per_mm(distance) * spec.sticker_mm / modules,
        covered=covered,
        code_quad=tuple((float(x), float(y)) for x, y in quad),
        readable=inside and covered == 0.0,
        card_quad=tuple((float(x), float(y)) for x, y in card_corners),
    )


FOREIGN_TEXTS = (
    "https://boardgames.example.com/duel?ref=box",
    "WIFI:S:living-room;T:WPA;P:correct horse;;",
    "7WD:A01",  # our prefix, but short
    "7WD:A01Q",  # our prefix, wrong check character
    "7WD-A01E",
    "4006381333931",
    "HELLO WORLD",
)


def _draw_foreign(
    frame: np.ndarray,
    alpha: np.ndarray,
    spec: SceneSpec,
    rng: random.Random,
    *,
    distance: float,
    target: tuple[float, float],
) -> None:
    """A phone screen or a printed box label holding a foreign QR code."""
    g = spec.geometry
    text = rng.choice(FOREIGN_TEXTS)
    size_mm = rng.uniform(25, 45)
    scale = min(20.0, max(4.0, 1.6 * g.px_per_mm(distance)))
    code = sticker_image(text, scale, size_mm, error_correction="M", quiet_modules=3)
    border = round(6 * scale)
    tex = np.pad(code, border, constant_values=rng.choice((20.0, 200.0)))
    th, tw = tex.shape
    rotation = _rotation(rng.uniform(0, 360), rng.uniform(0, 15), rng.uniform(0, 360))
    half = np.array([tw / 2, th / 2, 0.0]) / scale
    aim = np.array(
        [
            (target[0] - g.width / 2) * distance / g.focal_px,
            (target[1] - g.height / 2) * distance / g.focal_px,
            distance,
        ]
    )
    corners_mm = np.array([[0, 0, 0], [tw, 0, 0], [tw, th, 0], [0, th, 0]]) / scale - half
    projected = _project(g, (rotation @ corners_mm.T).T + aim)
    tex_corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(tex_corners, projected.astype(np.float32))
    _place(frame, alpha, tex, homography)


def _table(g: Geometry, rng: random.Random) -> np.ndarray:
    """The table top: a wood-like grain."""
    base = rng.uniform(70, 150)
    rows = np.cumsum(np.array([rng.gauss(0, 1.5) for _ in range(g.height)], dtype=np.float32))
    grain = np.sin(np.linspace(0, rng.uniform(20, 60), g.width, dtype=np.float32))[None, :]
    table = base + 6 * grain + 0.3 * (rows - rows.mean())[:, None]
    return np.asarray(np.clip(table, 20, 230), dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Conditions:
    """The camera's faults for one frame."""

    defocus: float  # Gaussian sigma, pixels
    motion: float  # motion blur length, pixels
    light: float  # 1 = a well-lit living room
    glare: float  # peak added luma of a specular highlight
    glare_on_card: bool
    noise: float  # sensor noise sigma, luma
    jpeg: int  # quality


def _conditions(difficulty: Difficulty, rng: random.Random) -> Conditions:
    if difficulty == "hard":
        return Conditions(
            defocus=rng.uniform(0.6, 1.3),
            motion=rng.uniform(0, 4),
            light=rng.uniform(0.3, 1.0),
            glare=rng.uniform(0, 120),
            glare_on_card=rng.random() < 0.5,
            noise=rng.uniform(2, 7),
            jpeg=rng.randrange(50, 85),
        )
    return Conditions(
        defocus=rng.uniform(0.4, 0.9),
        motion=rng.uniform(0, 2),
        light=rng.uniform(0.6, 1.0),
        glare=rng.uniform(0, 60),
        glare_on_card=False,
        noise=rng.uniform(1, 3),
        jpeg=rng.randrange(75, 96),
    )


def _camera(
    frame: np.ndarray,
    alpha: np.ndarray,
    c: Conditions,
    rng: random.Random,
    held_at: list[tuple[float, float]],
) -> np.ndarray:
    """Optics, light and sensor: blur, glare, gain, noise, then JPEG."""
    h, w = frame.shape
    out = cv2.GaussianBlur(frame, (0, 0), c.defocus)
    if c.motion >= 1:
        length = max(2, round(c.motion))
        kernel = np.zeros((length, length), np.float32)
        angle = rng.uniform(0, 180)
        centre = (length - 1) / 2
        dx, dy = math.cos(math.radians(angle)) * centre, math.sin(math.radians(angle)) * centre
        cv2.line(
            kernel,
            (round(centre - dx), round(centre - dy)),
            (round(centre + dx), round(centre + dy)),
            1.0,
            1,
        )
        out = cv2.filter2D(out, -1, kernel / kernel.sum())
    if c.glare > 0:  # a specular highlight, on the held card or elsewhere
        if c.glare_on_card and held_at:
            gx, gy = rng.choice(held_at)
            gx, gy = gx + rng.uniform(-30, 30), gy + rng.uniform(-30, 30)
        else:
            gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        sigma = rng.uniform(15, 60)
        ys, xs = np.ogrid[:h, :w]
        out = out + c.glare * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2))
    vignette = 1 - 0.25 * (((np.ogrid[:h, :w][1] - w / 2) / w) ** 2 * 4)
    out = out * c.light * vignette
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, c.noise, out.shape)
    out = np.clip(out + noise, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, c.jpeg])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_GRAYSCALE) if ok else None
    if decoded is None:
        raise RuntimeError("JPEG round trip failed")
    return np.asarray(decoded, dtype=np.uint8)


def _zone_point(g: Geometry, rng: random.Random, slot: int, slots: int) -> tuple[float, float]:
    """A point of the scan zone, in the `slot`-th of `slots` vertical strips."""
    left, top, right, bottom = g.zone
    strip = (right - left) / slots
    x = (left + strip * (slot + rng.uniform(0.3, 0.7))) * g.width
    y = rng.uniform(top + 0.12, bottom - 0.12) * g.height
    return (x, y)


def random_scene(
    seed: int,
    difficulty: Difficulty = "fine",
    spec: SceneSpec | None = None,
    ids: tuple[str, ...] | None = None,
) -> Scene:
    """A frame of a game: structure cards on the table, 1-3 cards held in the scan zone,
    sometimes a foreign QR code, all drawn from `seed`."""
    spec = spec or SceneSpec()
    g = spec.geometry
    rng = random.Random(f"{seed}:{difficulty}")
    pool = ids or payloads.sticker_ids()
    frame = _table(g, rng)
    alpha = np.zeros_like(frame)
    scene = Scene(frame=frame)
    for _ in range(rng.randrange(0, 7)):  # the structure, lying on the table
        card_id = rng.choice(pool)
        target = (rng.uniform(0, g.width), rng.uniform(0, g.height))
        scene.background.append(
            _draw_card(
                frame,
                alpha,
                spec,
                rng,
                card_id=card_id,
                text=payloads.payload_for(card_id),
                distance=g.table_mm,
                target=target,
                in_plane=rng.choice((0, 180)) + rng.gauss(0, 4),
                tilt=0.0,
                finger="none",
            )
        )
    if rng.random() < 0.3:  # a foreign code: on the table or held up
        distance = g.table_mm if rng.random() < 0.5 else rng.uniform(g.near_mm, g.far_mm)
        _draw_foreign(
            frame,
            alpha,
            spec,
            rng,
            distance=distance,
            target=(rng.uniform(0.1, 0.9) * g.width, rng.uniform(0.1, 0.9) * g.height),
        )
        scene.foreign += 1
    count = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
    max_tilt = 35.0 if difficulty == "hard" else 20.0
    for slot, card_id in enumerate(rng.sample(pool, count)):
        finger: Literal["none", "edge", "cover"] = "edge" if rng.random() < 0.7 else "none"
        if difficulty == "occluded" and slot == 0:
            finger = "cover"
        scene.held.append(
            _draw_card(
                frame,
                alpha,
                spec,
                rng,
                card_id=card_id,
                text=payloads.payload_for(card_id),
                distance=rng.uniform(g.near_mm, g.far_mm),
                target=_zone_point(g, rng, slot, count),
                in_plane=rng.uniform(0, 360),
                tilt=rng.uniform(0, max_tilt),
                finger=finger,
            )
        )
    scene.held = _hidden_by_later_cards(scene.held)
    conditions = _conditions(difficulty, rng)
    held_at = [tuple(np.mean(card.code_quad, axis=0)) for card in scene.held]
    scene.frame = _camera(frame, alpha, conditions, rng, held_at)
    return scene


def _hidden_by_later_cards(held: list[HeldCard]) -> list[HeldCard]:
    """Mark unreadable each card whose code a card drawn after it (held in front) overlaps."""
    marked = []
    for index, card in enumerate(held):
        code = np.array(card.code_quad, dtype=np.float32)
        for later in held[index + 1 :]:
            area, _ = cv2.intersectConvexConvex(code, np.array(later.card_quad, np.float32))
            if area > 0:
                card = replace(card, readable=False)
        marked.append(card)
    return marked


def frame_with_cards(
    ids: list[str] | tuple[str, ...], seed: int = 0, spec: SceneSpec | None = None
) -> np.ndarray:
    """An easy frame: the cards `ids` held flat side by side in the scan zone, good light."""
    return scene_with_cards(ids, seed, spec).frame


def scene_with_cards(
    ids: list[str] | tuple[str, ...], seed: int = 0, spec: SceneSpec | None = None
) -> Scene:
    """`frame_with_cards` with its ground truth. Many cards are drawn farther from the lens,
    in two rows, so that they fit in the view."""
    spec = spec or SceneSpec()
    g = spec.geometry
    rng = random.Random(f"{seed}:cards")
    columns = max(1, math.ceil(len(ids) / 2)) if len(ids) > 3 else max(1, len(ids))
    rows = 2 if len(ids) > 3 else 1
    fit = (CARD_MM[0] + 8) * columns * g.focal_px / (g.width * 0.9)
    distance = max(200.0, fit)
    frame = _table(g, rng)
    alpha = np.zeros_like(frame)
    scene = Scene(frame=frame)
    pitch = (CARD_MM[0] + 8) * g.px_per_mm(distance)
    for index, card_id in enumerate(ids):
        row, column = divmod(index, columns)
        x = g.width / 2 + (column - (columns - 1) / 2) * pitch
        y = g.height / 2 + (row - (rows - 1) / 2) * (CARD_MM[1] + 4) * g.px_per_mm(distance)
        scene.held.append(
            _draw_card(
                frame,
                alpha,
                spec,
                rng,
                card_id=card_id,
                text=payloads.payload_for(card_id),
                distance=distance,
                target=(x, y),
                in_plane=rng.gauss(0, 8),
                tilt=rng.uniform(0, 8),
                finger="none",
            )
        )
    fine = replace(_conditions("fine", rng), glare=0.0, light=0.9)
    scene.frame = _camera(frame, alpha, fine, rng, [])
    return scene


def city_frame(
    cards: Sequence[tuple[str, str]], seed: int, spec: SceneSpec | None = None
) -> np.ndarray:
    """A frame of a city's cards held out under the camera side by side, stickers up, five to
    a row (the family score pad reads a city from it): `cards` are (card id, sticker text)."""
    spec = spec or SceneSpec()
    g = spec.geometry
    rng = random.Random(f"city:{seed}")
    frame = _table(g, rng)
    alpha = np.zeros_like(frame)
    distance = (g.near_mm + g.far_mm) / 2
    step_x, step_y = g.width / 5.5, g.height / 2.4
    for index, (card_id, text) in enumerate(cards):
        row, column = divmod(index, 5)
        target = (step_x * (column + 0.75), step_y * (row + 0.6))
        _draw_card(frame, alpha, spec, rng, card_id=card_id, text=text, distance=distance,
                   target=target, in_plane=rng.gauss(0, 4), tilt=0.0, finger="none")  # fmt: skip
    return frame
