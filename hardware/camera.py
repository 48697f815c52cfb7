"""Camera sources: where the scanner's frames come from, behind one small protocol.

Every source has `read()` (a frame as a numpy array, or None when a folder or video file has
no more frames) and `close()`. A source that fails raises `CameraError` (an OSError) with a
one-line message; the scanner closes it and opens a new one with the same `open_source` spec
later, so a camera unplugged and plugged back in comes back by itself.

- `PicameraSource`: a Raspberry Pi camera (CSI ribbon) through Picamera2, which comes from
  Debian (`apt install python3-picamera2`) and is imported only when this source is opened.
  It returns the Y plane of YUV420 frames: grayscale at no cost, what the decoders want.
- `OpenCvSource`: a USB webcam (`opencv:0` or `opencv:/dev/video0`) or a video file.
- `FolderSource`: the images of a folder in name order (tests, the demo, replaying a session).
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.config import parse_camera_source

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".tif", ".tiff")


class CameraError(OSError):
    """A camera that cannot be opened or stopped giving frames; the message is one line."""


class FrameSource(Protocol):
    """Frames from a camera, a video file or a folder of images."""

    def read(self) -> np.ndarray | None:
        """The next frame (grayscale or BGR), or None when a file or folder has run out.

        Raises:
            CameraError: the camera failed; close this source and open a new one.
        """
        ...

    def close(self) -> None:
        """Release the camera; idempotent."""
        ...


class FolderSource:
    """The images of `folder` in name order, read as grayscale, one at a time; then None.

    With `hold` seconds (a person trying the scanner with a few photographs), each image stays
    in view that long and is followed by an empty frame for `GAP_SECONDS`: the card is taken
    away, so the same card in the next image counts as shown again. With `hold` 0 (a recorded
    session, frame by frame), each read gives the next image. The folder is listed again
    before each image, so images added while it runs are shown too; `loop` starts again after
    the last one. `clock` gives monotonic seconds (tests pass their own).

    Raises:
        CameraError: the folder is missing, or an image cannot be read.
    """

    GAP_SECONDS = 0.5

    def __init__(
        self,
        folder: Path,
        *,
        loop: bool = False,
        hold: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not folder.is_dir():
            raise CameraError(f"no folder {folder}")
        self._folder = folder
        self._loop = loop
        self._hold = hold
        self._clock = clock
        self._last = ""  # the name of the image shown last ("" before the first)
        self._frame: np.ndarray | None = None
        self._since = 0.0
        self.shown = 0  # images read so far

    def _names(self) -> list[str]:
        return sorted(p.name for p in self._folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def _advance(self) -> np.ndarray | None:
        """Read the next image, or None when there is none (after the last, unless looping)."""
        names = self._names()
        later = [name for name in names if name > self._last]
        if not later and self._loop and names:
            later = names
            log.info("folder camera: starting again at %s", names[0])
        if not later:
            log.warning(
                "folder camera: no more images in %s after %d (camera.loop = true starts again)",
                self._folder,
                self.shown,
            )
            return None
        self._last = later[0]
        path = self._folder / self._last
        import cv2

        frame = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if frame is None:
            raise CameraError(f"cannot read image {path}")
        self.shown += 1
        log.info(
            "folder camera: %s (%d of %d)", self._last, names.index(self._last) + 1, len(names)
        )
        return np.asarray(frame)

    def read(self) -> np.ndarray | None:
        """The image in view now, an empty frame between two images, or None after the last
        one (unless looping)."""
        if self._hold <= 0:
            return self._advance()
        now = self._clock()
        if self._frame is None or now - self._since >= self._hold + self.GAP_SECONDS:
            self._frame = self._advance()
            self._since = now
            if self._frame is None:
                return None
        if now - self._since >= self._hold:  # taken away before the next image
            return np.zeros_like(self._frame)
        return self._frame

    def close(self) -> None:
        """Nothing to release."""


class OpenCvSource:
    """A USB webcam by index or device path, or a video file, through cv2.VideoCapture.

    `capture_factory` is cv2.VideoCapture unless a test passes its own.

    Raises:
        CameraError: the camera or file cannot be opened.
    """

    def __init__(
        self,
        target: int | str,
        *,
        width: int | None = None,
        height: int | None = None,
        capture_factory: Callable[[int | str], Any] | None = None,
    ) -> None:
        import cv2

        quiet_opencv(cv2)
        self._is_file = isinstance(target, str) and Path(target).is_file()
        self._capture = (capture_factory or cv2.VideoCapture)(target)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"cannot open camera {target!r}")
        if width and height and not self._is_file:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._target = target

    def read(self) -> np.ndarray | None:
        """The next frame (BGR); None at the end of a video file."""
        if self._capture is None:
            raise CameraError(f"camera {self._target!r} is closed")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            if self._is_file:
                return None
            raise CameraError(f"camera {self._target!r} gave no frame")
        return np.asarray(frame)

    def close(self) -> None:
        """Release the capture."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class PicameraSource:
    """A Raspberry Pi camera through Picamera2, giving the Y (grayscale) plane of each frame.

    `camera` is a `Picamera2()` (or a stand-in with configure/start/capture_array/stop/close).

    Raises:
        CameraError: the camera cannot be configured or started.
    """

    def __init__(self, camera: Any, width: int = 1280, height: int = 720) -> None:
        self._camera = camera
        self._height = height
        try:
            config = camera.create_video_configuration(
                main={"size": (width, height), "format": "YUV420"}
            )
            camera.configure(config)
            camera.start()
        except Exception as failed:  # Picamera2 raises RuntimeError, OSError or its own
            self.close()
            raise CameraError(f"cannot start the Pi camera: {failed}") from failed

    def read(self) -> np.ndarray | None:
        """The next frame's Y plane (height x width, uint8)."""
        if self._camera is None:
            raise CameraError("the Pi camera is closed")
        try:
            yuv = self._camera.capture_array("main")
        except Exception as failed:
            raise CameraError(f"the Pi camera gave no frame: {failed}") from failed
        return np.asarray(yuv)[: self._height]

    def close(self) -> None:
        """Stop and release the camera."""
        camera, self._camera = self._camera, None
        if camera is not None:
            for action in (camera.stop, camera.close):
                # already stopped or gone: nothing left to release
                with contextlib.suppress(Exception):
                    action()


