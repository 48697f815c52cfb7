"""A code found but not decoded, told by its modules against our stickers
(companion.vision.known_codes), and the hard frames read with it."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
import segno

from companion.engine.catalog import default_catalog
from companion.vision import known_codes, payloads, stickers, structure
from companion.vision.decode import Corners, make_decoder
from companion.vision.structure import _place_crop, read_structure
from companion.vision.table import table_model
from companion.vision.table_synth import TableScene, random_table

DECODER = make_decoder("zxing")
PX = 3  # px a module of the drawn codes
QUIET = 2  # modules of quiet zone around them


def drawn(modules: np.ndarray, blur: float) -> tuple[np.ndarray, Corners]:
    """A code's modules drawn dark on light at PX px a module, blurred by `blur` px, and
    its corners (top-left first) in the image."""
    side = (modules.shape[0] + 2 * QUIET) * PX
    image = np.full((side, side), 200, np.uint8)
    for row, col in zip(*np.nonzero(modules), strict=True):
        top, left = (row + QUIET) * PX, (col + QUIET) * PX
        image[top : top + PX, left : left + PX] = 40
    image = cv2.GaussianBlur(image, (0, 0), blur)
    low, high = QUIET * PX, (QUIET + modules.shape[0]) * PX
    corners: Corners = ((low, low), (high, low), (high, high), (low, high))
    return image, corners


def test_a_blurred_sticker_of_ours_is_told_by_its_modules() -> None:
    # blurred 2 px at 3 px a module, the decoder reads no code; its modules still match
    # lumber yard's code far better than any other sticker's
    payload = payloads.payload_for("lumber_yard")
    image, corners = drawn(stickers.qr_modules(payload), blur=2.0)
    assert DECODER.decode(image) == []
    told = known_codes.match(image, corners)
    assert told is not None and told.text == payload and told.corners == corners


def test_a_code_not_ours_is_told_by_no_modules() -> None:
    # a foreign version-1 code as blurred: its modules match none of our stickers well
    foreign = np.array(segno.make_qr("HELLO 7W", version=1, error="h").matrix, dtype=bool)
    image, corners = drawn(foreign, blur=2.0)
    assert known_codes.match(image, corners) is None


def test_a_code_sampled_off_its_modules_is_told_by_no_modules() -> None:
    # lumber yard's code, its corners taken two modules off: the modules sampled there
    # match no sticker far better than the next
    image, corners = drawn(stickers.qr_modules(payloads.payload_for("lumber_yard")), blur=2.0)
    off: Corners = tuple((x + 2 * PX, y + 2 * PX) for x, y in corners)  # type: ignore[assignment]
    assert known_codes.match(image, off) is None


def test_codes_zxing_finds_but_cannot_decode_in_a_hard_frame_are_told_at_their_places() -> None:
    # generated hand-laid deal 940009 (spread 1, hard light, age 1): the whole frame's
    # decoding finds codes it cannot decode (checksum errors); those told by their modules
    # are the cards that lie there, each at its own code
    scene = random_table(940009, spread=1.0, difficulty="hard", taken=[])
    _, unread = DECODER.decode_all(scene.frame)  # type: ignore[attr-defined]
    places = {
        i: cv2.perspectiveTransform(np.array([code], np.float64), scene.plane_to_frame)[0].mean(0)
        for i, code in scene.codes.items()
    }
    told = set()
    for corners in unread:
        sticker = known_codes.match(scene.frame, corners)
        if sticker is None:
            continue
        at = [i for i, place in places.items() if np.linalg.norm(place - sticker.center) < 10]
        assert len(at) == 1 and payloads.parse(sticker.text) == scene.truth[at[0]]
        told.add(at[0])
    assert told == {1, 6, 8, 14, 15, 16}


def test_a_hard_deal_whose_codes_the_whole_frame_cannot_read_is_read_from_their_blobs() -> None:
    # generated hand-laid deal 940007 (spread 1, hard light, age 1, no hand): the whole
    # frame decodes no code, sharpened and enlarged one; the reader of b719d94 told
    # nothing. Each code's blob of strong edges, cut out and sharpened, reads: every
    # position is told, from the frame alone and told it is the deal
    scene = random_table(940007, spread=1.0, difficulty="hard", taken=[])
    assert not any(scene.hidden) and not any(scene.covered)
    assert DECODER.decode(scene.frame) == []
    for known in (None, ["back"] * 20):
        slots = read_structure(scene.frame, scene.age, DECODER, known=known).slots
        face_up = [i for i, truth in enumerate(scene.truth) if truth != "back"]
        assert len(face_up) == 12
        assert all(slots[i] == scene.truth[i] for i in face_up)
        assert all(s is None or s == t for s, t in zip(slots, scene.truth, strict=True))


def assert_faces_read(seed: int) -> None:
    """Hand-laid deal `seed` (spread 1, hard light) read from the frame alone and told it is
    the deal: every face-up position no hand lies over whose sticker no card covers is read,
    and no position is told wrongly."""
    scene = random_table(seed, spread=1.0, difficulty="hard", taken=[])
    faces = [
        i
        for i, truth in enumerate(scene.truth)
        if truth != "back" and not scene.hidden[i] and not scene.covered[i]
    ]
    for known in (None, ["back"] * 20):
        slots = read_structure(scene.frame, scene.age, DECODER, known=known).slots
        assert all(slots[i] == scene.truth[i] for i in faces)
        assert all(s is None or s == t for s, t in zip(slots, scene.truth, strict=True))


def test_a_hard_deal_placed_by_codes_told_by_their_modules_is_read() -> None:
    # generated hand-laid deal 940029 (age 1, no hand, one sticker under a card): the whole
    # frame decodes no code of the 12 and finds 6 it cannot decode; with the codes told by
    # their modules (in the frame and in the blobs' cuts) every face-up position whose
    # sticker shows (11) is read. The reader of b719d94 told nothing, and so does this one
    # when no code is told by its modules
    assert_faces_read(940029)


def test_a_hard_deal_whose_codes_were_found_but_not_decoded_is_read_from_their_blobs() -> None:
    # generated hand-laid deal 940019 (age 1, no hand): the whole frame reads 5 of the 12
    # codes and finds 3 it cannot decode; the cards read fit more than 12 placements (a
    # cannot-tell, as the reader of b719d94 told it). Codes found but not decoded send the
    # reader to the codes' blobs as a frame of few codes does: all 12 read
    assert_faces_read(940019)


def test_a_clear_match_with_a_smaller_lead_is_told_at_its_place() -> None:
    # generated hand-laid deal 1950047 (age 2, hard light, spread 0): rostrum's code
    # (position 0) is read by no decoder; at its place its modules match rostrum's sticker
    # at 0.90 and law's token's at 0.62, a lead of 0.28 (under BLURRED_MARGIN: left null
    # before). A match that clear is told with a lead of CLEAR_MARGIN, from the frame alone
    # and told it is the deal
    scene = random_table(1950047, spread=0, difficulty="hard", taken=[])
    assert scene.truth[0] == "rostrum"
    for known in (None, ("back",) * 20):
        slots = read_structure(scene.frame, scene.age, DECODER, known=known).slots
        assert slots[0] == "rostrum"
        assert all(s is None or s == t for s, t in zip(slots, scene.truth, strict=True))


@pytest.mark.parametrize(
    ("best", "next_best", "told"),
    [
        (0.90, 0.63, True),  # clear: 0.27 above the next
        (0.90, 0.67, False),  # clear, but 0.23 above: no place's best is that clear, and
        # places without the card lay up to 0.195 above their next
        (0.78, 0.52, False),  # 0.26 above, under CLEAR_LEAST and BLURRED_MARGIN
        (0.72, 0.41, True),  # BLURRED_LEAST, 0.31 above
    ],
)
def test_a_clear_match_needs_less_lead(
    monkeypatch: pytest.MonkeyPatch, best: float, next_best: float, told: bool
) -> None:
    # the rule of `_told_blurred` on the correlations alone: rostrum's sticker at `best`,
    # a progress token's at `next_best`, every other sticker's at 0.1
    texts = list(known_codes._stickers()[0])
    scores = np.full(len(texts), 0.1)
    scores[texts.index(payloads.payload_for("rostrum"))] = best
    scores[next(i for i, t in enumerate(texts) if payloads.parse(t) is None)] = next_best
    monkeypatch.setattr(known_codes, "blurred_scores", lambda square: scores)
    got = known_codes._told_blurred(np.zeros((3, 3)), 0.8, {"rostrum"})
    assert got == (payloads.payload_for("rostrum") if told else None)


# Generated hand-laid frames in hard light (spread 0.5): codes no decoder reads (motion blur,
# a dim room), whose places the placement puts where the structure's fit says
def _later_1000032() -> tuple[TableScene, list[str | None]]:
    """Hard frame 1000032 (age 1) after seven cards were taken, and what the box knew."""
    deal = random_table(1000032, spread=0.5, difficulty="hard", taken=[])
    scene = random_table(
        1000032, spread=0.5, difficulty="hard", deal=deal.deal, taken=[17, 14, 19, 18, 16, 15, 11]
    )
    return scene, list(scene.known)


def test_a_blurred_code_no_decoder_reads_is_told_at_its_place_from_the_frame_alone() -> None:
    # deal 1000035 (age 2): school's and dispensary's codes (positions 3 and 4), dim and
    # blurred along a diagonal, are read by no decoder (left null before); at their places,
    # registered by their finder patterns, their data modules drawn blurred as the frame is
    # match their own card's at 0.92 and 0.93, every other sticker's at 0.41 at most
    scene = random_table(1000035, spread=0.5, difficulty="hard", taken=[])
    slots = read_structure(scene.frame, scene.age, DECODER).slots
    assert (slots[3], slots[4]) == ("school", "dispensary") == tuple(scene.truth[3:5])
    assert all(s is None or s == t for s, t in zip(slots, scene.truth, strict=True))


def test_blurred_codes_are_told_as_the_device_knew_them() -> None:
    # seven cards taken: stable, altar, guard tower and palisade (positions 1, 9, 10, 12),
    # known face up there, are read by no decoder in this frame (left null before); each is
    # told at its place, the card known there its one candidate
    scene, known = _later_1000032()
    slots = read_structure(scene.frame, scene.age, DECODER, known=known).slots
    assert [slots[i] for i in (1, 9, 10, 12)] == ["stable", "altar", "guard_tower", "palisade"]
    assert slots == tuple(scene.truth)


def test_a_wrong_card_known_at_a_blurred_code_is_never_told() -> None:
    # the box told that position 9 held the baths (a card of age 1 not in this frame): the
    # code there is altar's, and its modules match altar's best, so the one candidate is
    # refused and the position left null, never the baths nor a card not known there
    scene, known = _later_1000032()
    known[9] = "baths"
    slots = read_structure(scene.frame, scene.age, DECODER, known=known).slots
    assert slots[9] is None
    assert all(s is None or s == t for s, t in zip(slots, scene.truth, strict=True))


def _school_place() -> np.ndarray:
    """The place of school's code in generated hand-laid deal 1000035 (spread 0.5, hard
    light; position 3), cut out where the frame's fit puts it."""
    scene = random_table(1000035, spread=0.5, difficulty="hard", taken=[])
    reading = read_structure(scene.frame, scene.age, DECODER)
    assert reading.fit is not None
    m = replace(table_model(), col_mm=reading.fit.col_mm, row_mm=reading.fit.row_mm)
    origin = m.slot_corners(default_catalog().layout(scene.age))[3]
    return _place_crop(scene.frame, reading.fit.homography, origin, m)


