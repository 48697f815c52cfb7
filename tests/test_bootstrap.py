"""scripts/bootstrap.sh on a fresh machine, with apt-get, id, sleep and the venv's python
stubbed on PATH: which apt-get and pip commands it runs, how it waits while another apt holds
a lock, and that a second run installs nothing when nothing changed."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCKED = "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)"


def stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)


def checkout(tmp_path: Path, *, apt_get: str | None = None) -> Path:
    """A copy of the script beside a pyproject.toml and a setup.py, on a machine where
    libzbar is missing (as root), apt-get records its calls, sleep records its seconds
    (nobody waits), and the venv's python records its arguments and succeeds."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "bootstrap.sh", tmp_path / "scripts" / "bootstrap.sh")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    (tmp_path / "setup.py").write_text("", encoding="utf-8")
    bin_dir = tmp_path / "bin"
    venv_bin = tmp_path / ".venv" / "bin"
    bin_dir.mkdir()
    venv_bin.mkdir(parents=True)
    stub(bin_dir, "id", "echo 0")  # as root
    stub(bin_dir, "uname", "echo no-such-arch")  # libzbar is missing
    stub(bin_dir, "ldconfig", "exit 0")
    stub(bin_dir, "apt-get", apt_get or f'echo "$*" >> {tmp_path / "apt-calls"}')
    stub(bin_dir, "sleep", f'echo "$1" >> {tmp_path / "slept"}')
    stub(venv_bin, "python", f'echo "$*" >> {tmp_path / "python-calls"}')
    return tmp_path


