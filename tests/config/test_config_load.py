"""The configuration file: defaults per machine, values read, paths resolved."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion.config import (
    CONFIG_ENV,
    ButtonsConfig,
    Config,
    ConfigError,
    WebConfig,
    default_config,
    flatten,
    is_raspberry_pi,
    load_config,
    main,
    parse_camera_source,
)

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "duel-companion.example.toml"


@pytest.fixture
def pi_model(tmp_path: Path) -> Path:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")  # as the device tree has it
    return model


@pytest.fixture
def pc_model(tmp_path: Path) -> Path:
    return tmp_path / "no-device-tree"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_pi_is_detected_from_the_device_tree_model(pi_model: Path, pc_model: Path) -> None:
    assert is_raspberry_pi(pi_model)
    assert not is_raspberry_pi(pc_model)


def test_defaults_on_a_pi_serve_the_lan_and_drive_an_ssd1306(pi_model: Path) -> None:
    config = default_config({}, pi_model)
    assert config.web.host == "0.0.0.0"
    assert config.display.driver == "ssd1306"


def test_defaults_elsewhere_serve_localhost_and_emulate_the_oled(pc_model: Path) -> None:
    config = default_config({}, pc_model)
    assert config.web.host == "127.0.0.1"
    assert config.display.driver == "emulated"


def test_journal_defaults_to_var_in_the_current_folder(
    pc_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = default_config({}, pc_model)
    assert config.journal == tmp_path / "var" / "journal.sqlite"
    assert config.display.emulated_dir == tmp_path / "var" / "oled"


def test_journal_defaults_to_systemd_state_directory(pc_model: Path) -> None:
    environ = {"STATE_DIRECTORY": "/var/lib/duel-companion:/var/lib/other"}
    config = default_config(environ, pc_model)
    assert config.journal == Path("/var/lib/duel-companion/journal.sqlite")


def test_defaults_match_the_documented_values(pc_model: Path) -> None:
    config = default_config({}, pc_model)
    assert config.language == "en"
    assert config.decoder == "zxing"
    assert config.web.port == 8000
    assert dict(config.buttons.pins) == {"left": 5, "select": 6, "right": 13}
    assert config.display.i2c_port == 1
    assert config.display.i2c_address == 0x3C
    assert config.display.rotation == 0
    assert config.camera.source == "auto"
    assert config.camera.scan_zone == (0.2, 0.15, 0.8, 0.85)


def test_no_path_and_no_environment_gives_the_defaults(pc_model: Path) -> None:
    assert load_config(None, environ={}, model_file=pc_model) == default_config({}, pc_model)


def test_environment_variable_names_the_file(tmp_path: Path, pc_model: Path) -> None:
    path = write(tmp_path, 'language = "nb"\n')
    config = load_config(None, environ={CONFIG_ENV: str(path)}, model_file=pc_model)
    assert config.language == "nb"


def test_file_values_override_and_the_rest_stays_default(tmp_path: Path, pc_model: Path) -> None:
    path = write(
        tmp_path,
        """
        language = "sv"
        decoder = "zbar"
        solo = "p2"
        solo_level = "hard"
        coach_level = "easy"
        [web]
        port = 8080
        [buttons]
        hold_time = 2
        [buttons.pins]
        select = 26
        [display]
        driver = "sh1106"
        i2c_address = 0x3D
        rotation = 2
        [camera]
        source = "opencv:1"
        width = 640
        height = 480
        fps = 30
        scan_zone = [0.1, 0, 0.9, 1]
        """,
    )
    config = load_config(path, environ={}, model_file=pc_model)
    assert (config.language, config.decoder) == ("sv", "zbar")
    assert (config.solo, config.solo_level, config.coach_level) == ("p2", "hard", "easy")
    assert config.web == WebConfig(host="127.0.0.1", port=8080, threads=4)
    assert config.buttons.hold_time == 2.0
    assert isinstance(config.buttons.hold_time, float)
    assert dict(config.buttons.pins) == {"left": 5, "select": 26, "right": 13}
    assert (config.display.driver, config.display.i2c_address) == ("sh1106", 0x3D)
    assert config.display.rotation == 2
    assert config.camera.source == "opencv:1"
    assert (config.camera.width, config.camera.height, config.camera.fps) == (640, 480, 30)
    assert config.camera.scan_zone == (0.1, 0.0, 0.9, 1.0)


def test_a_level_is_a_number_1_to_5_bare_or_quoted(tmp_path: Path, pc_model: Path) -> None:
    path = write(tmp_path, 'solo_level = 5\ncoach_level = "1"\n')
    config = load_config(path, environ={}, model_file=pc_model)
    assert (config.solo_level, config.coach_level) == ("5", "1")


def test_relative_paths_are_relative_to_the_file(tmp_path: Path, pc_model: Path) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    path = write(folder, 'journal = "games/j.sqlite"\n[camera]\nsource = "folder:frames"\n')
    config = load_config(path, environ={}, model_file=pc_model)
    assert config.journal == folder / "games" / "j.sqlite"
    assert config.camera.source == f"folder:{folder / 'frames'}"


def test_config_is_frozen(pc_model: Path) -> None:
    config = default_config({}, pc_model)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.language = "da"  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.buttons.pins["left"] = 7  # type: ignore[index]


def test_defaults_take_overrides_as_values_or_tables(tmp_path: Path) -> None:
    config = Config.defaults(journal=tmp_path / "j.sqlite", web={"port": 9000})
    assert config.journal == tmp_path / "j.sqlite"
    assert config.web.port == 9000
    buttons = ButtonsConfig(hold_time=0.5)
    assert Config.defaults(buttons=buttons).buttons is buttons


def test_defaults_refuse_what_a_file_would_refuse() -> None:
    with pytest.raises(ConfigError, match=r"^Config\.defaults: language: 'fr' is not one of"):
        Config.defaults(language="fr")


def test_every_setting_is_in_the_example_file_with_its_default(
    pi_model: Path, tmp_path: Path
) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    # Uncomment the settings ("# key = value") and keep the prose comments.
    active = re.sub(r"(?m)^# ([a-z0-9_]+ = .*)$", r"\1", text)
    path = write(tmp_path, active)
    environ = {"STATE_DIRECTORY": "/var/lib/duel-companion"}
    from_file = flatten(load_config(path, environ=environ, model_file=pi_model))
    defaults = flatten(default_config(environ, pi_model))
    assert from_file == defaults  # every key listed, each with the Pi's default
    listed = set(re.findall(r"(?m)^# ([a-z0-9_]+) = ", text))
    assert {key.rsplit(".", 1)[-1] for key in defaults} <= listed


@pytest.mark.parametrize(
    ("spec", "parts"),
    [
        ("auto", ("auto", "")),
        ("picamera2", ("picamera2", "")),
        ("opencv:0", ("opencv", "0")),
        ("opencv:/dev/video2", ("opencv", "/dev/video2")),
        ("folder:tests/frames", ("folder", "tests/frames")),
        ("video:/tmp/a b.mp4", ("video", "/tmp/a b.mp4")),
    ],
)
def test_camera_source_specs_split_into_kind_and_argument(
    spec: str, parts: tuple[str, str]
) -> None:
    assert parse_camera_source(spec) == parts


def test_check_command_prints_settings_or_the_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "[web]\nport = 8123\n")
    assert main([str(good)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "web.port = 8123" in out
    assert "display.i2c_address = 0x3C" in out
    assert "language = 'en'" in out
    good.write_text("[web]\nport = 0\n", encoding="utf-8")
    assert main([str(good)]) == 2
    assert capsys.readouterr().err.strip() == f"{good}: web.port: 0 is out of range 1..65535"
