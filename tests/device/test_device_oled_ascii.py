"""hardware.oled: the emulated display drawn as text, for a terminal on a headless machine."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from companion.device.screens import render
from companion.device.views import HelpView
from hardware.oled import EmulatedOled, ascii_frame, main, read_frame

FRAME = render(HelpView((("left", "up", "back"),), pairing="1234"))


def lit(image: Image.Image) -> set[tuple[int, int]]:
    pixels = image.convert("1").load()
    assert pixels is not None
    return {(x, y) for x in range(image.width) for y in range(image.height) if pixels[x, y]}


def pixels_of(text: str) -> set[tuple[int, int]]:
    """The lit pixels that a text frame shows (inverse of the half-block drawing)."""
    rows = text.split("\n")[1:-1]
    halves = {"\u2580": (0,), "\u2584": (1,), "\u2588": (0, 1), " ": ()}
    return {
        (x, 2 * y + half)
        for y, row in enumerate(rows)
        for x, char in enumerate(row[1:-1])
        for half in halves[char]
    }


def test_a_frame_is_32_lines_of_128_characters_inside_a_border() -> None:
    lines = ascii_frame(FRAME).split("\n")
    assert len(lines) == 32 + 2
    assert {len(line) for line in lines} == {130}
    assert lines[0] == lines[-1] == "+" + "-" * 128 + "+"


def test_the_text_shows_exactly_the_lit_pixels() -> None:
    assert pixels_of(ascii_frame(FRAME)) == lit(FRAME)
    single = Image.new("1", (128, 64))
    single.putpixel((5, 3), 1)  # an odd row: the bottom half of text line 1
    assert pixels_of(ascii_frame(single)) == {(5, 3)}
    assert ascii_frame(single).split("\n")[2][6] == "\u2584"


def test_echo_draws_each_frame_on_the_stream(tmp_path: Path) -> None:
    echo = io.StringIO()
    oled = EmulatedOled(tmp_path, echo=echo)
    oled.show(FRAME)
    oled.show(Image.new("1", (128, 64)))
    assert echo.getvalue().startswith(ascii_frame(FRAME) + "\n")
    assert echo.getvalue().endswith(ascii_frame(Image.new("1", (128, 64))) + "\n")
    assert echo.getvalue().count("+" + "-" * 128 + "+") == 2 * 2  # two framed frames


def test_read_frame_gives_back_the_128x64_frame_written(tmp_path: Path) -> None:
    EmulatedOled(tmp_path, scale=4).show(FRAME)
    frame = read_frame(tmp_path / "latest.png")
    assert frame.size == (128, 64)
    assert lit(frame) == lit(FRAME)


def test_main_prints_the_latest_frame(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    EmulatedOled(tmp_path).show(FRAME)
    assert main([str(tmp_path / "latest.png")]) == 0
    assert capsys.readouterr().out == ascii_frame(FRAME) + "\n"


def test_main_refuses_a_missing_frame_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "nope.png")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "nope.png: cannot read the frame" in error
    assert main([]) == 2


def test_two_emulated_oleds_in_one_folder_write_without_crashing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = EmulatedOled(tmp_path), EmulatedOled(tmp_path)
    other = Image.new("1", (128, 64))
    real_replace = os.replace
    interleaved: list[str] = []

    def replace_after_the_other(source: str, target: str) -> None:
        if not interleaved:  # the second OLED writes its frame between the first's two steps
            interleaved.append(source)
            second.show(other)
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace_after_the_other)
    first.show(FRAME)
    assert lit(read_frame(tmp_path / "latest.png")) == lit(FRAME)  # the last one replaced
    assert [p.name for p in tmp_path.iterdir()] == ["latest.png"]  # no temporary file left
