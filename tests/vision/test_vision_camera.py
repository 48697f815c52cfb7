"""Camera sources: folders, video files, USB webcams (OpenCV) and the Pi camera (a stand-in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.vision import payloads, synth
from companion.vision.decode import make_decoder
from hardware.camera import (
    CameraError,
    FolderSource,
    OpenCvSource,
    PicameraSource,
    open_source,
)


def write_video(path: Path, frames: list[np.ndarray], fps: float = 10.0) -> None:
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (width, height))
    assert writer.isOpened()
    for frame in frames:
        writer.write(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    writer.release()


def read_all(source: Any) -> list[np.ndarray]:
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    return frames


def cards_in(frame: np.ndarray) -> list[str | None]:
    return sorted(str(payloads.parse(s.text)) for s in make_decoder("zxing").decode(frame))


def test_a_folder_gives_its_images_in_name_order_then_none(tmp_path: Path) -> None:
    for name, card in (("b.png", "quarry"), ("a.png", "temple"), ("c.jpg", "lighthouse")):
        cv2.imwrite(str(tmp_path / name), synth.frame_with_cards([card], seed=1))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = read_all(open_source(f"folder:{tmp_path}"))
    assert [cards_in(f) for f in frames] == [["temple"], ["quarry"], ["lighthouse"]]


def test_a_looping_folder_starts_again(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), synth.frame_with_cards(["quarry"], seed=1))
    source = FolderSource(tmp_path, loop=True)
    assert all(source.read() is not None for _ in range(3))


def test_a_broken_image_in_a_folder_is_a_camera_error(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"not a png")
    with pytest.raises(CameraError, match=r"cannot read image .*a\.png"):
        FolderSource(tmp_path).read()


def test_a_video_file_is_read_to_its_end(tmp_path: Path) -> None:
    held = synth.frame_with_cards(["quarry"], seed=2)
    empty = synth.frame_with_cards([], seed=2)
    write_video(tmp_path / "table.avi", [held, held, empty])
    frames = read_all(open_source(f"video:{tmp_path / 'table.avi'}"))
    assert [cards_in(f) for f in frames] == [["quarry"], ["quarry"], []]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("folder:/no/such/folder", "no folder"),
        ("video:/no/such/file.avi", "no video file"),
    ],
)
def test_a_missing_source_is_a_camera_error(spec: str, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        open_source(spec)


def test_an_unknown_spec_is_refused() -> None:
    with pytest.raises(ValueError, match="is not a camera source"):
        open_source("webcam")


class FakeCapture:
    """cv2.VideoCapture stand-in: gives `frames` frames, then fails like an unplugged webcam."""

    def __init__(self, target: int | str, opened: bool = True, frames: int = 2) -> None:
        self.target, self.opened, self.left, self.released = target, opened, frames, False
        self.settings: dict[int, float] = {}

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.left -= 1
        return (True, np.zeros((4, 4, 3), np.uint8)) if self.left >= 0 else (False, None)

    def release(self) -> None:
        self.released = True


def test_a_webcam_that_stops_giving_frames_raises_and_can_be_reopened() -> None:
    captures: list[FakeCapture] = []

    def factory(target: int | str) -> FakeCapture:
        captures.append(FakeCapture(target))
        return captures[-1]

    source = OpenCvSource(0, width=1280, height=720, capture_factory=factory)
    assert captures[0].settings == {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 720}
    assert source.read() is not None and source.read() is not None
    with pytest.raises(CameraError, match="camera 0 gave no frame"):
        source.read()
    source.close()
    assert captures[0].released
    again = OpenCvSource(0, capture_factory=factory)  # plugged back in
    assert again.read() is not None


def test_a_webcam_that_cannot_open_is_a_camera_error() -> None:
    with pytest.raises(CameraError, match="cannot open camera 3"):
        OpenCvSource(3, capture_factory=lambda target: FakeCapture(target, opened=False))


class FakePicamera2:
    """The part of Picamera2 that PicameraSource uses; YUV420 arrays are 1.5 x height rows."""

    def __init__(self, fail_start: bool = False) -> None:
        self.fail_start = fail_start
        self.config: dict[str, Any] = {}
        self.calls: list[str] = []

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        if self.fail_start:
            raise RuntimeError("Camera __init__ sequence did not complete.")
        self.calls.append("start")

    def capture_array(self, stream: str) -> np.ndarray:
        width, height = self.config["main"]["size"]
        yuv = np.zeros((height * 3 // 2, width), np.uint8)
        yuv[:height] = 200  # the Y plane
        return yuv

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def test_the_pi_camera_gives_the_y_plane() -> None:
    camera = FakePicamera2()
    source = PicameraSource(camera, 640, 480)
    frame = source.read()
    assert frame is not None and frame.shape == (480, 640) and frame.min() == 200
    assert camera.config["main"]["format"] == "YUV420"
    source.close()
    assert camera.calls == ["start", "stop", "close"]
    with pytest.raises(CameraError, match="closed"):
        source.read()


def test_a_pi_camera_that_cannot_start_is_a_camera_error() -> None:
    camera = FakePicamera2(fail_start=True)
    with pytest.raises(CameraError, match="cannot start the Pi camera"):
        PicameraSource(camera)
    assert camera.calls == ["stop", "close"]
