"""A QR code found but not decoded, told by its modules against the stickers we print.

In hard light (a defocused lens, a dim room, heavy JPEG) at 2.6 px a module, zxing-cpp
often finds a sticker's finder patterns but samples its modules wrongly: a checksum error,
no text. Our stickers are few (every payload of data/stickers.toml, the Pantheon's and the
family pad's: each a version-1 code), so such a code's modules, sampled where the decoder
found them, are compared with every sticker's: the one they match far better than any
other, and well, is read. A code of another kind (a foreign one, a sticker not ours)
matches none of them well, and a code sampled off its modules matches none far better
than the next. Where no decoder finds even the finder patterns (`match_square`, on a cut
around a blob that looks like a code), the grid of modules is placed by the patterns every
code has before its data modules are told so (BENCHMARKS.md, "Overhead camera in hard
light: codes told by their modules"). Where no decoder reads a code at the place a fitted
structure puts a position's sticker (`told_among`), the place is registered by those
patterns and its data modules are told among the few cards that can lie there, every
sticker drawn blurred as the code is (BENCHMARKS.md, "Overhead camera in hard light:
blurred codes told at their places").
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence

import cv2
import numpy as np

from companion.vision import payloads, stickers
from companion.vision.decode import Corners, Sticker

MODULES = 21  # a version-1 code
SAMPLE_PX = 4  # px a module of the code's square warped out of the frame, averaged down
LEAST = 0.36  # the best sticker's correlation with the modules sampled
MARGIN = 0.16  # how far it must lie above the second best's
# (generated hard frames, seeds 940000-940047, the codes zxing-cpp found: those it decoded
# matched their own sticker at 0.45 to 0.85, 0.16 to 0.5 above the next; every code known
# matched to another sticker, or to one not in the frame, at most 0.31 and 0.11 above the
# next; placed by `match_square`, 87 codes told, each the card there, 0.21 or more above)


def _function_modules() -> np.ndarray:
    """The modules every version-1 code has alike: the three finder patterns with their
    separators and format bits' corners, and the timing lines; the rest tell codes apart."""
    alike = np.zeros((MODULES, MODULES), dtype=bool)
    alike[:9, :9] = alike[:9, -8:] = alike[-8:, :9] = True
    alike[6, :] = alike[:, 6] = True
    return alike


DATA = ~_function_modules()


@functools.cache
def _printed() -> tuple[tuple[str, ...], np.ndarray]:
    """Every payload we print and its code's modules (True dark), one 21x21 array each."""
    texts: list[str] = []
    for table in (
        payloads.sticker_table(),
        payloads.pantheon_sticker_table(),
        payloads.family_sticker_table(),
    ):
        texts += [t for t in table.by_payload if t not in texts]
    level = payloads.sticker_table().error_correction
    return tuple(texts), np.array([stickers.qr_modules(text, level) for text in texts])


@functools.cache
def _stickers() -> tuple[tuple[str, ...], np.ndarray]:
    """Every payload we print, and its data modules as a row of -1 (dark) and 1 (light),
    centred and scaled to unit spread (a correlation is then one product)."""
    texts, modules = _printed()
    rows = np.where(modules[:, DATA], -1.0, 1.0)
    return texts, (rows - rows.mean(axis=1, keepdims=True)) / rows.std(axis=1, keepdims=True)


def warm() -> None:
    """Build every sticker's modules now, and each drawn blurred as `told_among` compares
    them (about 0.3 CPU s here), so the first frame that tells a code by its modules does
    not wait for them (the device, at start)."""
    _stickers()
    for blur in BLURS:
        _drawn_stickers(blur)
        _drawn_placing(blur)


