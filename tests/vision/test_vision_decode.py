"""Decoders on generated frames (fixed seeds): the cards held, their positions, no false read."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import payloads, synth
from companion.vision.decode import DECODERS, make_decoder

SEEDS = range(12)  # the test set; the benchmark uses seeds from 100000


@pytest.fixture(scope="module")
def fine_scenes() -> list[synth.Scene]:
    return [synth.random_scene(seed, "fine") for seed in SEEDS]


def test_a_seed_is_a_fixed_frame() -> None:
    first, again = synth.random_scene(3, "hard"), synth.random_scene(3, "hard")
    assert np.array_equal(first.frame, again.frame)
    assert first.held == again.held
    assert not np.array_equal(first.frame, synth.random_scene(4, "hard").frame)


def test_frames_are_grayscale_at_the_camera_size(fine_scenes: list[synth.Scene]) -> None:
    assert {s.frame.shape for s in fine_scenes} == {(720, 1280)}
    assert {s.frame.dtype for s in fine_scenes} == {np.dtype(np.uint8)}


@pytest.mark.parametrize("name", ["zxing", "zbar"])
def test_every_readable_held_card_of_the_fine_set_is_read(
    fine_scenes: list[synth.Scene], name: str
) -> None:
    decoder = make_decoder(name)
    for scene in fine_scenes:
        read = {payloads.parse(s.text) for s in decoder.decode(scene.frame)}
        wanted = {card.id for card in scene.held if card.readable}
        assert wanted <= read, f"{name} missed {wanted - read}"


@pytest.fixture(scope="module")
def hard_scenes() -> list[synth.Scene]:
    return [synth.random_scene(seed, "hard") for seed in SEEDS]


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_no_decoder_reads_a_card_that_is_not_in_the_frame(
    hard_scenes: list[synth.Scene], name: str
) -> None:
    decoder = make_decoder(name)
    for scene in hard_scenes:
        present = {card.id for card in [*scene.held, *scene.background]}
        read = {payloads.parse(s.text) for s in decoder.decode(scene.frame)} - {None}
        assert read <= present


def test_foreign_codes_in_view_are_decoded_but_not_cards() -> None:
    scenes = [synth.random_scene(seed, "fine") for seed in range(20)]
    with_foreign = [s for s in scenes if s.foreign]
    assert with_foreign, "the seed set must hold foreign codes"
    decoder = make_decoder("zxing")
    foreign_read = 0
    for scene in with_foreign:
        for sticker in decoder.decode(scene.frame):
            if payloads.parse(sticker.text) is None:
                foreign_read += 1
                assert sticker.text in synth.FOREIGN_TEXTS
    assert foreign_read > 0


def test_positions_are_the_code_corners(fine_scenes: list[synth.Scene]) -> None:
    decoder = make_decoder("zxing")
    scene = fine_scenes[0]
    for sticker in decoder.decode(scene.frame):
        card = scene.card_at(sticker.center)
        assert card is not None and payloads.payload_for(card.id) == sticker.text
        truth = np.mean(card.code_quad, axis=0)
        assert math.dist(sticker.center, tuple(truth)) < 0.1 * sticker.side


def test_colour_frames_are_converted_to_grayscale() -> None:
    """zbar alone would read only channel 0 (blue), left blank here."""
    gray = synth.frame_with_cards(["quarry"], seed=1)
    bgr = np.dstack([np.zeros_like(gray), gray, gray])
    for name in ("zxing", "zbar"):
        assert [payloads.parse(s.text) for s in make_decoder(name).decode(bgr)] == ["quarry"]


def test_a_code_under_a_card_held_in_front_is_not_readable() -> None:
    def held(x: float, readable: bool = True) -> synth.HeldCard:
        code = ((x, 100.0), (x + 40, 100.0), (x + 40, 140.0), (x, 140.0))
        card = ((x - 30, 60.0), (x + 70, 60.0), (x + 70, 220.0), (x - 30, 220.0))
        return synth.HeldCard("quarry", 200, 0, 4, 0, code, readable, card)

    behind, in_front, apart = held(100), held(150), held(600)
    marked = synth._hidden_by_later_cards([behind, in_front, apart])
    assert [card.readable for card in marked] == [False, True, True]


def test_an_unknown_decoder_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown decoder 'zbra': choose one of zxing, zbar"):
        make_decoder("zbra")