def bootstrap(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(folder / "scripts" / "bootstrap.sh")],
        env={"PATH": f"{folder / 'bin'}:/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_bootstrap_installs_the_missing_packages_with_dpkgs_lock_wait(tmp_path: Path) -> None:
    folder = checkout(tmp_path)
    result = bootstrap(folder)
    assert result.returncode == 0, result.stderr
    calls = lines(folder / "apt-calls")
    assert len(calls) == 2  # update, then install libzbar0
    for line in calls:
        assert "-o DPkg::Lock::Timeout=600" in line
    assert calls[1].endswith("install -y -qq libzbar0")
    assert lines(folder / "slept") == []


def test_bootstrap_waits_while_the_package_lists_lock_is_held(tmp_path: Path) -> None:
    # `apt-get update` is refused while the lock is held (the automatic update of a fresh
    # machine); the lock is let go during the script's second wait
    held = tmp_path / "lock-held"
    held.touch()
    apt_get = f"""echo "$*" >> {tmp_path / "apt-calls"}
if [ -e {held} ]; then echo "{LOCKED}" >&2; exit 100; fi"""
    folder = checkout(tmp_path, apt_get=apt_get)
    stub(folder / "bin", "sleep", f'echo "$1" >> {tmp_path / "slept"}; '
         f'[ "$(wc -l < {tmp_path / "slept"})" -ge 2 ] && rm -f {held}; exit 0')  # fmt: skip
    result = bootstrap(folder)
    assert result.returncode == 0, result.stderr
    assert "apt is busy" in result.stderr
    assert lines(folder / "slept") == ["10", "10"]  # waited twice, 10 s each
    calls = lines(folder / "apt-calls")
    assert [c.split()[2] for c in calls] == ["update", "update", "update", "install"]


def test_bootstrap_waits_for_a_lock_really_held_by_another_process(tmp_path: Path) -> None:
    # the lock is a real one: this test holds it (flock, as apt holds its lists lock), the
    # stubbed apt-get is refused while it cannot take it, and the script's second wait makes
    # this test let it go (a signal to this process)
    lock = tmp_path / "lists-lock"
    apt_get = f"""echo "$*" >> {tmp_path / "apt-calls"}
if ! flock -n {lock} true; then echo "{LOCKED}" >&2; exit 100; fi"""
    folder = checkout(tmp_path, apt_get=apt_get)
    let_go_now = f"kill -USR1 {os.getpid()}"
    stub(folder / "bin", "sleep", f'echo "$1" >> {tmp_path / "slept"}; '
         f'[ "$(wc -l < {tmp_path / "slept"})" -ge 2 ] && {let_go_now}; exit 0')  # fmt: skip
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        let_go = signal.signal(signal.SIGUSR1, lambda *_: fcntl.flock(held, fcntl.LOCK_UN))
        try:
            result = bootstrap(folder)
        finally:
            signal.signal(signal.SIGUSR1, let_go)
    assert result.returncode == 0, result.stderr
    assert "apt is busy" in result.stderr
    assert lines(folder / "slept") == ["10", "10"]  # refused twice while the lock was held
    calls = lines(folder / "apt-calls")
    assert [c.split()[2] for c in calls] == ["update", "update", "update", "install"]


def test_bootstrap_gives_up_when_apt_stays_busy_and_says_why(tmp_path: Path) -> None:
    apt_get = f'echo "$*" >> {tmp_path / "apt-calls"}; echo "{LOCKED}" >&2; exit 100'
    folder = checkout(tmp_path, apt_get=apt_get)
    result = bootstrap(folder, BOOTSTRAP_APT_WAIT="30")
    assert result.returncode == 100
    assert LOCKED in result.stderr and "apt stayed busy for 30 s" in result.stderr
    assert lines(folder / "slept") == ["10", "10", "10"]
    assert len(lines(folder / "apt-calls")) == 4  # no install after a refused update


def test_another_failure_of_apt_is_not_waited_for(tmp_path: Path) -> None:
    apt_get = 'echo "E: Some index files failed to download" >&2; exit 100'
    folder = checkout(tmp_path, apt_get=apt_get)
    result = bootstrap(folder)
    assert result.returncode == 100 and "failed to download" in result.stderr
    assert lines(folder / "slept") == []


def test_a_second_run_installs_nothing_when_nothing_changed(tmp_path: Path) -> None:
    folder = checkout(tmp_path)
    assert bootstrap(folder).returncode == 0
    first = lines(folder / "python-calls")
    assert sum("pip install" in c for c in first) == 2  # pip itself, then the companion
    (folder / "python-calls").unlink()
    again = bootstrap(folder)
    assert again.returncode == 0, again.stderr
    assert "installed and current; nothing to do" in again.stdout
    assert not any("pip install" in c for c in lines(folder / "python-calls"))
    # a changed pyproject.toml (a new dependency) installs again
    (folder / "pyproject.toml").write_text('[project]\nname = "y"\n', encoding="utf-8")
    (folder / "python-calls").unlink()
    assert bootstrap(folder).returncode == 0
    assert sum("pip install" in c for c in lines(folder / "python-calls")) == 2


def test_a_stale_engine_build_installs_again(tmp_path: Path) -> None:
    folder = checkout(tmp_path)
    assert bootstrap(folder).returncode == 0
    # the venv's python now says the compiled engine is not current (an engine source edited)
    stale = 'case "$*" in *compiled_is_current*) exit 1;; esac'
    stub(folder / ".venv" / "bin", "python", f'echo "$*" >> {tmp_path / "python-calls"}; {stale}')
    (folder / "python-calls").unlink()
    assert bootstrap(folder).returncode == 0
    assert sum("pip install" in c for c in lines(folder / "python-calls")) == 2


def test_the_install_silences_setuptools_editable_warning(tmp_path: Path) -> None:
    folder = checkout(tmp_path)
    stub(folder / ".venv" / "bin", "python",
         f'echo "$PYTHONWARNINGS|$*" >> {tmp_path / "python-calls"}')  # fmt: skip
    assert bootstrap(folder).returncode == 0
    editable = [c for c in lines(folder / "python-calls") if "install" in c and "-e" in c]
    assert editable == [
        "ignore:Editable installation|-m pip install --quiet --disable-pip-version-check -e ."
    ]
