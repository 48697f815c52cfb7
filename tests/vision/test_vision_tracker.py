"""The tracker turns frames of stickers into one scan per showing of a card."""

from __future__ import annotations

import pytest

from companion.vision import payloads, synth
from companion.vision.decode import Sticker, make_decoder
from companion.vision.tracker import Tracker

FRAME = 0.1  # seconds between frames


def sticker(card_id: str, x: float = 640.0, y: float = 360.0) -> Sticker:
    text = payloads.payload_for(card_id)
    return Sticker(text, ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20)))


def run(tracker: Tracker, frames: list[list[Sticker]]) -> list[tuple[int, str | None]]:
    """(frame index, card) for every scan the tracker reports."""
    found = []
    for index, stickers in enumerate(frames):
        found += [(index, scan.card) for scan in tracker.feed(stickers, index * FRAME)]
    return found


def test_a_card_counts_only_after_consecutive_frames() -> None:
    quarry = [sticker("quarry")]
    frames = [quarry, [], quarry, [], quarry, quarry]  # flicker, then held
    assert run(Tracker(confirm_frames=2), frames) == [(5, "quarry")]


def test_a_held_card_counts_once() -> None:
    assert run(Tracker(), [[sticker("quarry")]] * 50) == [(1, "quarry")]


def test_a_missed_frame_while_held_does_not_count_again() -> None:
    quarry = [sticker("quarry")]
    assert run(Tracker(forget_frames=2), [quarry, quarry, [], quarry, quarry]) == [(1, "quarry")]


def test_a_card_removed_and_shown_again_counts_again() -> None:
    quarry = [sticker("quarry")]
    frames = [quarry, quarry, quarry, [], [], quarry, quarry]
    assert run(Tracker(), frames) == [(1, "quarry"), (6, "quarry")]


def test_forget_seconds_keeps_a_card_through_a_short_gap() -> None:
    quarry = [sticker("quarry")]
    frames = [quarry, quarry, [], [], quarry, quarry, [], [], [], [], [], quarry, quarry]
    tracker = Tracker(forget_frames=2, forget_seconds=0.35)
    assert run(tracker, frames) == [(1, "quarry"), (12, "quarry")]


def test_two_cards_in_view_count_each_once() -> None:
    both = [sticker("quarry", 400), sticker("temple", 900)]
    assert run(Tracker(), [both] * 4) == [(1, "quarry"), (1, "temple")]


def test_a_foreign_code_is_a_scan_without_a_card() -> None:
    foreign = Sticker("HELLO", ((0, 0), (10, 0), (10, 10), (0, 10)))
    tracker = Tracker()
    scans = [tracker.feed([foreign], t) for t in (0.0, 0.1)]
    assert scans[0] == []
    assert [(s.text, s.card) for s in scans[1]] == [("HELLO", None)]


def test_stickers_outside_the_scan_zone_are_ignored() -> None:
    tracker = Tracker(zone=(0.25, 0.2, 0.75, 0.8), frame_size=(1280, 720))
    frames = [[sticker("quarry", 100, 100), sticker("temple", 640, 360)]] * 3
    assert run(tracker, frames) == [(1, "temple")]


def test_the_scan_zone_uses_the_size_of_each_frame() -> None:
    tracker = Tracker(zone=(0.25, 0.2, 0.75, 0.8))
    centre_of_640 = [sticker("quarry", 300, 130)]
    assert tracker.feed(centre_of_640, 0.0, (1280, 720)) == []  # top left of a 1280 frame
    assert tracker.feed(centre_of_640, 0.1, (1280, 720)) == []
    assert [s.card for s in tracker.feed(centre_of_640, 0.2, (640, 480))] == []  # 1st in zone
    assert [s.card for s in tracker.feed(centre_of_640, 0.3, (640, 480))] == ["quarry"]
    with pytest.raises(ValueError, match="needs the frame size"):
        tracker.feed(centre_of_640, 0.4)


def test_reset_forgets_held_cards() -> None:
    tracker = Tracker()
    quarry = [sticker("quarry")]
    assert run(tracker, [quarry, quarry]) == [(1, "quarry")]
    tracker.reset()
    assert run(tracker, [quarry, quarry]) == [(1, "quarry")]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"zone": (0.5, 0.2, 0.4, 0.8), "frame_size": (640, 480)}, "not inside the frame"),
        ({"confirm_frames": 0}, "must be >= 1"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Tracker(**kwargs)  # type: ignore[arg-type]


def test_real_frames_count_the_held_card_and_ignore_the_structure() -> None:
    """zxing-cpp on generated frames: the held card counts once per showing; the structure's
    cards on the table are too small to read and outside the zone anyway."""
    geometry = synth.Geometry()
    tracker = Tracker(zone=geometry.zone, frame_size=(geometry.width, geometry.height))
    decoder = make_decoder("zxing")
    held = synth.frame_with_cards(["lighthouse"], seed=3)
    empty = synth.frame_with_cards([], seed=4)
    frames = [held, held, held, empty, empty, held, held]
    scans = [
        (index, scan.card)
        for index, frame in enumerate(frames)
        for scan in tracker.feed(decoder.decode(frame), index * FRAME)
    ]
    assert scans == [(1, "lighthouse"), (6, "lighthouse")]