def sampled(gray: np.ndarray, corners: Corners) -> np.ndarray:
    """The mean grey of each of a code's 21x21 modules, its corners (top-left, top-right,
    bottom-right, bottom-left of the code as found) in `gray`'s pixels."""
    side = MODULES * SAMPLE_PX
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    to_square = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), square)
    warped = cv2.warpPerspective(gray, to_square, (side, side), flags=cv2.INTER_LINEAR)
    return np.asarray(cv2.resize(warped, (MODULES, MODULES), interpolation=cv2.INTER_AREA))


def match(gray: np.ndarray, corners: Corners) -> Sticker | None:
    """The sticker whose code lies at `corners` in `gray`, told by its modules: the one
    they correlate with at least LEAST and MARGIN more than with any other; None if none."""
    text = _told(sampled(gray, corners)[DATA])
    return None if text is None else Sticker(text, corners)


def scores(grey: np.ndarray) -> np.ndarray:
    """The correlation of a code's data modules' grey with each sticker's (`_stickers`)."""
    grey = grey.astype(np.float64)
    spread = grey.std()
    if spread < 1e-6:
        return np.zeros(len(_stickers()[0]))
    return np.asarray(_stickers()[1] @ ((grey - grey.mean()) / spread) / grey.size)


def _told(grey: np.ndarray) -> str | None:
    """The payload whose data modules match `grey` (a code's data modules' grey) at least
    LEAST and MARGIN more than any other's; None if none."""
    found = scores(grey)
    order = np.argsort(-found)
    if found[order[0]] < LEAST or found[order[0]] - found[order[1]] < MARGIN:
        return None
    return str(_stickers()[0][order[0]])


def _registration() -> tuple[np.ndarray, np.ndarray]:
    """The modules every version-1 code has alike that place it (the three finder patterns
    with their separators, the timing lines; not the format bits, which differ by mask),
    and their shade (-1 dark, 1 light), centred and scaled to unit spread."""
    placing = np.zeros((MODULES, MODULES), dtype=bool)
    placing[:8, :8] = placing[:8, -8:] = placing[-8:, :8] = True
    placing[6, 8:-8] = placing[8:-8, 6] = True
    modules = stickers.qr_modules(payloads.payload_for(payloads.sticker_ids()[0]))
    shade = np.where(modules[placing], -1.0, 1.0)
    return placing, (shade - shade.mean()) / shade.std()


PLACING, PLACING_SHADE = _registration()
SHIFTS = np.arange(-1.5, 1.51, 0.5)  # modules: where a code may lie off its blob's centre
# of its blob's side: a blob is the sticker's (the code and its light margin, 25 modules
# for the code's 21) or the code's alone
SCALES = (0.76, 0.82, 0.88, 0.94, 1.0, 1.06)
PLACED = 0.6  # the finder patterns' and timing lines' correlation a code must reach


