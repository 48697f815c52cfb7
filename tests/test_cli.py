"""The `duel-companion` command: every subcommand is listed with its help and answers --help."""

from __future__ import annotations

import importlib

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
