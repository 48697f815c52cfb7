"""`duel-companion demo`: the README's first command, as a user runs it."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from PIL import Image

from companion.engine.cards import Catalog
from companion.engine.events import event_to_record
from companion.engine.rules import apply, new_game
from companion.records.journal import Journal
from companion.service.playback import read_record, score_lines


def demo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "demo", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_demo_with_no_options_writes_frames_and_prints_the_final_score(
    catalog: Catalog, tmp_path: Path
) -> None:
    result = demo(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    state = new_game(catalog)
    for event in read_record():
        state = apply(state, event)
    for line in score_lines(state):
        assert line in result.stdout
    out = tmp_path / "out" / "demo"
    pngs = sorted(out.glob("frame-*.png"))
    assert len(pngs) > 100
    with Image.open(pngs[0]) as first:
        assert first.size == (128, 64)
    with Image.open(out / "game.gif") as gif:
        assert gif.n_frames == len(pngs)
    # the journal stays, with the command that shows it on the phone pages
    journal = Path("out") / "demo" / "journal.sqlite"
    assert f"duel-companion web --journal {journal}" in result.stdout
    with Journal.open(tmp_path / journal, readonly=True) as kept:
        (game,) = kept.games()
        assert game.status == "finished"


def test_demo_refuses_a_bad_record_in_one_line(tmp_path: Path) -> None:
    record = tmp_path / "bad.jsonl"
    record.write_text('{"type": "setup"}\n')
    result = demo("--record", str(record), "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "line 1" in result.stderr
    assert "Traceback" not in result.stderr


def test_demo_guided_plays_the_guided_entry_of_every_age(catalog: Catalog, tmp_path: Path) -> None:
    from companion.service.playback import DEALT, with_reveals

    result = demo("--guided", "--direct", "--no-frames", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with Journal.open(tmp_path / "out" / "demo" / "journal.sqlite", readonly=True) as kept:
        (game,) = kept.games()
        rows = kept.effective_events(game.id)
    # the shipped game with its deals, recorded as the guided entry gives it: partial deals
    # (the face-down cards unknown) and a reveal for every card turned up
    expected = [event_to_record(e) for e in with_reveals(catalog, read_record(shipped=DEALT))]
    assert [r["type"] for r in rows] == [r["type"] for r in expected]
    assert rows[1:] == expected[1:]  # the setup's names: the box names no one
    assert sum(r["type"] == "reveal" for r in rows) == 24
    assert sum(r["type"] == "deal" and None in r["layout"] for r in rows) == 3


def test_demo_at_the_table_needs_a_record_with_its_deals(tmp_path: Path) -> None:
    record = tmp_path / "no-deals.jsonl"  # the shipped table-mode game has no deal
    record.write_text(
        "\n".join(json.dumps(event_to_record(e)) for e in read_record()) + "\n", "utf-8"
    )
    for mode in ("--guided", "--overhead"):
        result = demo(mode, "--record", str(record), "--out", str(tmp_path / "o"), cwd=tmp_path)
        assert result.returncode == 2
        assert (
            result.stderr == "demo: --guided and --overhead play a record with the 3 ages' "
            "full deals\n"
        )


def test_each_demo_run_adds_a_game_whichever_mode(tmp_path: Path) -> None:
    options = ("--direct", "--no-frames")
    for mode in ((), ("--guided",), ()):
        result = demo(*mode, *options, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    with Journal.open(tmp_path / "out" / "demo" / "journal.sqlite", readonly=True) as kept:
        assert [g.status for g in kept.games()] == ["finished"] * 3


def test_the_printed_web_command_runs_as_printed(tmp_path: Path) -> None:
    result = demo("--direct", "--no-frames", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    line = result.stdout.splitlines()[-1]
    command = shlex.split(line)
    assert command[1:] == ["web", "--journal", str(Path("out") / "demo" / "journal.sqlite")]
    # from the same folder, with a PATH that does not hold the venv (not activated)
    shown = subprocess.run(
        [*command, "--help"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert "--journal" in shown.stdout
