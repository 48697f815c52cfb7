"""The configuration file: one TOML file, every key optional, every refusal named.

`load_config(path)` reads the file (or `$DUEL_COMPANION_CONFIG`, or nothing) and returns a frozen
`Config`. Keys left out take their defaults, some of which depend on where the program runs:

- `journal`: `$STATE_DIRECTORY/journal.sqlite` under systemd (the unit sets StateDirectory),
  else `var/journal.sqlite` in the current directory.
- `web.host`: `0.0.0.0` on a Raspberry Pi (phones on the LAN), else `127.0.0.1`.
- `display.driver`: `ssd1306` on a Raspberry Pi, else `emulated` (frames written as PNG files).

Relative paths in a file are relative to the file's own folder. Every refusal is a
`ConfigError` whose one-line message names the file, the dotted key and the reason, e.g.
`/etc/duel-companion/config.toml: display.i2c_address: 300 is out of range 0x03..0x77`.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.files import FileRefused, read_capped
from companion.search.player import LEVEL_CHOICES

CONFIG_ENV = "DUEL_COMPANION_CONFIG"
MAX_CONFIG_BYTES = 64 * 1024  # a configuration file is a few hundred bytes
MAX_PATH_CHARS = 1024
MODEL_FILE = Path("/proc/device-tree/model")

LANGUAGES = ("en", "nb", "sv", "da")
DECODERS = ("zxing", "zbar")
DRIVERS = ("ssd1306", "sh1106", "emulated")
BUTTON_NAMES = ("left", "select", "right")
SOLO_SIDES = ("", "p1", "p2")  # solo: the side the box plays ("" nobody: two humans)
# BCM pins of the 40-pin header that a button may not take, and why.
RESERVED_PINS = {
    0: "GPIO0 is ID_SD, reserved for HAT EEPROMs",
    1: "GPIO1 is ID_SC, reserved for HAT EEPROMs",
    2: "GPIO2 is I2C SDA, used by the OLED",
    3: "GPIO3 is I2C SCL, used by the OLED",
}
HEADER_PINS = range(0, 28)  # GPIO0..GPIO27 on every 40-pin Raspberry Pi
_SOURCE = re.compile(r"^(auto|picamera2|opencv:(\d+|/\S+)|folder:.+|video:.+)$")


class ConfigError(Exception):
    """A configuration the program refuses; the message names file, key and reason.

    Deliberately not a ValueError, so that it is never wrapped twice.
    """


@dataclass(frozen=True, slots=True)
class WebConfig:
    """Where the phone pages listen, and how many waitress threads serve them."""

    host: str = "127.0.0.1"
    port: int = 8000
    threads: int = 4


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    """Push buttons between a BCM GPIO pin and ground, with the internal pull-ups."""

    pins: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({"left": 5, "select": 6, "right": 13})
    )
    hold_time: float = 1.0  # seconds held for a long press
    bounce_time: float = 0.02  # seconds of contact bounce to ignore; 0 turns it off


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """The 128x64 OLED on I2C, or an emulated one that writes its frames to a folder."""

    driver: str = "emulated"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotation: int = 0  # 0, or 2 for a display mounted upside down (the screens are landscape)
    emulated_dir: Path = Path("var/oled")


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """Which camera to read, at what size and rate, and the part of the frame to scan."""

    source: str = "auto"
    width: int = 1280
    height: int = 720
    fps: int = 15
    image_seconds: float = 1.5  # a folder source: how long each image stays in view (0: frames)
    loop: bool = False  # a folder source: start again after the last image
    # x0, y0, x1, y1: where a card is held (docs/vision.md); the structure around it is ignored
    scan_zone: tuple[float, float, float, float] = (0.2, 0.15, 0.8, 0.85)


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration; build it with `load_config` or `Config.defaults`."""

    language: str = "en"
    name: str = "Duel Companion"  # the box's name: the location of the plays it exports
    journal: Path = Path("var/journal.sqlite")
    decoder: str = "zxing"
    guided: bool = False  # enter each age's structure by guided scans (docs/device.md)
    overhead: bool = False  # an overhead camera reads the structure (docs/device.md)
    overhead_source: str = ""  # its camera source; "": the [camera] source serves both
    solo: str = ""  # "p1" or "p2": the box plays that side (docs/device.md, Play solo)
    solo_level: str = "normal"  # the box's level in solo games
    coach_level: str = "normal"  # the coach's level (button map, then left)
    web: WebConfig = field(default_factory=WebConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)

    @classmethod
    def defaults(cls, **overrides: Any) -> Config:
        """The defaults for this machine, with top-level overrides checked like a file's.

        A section may be overridden by an instance or by a mapping of some of its keys:
        `Config.defaults(journal=tmp / "j.sqlite", web={"port": 0})`.

        Raises:
            ConfigError: an override the file would refuse too.
        """
        return _build(overrides, default_config(), where="Config.defaults", folder=Path.cwd())