def match_square(square: np.ndarray, side: float) -> Sticker | None:
    """The sticker whose code lies about in the middle of `square` (a cut around a code,
    turned square, the code about `side` px wide, turned any quarter): the grid of modules
    placed where the finder patterns and timing lines every code has match best (a few
    shifts and sizes, each quarter turn), then told by its data modules as `match` tells
    them; None if no grid places a code's patterns well or no sticker matches. Its corners
    are in `square`'s pixels, top-left first."""
    smooth = cv2.blur(square.astype(np.float32), (3, 3))
    centre = (square.shape[1] / 2, square.shape[0] / 2)
    steps = (np.arange(MODULES) + 0.5) / MODULES - 0.5  # module centres, of the code's side
    # every scale, then every shift down, then across (the same numbers, one array each)
    widths = np.repeat(side * np.array(SCALES), SHIFTS.size**2)
    dys = np.tile(np.repeat(SHIFTS, SHIFTS.size), len(SCALES))
    dxs = np.tile(SHIFTS, SHIFTS.size * len(SCALES))
    x0s = centre[0] + dxs * widths / MODULES
    y0s = centre[1] + dys * widths / MODULES
    grids = list(zip(x0s.tolist(), y0s.tolist(), widths.tolist(), strict=True))
    xs = (x0s[:, None] + steps[None, :] * widths[:, None]).astype(np.float32)
    ys = (y0s[:, None] + steps[None, :] * widths[:, None]).astype(np.float32)
    map_x = np.repeat(xs.reshape(len(grids), 1, MODULES), MODULES, axis=1)
    map_y = np.repeat(ys.reshape(len(grids), MODULES, 1), MODULES, axis=2)
    sampled_all = cv2.remap(
        smooth,
        map_x.reshape(-1, MODULES),
        map_y.reshape(-1, MODULES),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    ).reshape(len(grids), MODULES, MODULES)
    best: tuple[float, int, int] | None = None
    for turn in range(4):
        turned = np.rot90(sampled_all, turn, axes=(1, 2))[:, PLACING]
        spread = turned.std(axis=1)
        spread[spread < 1e-6] = np.inf
        scores = ((turned - turned.mean(axis=1, keepdims=True)) / spread[:, None]) @ PLACING_SHADE
        scores /= PLACING_SHADE.size
        index = int(np.argmax(scores))
        if best is None or scores[index] > best[0]:
            best = (float(scores[index]), index, turn)
    assert best is not None
    placed, index, turn = best
    if placed < PLACED:
        return None
    text = _told(np.rot90(sampled_all[index], turn)[DATA])
    if text is None:
        return None
    x0, y0, width = grids[index]
    half = width / 2
    corners = [(x0 - half, y0 - half), (x0 + half, y0 - half), (x0 + half, y0 + half),
               (x0 - half, y0 + half)]  # fmt: skip
    # the code's top-left corner is the square's corner the quarter turns bring there
    corners = corners[turn:] + corners[:turn]
    return Sticker(text, tuple(corners))  # type: ignore[arg-type]


# A code no decoder reads, at the place the structure's fit puts a position's sticker: its
# square is registered by what every code has (the finder patterns, the timing lines and the
# light quiet zone) and its data modules told among a few candidates, each drawn blurred as
# the frame is (a matched filter: the blur told by the sticker's own finder patterns).
PLACE_PX = 3  # px a module of the place's crop and of the stickers drawn to match it
QUIET = 2  # modules of quiet zone drawn around a code to register it
PLACE_TURNS = (-4.0, -2.0, 0.0, 2.0, 4.0)  # degrees: a card laid by hand is turned a little
PLACE_SCALES = (0.95, 1.0, 1.05)  # of the code's side where the fit puts it
BLURS = (0.3, 0.45, 0.6, 0.75, 0.9, 1.1)  # modules: the frame's blur (Gaussian sigma) tried
REGISTER_BLUR = 0.6  # modules: the blur of the pattern a code is registered by


def _drawn(modules: np.ndarray, blur: float) -> np.ndarray:
    """A code's modules (-1 dark, 1 light, 0 unknown) with QUIET light modules around it,
    drawn at PLACE_PX a module and blurred `blur` modules (float)."""
    padded = np.pad(modules.astype(np.float32), QUIET, constant_values=1.0)
    big = np.kron(padded, np.ones((PLACE_PX, PLACE_PX), np.float32))
    return np.asarray(cv2.GaussianBlur(big, (0, 0), blur * PLACE_PX))


def _placing_modules() -> np.ndarray:
    """What every code's modules are before its data (-1 dark, 1 light; 0 elsewhere)."""
    pattern = np.zeros((MODULES, MODULES), np.float32)
    pattern[PLACING] = np.sign(PLACING_SHADE)
    return pattern


@functools.cache
def _register_pattern() -> np.ndarray:
    """What every code looks like before its data modules (0 there), blurred."""
    return _drawn(_placing_modules(), REGISTER_BLUR)


