"""The wiring picture and table agree with the header and with the configuration's pins."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.config import RESERVED_PINS, ButtonsConfig
from hardware.make_wiring import (
    BCM_TO_PHYSICAL,
    GROUND,
    POWER,
    SVG_PATH,
    main,
    pin_name,
    svg,
    table,
    wires,
)

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def test_header_map_covers_every_pin_once() -> None:
    physical = [*BCM_TO_PHYSICAL.values(), *POWER, *GROUND]
    assert sorted(physical) == list(range(1, 41))
    assert sorted(BCM_TO_PHYSICAL) == list(range(28))


def test_known_pins_are_where_the_pinout_puts_them() -> None:
    assert [pin_name(n) for n in (1, 3, 5, 6, 29, 31, 33, 39)] == [
        "3V3",
        "GPIO2 (SDA)",
        "GPIO3 (SCL)",
        "GND",
        "GPIO5",
        "GPIO6",
        "GPIO13",
        "GND",
    ]


def test_kit_uses_the_configured_button_pins_and_the_i2c_bus() -> None:
    kit = {(w.part, w.terminal): w.pin for w in wires()}
    defaults = ButtonsConfig().pins
    for name, bcm in defaults.items():
        assert kit[(f"Button {name}", "leg 1")] == BCM_TO_PHYSICAL[bcm]
        assert bcm not in RESERVED_PINS
    assert kit[("OLED", "SDA")] == 3 and kit[("OLED", "SCL")] == 5
    assert pin_name(kit[("OLED", "VCC")]) == "3V3"  # never 5 V on the I2C lines
    assert pin_name(kit[("OLED", "GND")]) == "GND"
    assert pin_name(kit[("Buttons (all three)", "leg 2")]) == "GND"


def test_other_pins_move_the_wires() -> None:
    kit = wires({"left": 17, "select": 27, "right": 22})
    assert [w.pin for w in kit if w.part.startswith("Button ")] == [11, 13, 15]


def test_committed_picture_is_the_generated_one() -> None:
    assert SVG_PATH.read_text(encoding="utf-8") == svg(wires()), (
        "hardware/wiring.svg is stale: run python -m hardware.make_wiring"
    )


def test_picture_is_valid_svg_with_one_wire_per_connection() -> None:
    root = ET.fromstring(svg(wires()))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    polylines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(polylines) == len(wires())


def test_readme_table_is_the_generated_one() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- wiring-table:[^>]*-->\n(.*?)\n<!-- end wiring-table -->", text, re.S)
    assert match is not None
    assert match.group(1) == table(wires())


def test_readme_has_the_sections_the_kit_needs() -> None:
    text = README.read_text(encoding="utf-8")
    for heading in ("## Parts", "## Wiring", "## Camera height and sticker size", "## Stickers"):
        assert heading in text
    for part in ("Pi 4", "Pi 5", "Pi Zero 2 W", "SSD1306", "SH1106", "Camera Module", "USB webcam"):
        assert part in text
    assert "docs/vision.md" in text
    assert "duel-companion stickers --out stickers.pdf" in text
    assert "(wiring.svg)" in text


def test_table_flag_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--table"]) == 0
    assert capsys.readouterr().out.strip() == table(wires())
    assert main(["--bogus"]) == 2
