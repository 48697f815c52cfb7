"""Draw hardware/wiring.svg and the wiring table of hardware/README.md from the default pins.

    python -m hardware.make_wiring            rewrite hardware/wiring.svg
    python -m hardware.make_wiring --table    print the README's wiring table (Markdown)

The pins come from `companion.config` (the defaults of `[buttons.pins]` and the I2C bus), so
the picture, the table and the program agree; a test checks that the committed files match.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from companion.config import ButtonsConfig

SVG_PATH = Path(__file__).with_name("wiring.svg")

# Physical pin -> what it is, on every 40-pin Raspberry Pi (Pi 4, Pi 5, Zero 2 W).
POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
# fmt: off
BCM_TO_PHYSICAL = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
# fmt: on
PHYSICAL_TO_BCM = {physical: bcm for bcm, physical in BCM_TO_PHYSICAL.items()}
SPECIAL = {2: "SDA", 3: "SCL", 0: "ID_SD", 1: "ID_SC"}


@dataclass(frozen=True, slots=True)
class Wire:
    """One jumper wire: a part's terminal to a header pin."""

    part: str
    terminal: str
    pin: int  # physical pin number
    pull_up: str
    colour: str


def pin_name(physical: int) -> str:
    """ "GPIO2 (SDA)", "3V3", "GND" for a physical pin number."""
    if physical in POWER:
        return POWER[physical]
    if physical in GROUND:
        return "GND"
    bcm = PHYSICAL_TO_BCM[physical]
    return f"GPIO{bcm} ({SPECIAL[bcm]})" if bcm in SPECIAL else f"GPIO{bcm}"


def wires(pins: dict[str, int] | None = None) -> list[Wire]:
    """The kit's wires, for the given button pins (default: the configuration's defaults)."""
    buttons = dict(ButtonsConfig().pins) if pins is None else pins
    on_board = "none needed: the OLED board and the Pi have them"
    result = [
        Wire("OLED", "VCC", 1, "", "#d62728"),
        Wire("OLED", "GND", 9, "", "#222222"),
        Wire("OLED", "SDA", BCM_TO_PHYSICAL[2], on_board, "#1f77b4"),
        Wire("OLED", "SCL", BCM_TO_PHYSICAL[3], on_board, "#e6b800"),
    ]
    signal_colours = {"left": "#2ca02c", "select": "#9467bd", "right": "#ff7f0e"}
    for name in ("left", "select", "right"):
        result.append(
            Wire(
                f"Button {name}",
                "leg 1",
                BCM_TO_PHYSICAL[buttons[name]],
                "internal (set by the program)",
                signal_colours[name],
            )
        )
    result.append(Wire("Buttons (all three)", "leg 2", 39, "", "#222222"))
    return result


def table(kit: list[Wire]) -> str:
    """The README's wiring table, one row per wire."""
    lines = [
        "| part | terminal | Pi pin (BCM) | physical pin | pull-up |",
        "| --- | --- | --- | --- | --- |",
    ]
    for wire in kit:
        pull = wire.pull_up or "-"
        lines.append(
            f"| {wire.part} | {wire.terminal} | {pin_name(wire.pin)} | {wire.pin} | {pull} |"
        )
    return "\n".join(lines)


# --- the picture -------------------------------------------------------------------------

LEFT_X, RIGHT_X, TOP_Y, STEP = 340, 364, 90, 24


def _pin_xy(physical: int) -> tuple[int, int]:
    row = (physical - 1) // 2
    return (LEFT_X if physical % 2 else RIGHT_X), TOP_Y + row * STEP


def _pin_fill(physical: int) -> str:
    if physical in POWER:
        return "#f4a460" if POWER[physical] == "3V3" else "#e34a4a"
    if physical in GROUND:
        return "#333333"
    return "#4aa564" if PHYSICAL_TO_BCM[physical] not in SPECIAL else "#5b8fd6"


def _text(x: float, y: float, text: str, size: int = 12, **attrs: str) -> str:
    extra = "".join(f' {key.replace("_", "-")}="{value}"' for key, value in attrs.items())
    return f'<text x="{x}" y="{y}" font-size="{size}"{extra}>{escape(text)}</text>'


def _header(used: set[int]) -> list[str]:
    out = [
        f'<rect x="{LEFT_X - 16}" y="{TOP_Y - 16}" width="{RIGHT_X - LEFT_X + 32}" '
        f'height="{19 * STEP + 32}" rx="6" fill="#1b3d2b"/>',
        _text(LEFT_X - 16, TOP_Y - 26, "Raspberry Pi 40-pin header (pin 1 at the top)", 12),
    ]
    for physical in range(1, 41):
        x, y = _pin_xy(physical)
        out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="{_pin_fill(physical)}"/>')
        out.append(_text(x, y + 3.5, str(physical), 9, text_anchor="middle", fill="#ffffff"))
        label_x = 392 if physical % 2 else 490
        weight = "bold" if physical in used else "normal"
        out.append(_text(label_x, y + 4, pin_name(physical), 11, font_weight=weight))
    return out