def is_raspberry_pi(model_file: Path = MODEL_FILE) -> bool:
    """Whether the device tree names a Raspberry Pi (false anywhere else)."""
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def state_directory(environ: Mapping[str, str] | None = None) -> Path:
    """Where the program keeps its state: systemd's StateDirectory, else ./var."""
    env = os.environ if environ is None else environ
    if state := env.get("STATE_DIRECTORY", ""):
        return Path(state.split(":")[0])  # systemd lists several folders with ":"
    return Path.cwd() / "var"


def default_config(
    environ: Mapping[str, str] | None = None, model_file: Path = MODEL_FILE
) -> Config:
    """The configuration when no file says otherwise, on this machine."""
    state = state_directory(environ)
    on_pi = is_raspberry_pi(model_file)
    return Config(
        journal=state / "journal.sqlite",
        web=WebConfig(host="0.0.0.0" if on_pi else "127.0.0.1"),
        display=DisplayConfig(
            driver="ssd1306" if on_pi else "emulated", emulated_dir=state / "oled"
        ),
    )


def load_config(
    path: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    model_file: Path = MODEL_FILE,
) -> Config:
    """Read the TOML file at `path` (None: `$DUEL_COMPANION_CONFIG`, or only the defaults).

    Raises:
        ConfigError: the file is missing or unreadable, is not TOML, or has an unknown key,
            a value of the wrong type or out of range, clashing pins or an unknown language.
    """
    env = os.environ if environ is None else environ
    if path is None and env.get(CONFIG_ENV):
        path = Path(env[CONFIG_ENV])
    base = default_config(env, model_file)
    if path is None:
        return base
    try:
        raw = tomllib.loads(read_capped(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except FileRefused as refused:
        raise ConfigError(f"{path}: {refused}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not a configuration: nested too deeply") from None
    except ValueError:  # Python's cap on the digits of an integer (4300)
        raise ConfigError(f"{path}: not a configuration: a number far too long") from None
    return _build(raw, base, where=str(path), folder=path.parent)


def parse_camera_source(spec: str) -> tuple[str, str]:
    """Split a camera source spec into kind and argument: `"opencv:0"` -> `("opencv", "0")`.

    Raises:
        ValueError: not one of auto, picamera2, opencv:N, opencv:/dev/..., folder:P, video:P.
    """
    if not _SOURCE.match(spec):
        raise ValueError(
            f"{spec!r} is not a camera source "
            "(auto, picamera2, opencv:INDEX, folder:PATH or video:PATH)"
        )
    kind, _, argument = spec.partition(":")
    return kind, argument


# --- building a Config from raw TOML values ------------------------------------------------


class _Refusal(Exception):
    """A bad value; `_build` adds the file and the key."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason


def _build(raw: Mapping[str, Any], base: Config, *, where: str, folder: Path) -> Config:
    try:
        return _config(raw, base, folder)
    except _Refusal as refusal:
        raise ConfigError(f"{where}: {refusal.key}: {refusal.reason}") from None


def _config(raw: Mapping[str, Any], base: Config, folder: Path) -> Config:
    _check_keys(raw, Config, prefix="")
    sections: dict[str, tuple[Callable[[Mapping[str, Any], Any, Path], Any], Any]] = {
        "web": (_web, base.web),
        "buttons": (_buttons, base.buttons),
        "display": (_display, base.display),
        "camera": (_camera, base.camera),
    }
    values: dict[str, Any] = {}
    for name, (make, default) in sections.items():
        if name not in raw:
            continue
        table = raw[name]
        if isinstance(table, type(default)):  # Config.defaults(web=WebConfig(...))
            values[name] = table
            continue
        if not isinstance(table, Mapping):
            raise _Refusal(name, f"expected a table, got {_kind(table)}")
        _check_keys(table, type(default), prefix=f"{name}.")
        values[name] = make(table, default, folder)
    if "language" in raw:
        values["language"] = _choice(raw, "language", LANGUAGES, "language")
    if "decoder" in raw:
        values["decoder"] = _choice(raw, "decoder", DECODERS, "decoder")
    if "name" in raw:
        values["name"] = _box_name(raw)
    if "journal" in raw:
        values["journal"] = _kind_of_path(_path(raw, "journal", "journal", folder), "journal")
    if "guided" in raw:
        values["guided"] = _flag(raw, "guided", "guided")
    if "overhead" in raw:
        values["overhead"] = _flag(raw, "overhead", "overhead")
    if "overhead_source" in raw:
        values["overhead_source"] = _source(raw, "overhead_source", "overhead_source", folder,
                                            empty=True)  # fmt: skip
    if "solo" in raw:
        values["solo"] = _choice(raw, "solo", SOLO_SIDES, "solo")
    for key in ("solo_level", "coach_level"):
        if key in raw:  # a level's number may be written bare: solo_level = 5
            given = {key: str(raw[key])} if type(raw[key]) is int else raw
            values[key] = _choice(given, key, LEVEL_CHOICES, key)
    return replace(base, **values)


def _box_name(raw: Mapping[str, Any]) -> str:
    name = _typed(raw, "name", str, "name")
    if not name.strip() or len(name) > 60 or not name.isprintable():
        raise _Refusal("name", f"{name!r} is not a name of 1 to 60 printable characters")
    return str(name.strip())


def _web(raw: Mapping[str, Any], base: WebConfig, folder: Path) -> WebConfig:
    values: dict[str, Any] = {}
    if "host" in raw:
        host = _typed(raw, "host", str, "web.host")
        if not host or any(c.isspace() for c in host):
            raise _Refusal("web.host", f"{host!r} is not a host name or address")
        values["host"] = host
    if "port" in raw:
        values["port"] = _int(raw, "port", "web.port", 1, 65535)
    if "threads" in raw:
        values["threads"] = _int(raw, "threads", "web.threads", 1, 64)
    return replace(base, **values)


def _buttons(raw: Mapping[str, Any], base: ButtonsConfig, folder: Path) -> ButtonsConfig:
    values: dict[str, Any] = {}
    if "hold_time" in raw:
        values["hold_time"] = _float(raw, "hold_time", "buttons.hold_time", 0.1, 10.0)
    if "bounce_time" in raw:
        values["bounce_time"] = _float(raw, "bounce_time", "buttons.bounce_time", 0.0, 0.5)
    if "pins" in raw:
        table = raw["pins"]
        if not isinstance(table, Mapping):
            raise _Refusal("buttons.pins", f"expected a table, got {_kind(table)}")
        if unknown := set(table) - set(BUTTON_NAMES):
            raise _Refusal(
                f"buttons.pins.{min(unknown)}",
                f"unknown button (known: {', '.join(BUTTON_NAMES)})",
            )
        pins = dict(base.pins)
        for name in table:
            pins[name] = _pin(table, name)
        _check_distinct(pins)
        values["pins"] = MappingProxyType({name: pins[name] for name in BUTTON_NAMES})
    return replace(base, **values)


def _pin(table: Mapping[str, Any], name: str) -> int:
    key = f"buttons.pins.{name}"
    pin = _int(table, name, key, HEADER_PINS.start, HEADER_PINS.stop - 1)
    if pin in RESERVED_PINS:
        raise _Refusal(key, f"{RESERVED_PINS[pin]}; choose another BCM pin")
    return pin


def _check_distinct(pins: Mapping[str, int]) -> None:
    seen: dict[int, str] = {}
    for name in BUTTON_NAMES:
        pin = pins[name]
        if pin in seen:
            raise _Refusal(
                f"buttons.pins.{name}", f"GPIO{pin} is already the {seen[pin]} button's pin"
            )
        seen[pin] = name


def _display(raw: Mapping[str, Any], base: DisplayConfig, folder: Path) -> DisplayConfig:
    values: dict[str, Any] = {}
    if "driver" in raw:
        values["driver"] = _choice(raw, "driver", DRIVERS, "display.driver")
    if "i2c_port" in raw:
        values["i2c_port"] = _int(raw, "i2c_port", "display.i2c_port", 0, 22)
    if "i2c_address" in raw:
        address = _typed(raw, "i2c_address", int, "display.i2c_address")
        if not 0x03 <= address <= 0x77:
            raise _Refusal(
                "display.i2c_address", f"{address} (0x{address:X}) is out of range 0x03..0x77"
            )
        values["i2c_address"] = address
    if "rotation" in raw:
        rotation = _int(raw, "rotation", "display.rotation", 0, 3)
        if rotation not in (0, 2):
            raise _Refusal(
                "display.rotation",
                f"{rotation} would turn the 128x64 screens on their side: use 0, or 2 for a "
                "display mounted upside down",
            )
        values["rotation"] = rotation
    if "emulated_dir" in raw:
        where = "display.emulated_dir"
        values["emulated_dir"] = _kind_of_path(_path(raw, "emulated_dir", where, folder), where,
                                               folder=True)  # fmt: skip
    return replace(base, **values)


def _source(
    raw: Mapping[str, Any], key: str, where: str, folder: Path, *, empty: bool = False
) -> str:
    """A camera source spec; a folder or video path is relative to the file, like every path
    (`empty`: "" is allowed, meaning the [camera] source)."""
    source: str = _typed(raw, key, str, where)
    if empty and source == "":
        return source
    try:
        kind, argument = parse_camera_source(source)
    except ValueError as bad:
        raise _Refusal(where, str(bad)) from None
    if kind in ("folder", "video"):
        source = f"{kind}:{_resolve(Path(argument), folder)}"
    return source


def _camera(raw: Mapping[str, Any], base: CameraConfig, folder: Path) -> CameraConfig:
    values: dict[str, Any] = {}
    if "source" in raw:
        values["source"] = _source(raw, "source", "camera.source", folder)
    if "width" in raw:
        values["width"] = _int(raw, "width", "camera.width", 64, 8192)
    if "height" in raw:
        values["height"] = _int(raw, "height", "camera.height", 48, 8192)
    if "fps" in raw:
        values["fps"] = _int(raw, "fps", "camera.fps", 1, 120)
    if "image_seconds" in raw:
        values["image_seconds"] = _seconds(raw, "image_seconds", "camera.image_seconds", 60.0)
    if "loop" in raw:
        values["loop"] = _flag(raw, "loop", "camera.loop")
    if "scan_zone" in raw:
        values["scan_zone"] = _scan_zone(raw["scan_zone"])
    return replace(base, **values)


def _seconds(raw: Mapping[str, Any], name: str, key: str, most: float) -> float:
    value = raw[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= most:
        raise _Refusal(key, f"expected a number of seconds from 0 to {most:g}")
    return float(value)


def _scan_zone(value: Any) -> tuple[float, float, float, float]:
    key = "camera.scan_zone"
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise _Refusal(key, "expected 4 numbers [x0, y0, x1, y1], fractions of the frame")
    if any(isinstance(v, bool) or not isinstance(v, int | float) for v in value):
        raise _Refusal(key, "expected 4 numbers [x0, y0, x1, y1], fractions of the frame")
    x0, y0, x1, y1 = (float(v) for v in value)
    if not (0.0 <= x0 < x1 <= 1.0 and 0.0 <= y0 < y1 <= 1.0):
        raise _Refusal(key, f"{list(value)} must satisfy 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1")
    return (x0, y0, x1, y1)


# --- small checks --------------------------------------------------------------------------


def _check_keys(raw: Mapping[str, Any], section: type, prefix: str) -> None:
    known = {f.name for f in fields(section)}
    if unknown := set(raw) - known:
        name = min(unknown)
        raise _Refusal(f"{prefix}{name}", f"unknown key (known: {', '.join(sorted(known))})")


def _kind(value: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list | tuple):
        return "an array"
    return names.get(type(value), type(value).__name__)


def _flag(raw: Mapping[str, Any], name: str, key: str) -> bool:
    value = raw[name]
    if not isinstance(value, bool):
        raise _Refusal(key, f"expected true or false, got {_kind(value)}")
    return value


def _typed(raw: Mapping[str, Any], name: str, kind: type, key: str) -> Any:
    value = raw[name]
    # bool is an int in Python, never in a config file.
    if isinstance(value, bool) or not isinstance(value, kind):
        raise _Refusal(key, f"expected {_kind(kind())}, got {_kind(value)} {value!r}")
    return value


def _int(raw: Mapping[str, Any], name: str, key: str, low: int, high: int) -> int:
    value: int = _typed(raw, name, int, key)
    if not low <= value <= high:
        raise _Refusal(key, f"{value} is out of range {low}..{high}")
    return value


def _float(raw: Mapping[str, Any], name: str, key: str, low: float, high: float) -> float:
    value = raw[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Refusal(key, f"expected a number of seconds, got {_kind(value)} {value!r}")
    if not low <= value <= high:
        raise _Refusal(key, f"{value} is out of range {low}..{high}")
    return float(value)


def _choice(raw: Mapping[str, Any], name: str, choices: tuple[str, ...], key: str) -> str:
    value: str = _typed(raw, name, str, key)
    if value not in choices:
        raise _Refusal(key, f"{value!r} is not one of {', '.join(choices)}")
    return value


def _path(raw: Mapping[str, Any], name: str, key: str, folder: Path) -> Path:
    value = raw[name]
    if isinstance(value, Path):
        return value
    text: str = _typed(raw, name, str, key)
    if not text.strip():
        raise _Refusal(key, "expected a path, got an empty string")
    if len(text) > MAX_PATH_CHARS or not text.isprintable():
        raise _Refusal(key, f"a path is 1 to {MAX_PATH_CHARS} printable characters (no NUL)")
    return _resolve(Path(text), folder)


def _kind_of_path(path: Path, key: str, *, folder: bool = False) -> Path:
    """`path` when it is missing (made later) or of the right kind: a folder, or a regular
    file (a journal is never a device such as /dev/null)."""
    try:
        found = path.stat() if path.exists() else None
    except OSError as error:
        raise _Refusal(key, f"{path}: cannot be checked: {error.strerror or error}") from None
    if found is None:
        return path
    if folder and not stat.S_ISDIR(found.st_mode):
        raise _Refusal(key, f"{path} is not a folder")
    if not folder and not stat.S_ISREG(found.st_mode):
        raise _Refusal(key, f"{path} is not a regular file (a journal is a file of its own)")
    return path


def _resolve(path: Path, folder: Path) -> Path:
    path = path.expanduser()
    return path if path.is_absolute() else folder / path


def main(argv: list[str] | None = None) -> int:
    """Check a configuration file: print the settings in effect, or the refusal (exit 2).

    `python -m companion.config /etc/duel-companion/config.toml`
    """
    import sys

    args = sys.argv[1:] if argv is None else argv
    try:
        config = load_config(Path(args[0]) if args else None)
    except ConfigError as refused:
        print(refused, file=sys.stderr)
        return 2
    for key, value in flatten(config).items():
        if key == "display.i2c_address":
            print(f"{key} = 0x{value:02X}")
        else:
            print(f"{key} = {str(value) if isinstance(value, Path) else value!r}")
    return 0


def flatten(config: Config) -> dict[str, Any]:
    """Every setting by dotted key: `{"language": "en", "web.port": 8000, ...}`."""
    flat: dict[str, Any] = {}
    for top in fields(config):
        value = getattr(config, top.name)
        if top.name in ("web", "buttons", "display", "camera"):
            for inner in fields(value):
                item = getattr(value, inner.name)
                if isinstance(item, Mapping):
                    flat.update({f"{top.name}.{inner.name}.{k}": v for k, v in item.items()})
                else:
                    flat[f"{top.name}.{inner.name}"] = item
        else:
            flat[top.name] = value
    return flat


if __name__ == "__main__":
    raise SystemExit(main())
