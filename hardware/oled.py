"""The 128x64 OLED through luma.oled, or an emulated one on a machine without it.

Wiring (I2C): the display's VCC to 3.3 V (header pin 1), GND to ground (pin 6), SDA to GPIO2
(pin 3), SCL to GPIO3 (pin 5); address 0x3C by default (`display.i2c_address`). Enable I2C
with `raspi-config`. SSD1306 and SH1106 controllers are supported (`display.driver`).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from PIL import Image

from companion.config import DisplayConfig

DRIVERS = ("ssd1306", "sh1106")


class Oled:
    """Shows frames on a luma device (the real OLED, or luma's `dummy` in tests)."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def show(self, image: Image.Image) -> None:
        """Push one 128x64 mode "1" frame.

        Raises:
            OSError, luma.core.error.Error: the display stopped answering.
        """
        self.device.display(image)


class EmulatedOled:
    """The OLED on a machine without one: each frame is written to `folder/latest.png`.

    The file is replaced atomically, so a viewer never reads half a frame; watch it with any
    image viewer that reloads (e.g. `feh -R 0.5 var/oled/latest.png`) or open it in a browser;
    over SSH, `watch -n 0.5 python -m hardware.oled var/oled/latest.png` draws it in the
    terminal. With `echo`, each frame is also drawn as text on that stream (`ascii_frame`).
    """

    def __init__(self, folder: Path, scale: int = 4, echo: TextIO | None = None) -> None:
        self.folder = folder
        self.scale = scale
        self.echo = echo
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "latest.png"

    def show(self, image: Image.Image) -> None:
        """Write the frame, enlarged `scale` times for a desktop screen."""
        size = (image.width * self.scale, image.height * self.scale)
        # a temporary file of its own: another emulated OLED may write to the same folder
        handle, name = tempfile.mkstemp(prefix=".latest-", suffix=".png.tmp", dir=self.folder)
        try:
            with os.fdopen(handle, "wb") as temporary:
                enlarged = image.convert("L").resize(size, Image.Resampling.NEAREST)
                enlarged.save(temporary, format="PNG")
            os.replace(name, self.path)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
        if self.echo is not None:
            self.echo.write(ascii_frame(image) + "\n")
            self.echo.flush()


# Two pixel rows per character: (top lit, bottom lit) -> block character.
_BLOCKS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584",
           (True, True): "\u2588"}  # fmt: skip


def ascii_frame(image: Image.Image) -> str:
    """A frame as text for a terminal: one character per pixel column and per two pixel rows
    (128x64 -> 32 lines of 128 block characters), framed by a border."""
    pixels = image.convert("1").load()
    assert pixels is not None
    width, height = image.size
    lines = ["+" + "-" * width + "+"]
    for top in range(0, height, 2):
        row = (
            _BLOCKS[bool(pixels[x, top]), top + 1 < height and bool(pixels[x, top + 1])]
            for x in range(width)
        )
        lines.append("|" + "".join(row) + "|")
    lines.append(lines[0])
    return "\n".join(lines)


def read_frame(path: Path) -> Image.Image:
    """A frame written by `EmulatedOled` (enlarged), back at the OLED's 128x64.

    Raises:
        OSError: the file cannot be read as an image.
    """
    with Image.open(path) as written:
        scale = max(1, min(written.width // 128, written.height // 64))
        size = (written.width // scale, written.height // scale)
        return written.convert("1").resize(size, Image.Resampling.NEAREST)


def open_oled(display: DisplayConfig, *, serial: Any = None) -> Oled | EmulatedOled:
    """The configured display: `emulated`, or an SSD1306 / SH1106 on I2C, turned upside
    down when `rotation` is 2. `serial` replaces the I2C interface (tests).

    Raises:
        ValueError: an unknown driver or rotation.
        OSError, luma.core.error.Error: no display answers at that address.
    """
    if display.driver == "emulated":
        return EmulatedOled(display.emulated_dir)
    if display.driver not in DRIVERS:
        raise ValueError(f"display.driver: expected emulated, {', '.join(DRIVERS)}; "
                         f"got {display.driver!r}")  # fmt: skip
    if display.rotation not in (0, 2):  # a quarter turn would make the screens portrait
        raise ValueError(f"display.rotation: the screens are 128x64 landscape, so 0 or 2 "
                         f"(upside down), got {display.rotation}")  # fmt: skip
    from luma.oled.device import sh1106, ssd1306

    if serial is None:
        from luma.core.interface.serial import i2c

        serial = i2c(port=display.i2c_port, address=display.i2c_address)
    driver = ssd1306 if display.driver == "ssd1306" else sh1106
    return Oled(driver(serial, width=128, height=64, rotate=display.rotation))


def main(argv: list[str] | None = None) -> int:
    """Draw an emulated OLED frame in the terminal: `python -m hardware.oled var/oled/latest.png`.

    Exit 2 with a one-line message when the file cannot be read.
    """
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m hardware.oled FRAME.png", file=sys.stderr)
        return 2
    try:
        frame = read_frame(Path(args[0]))
    except OSError as error:
        print(f"{args[0]}: cannot read the frame: {error.strerror or error}", file=sys.stderr)
        return 2
    print(ascii_frame(frame))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
