"""The Pi install and uninstall scripts, run here: syntax, --dry-run, and a scratch --root.

System commands (apt-get, useradd, systemctl, raspi-config...) are replaced on PATH by shims
that record their arguments, so a script that ran one when it must not is caught.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "scripts" / "install-pi.sh"
UNINSTALL = REPO / "scripts" / "uninstall-pi.sh"
COMMON = REPO / "scripts" / "pi-common.sh"
SYSTEM_COMMANDS = (
    "apt-get",
    "raspi-config",
    "useradd",
    "usermod",
    "userdel",
    "groupadd",
    "systemctl",
)


@pytest.fixture
def shims(tmp_path: Path) -> Path:
    """A folder of fake system commands; each appends its name and arguments to calls.log."""
    folder = tmp_path / "shims"
    folder.mkdir()
    for name in SYSTEM_COMMANDS:
        shim = folder / name
        shim.write_text(f'#!/bin/sh\necho "{name} $*" >> "{folder}/calls.log"\n')
        shim.chmod(0o755)
    return folder


def calls(shims: Path) -> list[str]:
    log = shims / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def run(script: Path, *args: str, shims: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}"}
    return subprocess.run(
        ["bash", str(script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL], ids=lambda p: p.name)
def test_script_parses(script: Path) -> None:
    subprocess.run(["bash", "-n", str(script)], check=True, timeout=30)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_scripts_pass_shellcheck() -> None:
    result = subprocess.run(
        ["shellcheck", "--external-sources", str(INSTALL), str(UNINSTALL), str(COMMON)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_dry_run_prints_every_step_and_runs_nothing(shims: Path) -> None:
    result = run(INSTALL, "--dry-run", shims=shims)
    assert result.returncode == 0, result.stderr
    assert calls(shims) == ["raspi-config nonint get_i2c"]  # a question, which changes nothing
    printed = result.stdout
    expected = [
        "+ apt-get install -y --no-install-recommends python3-venv python3-pip "
        "python3-picamera2 python3-lgpio i2c-tools libzbar0 gcc python3-dev",
        "+ raspi-config nonint do_i2c 0",
        "+ python3 -m venv --system-site-packages /opt/duel-companion/venv",
        f"+ /opt/duel-companion/venv/bin/pip install --quiet --constraint "
        f"{REPO}/scripts/pi-constraints.txt {REPO}\\[pi\\]",
        f"+ install -m 0644 {REPO}/docs/duel-companion.example.toml "
        "/etc/duel-companion/config.toml",
        "+ /opt/duel-companion/venv/bin/python -m companion.config /etc/duel-companion/config.toml",
        f"+ install -m 0644 {REPO}/systemd/duel-companion.service "
        "/etc/systemd/system/duel-companion.service",
        "+ systemctl enable duel-companion.service",
        "+ systemctl restart duel-companion.service",
    ]
    for line in expected:
        assert line in printed.splitlines(), line
    assert not Path("/opt/duel-companion").exists() or "keeping" in printed


def test_root_install_writes_the_files_and_skips_the_system(tmp_path: Path, shims: Path) -> None:
    root = tmp_path / "root"
    boot = root / "boot" / "firmware" / "config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("[all]\ncamera_auto_detect=0\ndtparam=audio=on\n")
    result = run(INSTALL, "--root", str(root), "--skip-venv", shims=shims)
    assert result.returncode == 0, result.stderr
    assert calls(shims) == []
    assert "skipped (--root): systemctl enable duel-companion.service" in result.stdout
    unit = root / "etc" / "systemd" / "system" / "duel-companion.service"
    assert unit.read_bytes() == (REPO / "systemd" / "duel-companion.service").read_bytes()
    config = root / "etc" / "duel-companion" / "config.toml"
    example = REPO / "docs" / "duel-companion.example.toml"
    assert config.read_bytes() == example.read_bytes()
    assert (root / "opt" / "duel-companion" / "docs" / "raspberry-pi.md").is_file()
    boot_lines = boot.read_text().splitlines()
    assert "#camera_auto_detect=0" in boot_lines
    assert boot_lines.count("camera_auto_detect=1") == 1
    assert "reboot once" in result.stdout


def test_root_install_again_keeps_the_config_and_the_boot_file(tmp_path: Path, shims: Path) -> None:
    root = tmp_path / "root"
    boot = root / "boot" / "firmware" / "config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("camera_auto_detect=1\n")
    config = root / "etc" / "duel-companion" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('language = "nb"\n')
    result = run(INSTALL, "--root", str(root), "--skip-venv", shims=shims)
    assert result.returncode == 0, result.stderr
    assert config.read_text() == 'language = "nb"\n'
    assert "keeping /etc/duel-companion/config.toml" in result.stdout
    assert boot.read_text() == "camera_auto_detect=1\n"
    assert "reboot" not in result.stdout


def test_dry_run_in_a_root_writes_nothing(tmp_path: Path, shims: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    result = run(INSTALL, "--dry-run", "--root", str(root), shims=shims)
    assert result.returncode == 0, result.stderr
    assert list(root.iterdir()) == []
    assert calls(shims) == []


def test_unknown_option_is_refused_in_one_line(shims: Path) -> None:
    for script in (INSTALL, UNINSTALL):
        result = run(script, "--frobnicate", shims=shims)
        assert result.returncode == 2
        assert result.stderr.strip().endswith("unknown option '--frobnicate' (see --help)")
        assert len(result.stderr.strip().splitlines()) == 1


def test_uninstall_keeps_games_and_config_unless_purged(tmp_path: Path, shims: Path) -> None:
    root = tmp_path / "root"
    assert run(INSTALL, "--root", str(root), "--skip-venv", shims=shims).returncode == 0
    games = root / "var" / "lib" / "duel-companion" / "journal.sqlite"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"games")
    result = run(UNINSTALL, "--root", str(root), shims=shims)
    assert result.returncode == 0, result.stderr
    assert not (root / "etc" / "systemd" / "system" / "duel-companion.service").exists()
    assert not (root / "opt" / "duel-companion").exists()
    assert games.read_bytes() == b"games"
    assert (root / "etc" / "duel-companion" / "config.toml").is_file()
    assert run(UNINSTALL, "--root", str(root), "--purge", shims=shims).returncode == 0
    assert not games.exists()
    assert not (root / "etc" / "duel-companion").exists()
    assert calls(shims) == []


def test_uninstall_dry_run_prints_and_removes_nothing(tmp_path: Path, shims: Path) -> None:
    root = tmp_path / "root"
    assert run(INSTALL, "--root", str(root), "--skip-venv", shims=shims).returncode == 0
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    result = run(UNINSTALL, "--dry-run", "--purge", shims=shims)
    assert result.returncode == 0, result.stderr
    assert "+ systemctl disable --now duel-companion.service" in result.stdout
    assert "+ rm -rf /opt/duel-companion" in result.stdout
    assert "+ rm -rf /var/lib/duel-companion /etc/duel-companion" in result.stdout
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert calls(shims) == []


def requirements(lines: list[str]) -> dict[str, Requirement]:
    parsed = [Requirement(line) for line in lines]
    return {canonicalize_name(r.name): r for r in parsed}


def test_pi_constraints_leave_versions_the_package_accepts() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = requirements(project["dependencies"])
    constraints = requirements(
        [
            line
            for line in (REPO / "scripts" / "pi-constraints.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
    )
    assert "numpy<2" in {str(r) for r in constraints.values()}
    # Debian Bookworm's NumPy, the last OpenCV for NumPy 1.x, the first gpiozero for the Pi 5.
    known_good = {
        "numpy": "1.24.2",
        "opencv-python-headless": "4.11.0.86",
        "gpiozero": "2.0.1.post3",
    }
    for name, version in known_good.items():
        assert constraints[name].specifier.contains(version, prereleases=True), name
        assert wanted[name].specifier.contains(version, prereleases=True), name
    assert not constraints["opencv-python-headless"].specifier.contains("4.12.0.88")


def test_pi_extra_brings_lgpio_on_the_pi_only() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (lgpio,) = [Requirement(r) for r in project["optional-dependencies"]["pi"] if "lgpio" in r]
    assert lgpio.marker is not None
    assert lgpio.marker.evaluate({"platform_machine": "aarch64"})
    assert not lgpio.marker.evaluate({"platform_machine": "x86_64"})
