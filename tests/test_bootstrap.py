"""scripts/bootstrap.sh on a fresh machine, with apt-get, id and the venv's python stubbed on
PATH: which apt-get commands it runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)


def test_bootstrap_waits_for_apts_lock_instead_of_failing(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "bootstrap.sh", tmp_path / "scripts" / "bootstrap.sh")
    bin_dir = tmp_path / "bin"
    venv_bin = tmp_path / ".venv" / "bin"
    bin_dir.mkdir()
    venv_bin.mkdir(parents=True)
    calls = tmp_path / "apt-calls"
    stub(bin_dir, "id", "echo 0")  # as root
    stub(bin_dir, "uname", "echo no-such-arch")  # libzbar is missing
    stub(bin_dir, "ldconfig", "exit 0")
    stub(bin_dir, "apt-get", f'echo "$*" >> {calls}')
    stub(venv_bin, "python", "exit 0")  # pip is not the subject here
    result = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "bootstrap.sh")],
        env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = calls.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2  # update, then install libzbar0
    for line in lines:
        assert "-o DPkg::Lock::Timeout=600" in line
    assert lines[1].endswith("install -y -qq libzbar0")
