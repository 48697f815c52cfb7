"""What the benchmark scripts share: the machine they ran on, their section of BENCHMARKS.md,
and stopping a service they started.

Scripts run as `python benchmarks/<name>.py`, so they import this module as `report`.
"""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def machine() -> str:
    """Cores, CPU model, Python version and architecture of this machine, for the record."""
    cpu = platform.processor() or "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} cores (`nproc`), {cpu}, Python {platform.python_version()}, "
        f"{platform.machine()}"
    )


def write_section(text: str, path: Path = BENCHMARKS) -> None:
    """Put `text`, a section starting with its `## Heading` line, in place of the section of
    that heading in `path` (or after the last one), leaving every other section as it is."""
    heading = text.splitlines()[0]
    if not heading.startswith("## "):
        raise ValueError(f"a section starts with its '## ' heading, not {heading!r}")
    body = text.rstrip("\n") + "\n"
    current = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    start = current.find(f"\n{heading}\n")
    if start == -1:
        updated = current.rstrip("\n") + "\n\n" + body
    else:
        end = current.find("\n## ", start + 1)
        updated = current[: start + 1] + body + (current[end:] if end != -1 else "")
    path.write_text(updated, encoding="utf-8")


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a service started by a benchmark: SIGTERM, then SIGKILL after 20 s."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