def has_picamera2() -> bool:
    """True if Picamera2 can be imported (a Raspberry Pi with python3-picamera2)."""
    return importlib.util.find_spec("picamera2") is not None


def open_source(
    spec: str,
    width: int = 1280,
    height: int = 720,
    *,
    image_seconds: float = 0.0,
    loop: bool = False,
) -> FrameSource:
    """Open the source named by a config spec: "auto" (the Pi camera if Picamera2 is
    installed, else the first USB webcam), "picamera2", "opencv:0", "opencv:/dev/video0",
    "folder:PATH" (each image held `image_seconds`, started again with `loop`) or
    "video:PATH".

    Raises:
        ValueError: a spec that names no source.
        CameraError: the source cannot be opened.
    """
    kind, argument = parse_camera_source(spec)
    if kind == "folder":
        return FolderSource(Path(argument), loop=loop, hold=image_seconds)
    if kind == "video":
        if not Path(argument).is_file():
            raise CameraError(f"no video file {argument}")
        return OpenCvSource(argument)
    if kind == "picamera2" or (kind == "auto" and has_picamera2()):
        try:
            from picamera2 import Picamera2
        except ImportError as missing:
            raise CameraError(f"Picamera2 is not installed ({missing})") from None
        try:
            camera = Picamera2()
        except Exception as failed:  # no camera on the ribbon, or busy
            raise CameraError(f"no Pi camera: {failed}") from failed
        return PicameraSource(camera, width, height)
    target: int | str = 0 if kind == "auto" else argument
    if isinstance(target, str) and target.isdigit():
        target = int(target)
    return OpenCvSource(target, width=width, height=height)


def quiet_opencv(cv2: Any) -> None:
    """Keep OpenCV's own warnings (one per failed open of a missing webcam, at every retry) out
    of the service's log: the scanner reports a lost camera once, in its own words."""
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
