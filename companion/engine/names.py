"""The one rule of a player's name, for Duel games, score pads and remembered players alike."""

from __future__ import annotations

NAME_LENGTH = 24


def check_name(value: object) -> str:
    """A player's name as kept: stripped, 1 to `NAME_LENGTH` printable characters (no line
    break, control, NUL, direction override or lone surrogate: Python's `isprintable`).

    Raises:
        ValueError: not text, empty, too long or unprintable (a line break, a control).
    """
    if not isinstance(value, str):
        raise ValueError("a name is text")
    name = value.strip()
    if not name or len(name) > NAME_LENGTH or not name.isprintable():
        raise ValueError(f"a name is 1 to {NAME_LENGTH} printable characters")
    return name
