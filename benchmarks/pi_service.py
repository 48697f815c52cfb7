"""Measure the service as installed: install size, start-up time to the first screen, memory.

    .venv/bin/python benchmarks/pi_service.py            measure and rewrite "## Raspberry Pi"
                                                         in BENCHMARKS.md
    .venv/bin/python benchmarks/pi_service.py --print    measure and print only

1. Install size: `pip install .` (not editable, with its dependencies) into a fresh temporary
   venv, then the size of its site-packages, of our own packages, and of the largest
   dependencies.
2. Start-up: `duel-companion run` from that venv, as systemd starts it: NOTIFY_SOCKET set, an
   emulated OLED, a folder camera and a scratch journal. Start-up time is from exec to READY=1,
   which the run loop sends once the first screen is shown; memory is the RSS then, and the peak
   (VmHWM) 5 s later. Repeated RUNS times; the median is reported. Skipped if the checkout has
   no `run` command yet.
"""

from __future__ import annotations

import io
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from report import machine, stop, write_section

REPO = Path(__file__).resolve().parents[1]
HEADING = "## Raspberry Pi"
RUNS = 5
READY_TIMEOUT = 120.0


@dataclass(frozen=True)
class InstallSize:
    site_packages: int
    ours: int
    largest: list[tuple[str, int]]
    seconds: float


@dataclass(frozen=True)
class Startup:
    seconds: list[float]
    rss_ready: list[int]
    rss_peak: list[int]


def du(path: Path) -> int:
    """Bytes used by the files under `path` (apparent size, like du -sb)."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def install(venv: Path) -> InstallSize:
    """Create a venv and pip-install this checkout into it; return the sizes."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "--quiet", "--upgrade", "pip"], check=True)
    (site,) = (venv / "lib").glob("python3*/site-packages")
    baseline = {p.name for p in site.iterdir()}  # pip and setuptools: in every venv
    empty = du(site)
    started = time.perf_counter()
    subprocess.run([*pip, "install", "--quiet", str(REPO)], check=True)
    seconds = time.perf_counter() - started
    ours = sum(
        du(site / name) for name in ("companion", "hardware", "web") if (site / name).exists()
    )
    entries = [
        (p.name, du(p))
        for p in site.iterdir()
        if p.name not in baseline and not p.name.endswith((".dist-info", ".pth"))
    ]
    largest = sorted(entries, key=lambda e: -e[1])[:8]
    return InstallSize(du(site) - empty, ours, largest, seconds)


def has_run_command(venv: Path) -> bool:
    """Whether the installed package has the `run` subcommand."""
    probe = "import importlib.util as u; print(u.find_spec('companion.commands.run') is not None)"
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-c", probe], capture_output=True, text=True, check=True
    )
    return result.stdout.strip() == "True"