def test_told_among_refuses_a_place_whose_best_match_is_not_a_candidate() -> None:
    # the place of school's code in deal 1000035 (position 3), cut out where the fit puts it:
    # told school among candidates that hold it, nothing among candidates that do not (the
    # dispensary beside it, every other card of age 2), whatever their own correlation
    crop = _school_place()
    school = payloads.payload_for("school")
    assert known_codes.told_among(crop, {"school"}) == school
    assert known_codes.told_among(crop, {"school", "dispensary"}) == school
    others = {c.id for c in default_catalog().cards if c.age == 2} - {"school"}
    assert known_codes.told_among(crop, others) is None
    assert known_codes.told_among(crop, {"dispensary"}) is None


def test_a_place_with_no_code_is_told_nothing() -> None:
    # the bare table drawn as a place's crop (its grain and noise), and a blank sticker: no
    # code's finder patterns there, no sticker told whatever the candidates
    rng = np.random.default_rng(3)
    side = (known_codes.MODULES + 2 * known_codes.QUIET) * known_codes.PLACE_PX + 40
    table = np.clip(
        120 + 6 * np.sin(np.arange(side) / 3)[None, :] + rng.normal(0, 4, (side, side)), 0, 255
    )
    every = {c.id for c in default_catalog().cards}
    assert known_codes.told_among(table.astype(np.uint8), every) is None
    blank = table.copy()
    blank[20:-20, 20:-20] = 200
    assert known_codes.told_among(blank.astype(np.uint8), every) is None


