"""The 128x64 OLED through luma.oled, or an emulated one on a machine without it.

Wiring (I2C): the display's VCC to 3.3 V (header pin 1), GND to ground (pin 6), SDA to GPIO2
(pin 3), SCL to GPIO3 (pin 5); address 0x3C by default (`display.i2c_address`). Enable I2C
with `raspi-config`. SSD1306 and SH1106 controllers are supported (`display.driver`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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
    image viewer that reloads (e.g. `feh -R 0.5 var/oled/latest.png`) or open it in a browser.
    """

    def __init__(self, folder: Path, scale: int = 4) -> None:
        self.folder = folder
        self.scale = scale
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "latest.png"

    def show(self, image: Image.Image) -> None:
        """Write the frame, enlarged `scale` times for a desktop screen."""
        size = (image.width * self.scale, image.height * self.scale)
        temporary = self.folder / ".latest.png.tmp"
        image.convert("L").resize(size, Image.Resampling.NEAREST).save(temporary, format="PNG")
        os.replace(temporary, self.path)


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