def vm_kib(pid: int, field: str) -> int:
    """A VmRSS/VmHWM line of /proc/PID/status, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for {pid}")


def start_once(venv: Path, scratch: Path) -> tuple[float, int, int]:
    """One start of `duel-companion run` under a fake systemd; (seconds, RSS KiB, peak KiB)."""
    frames = scratch / "frames"
    if not frames.exists():
        write_frames(frames)
    config = scratch / "config.toml"
    config.write_text(
        f'journal = "{scratch / "journal.sqlite"}"\n'
        f'[web]\nhost = "127.0.0.1"\nport = {free_port()}\n'
        f'[display]\ndriver = "emulated"\nemulated_dir = "{scratch / "oled"}"\n'
        f'[camera]\nsource = "folder:{frames}"\nimage_seconds = 0\n',  # frame by frame
        encoding="utf-8",
    )
    address = str(scratch / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(address)
        notify.settimeout(READY_TIMEOUT)
        env = {
            **os.environ,
            "NOTIFY_SOCKET": address,
            "DUEL_COMPANION_CONFIG": str(config),
            "WATCHDOG_USEC": "30000000",
            "STATE_DIRECTORY": str(scratch),
        }
        log = scratch / "run.log"  # a file, not a pipe: a chatty run must not block
        started = time.perf_counter()
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [str(venv / "bin" / "duel-companion"), "run"],
                env=env,
                cwd=scratch,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        try:
            while True:
                message = notify.recv(4096).decode()
                if "READY=1" in message.split("\n"):
                    seconds = time.perf_counter() - started
                    break
            rss = vm_kib(process.pid, "VmRSS")
            time.sleep(5.0)  # let the loop run: scans, web server threads
            peak = vm_kib(process.pid, "VmHWM")
        except (TimeoutError, RuntimeError, FileNotFoundError) as error:
            process.kill()
            process.wait()
            detail = log.read_text(errors="replace")[-500:]
            raise RuntimeError(f"run did not become ready: {error}: {detail}") from None
        finally:
            if process.poll() is None:
                stop(process)
    os.unlink(address)
    return seconds, rss, peak


def write_frames(folder: Path, count: int = 8) -> None:
    """Frames for the folder camera: a grey table with one QR code (not a card) per frame,
    so that the decoder works on every frame as it would at the table."""
    import segno
    from PIL import Image

    folder.mkdir()
    for i in range(count):
        frame = Image.new("L", (1280, 720), 120)
        code = segno.make_qr(f"bench-{i}", error="h")
        buffer = io.BytesIO()
        code.save(buffer, kind="png", scale=6, border=4)
        sticker = Image.open(io.BytesIO(buffer.getvalue())).convert("L")
        frame.paste(sticker, (200 + 90 * i, 150 + 40 * i))
        frame.save(folder / f"frame{i:02d}.png")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def measure_startup(venv: Path, scratch: Path) -> Startup:
    runs = []
    for i in range(RUNS):
        folder = scratch / f"run{i}"
        folder.mkdir()
        runs.append(start_once(venv, folder))
    return Startup([r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs])


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def section(size: InstallSize, startup: Startup | None, note: str) -> str:
    lines = [
        HEADING,
        "",
        "Measured by `.venv/bin/python benchmarks/pi_service.py` on a development machine "
        f"({machine()}), shared with other work while measuring, **not on a Raspberry Pi**: a "
        "Pi is slower, and these figures are no promise for one. To measure a Pi, run the same "
        "command there from a checkout (it installs into a temporary venv).",
        "",
        "Install size: what `pip install .` (with its dependencies) adds to the site-packages "
        "of a fresh venv; OpenCV's and NumPy's wheels differ in size between x86_64 and "
        "aarch64, and on the Pi NumPy comes from Debian (system site packages).",
        "",
        "| what | size |",
        "| --- | --- |",
        f"| everything installed | {mib(size.site_packages)} |",
        f"| our packages (companion, hardware, web) | {mib(size.ours)} |",
    ]
    lines += [f"| {name} | {mib(n)} |" for name, n in size.largest]
    lines += ["", f"`pip install .` took {size.seconds:.0f} s (downloads included).", ""]
    if startup is None:
        lines += [f"Start-up time and memory of `duel-companion run`: not measured ({note}).", ""]
    else:
        median = statistics.median
        lines += [
            f"`duel-companion run` as systemd starts it (NOTIFY_SOCKET; emulated OLED; a folder "
            f"camera of 8 frames 1280x720 with one QR code each; web pages on; empty journal), "
            f"{RUNS} starts, median (min..max):",
            "",
            "| what | value |",
            "| --- | --- |",
            f"| exec to READY=1 (first screen shown) | {median(startup.seconds):.2f} s "
            f"({min(startup.seconds):.2f}..{max(startup.seconds):.2f}) |",
            f"| RSS at READY=1 | {median(startup.rss_ready) / 1024:.0f} MiB |",
            f"| peak RSS (VmHWM) 5 s later | {median(startup.rss_peak) / 1024:.0f} MiB |",
            "",
        ]
    return "\n".join(lines)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="duel-bench-") as tmp:
        venv = Path(tmp) / "venv"
        size = install(venv)
        startup, note = None, ""
        if has_run_command(venv):
            startup = measure_startup(venv, Path(tmp))
        else:
            note = "this checkout has no `duel-companion run` yet"
    text = section(size, startup, note)
    print(text)
    if "--print" not in sys.argv[1:]:
        write_section(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
