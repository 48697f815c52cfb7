"""The user's guide (README.md, hardware/README.md, docs/) reads as one: no development
terms, tables whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = [
    ROOT / "README.md",
    ROOT / "hardware" / "README.md",
    *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "STYLE.md"),  # contributors'
]
DEVELOPMENT = re.compile(
    r"\bissue \d+|\bissue's\b|issue is silent|\bseed 0\d\d\b|\bthe seed's\b|"
    r"\bRULES\.md\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("page", GUIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_guide_speaks_no_development_terms(page: Path) -> None:
    found = [
        f"{page.name}:{number}: {match.group(0)}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for match in [DEVELOPMENT.search(line)]
        if match
    ]
    assert found == []


@pytest.mark.parametrize("page", GUIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_is_whole(page: Path) -> None:
    # a row after a blank line starts a new table: it must be a header with its rule under it
    lines = page.read_text(encoding="utf-8").splitlines()
    broken = [
        f"{page.name}:{number + 1}: {line[:40]}"
        for number, line in enumerate(lines)
        if line.startswith("|")
        and number > 0
        and not lines[number - 1].strip()
        and not (number + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|$", lines[number + 1]))
    ]
    assert broken == []


def test_the_kit_guide_says_scan_reads_image_files() -> None:
    text = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    assert "`duel-companion scan` shows what the camera reads" not in text
    assert "`scan` reads image files, not the camera" in " ".join(text.split())
