"""Checks of a kit as installed on a Raspberry Pi: `pytest -m pi tests/pi` on the Pi itself.

Deselected by default (marker `pi`). They read the installed configuration and look for each
part where the program will: the I2C bus and the OLED's address, the GPIO chip, a camera, and
the service.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.config import Config, is_raspberry_pi, load_config

pytestmark = pytest.mark.pi

INSTALLED_CONFIG = Path("/etc/duel-companion/config.toml")


@pytest.fixture(scope="module")
def config() -> Config:
    if not is_raspberry_pi():
        pytest.skip("not a Raspberry Pi")
    return load_config(INSTALLED_CONFIG if INSTALLED_CONFIG.exists() else None)


def test_i2c_bus_is_on(config: Config) -> None:
    bus = Path(f"/dev/i2c-{config.display.i2c_port}")
    assert bus.exists(), f"{bus} missing: sudo raspi-config nonint do_i2c 0, then reboot"


def test_oled_answers_at_its_address(config: Config) -> None:
    from smbus2 import SMBus  # comes with luma.core

    address = config.display.i2c_address
    with SMBus(config.display.i2c_port) as bus:
        try:
            bus.read_byte(address)
        except OSError as error:
            pytest.fail(f"no OLED at 0x{address:02X} ({error}): check wiring; i2cdetect -y 1")


def test_gpio_chip_is_there(config: Config) -> None:
    assert list(Path("/dev").glob("gpiochip*")), "no /dev/gpiochip*: GPIO driver missing"


def test_a_camera_is_there(config: Config) -> None:
    usb = list(Path("/dev").glob("video*"))
    csi = ""
    if shutil.which("rpicam-hello"):
        listing = subprocess.run(
            ["rpicam-hello", "--list-cameras"], capture_output=True, text=True, timeout=30
        )
        csi = listing.stdout
    assert usb or "Available cameras" in csi, "no camera: check the ribbon or the USB cable"


def test_service_is_enabled_and_running(config: Config) -> None:
    for state, command in (("enabled", "is-enabled"), ("active", "is-active")):
        result = subprocess.run(
            ["systemctl", command, "duel-companion.service"], capture_output=True, text=True
        )
        assert result.stdout.strip() == state, f"duel-companion.service is not {state}"