def _data_pixels() -> np.ndarray:
    """The pixels of a drawn code (QUIET around it) whose module is a data module."""
    inside = np.zeros((MODULES + 2 * QUIET,) * 2, dtype=bool)
    inside[QUIET:-QUIET, QUIET:-QUIET] = DATA
    return np.kron(inside, np.ones((PLACE_PX, PLACE_PX), dtype=bool))


def _placing_pixels() -> np.ndarray:
    """The pixels of a drawn code whose module places it (PLACING, and the quiet zone)."""
    placing = np.ones((MODULES + 2 * QUIET,) * 2, dtype=bool)
    placing[QUIET:-QUIET, QUIET:-QUIET] = PLACING
    return np.kron(placing, np.ones((PLACE_PX, PLACE_PX), dtype=bool))


DATA_PX = _data_pixels()
PLACING_PX = _placing_pixels()


def _unit(rows: np.ndarray) -> np.ndarray:
    """Each row centred and scaled to unit spread (a flat row left zero)."""
    rows = rows - rows.mean(axis=-1, keepdims=True)
    spread = rows.std(axis=-1, keepdims=True)
    return np.asarray(np.where(spread > 1e-6, rows / np.maximum(spread, 1e-6), 0.0))


@functools.cache
def _drawn_stickers(blur: float) -> np.ndarray:
    """Every sticker's data pixels drawn blurred `blur` modules (`_stickers`' order), each
    row centred and of unit spread."""
    rows = [_drawn(np.where(modules, -1.0, 1.0), blur)[DATA_PX] for modules in _printed()[1]]
    return _unit(np.array(rows, dtype=np.float32))


@functools.cache
def _drawn_placing(blur: float) -> np.ndarray:
    """The placing pixels of a code drawn blurred `blur` modules, centred, unit spread."""
    return np.asarray(_unit(_drawn(_placing_modules(), blur)[PLACING_PX][None, :])[0])