def test_code_at_gives_how_well_a_code_s_pattern_matches_and_the_card_told() -> None:
    # school's place in deal 1000035 (position 3) matches the pattern every code has far
    # above the bare table's grain (structure.NO_CODE: below it, no code lies there); the
    # card is told as told_among tells it
    crop = _school_place()
    shown, told = known_codes.code_at(crop, {"school"})
    assert shown > 0.5 and told == payloads.payload_for("school")
    assert known_codes.code_at(crop, {"dispensary"}) == (shown, None)
    side = (known_codes.MODULES + 2 * known_codes.QUIET) * known_codes.PLACE_PX + 40
    table = 120 + 6 * np.sin(np.arange(side) / 3)[None, :] + np.zeros((side, side))
    shown, told = known_codes.code_at(table.astype(np.uint8), {"school"})
    assert shown < structure.NO_CODE and told is None
    assert known_codes.code_at(table[:20, :20].astype(np.uint8), {"school"}) == (-1.0, None)


def test_told_known_tells_only_the_card_known_there() -> None:
    # school's place in deal 1000035 (position 3): told school when school is known there,
    # nothing when the dispensary beside it is; the bare table and a blank sticker tell
    # nothing, whatever card is known there
    crop = _school_place()
    assert known_codes.told_known(crop, "school") == payloads.payload_for("school")
    assert known_codes.told_known(crop, "dispensary") is None
    rng = np.random.default_rng(3)
    side = (known_codes.MODULES + 2 * known_codes.QUIET) * known_codes.PLACE_PX + 40
    table = np.clip(
        120 + 6 * np.sin(np.arange(side) / 3)[None, :] + rng.normal(0, 4, (side, side)), 0, 255
    )
    blank = table.copy()
    blank[20:-20, 20:-20] = 200
    for card_id in ("school", "dispensary", "stone_reserve"):
        assert known_codes.told_known(table.astype(np.uint8), card_id) is None
        assert known_codes.told_known(blank.astype(np.uint8), card_id) is None
