"""`duel-companion import` and `duel-companion web` from the command line."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import textwrap
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE, lines

from companion.cli import main
from companion.config import Config
from companion.records.journal import Journal
from companion.records.lock import WriterLock
from web import create_app
from web.control import ReadOnlyControl

ROOT = Path(__file__).resolve().parents[2]


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(lines(records)) + "\n", encoding="utf-8")
    return path


def test_import_says_which_game_it_added(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    for name in ("civilian", "military"):
        record = write(tmp_path / f"{name}.jsonl", records[name])
        assert main(["import", str(record), "--journal", str(journal)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Added game 1 to j.sqlite.",
        "Added game 2 to j.sqlite.",
    ]
    with Journal.open(journal, readonly=True) as opened:
        assert opened.effective_events(2) == records["military"]
    # --json answers as for a history
    record = write(tmp_path / "playing.jsonl", records["playing"])
    assert main(["import", str(record), "--journal", str(journal), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["added"], answer["already"], answer["players"]) == ([3], [], 0)


def test_the_same_record_imported_twice_is_named_not_added_again(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    record = write(tmp_path / "game.jsonl", records["civilian"])
    journal = tmp_path / "j.sqlite"
    assert main(["import", str(record), "--journal", str(journal)]) == 0
    # the journal holds it: a success, as a history imported again
    assert main(["import", str(record), "--journal", str(journal)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "Added game 1 to j.sqlite.",
        "Nothing added: already in the history as game 1.",
    ]
    assert captured.err == ""
    assert main(["import", str(record), "--journal", str(journal), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["added"], answer["already"]) == ([], [{"game": 1, "id": 1}])
    with Journal.open(journal, readonly=True) as opened:
        assert [g.id for g in opened.games()] == [1]


def test_a_score_sheet_given_to_import_is_sent_to_scorepad(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "sheet.json"
    text = json.dumps({"game": "7wonders", "players": [{"name": "Ann"}]}, indent=2)
    sheet.write_text(text, encoding="utf-8")
    assert main(["import", str(sheet), "--journal", str(tmp_path / "j.sqlite")]) == 2
    assert capsys.readouterr().err == (
        f"{sheet}: a 7 Wonders score sheet, not a game record: score it with "
        f"duel-companion scorepad {sheet}\n"
    )
    assert not (tmp_path / "j.sqlite").exists()


BGSTATS_BACKUP = {"games": [], "players": [], "locations": [], "plays": []}
BGG_PLAYS = '<?xml version="1.0" encoding="utf-8"?>\n<plays total="0" page="1"></plays>\n'


@pytest.mark.parametrize(
    ("name", "text", "option"),
    [
        ("backup.json", json.dumps(BGSTATS_BACKUP, indent=1), "--bgstats"),
        ("plays.xml", BGG_PLAYS, "--bgg-xml"),
    ],
)
def test_plays_given_to_import_as_a_record_are_sent_to_their_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, option: str
) -> None:
    plays = tmp_path / name
    plays.write_text(text, encoding="utf-8")
    assert main(["import", str(plays), "--journal", str(tmp_path / "j.sqlite")]) == 2
    what = "a BG Stats backup" if option == "--bgstats" else "BoardGameGeek plays"
    assert capsys.readouterr().err == (
        f"{plays}: {what}, not a game record: import it with "
        f"duel-companion import {option} {plays}\n"
    )
    assert not (tmp_path / "j.sqlite").exists()


def test_import_of_an_unfinished_record_works_too(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    record = write(tmp_path / "game.jsonl", records["playing"])
    assert main(["import", str(record), "--journal", str(tmp_path / "j.sqlite")]) == 0
    with Journal.open(tmp_path / "j.sqlite", readonly=True) as opened:
        assert opened.game(1).status == "in_progress"


def test_a_refused_record_names_the_line_and_changes_nothing(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    broken = [*records["civilian"]]
    broken[9] = {"type": "build", "player": "p9", "card": "baths"}
    record = write(tmp_path / "game.jsonl", broken)
    journal = tmp_path / "j.sqlite"
    Journal.create(journal).close()
    assert main(["import", str(record), "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game.jsonl: line 10: " in err
    with Journal.open(journal, readonly=True) as opened:
        assert opened.games() == []


@pytest.mark.parametrize(
    ("content", "message"), [(None, "cannot read"), (b"\xff\xfe", "not UTF-8"), (b"{", "line 1")]
)
def test_import_refuses_unreadable_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    record = tmp_path / "game.jsonl"
    if content is not None:
        record.write_bytes(content)
    assert main(["import", str(record), "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_import_into_a_foreign_file_refuses_and_keeps_it(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    record = write(tmp_path / "game.jsonl", records["civilian"])
    journal = tmp_path / "j.sqlite"
    journal.write_bytes(b"my notes" * 100)
    assert main(["import", str(record), "--journal", str(journal)]) == 2
    assert "moved aside" in capsys.readouterr().err
    [moved] = tmp_path.glob("j.sqlite.corrupt-*")
    assert moved.read_bytes() == b"my notes" * 100


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--port", "70000"], "--port"), (["--threads", "0"], "--threads")],
)
def test_web_refuses_bad_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    journal = tmp_path / "j.sqlite"
    Journal.create(journal).close()
    assert main(["web", "--journal", str(journal), *extra]) == 2
    assert message in capsys.readouterr().err


def test_web_refuses_a_missing_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert "no journal there" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def web_server(journal: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    """`duel-companion web` over `journal` in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "companion.cli", "web", "--journal", str(journal)]
    return subprocess.Popen(
        [*command, "--port", str(port), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.parametrize("read_only", [False, True], ids=["writer", "read-only-beside-a-run"])
def test_web_serves_the_journal_with_waitress(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]], read_only: bool
) -> None:
    journal = tmp_path / "j.sqlite"
    record = write(tmp_path / "game.jsonl", records["civilian"])
    assert main(["import", str(record), "--journal", str(journal)]) == 0
    port = free_port()
    run = WriterLock(journal, command="duel-companion run", kind="run")
    with run if read_only else contextlib.nullcontext():
        server = web_server(journal, port, *(["--read-only"] if read_only else []))
        try:
            assert server.stdout is not None
            banner = server.stdout.readline()
            assert f"http://127.0.0.1:{port}/" in banner
            changes = "(read-only: --read-only)" if read_only else "(pairing code "
            assert changes in banner
            url = f"http://127.0.0.1:{port}/api/games"
            with urllib.request.urlopen(url, timeout=10) as answer:
                assert answer.headers["Server"] == "duel-companion"  # waitress's ident
                assert json.load(answer)[0]["victory"] == "civilian"
        finally:
            server.terminate()
            server.communicate(timeout=10)


