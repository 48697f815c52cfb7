"""Hostile configuration values: every one refused in one line naming the file (and the key),
never a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from companion.config import ConfigError, load_config


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a = " + "[" * 5000 + "]" * 5000, "not a configuration: nested too deeply"),
        ("x = " + "{a=" * 3000 + "1" + "}" * 3000, "not a configuration: nested too deeply"),
        ("[web]\nport = " + "9" * 5000, "not a configuration: a number far too long"),
        ('journal = "var/a\\u0000b.sqlite"',
         "journal: a path is 1 to 1024 printable characters (no NUL)"),
        ('journal = "' + "a" * 2000 + '"', "journal: a path is 1 to 1024 printable characters"),
        ('journal = "/dev/null"',
         "journal: /dev/null is not a regular file (a journal is a file of its own)"),
        ('[display]\ndriver = "emulated"\nemulated_dir = "/dev/null"',
         "display.emulated_dir: /dev/null is not a folder"),
    ],
)  # fmt: skip
def test_a_hostile_value_is_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(f"{path}: {message}")) as refused:
        load_config(path)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("kind", ["fifo", "device", "oversize"])
def test_a_configuration_that_is_no_small_regular_file_is_refused_unread(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)  # nobody writes: a plain read would wait for ever
        message = "not a regular file (a pipe, a device or a folder); name a file"
    elif kind == "device":
        path = Path("/dev/zero")
        message = "not a regular file (a pipe, a device or a folder); name a file"
    else:
        with path.open("wb") as file:
            file.truncate(64 * 1024 + 1)
        message = "larger than 64 KB; not read"
    with pytest.raises(ConfigError, match=re.escape(f"{path}: {message}")):
        load_config(path)