def placed_square(crop: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The code lying about in the middle of `crop` (a place's cut, PLACE_PX a module, the
    code and its quiet zone within it, turned at most a few degrees) as a square of
    MODULES + 2 * QUIET modules at PLACE_PX each: registered where the pattern every code
    has matches it best (`_register_pattern`: each turn at the size the fit says, then the
    other sizes at the best turn), with that match (a correlation); None when the crop is
    too small."""
    got = _placed(crop)
    return None if got is None else (got[0], got[1])


def _placed(crop: np.ndarray) -> tuple[np.ndarray, float, np.ndarray] | None:
    """`placed_square`'s square and match, and the map from the square's pixels to the
    crop's (a 2x3 affine map)."""
    side = (MODULES + 2 * QUIET) * PLACE_PX
    if crop.shape[0] <= side or crop.shape[1] <= side:
        return None
    crop = crop.astype(np.float32)
    best = max((_registered(crop, turn, 1.0) for turn in PLACE_TURNS), key=lambda r: r[0])
    others = [_registered(crop, best[1], scale) for scale in PLACE_SCALES if scale != 1.0]
    best = max([best, *others], key=lambda r: r[0])
    score, turn, scale, at = best
    # the square's pixels in the crop: turned and scaled about the pattern's centre
    warp = cv2.getRotationMatrix2D(((side - 1) / 2, (side - 1) / 2), turn, scale)
    warp[:, 2] += np.array(at)
    square = cv2.warpAffine(crop, warp, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return np.asarray(square), float(score), warp


def _registered(
    crop: np.ndarray, turn: float, scale: float
) -> tuple[float, float, float, tuple[float, float]]:
    """Where `_register_pattern` turned `turn` degrees and scaled `scale` matches `crop`
    best: the correlation there, the turn, the scale and the pattern's top-left corner."""
    result = cv2.matchTemplate(crop, _turned_pattern(turn, scale), cv2.TM_CCOEFF_NORMED)
    _, score, _, (x, y) = cv2.minMaxLoc(result)
    return score, turn, scale, _peak(result, x, y)


@functools.cache
def _turned_pattern(turn: float, scale: float) -> np.ndarray:
    """`_register_pattern` turned `turn` degrees and scaled about its centre."""
    side = (MODULES + 2 * QUIET) * PLACE_PX
    warp = cv2.getRotationMatrix2D(((side - 1) / 2, (side - 1) / 2), turn, scale)
    return np.asarray(cv2.warpAffine(_register_pattern(), warp, (side, side), borderValue=1.0))


def _peak(result: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """The peak of a correlation at (x, y), to a fraction of a pixel (a parabola each way)."""

    def offset(low: float, mid: float, high: float) -> float:
        bend = low - 2 * mid + high
        return 0.0 if bend >= 0 else 0.5 * (low - high) / bend

    h, w = result.shape
    dx = offset(result[y, x - 1], result[y, x], result[y, x + 1]) if 0 < x < w - 1 else 0.0
    dy = offset(result[y - 1, x], result[y, x], result[y + 1, x]) if 0 < y < h - 1 else 0.0
    return (x + dx, y + dy)


def blur_of(square: np.ndarray) -> float:
    """The frame's blur at a registered code (`placed_square`), in modules: the one of
    BLURS whose drawn finder patterns, timing lines and quiet zone match it best."""
    seen = _unit(square[PLACING_PX][None, :])[0]
    return max(BLURS, key=lambda blur: float(_drawn_placing(blur) @ seen))


def blurred_scores(square: np.ndarray) -> np.ndarray:
    """The correlation of a registered code's data pixels (`placed_square`) with every
    sticker's drawn blurred as the code is (`blur_of`), in `_stickers`' order."""
    seen = _unit(square[DATA_PX].astype(np.float32)[None, :])[0]
    return np.asarray(_drawn_stickers(blur_of(square)) @ seen / seen.size)


BLURRED_PLACED = 0.3  # the registration's correlation a code's place must reach
BLURRED_LEAST = 0.7  # the best sticker's correlation with the place's data pixels
BLURRED_MARGIN = 0.3  # how far it must lie above the second best's, of every sticker
KNOWN_MARGIN = 0.15  # the same for the card known at the place, the only one that can lie there
KNOWN_LEAST = 0.6  # the card known at the place, BLURRED_MARGIN above the next: its least
# correlation (no place without the card ever lay more than 0.195 above the next; generated
# hand-laid frames 1910040 and 1900014, hard light, spread 1: stone_reserve 0.67, 0.40
# above the next, and university 0.69, 0.37 above, left untold under BLURRED_LEAST)
# (generated hard frames, seeds 1000000-1000047, spreads 0.5 and 1, each position of the
# placements fitted: of 1,682 codes in view 1,681 matched their own sticker best, 1,666 at
# 0.7 or more, 1,672 at 0.3 or more above the next; at the 1,993 places where the best was
# not the card there (a back, the table, a hand, a card over the code) the best reached
# 0.73 and lay at most 0.195 above the next)
CLEAR_LEAST = 0.8  # a clear match, beyond any the best of a place without the card reached:
CLEAR_MARGIN = 0.25  # it needs less lead (generated hand-laid deals 1950047, hard light,
# spread 0: rostrum 0.90, 0.28 above law's token, and 1900005, spread 1: circus 0.80, 0.28
# above, left untold under BLURRED_MARGIN; at the 1,341 places of seeds 1900000-1900099 and
# 1950000-1950099, hard light, every spread, deals and later moments, where the best was not
# the card there, it reached 0.70 and lay at most 0.11 above the next)


def told_among(
    crop: np.ndarray, candidates: Collection[str], margin: float = BLURRED_MARGIN
) -> str | None:
    """The payload of the code about in the middle of `crop` (a position's place cut out,
    `placed_square`'s), told by its data modules drawn blurred as the code is
    (`blurred_scores`): the best of every sticker we print, when it is one of `candidates`
    (card ids: the cards that can lie there), correlates at least BLURRED_LEAST and lies
    `margin` above the second best of every sticker; None otherwise."""
    return code_at(crop, candidates, margin)[1]


def code_at(
    crop: np.ndarray, candidates: Collection[str], margin: float = BLURRED_MARGIN
) -> tuple[float, str | None]:
    """How well the pattern every code has matches about the middle of `crop` (a
    correlation, `placed_square`'s; -1 when the crop is too small), and the payload there
    as `told_among` tells it."""
    got = _placed(crop)
    if got is None:
        return -1.0, None
    return got[1], _told_blurred(got[0], got[1], candidates, margin)


def told_where(
    crop: np.ndarray, candidates: Collection[str]
) -> tuple[str | None, tuple[float, float]]:
    """`told_among`'s payload of the code registered in `crop`, and the code's centre in
    the crop (pixels); (None, the crop's centre) when the crop is too small."""
    got = _placed(crop)
    if got is None:
        return None, ((crop.shape[1] - 1) / 2, (crop.shape[0] - 1) / 2)
    square, placed, warp = got
    middle = (square.shape[0] - 1) / 2
    x, y = warp @ np.array([middle, middle, 1.0])
    return _told_blurred(square, placed, candidates), (float(x), float(y))


def _told_blurred(
    square: np.ndarray,
    placed: float,
    candidates: Collection[str],
    margin: float = BLURRED_MARGIN,
    known: bool = False,
) -> str | None:
    """`told_among`'s payload of a registered code (`placed_square`'s square and match);
    `known`: `told_known`'s."""
    if placed < BLURRED_PLACED:
        return None
    found = blurred_scores(square)
    first, second = np.argsort(-found)[:2]
    text = str(_stickers()[0][first])
    lead = found[first] - found[second]
    if payloads.parse(text) not in candidates:
        return None
    if found[first] >= BLURRED_LEAST and lead >= margin:
        return text
    if found[first] >= CLEAR_LEAST and lead >= CLEAR_MARGIN:
        return text
    if known and found[first] >= KNOWN_LEAST and lead >= BLURRED_MARGIN:
        return text
    return None


def told_known(crop: np.ndarray, card_id: str) -> str | None:
    """The payload of card `card_id` when its code is about the middle of `crop` (its
    position's place cut out, `placed_square`'s), the card known to lie there, the only one
    that can: told by its blurred modules as `told_among` tells it, KNOWN_MARGIN above the
    second best of every sticker, or, dimmer than BLURRED_LEAST but at KNOWN_LEAST or more,
    BLURRED_MARGIN above it (a lead no place without the card showed); None otherwise."""
    got = _placed(crop)
    if got is None:
        return None
    return _told_blurred(got[0], got[1], {card_id}, KNOWN_MARGIN, known=True)


def told_square(
    crops: Sequence[np.ndarray], candidates: Collection[str]
) -> tuple[int, str, Corners] | None:
    """Of `crops` (the same place cut out several ways: each quarter turn, a few sizes),
    the one where the pattern every code has matches best (`placed_square`), and the
    payload of its code as `told_among` tells it, with the code's corners in that crop's
    pixels (the square's top-left first); None where that crop's code is told as none."""
    placed = [_placed(crop) for crop in crops]
    if not any(placed):
        return None
    index = max((i for i, got in enumerate(placed) if got), key=lambda i: placed[i][1])  # type: ignore[index]
    square, score, warp = placed[index]  # type: ignore[misc]
    text = _told_blurred(square, score, candidates)
    if text is None:
        return None
    low, high = QUIET * PLACE_PX - 0.5, (QUIET + MODULES) * PLACE_PX - 0.5
    square_corners = np.array([[low, low, 1], [high, low, 1], [high, high, 1], [low, high, 1]])
    corners = square_corners @ warp.T
    return index, text, tuple((float(x), float(y)) for x, y in corners)  # type: ignore[return-value]
