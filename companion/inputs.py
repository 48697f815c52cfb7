"""The inputs of the run loop that the kit's adapters produce: a button press, a sticker seen,
a part lost or back, time passing, the overhead camera's reading of the structure.

Plain values, low enough for both `hardware/` (which makes them) and `companion/device/`
(which decides what they mean) to import.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Press:
    """A button press: `left`, `select` or `right`; `long` when held (about a second)."""

    name: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class Scan:
    """A sticker seen by the camera: a card, wonder or token id, or None for a foreign code.

    `at` is when its frame was captured (perf_counter), for the latency measurement.
    """

    card: str | None
    at: float | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Status:
    """A part of the kit lost ("camera lost") or back (None)."""

    problem: str | None


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes (monotonic seconds): feedback screens time out."""

    now: float


@dataclass(frozen=True, slots=True)
class Table:
    """The overhead camera's reading of age `age`'s structure once frames in a row agreed
    (companion.device.overhead.Watch): per position in layout order a card id, "back",
    "empty" or None (cannot tell); `seen` the positions where a card was seen in an earlier
    table of the age. `at` is when the frames began to agree (perf_counter), for the latency
    benchmark. `again`: the same reading given again after the box recorded an event (its
    positions that cannot be told were judged already: none of them is taken for gone)."""

    slots: tuple[str | None, ...]
    age: int
    seen: frozenset[int] = frozenset()
    at: float | None = field(default=None, compare=False)
    again: bool = False


Input = Press | Scan | Status | Tick | Table
