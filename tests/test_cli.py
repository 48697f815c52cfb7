"""The `duel-companion` command: every subcommand is listed with its help and answers --help."""

from __future__ import annotations

import importlib
import shlex
import subprocess
import sys
from importlib.metadata import version

import pytest

from companion.cli import SUBCOMMANDS, main


def test_the_top_level_help_lists_every_subcommand_with_its_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps long lines
    for name, module in SUBCOMMANDS.items():
        help_text = importlib.import_module(f"companion.commands.{module}").HELP
        assert f"{name} {help_text}" in shown


def test_the_top_level_help_says_the_family_score_pads_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "Bookkeeping for a physical game of 7 Wonders Duel, and score pads for the 7 " in shown
    assert "(the base game for 2 to 7 players, Edifice, 7 Wonders Dice)" in shown


@pytest.mark.parametrize("name", list(SUBCOMMANDS))
def test_every_subcommand_answers_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: duel-companion {name}")


@pytest.mark.parametrize("argv", [[], ["frobnicate"]])
def test_no_or_an_unknown_subcommand_exits_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"duel-companion {version('duel-companion')}"


@pytest.mark.parametrize("command", ["catalog --json"])
def test_a_reader_that_stops_early_gets_no_traceback(command: str) -> None:
    # head reads 10 bytes and leaves; the catalog (68 KB) outgrows the pipe's buffer
    shell = f"{shlex.quote(sys.executable)} -m companion.cli {command} | head -c 10"
    result = subprocess.run(
        ["sh", "-c", shell], capture_output=True, text=True, timeout=120, check=False
    )
    assert len(result.stdout) == 10
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
