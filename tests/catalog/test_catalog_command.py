"""`duel-companion catalog`: the real table and JSON on stdout, refusals on stderr."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.cards import Catalog
from companion.engine.catalog import default_data_dir
from companion.engine.catalog_json import catalog_to_json


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["catalog", *args])
    out, err = capsys.readouterr()
    return status, out, err


def section(out: str, title: str) -> list[list[str]]:
    """The rows (cells) of the table under the heading `title (n)`, without its header."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{title} ("))
    rows = []
    for line in lines[start + 2 :]:
        if not line:
            break
        rows.append(re.split(r"\s{2,}", line))
    assert lines[start] == f"{title} ({len(rows)})"
    return rows


def test_table_lists_cards_wonders_and_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys)
    assert (status, err) == (0, "")
    cards = section(out, "Cards")
    assert len(cards) == 73
    assert cards[9] == ["stable", "Stable", "1", "red", "1 wood", "1 shield; gives horseshoe"]
    wonders = section(out, "Wonders")
    assert len(wonders) == 12
    assert ["the_pyramids", "The Pyramids", "3 stone, 1 papyrus", "9 VP"] in wonders
    tokens = section(out, "Progress tokens")
    assert ["law", "Law", "science law"] in tokens


@pytest.mark.parametrize(
    ("args", "count", "ages", "colors"),
    [
        (["--age", "1"], 23, {"1"}, None),
        (["--age", "3"], 20, {"3"}, None),
        (["--age", "guild"], 7, {"guild"}, {"purple"}),
        (["--color", "green"], 12, {"1", "2", "3"}, {"green"}),
        (["--age", "2", "--color", "blue"], 5, {"2"}, {"blue"}),
        (["--age", "3", "--color", "brown"], 0, set(), set()),
    ],
)
def test_filters_choose_cards_and_hide_wonders_and_tokens(
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    count: int,
    ages: set[str],
    colors: set[str] | None,
) -> None:
    status, out, _ = run(capsys, *args)
    assert status == 0
    rows = section(out, "Cards")
    assert len(rows) == count
    assert {r[2] for r in rows} == ages
    if colors is not None:
        assert {r[3] for r in rows} == colors
    assert "Wonders" not in out
    assert "Progress tokens" not in out


def test_language_shows_names_with_english_fallback(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "--language", "nb")
    names = {r[0]: r[1] for r in section(out, "Cards")}
    assert (names["lumber_yard"], names["pretorium"]) == ("Sagbruk", "Kommandotelt")
    wonders = {r[0]: r[1] for r in section(out, "Wonders")}
    assert (wonders["the_appian_way"], wonders["the_pyramids"]) == ("Via Appia", "The Pyramids")
    _, out, _ = run(capsys, "--language", "da", "--age", "1")
    names = {r[0]: r[1] for r in section(out, "Cards")}
    assert (names["tavern"], names["stable"]) == ("Kro", "Stable")


def test_json_prints_the_whole_catalog(
    capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    status, out, err = run(capsys, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out) == catalog_to_json(catalog)


def test_json_with_a_filter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--json", "--age", "1")
    assert (status, out) == (2, "")
    assert err.startswith("duel-companion catalog: --json prints the whole catalog")


def test_bad_data_exits_2_with_the_loader_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(default_data_dir(), data, ignore=shutil.ignore_patterns("__pycache__"))
    cards = data / "cards.toml"
    cards.write_text(cards.read_text().replace('color = "red"', 'color = "crimson"', 1))
    status, out, err = run(capsys, "--data", str(data))
    assert (status, out) == (2, "")
    expected = "cards.toml: card 'guard_tower': color: unknown color 'crimson'"
    assert err == f"duel-companion catalog: {expected}\n"


def test_missing_data_folder_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "--data", str(tmp_path / "nowhere"), "--json")
    assert (status, out) == (2, "")
    assert err.startswith("duel-companion catalog: cards.toml: file not found in ")


def test_unknown_age_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "--age", "4")
    assert exit_.value.code == 2
    assert "invalid choice: '4'" in capsys.readouterr().err


def test_the_data_option_is_hidden_from_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    out = capsys.readouterr().out
    assert "--language" in out
    assert "--data" not in out


def test_the_console_command_refuses_without_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "catalog", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
