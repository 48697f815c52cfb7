"""hardware.oled: frames pushed to a luma device, the driver chosen by the config."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.core.interface.serial import noop
from PIL import Image, ImageChops

from companion.config import DisplayConfig
from companion.device.screens import render
from companion.device.views import HelpView
from hardware.oled import EmulatedOled, Oled, open_oled

FRAME = render(HelpView((("left", "up", "back"),), pairing="1234"))


def test_show_pushes_the_frame_to_the_device() -> None:
    device = dummy(width=128, height=64, mode="1")
    Oled(device).show(FRAME)
    assert ImageChops.difference(device.image.convert("L"), FRAME.convert("L")).getbbox() is None


class FailingDevice:
    """A display that stopped answering on the I2C bus."""

    def display(self, image: Image.Image) -> None:
        raise OSError(121, "Remote I/O error")


def test_a_display_that_stops_answering_raises_oserror() -> None:
    with pytest.raises(OSError):
        Oled(FailingDevice()).show(FRAME)


# luma.oled's drivers call Image.getdata, which Pillow 12 deprecates; not ours to change
@pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
@pytest.mark.parametrize(("driver", "kind"), [("ssd1306", "ssd1306"), ("sh1106", "sh1106")])
@pytest.mark.parametrize("rotation", [0, 2])
def test_open_oled_builds_the_configured_driver(driver: str, kind: str, rotation: int) -> None:
    config = DisplayConfig(driver=driver, rotation=rotation)
    oled = open_oled(config, serial=noop())
    assert isinstance(oled, Oled)
    assert type(oled.device).__name__ == kind
    assert oled.device.rotate == rotation and oled.device.size == (128, 64)
    oled.show(FRAME)


@pytest.mark.parametrize("rotation", [1, 3])
def test_a_quarter_turn_is_refused(rotation: int) -> None:
    with pytest.raises(ValueError, match="rotation"):
        open_oled(DisplayConfig(driver="ssd1306", rotation=rotation), serial=noop())


def test_an_unknown_driver_is_refused() -> None:
    with pytest.raises(ValueError, match=r"display\.driver"):
        open_oled(DisplayConfig(driver="ssd1351"), serial=noop())


def test_the_emulated_display_writes_each_frame_enlarged(tmp_path: Path) -> None:
    config = replace(DisplayConfig(), driver="emulated", emulated_dir=tmp_path / "oled")
    oled = open_oled(config)
    assert isinstance(oled, EmulatedOled)
    oled.show(FRAME)
    with Image.open(tmp_path / "oled" / "latest.png") as written:
        assert written.size == (512, 256)
        small = written.convert("L").resize((128, 64), Image.Resampling.NEAREST)
    assert ImageChops.difference(small, FRAME.convert("L")).getbbox() is None
    assert [p.name for p in (tmp_path / "oled").iterdir()] == ["latest.png"]  # no temp left
