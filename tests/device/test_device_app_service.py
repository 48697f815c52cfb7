"""`duel-companion run` as a process: scripted inputs, the emulated OLED, SIGTERM, refusals."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from companion.config import Config
from companion.records.journal import Journal

SETUP = ["select", "right", "select"]  # Player 1 begins, the first-game sets
TOKENS = ["economy", "law", "architecture", "agriculture", "theology"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def write_config(folder: Path) -> Path:
    (folder / "frames").mkdir(exist_ok=True)
    config = folder / "config.toml"
    config.write_text(
        f'journal = "journal.sqlite"\n[web]\nhost = "127.0.0.1"\nport = {free_port()}\n'
        f'[display]\ndriver = "emulated"\nemulated_dir = "oled"\n'
        f'[camera]\nsource = "folder:frames"\n',
        encoding="utf-8",
    )
    return config


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", *args],
        cwd=folder, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_a_scripted_session_writes_the_journal_and_the_screen(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    script = tmp_path / "script.txt"
    lines = [*SETUP, *(f"scan {t}" for t in TOKENS), "select",  # the setup is written
             "tick 1", "tick 10",  # the feedback gives way
             "scan lumber_yard", "select",  # Player 1 builds the Lumber Yard
             "scan foreign", "long select", "select"]  # fmt: skip
    script.write_text("\n".join(lines) + "\n")
    result = run(tmp_path, "--config", str(config), "--script", str(script), "--events")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["type"] for row in rows] == ["setup", "build", "undo"]
    with Journal.open(tmp_path / "journal.sqlite", readonly=True) as journal:
        game = journal.current_game()
        assert game is not None
        assert [r["type"] for r in journal.effective_events(game)] == ["setup"]
    with Image.open(tmp_path / "oled" / "latest.png") as screen:
        assert screen.size == (512, 256)


def test_sigterm_stops_the_service_cleanly(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--config", str(config)],
        cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    screen = tmp_path / "oled" / "latest.png"
    deadline = time.monotonic() + 60
    while not screen.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # polling for the first screen, not an assertion on time
    assert screen.exists()
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0


def test_a_bad_config_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[display]\ndriver = 'crt'\n")
    result = run(tmp_path, "--config", str(bad))
    assert result.returncode == 2
    assert "display.driver" in result.stderr and result.stderr.count("\n") == 1


def test_the_startup_message_says_where_screen_keys_journal_and_pages_are(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from companion.service.root import startup_message

    config = Config.defaults(journal=tmp_path / "journal.sqlite")
    server = SimpleNamespace(url="http://127.0.0.1:8000")
    shown = startup_message(config, server, None, "123456")
    assert str(config.display.emulated_dir / "latest.png") in shown
    assert "keys a/s/d" in shown
    assert str(tmp_path / "journal.sqlite") in shown
    # the code itself never goes to the log (the system journal keeps this message)
    assert "http://127.0.0.1:8000/  (pairing code on the OLED: hold right, then right)" in shown
    assert "123456" not in shown
    with_buttons = startup_message(config, None, object(), "")
    assert "left GPIO5" in with_buttons
    assert "phone" not in with_buttons


def test_the_startup_message_says_the_camera_is_off_under_no_camera(tmp_path: Path) -> None:
    from companion.service.root import startup_message

    config = Config.defaults(journal=tmp_path / "journal.sqlite")
    assert "  camera:  auto\n" in startup_message(config, None, None, "")
    shown = startup_message(config, None, None, "", camera=False)
    assert "  camera:  off (--no-camera)\n" in shown and "auto" not in shown
