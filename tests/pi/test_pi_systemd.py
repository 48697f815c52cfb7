"""The systemd unit: verified by systemd-analyze, and saying what the Pi install needs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "duel-companion.service"
INSTALL = REPO / "scripts" / "install-pi.sh"
ANALYZE = shutil.which("systemd-analyze")

needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def directives(text: str) -> dict[str, list[str]]:
    """`Section.Key` -> values in order (a key may repeat, like Environment=)."""
    found: dict[str, list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return found


UNIT_DIRECTIVES = directives(UNIT.read_text(encoding="utf-8"))


def one(key: str) -> str:
    (value,) = UNIT_DIRECTIVES[key]
    return value


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """systemd-analyze verify on a copy whose ExecStart exists on this machine."""
    copy = folder / "duel-companion.service"
    copy.write_text(
        re.sub(r"(?m)^ExecStart=.*$", "ExecStart=/bin/true", unit_text), encoding="utf-8"
    )
    assert ANALYZE is not None
    return subprocess.run(
        [ANALYZE, "verify", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
        check=False,
    )


@needs_analyze
def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    result = verify(UNIT.read_text(encoding="utf-8"), tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


@needs_analyze
def test_verify_would_catch_a_misspelt_directive(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8").replace("NoNewPrivileges=", "NoNewPrivilege=")
    result = verify(text, tmp_path)
    assert "Unknown key 'NoNewPrivilege'" in result.stderr


@needs_analyze
def test_hardening_keeps_the_exposure_level_low(tmp_path: Path) -> None:
    copy = tmp_path / "duel-companion.service"
    copy.write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run(
        [str(ANALYZE), "security", "--offline=true", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout + result.stderr)
    if match is None:
        pytest.skip(f"this systemd-analyze has no offline security check: {result.stderr[:200]}")
    assert float(match.group(1)) <= 4.5  # 3.9 when written; 10 is an unhardened service


def test_runs_duel_companion_run_from_the_installed_venv() -> None:
    assert one("Service.ExecStart") == "/opt/duel-companion/venv/bin/duel-companion run"
    install = INSTALL.read_text(encoding="utf-8")
    assert "PREFIX=/opt/duel-companion\nVENV=$PREFIX/venv\n" in install


def test_tells_systemd_when_ready_and_is_watched() -> None:
    assert one("Service.Type") == "notify"
    assert int(one("Service.WatchdogSec")) >= 10
    assert one("Service.Restart") == "on-failure"
    assert one("Install.WantedBy") == "multi-user.target"


def test_runs_as_a_user_in_the_hardware_groups() -> None:
    assert one("Service.User") not in ("", "root")
    assert set(one("Service.SupplementaryGroups").split()) == {"gpio", "i2c", "video"}


def test_journal_lives_in_the_state_directory() -> None:
    assert one("Service.StateDirectory") == "duel-companion"
    assert one("Service.WorkingDirectory") == "/var/lib/duel-companion"
    assert (
        "DUEL_COMPANION_CONFIG=/etc/duel-companion/config.toml"
        in UNIT_DIRECTIVES["Service.Environment"]
    )


def test_is_hardened_but_keeps_the_devices() -> None:
    assert one("Service.NoNewPrivileges") == "yes"
    assert one("Service.ProtectSystem") == "strict"
    assert one("Service.PrivateTmp") == "yes"
    assert one("Service.ProtectHome") == "yes"
    # These would hide /dev/gpiochip*, /dev/i2c-1 and the camera from the service.
    assert "Service.PrivateDevices" not in UNIT_DIRECTIVES
    assert "Service.DeviceAllow" not in UNIT_DIRECTIVES
    assert "Service.ProtectClock" not in UNIT_DIRECTIVES


def test_memory_is_bounded_so_a_guest_cannot_take_the_pi() -> None:
    # MemoryHigh below MemoryMax: reclaim first, then a kill and a restart (recovery is replay)
    assert (one("Service.MemoryHigh"), one("Service.MemoryMax")) == ("400M", "512M")
    assert one("Service.MemorySwapMax") == "0"