def test_web_is_refused_while_a_run_holds_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    Journal.create(journal).close()
    with WriterLock(journal, command="duel-companion run", kind="run"):
        assert main(["web", "--journal", str(journal), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"is in use by pid {os.getpid()} (duel-companion run)" in err
    assert "`web --read-only` serves its pages without changes" in err


def test_read_only_control_refuses_every_change(
    tmp_path: Path, catalog: Any, records: dict[str, list[dict[str, Any]]]
) -> None:
    journal = tmp_path / "j.sqlite"
    record = write(tmp_path / "game.jsonl", records["playing"])
    assert main(["import", str(record), "--journal", str(journal)]) == 0
    app = create_app(
        Config.defaults(journal=journal),
        CATALOG=catalog,
        PAIRING_CODE=CODE,
        CONTROL=ReadOnlyControl("served read-only (--read-only)"),
    )
    client = app.test_client()
    paired = {"X-Pairing-Code": CODE}
    response = client.post("/api/games/1/undo", headers=paired)
    assert response.status_code == 409
    assert response.get_json()["error"] == (
        "This journal is served read-only (--read-only): no changes"
    )
    with Journal.open(journal, readonly=True) as opened:
        assert opened.last_seq(1) == len(records["playing"])


READ_ONLY_DISK = """
    import json, sys
    from pathlib import Path
    from companion.config import Config
    from companion.records.journal import Journal, JournalError
    from web import create_app
    path = Path(sys.argv[1])
    try:
        Journal.open(path)  # a writable open: refused, and nothing moved
    except JournalError as refused:
        print("writable:", refused.moved_to is None, "cannot be used now" in str(refused))
    with Journal.open(path, readonly=True) as journal:
        print("games:", len(journal.games()))
    client = create_app(Config.defaults(journal=path), TESTING=True).test_client()
    answer = client.get("/api/games")
    print("api:", answer.status_code, answer.get_json()[0]["victory"])
    print("score:", client.get("/games/1/score").status_code)
"""


def test_a_journal_on_a_read_only_disk_is_served(
    tmp_path: Path, records: dict[str, list[dict[str, Any]]]
) -> None:
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("needs user namespaces (unshare -rm) to mount a folder read-only")
    disk = tmp_path / "disk"
    disk.mkdir()
    journal = disk / "j.sqlite"
    record = write(tmp_path / "game.jsonl", records["civilian"])
    assert main(["import", str(record), "--journal", str(journal)]) == 0
    (disk / "j.sqlite.lock").unlink()
    assert sorted(p.name for p in disk.iterdir()) == ["j.sqlite"]  # WAL merged on close
    mount = f"mount --bind {disk} {disk} && mount -o remount,bind,ro {disk}"
    python = f"{sys.executable} -c '{textwrap.dedent(READ_ONLY_DISK)}' {journal}"
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"{mount} && {python}"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "writable: True True",
        "games: 1",
        "api: 200 civilian",
        "score: 200",
    ]
    assert sorted(p.name for p in disk.iterdir()) == ["j.sqlite"]
