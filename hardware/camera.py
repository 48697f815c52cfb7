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
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.config import parse_camera_source

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
    """The images of `folder` in name order, read as grayscale; then None.

    Raises:
        CameraError: the folder is missing, or an image cannot be read.
    """

    def __init__(self, folder: Path, *, loop: bool = False) -> None:
        if not folder.is_dir():
            raise CameraError(f"no folder {folder}")
        self._files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        self._next = 0
        self._loop = loop

    def read(self) -> np.ndarray | None:
        """The next image, or None after the last one (unless looping)."""
        if self._next >= len(self._files):
            if not (self._loop and self._files):
                return None
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        import cv2

        frame = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if frame is None:
            raise CameraError(f"cannot read image {path}")
        return np.asarray(frame)

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


def open_source(spec: str, width: int = 1280, height: int = 720) -> FrameSource:
    """Open the source named by a config spec: "auto" (the Pi camera if Picamera2 is
    installed, else the first USB webcam), "picamera2", "opencv:0", "opencv:/dev/video0",
    "folder:PATH" or "video:PATH".

    Raises:
        ValueError: a spec that names no source.
        CameraError: the source cannot be opened.
    """
    kind, argument = parse_camera_source(spec)
    if kind == "folder":
        return FolderSource(Path(argument))
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