def _route(start: tuple[int, int], lane: int, end: tuple[int, int], colour: str) -> str:
    (x0, y0), (x1, y1) = start, end
    points = f"{x0},{y0} {lane},{y0} {lane},{y1} {x1 - 9},{y1}"
    return (
        f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="3" '
        'stroke-linejoin="round"/>'
    )


def _oled(kit: list[Wire], out: list[str]) -> None:
    out.append('<rect x="30" y="70" width="180" height="116" rx="6" fill="#10243e"/>')
    out.append('<rect x="40" y="96" width="128" height="64" fill="#000000" stroke="#7fa7d9"/>')
    out.append(_text(104, 124, "128x64 OLED", 12, text_anchor="middle", fill="#7fa7d9"))
    out.append(_text(104, 142, "SSD1306 / SH1106", 10, text_anchor="middle", fill="#7fa7d9"))
    out.append(_text(40, 88, "I2C OLED board", 11, fill="#ffffff"))
    # Drawn in header order so that no wires cross; read the labels on your board.
    oled = sorted((w for w in kit if w.part == "OLED"), key=lambda w: w.pin)
    for i, wire in enumerate(oled):
        y = 110 + i * 18
        out.append(_text(204, y + 4, wire.terminal, 10, text_anchor="end", fill="#ffffff"))
        out.append(f'<circle cx="210" cy="{y}" r="3" fill="{wire.colour}"/>')
        out.append(_route((210, y), 240 + i * 12, _pin_xy(wire.pin), wire.colour))


def _buttons(kit: list[Wire], out: list[str]) -> None:
    signals = [w for w in kit if w.part.startswith("Button ")]
    ground = next(w for w in kit if w.part.startswith("Buttons"))
    bus_x, bottom = 50, 0
    for i, wire in enumerate(signals):
        top = 380 + i * 70
        bottom = top + 25
        out.append(f'<rect x="70" y="{top}" width="80" height="50" rx="6" fill="#dddddd"/>')
        out.append(f'<circle cx="110" cy="{top + 25}" r="14" fill="#444444"/>')
        name = wire.part.removeprefix("Button ")
        out.append(_text(110, top - 6, name, 12, text_anchor="middle"))
        out.append(_route((150, top + 25), 288 + i * 12, _pin_xy(wire.pin), wire.colour))
        out.append(
            f'<line x1="{bus_x}" y1="{top + 25}" x2="70" y2="{top + 25}" '
            'stroke="#222222" stroke-width="3"/>'
        )
    # The ground legs share one wire: down the left side, under the buttons, up to the pin.
    x, y = _pin_xy(ground.pin)
    lane, under = 288 + 3 * 12, bottom + 45
    points = f"{bus_x},{380 + 25} {bus_x},{under} {lane},{under} {lane},{y} {x - 9},{y}"
    out.append(
        f'<polyline points="{points}" fill="none" stroke="{ground.colour}" stroke-width="3" '
        'stroke-linejoin="round"/>'
    )
    out.append(_text(70, under + 20, "leg 1 to its GPIO pin; leg 2 to ground (shared)", 11))


def svg(kit: list[Wire]) -> str:
    """The wiring picture as SVG text (deterministic: same pins, same bytes)."""
    used = {wire.pin for wire in kit}
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="620" height="650" '
        'viewBox="0 0 620 650" font-family="DejaVu Sans, Arial, sans-serif">',
        '<rect width="620" height="650" fill="#ffffff"/>',
        _text(
            20,
            28,
            "Duel Companion: wiring (generated by hardware/make_wiring.py)",
            15,
            font_weight="bold",
        ),
        _text(20, 46, "GPIO numbers are BCM; circles show physical pin numbers.", 11),
    ]
    _oled(kit, out)
    _buttons(kit, out)
    out.extend(_header(used))  # on top of the wire ends
    out.append(_text(20, 630, "Camera: ribbon to the CAM/CSI connector, or a USB webcam.", 11))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write wiring.svg, or print the table with --table."""
    args = sys.argv[1:] if argv is None else argv
    kit = wires()
    if args == ["--table"]:
        print(table(kit))
        return 0
    if args:
        print("usage: python -m hardware.make_wiring [--table]", file=sys.stderr)
        return 2
    SVG_PATH.write_text(svg(kit), encoding="utf-8")
    print(f"wrote {SVG_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
