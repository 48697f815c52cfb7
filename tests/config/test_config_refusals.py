"""Every refusal of a bad configuration file names the file, the dotted key and the reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.config import ConfigError, load_config


def load_text(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    load_config(path, environ={}, model_file=tmp_path / "no-model")


def refused(tmp_path: Path, key: str, reason: str) -> str:
    """The expected message as a regex: file, key, then the reason's start."""
    return "^" + re.escape(f"{tmp_path / 'config.toml'}: {key}: ") + reason


def test_config_error_is_not_a_value_error() -> None:
    assert not issubclass(ConfigError, ValueError)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=re.escape(f"{missing}: cannot read: No such file")):
        load_config(missing, environ={})


def test_invalid_toml_is_refused_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML: .*line 2"):
        load_text(tmp_path, 'language = "en"\nport = \n')


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        # Unknown keys, at every level.
        ('langauge = "en"', "langauge", r"unknown key \(known: buttons, camera, "),
        ("[web]\nprot = 80", "web.prot", r"unknown key \(known: host, port, threads\)"),
        ("[screen]\nrotation = 1", "screen", "unknown key"),
        ("[buttons.pins]\nup = 17", "buttons.pins.up", r"unknown button \(known: left, "),
        ("[display]\ni2c_adress = 0x3C", "display.i2c_adress", "unknown key"),
        # Wrong types.
        ("web = 8000", "web", "expected a table, got an integer"),
        ('[web]\nport = "8000"', "web.port", "expected an integer, got a string '8000'"),
        ("[web]\nport = true", "web.port", "expected an integer, got a boolean True"),
        ("[web]\nhost = 0", "web.host", "expected a string, got an integer 0"),
        ("[display]\nrotation = 1.0", "display.rotation", "expected an integer, got a number"),
        ('[display]\ni2c_address = "0x3C"', "display.i2c_address", "expected an integer"),
        ('[buttons]\nhold_time = "1s"', "buttons.hold_time", "expected a number of seconds"),
        ("[buttons]\npins = [5, 6, 13]", "buttons.pins", "expected a table, got an array"),
        ('[buttons.pins]\nleft = "GPIO5"', "buttons.pins.left", "expected an integer"),
        ("journal = 3", "journal", "expected a string, got an integer 3"),
        ('journal = ""', "journal", "expected a path, got an empty string"),
        ("[camera]\nscan_zone = [0, 0, 1]", "camera.scan_zone", r"expected 4 numbers"),
        ('[camera]\nscan_zone = [0, 0, "1", 1]', "camera.scan_zone", r"expected 4 numbers"),
        # Values out of range.
        ("[web]\nport = 70000", "web.port", r"70000 is out of range 1\.\.65535"),
        ("[web]\nthreads = 0", "web.threads", r"0 is out of range 1\.\.64"),
        ('[web]\nhost = "my pi"', "web.host", "'my pi' is not a host name or address"),
        ("[display]\nrotation = 4", "display.rotation", r"4 is out of range 0\.\.3"),
        (
            "[display]\nrotation = 1",
            "display.rotation",
            "1 would turn the 128x64 screens on their side: use 0, or 2 for a display mounted "
            "upside down",
        ),
        ("[display]\ni2c_address = 300", "display.i2c_address", r"300 \(0x12C\) is out of range"),
        ("[buttons]\nhold_time = 0", "buttons.hold_time", r"0 is out of range 0\.1\.\.10"),
        ("[buttons]\nbounce_time = -0.1", "buttons.bounce_time", "-0.1 is out of range"),
        ("[camera]\nfps = 0", "camera.fps", r"0 is out of range 1\.\.120"),
        ("[camera]\nwidth = 20000", "camera.width", "20000 is out of range"),
        ("[camera]\nscan_zone = [0.5, 0, 0.4, 1]", "camera.scan_zone", r"\[0\.5, 0, 0\.4, 1\]"),
        ("[camera]\nscan_zone = [0, 0, 1, 1.5]", "camera.scan_zone", r"\[0, 0, 1, 1\.5\] must"),
        # Choices.
        ('language = "fr"', "language", "'fr' is not one of en, nb, sv, da"),
        ('decoder = "quirc"', "decoder", "'quirc' is not one of zxing, zbar"),
        ('solo = "p3"', "solo", "'p3' is not one of , p1, p2"),
        (
            'solo_level = "expert"',
            "solo_level",
            "'expert' is not one of 1, 2, 3, 4, 5, easy, normal, hard",
        ),
        ("coach_level = 6", "coach_level", "'6' is not one of 1, 2, 3, 4, 5, easy"),
        ("coach_level = 2.0", "coach_level", "expected"),
        ('[display]\ndriver = "ssd1309"', "display.driver", "'ssd1309' is not one of ssd1306"),
        ('[camera]\nsource = "usb"', "camera.source", "'usb' is not a camera source"),
        ('[camera]\nsource = "opencv:first"', "camera.source", "'opencv:first' is not a camera"),
        ('[camera]\nsource = "folder:"', "camera.source", "'folder:' is not a camera source"),
        ('overhead_source = "usb"', "overhead_source", "'usb' is not a camera source"),
        ('overhead = "yes"', "overhead", "expected"),
        # Pins: the OLED's I2C bus, HAT EEPROM pins, off the header, duplicates.
        ("[buttons.pins]\nleft = 2", "buttons.pins.left", "GPIO2 is I2C SDA, used by the OLED"),
        ("[buttons.pins]\nright = 3", "buttons.pins.right", "GPIO3 is I2C SCL, used by the OLED"),
        ("[buttons.pins]\nselect = 0", "buttons.pins.select", "GPIO0 is ID_SD, reserved"),
        ("[buttons.pins]\nleft = 28", "buttons.pins.left", r"28 is out of range 0\.\.27"),
        ("[buttons.pins]\nright = 5", "buttons.pins.right", "GPIO5 is already the left button"),
        (
            "[buttons.pins]\nleft = 17\nselect = 17",
            "buttons.pins.select",
            "GPIO17 is already the left button",
        ),
    ],
)
def test_bad_value_names_file_key_and_reason(
    tmp_path: Path, text: str, key: str, reason: str
) -> None:
    with pytest.raises(ConfigError, match=refused(tmp_path, key, reason)):
        load_text(tmp_path, text)


def test_refusal_message_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, "[web]\nprot = 80")
    assert "\n" not in str(caught.value)
