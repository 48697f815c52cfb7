"""The engine protocol's two ends (docs/engine-protocol.md): the companion's search player
answering requests (`answer`, `serve`: `duel-companion engine`), and a program that speaks
the protocol run as a subprocess for the arena (`Program`).

A request is one JSON object a line, `{"record": [...], "player": "p1", "seconds": 0.5}`
(plus `drawn` for a Great Library); the answer one line, `{"event": {...}}` or
`{"error": "..."}`. The record is read by the one reader of records and replayed by the one
replay, so a request's record is refused exactly as a record file would be ("record line N:
...").
"""

from __future__ import annotations

import json
import math
import queue
import subprocess
import threading
from collections.abc import Sequence
from typing import IO, Any

from companion.engine.cards import Catalog, TokenId
from companion.engine.events import IllegalEvent, event_to_record
from companion.engine.state import Phase
from companion.play.referee import Refused
from companion.records.reader import MAX_RECORD_BYTES, RecordRefused, check_event, parse_line
from companion.records.replay import replay
from companion.search.player import Level, NoDecision, suggest
from companion.search.policy import acting_player

__all__ = ["MAX_LINE_CHARS", "Program", "answer", "serve"]

MAX_LINE_CHARS = MAX_RECORD_BYTES + 4096
"""The longest request (a whole game's record with room for the other keys) or answer line."""


class _Bad(ValueError):
    """A request that cannot be answered; the message is the error's one line."""


def answer(line: str, catalog: Catalog, level: Level, seed: int = 0) -> dict[str, Any]:
    """The answer to one request line: `{"event": record line}` for the player asked, or
    `{"error": one line}`."""
    try:
        return {"event": event_to_record(_answer(line, catalog, level, seed))}
    except _Bad as bad:
        return {"error": str(bad)}


def _answer(line: str, catalog: Catalog, level: Level, seed: int) -> Any:
    try:
        asked = parse_line(line, 1)
    except RecordRefused as refused:
        raise _Bad(refused.reason) from None
    if not isinstance(asked, dict):
        raise _Bad("expected a JSON object")
    record = asked.get("record")
    if not isinstance(record, list):
        raise _Bad('"record" must be a list of record lines')
    if not record:
        raise _Bad('"record" is empty: it begins with the setup')
    player = asked.get("player")
    if player not in ("p1", "p2"):
        raise _Bad('"player" must be "p1" or "p2"')
    seconds = asked.get("seconds")
    if seconds is not None and not (
        isinstance(seconds, int | float)
        and not isinstance(seconds, bool)
        and math.isfinite(seconds)
        and seconds > 0
    ):
        raise _Bad('"seconds" must be a number above 0')
    drawn = asked.get("drawn")
    if drawn is not None and not (
        isinstance(drawn, list) and all(isinstance(t, str) for t in drawn)
    ):
        raise _Bad('"drawn" must be a list of progress token ids')
    label = "record line"
    try:
        numbered = [(n, check_event(value, n)) for n, value in enumerate(record, start=1)]
        state = replay(catalog, numbered, label=label).state
    except RecordRefused as refused:
        where = f"{label} {refused.line}: " if refused.line is not None else ""
        raise _Bad(where + refused.reason) from None
    if state.phase is not Phase.PLAYING or state.finished:
        raise _Bad("The game is over" if state.finished else "The record begins with a setup")
    acting = acting_player(state)
    if acting.value != player:
        raise _Bad(f"{acting.value} acts now, not {player}")
    tokens = tuple(TokenId(t) for t in drawn) if drawn else None
    try:
        found = suggest(state, level, seed, seconds=seconds, drawn=tokens)
    except (NoDecision, IllegalEvent) as refused:
        raise _Bad(str(refused)) from None
    return found.moves[0].event


def serve(
    requests: IO[str], answers: IO[str], catalog: Catalog, level: Level, seed: int = 0
) -> None:
    """Answer each request line of `requests` with one line on `answers`, flushed at once,
    until the end of input; blank lines are skipped, a line over `MAX_LINE_CHARS` is
    refused."""
    while True:
        line = requests.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # the rest of the long line
                line = requests.readline(MAX_LINE_CHARS)
            reply: dict[str, Any] = {"error": f"a request is at most {MAX_LINE_CHARS} characters"}
        elif not line.strip():
            continue
        else:
            reply = answer(line, catalog, level, seed)
        answers.write(json.dumps(reply) + "\n")
        answers.flush()


class Program:
    """A program that speaks the engine protocol, run as a subprocess: started on the first
    request, and again on the next one after it failed (no answer in `timeout` seconds, a
    line that is not JSON, or its end). Its standard error is the caller's."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def start(self) -> None:
        """Start the program (stopping a failed one first).

        Raises:
            OSError: it cannot be started (no such file, not executable).
        """
        self.close()
        process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        lines: queue.Queue[str | None] = queue.Queue()
        stdout = process.stdout
        assert stdout is not None

        def read() -> None:  # the answers, one line at a time, then None at its end
            while line := stdout.readline(MAX_LINE_CHARS + 1):
                lines.put(line)
            stdout.close()
            lines.put(None)

        threading.Thread(target=read, name="program", daemon=True).start()
        self._process, self._lines = process, lines

    def ask(self, request: dict[str, Any]) -> object:
        """Send one request and return the answer line, parsed.

        Raises:
            Refused: no answer in time, a line that is not JSON, or the program ended (it is
                started again for the next request).
        """
        if self._process is None:
            try:
                self.start()
            except OSError as bad:
                raise Refused(f"it cannot be started: {bad.strerror or bad}") from None
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            line = self._lines.get(timeout=self.timeout)
            while line is not None and not line.strip():
                line = self._lines.get(timeout=self.timeout)
        except (BrokenPipeError, OSError):
            line = None
        except queue.Empty:
            self._fail()
            raise Refused(f"no answer in {self.timeout:g} s") from None
        if line is None:
            self._fail()
            status = process.wait()
            raise Refused(f"it ended (exit status {status})")
        try:
            return json.loads(line)
        except ValueError:
            self._fail()
            shown = line.strip()
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise Refused(f"not a JSON line: {shown!r}") from None

    def _fail(self) -> None:
        """Stop the program; the next request starts it again."""
        process = self._process
        if process is not None:
            process.kill()
            process.wait()
        self.close()

    def close(self) -> None:
        """End the program: end of input, then a kill if it has not ended within a second."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
