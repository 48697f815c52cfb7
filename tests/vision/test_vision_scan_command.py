"""`duel-companion scan`: card ids and foreign codes per image, text or JSON, errors per image."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision import synth


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["scan", *args])
    out, err = capsys.readouterr()
    return status, out, err


def with_foreign_code(frame: np.ndarray) -> np.ndarray:
    """The frame with a phone's QR code pasted at its top left."""
    code = synth.sticker_image("https://example.com/menu", 6.0, 40.0, error_correction="M")
    frame = frame.copy()
    frame[20 : 20 + code.shape[0], 20 : 20 + code.shape[1]] = code
    return frame


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "2-pair.png"), synth.frame_with_cards(["quarry", "temple"], seed=7))
    cv2.imwrite(
        str(folder / "1-one.jpg"), with_foreign_code(synth.frame_with_cards(["lighthouse"], seed=8))
    )
    cv2.imwrite(str(folder / "3-empty.png"), synth.frame_with_cards([], seed=9))
    (folder / "notes.txt").write_text("not an image")
    return folder


def test_json_lists_each_image_of_a_folder_in_name_order(
    capsys: pytest.CaptureFixture[str], photos: Path
) -> None:
    status, out, err = run(capsys, str(photos), "--json")
    assert status == 0, err
    assert json.loads(out) == [
        {"image": str(photos / "1-one.jpg"), "cards": ["lighthouse"], "foreign": 1},
        {"image": str(photos / "2-pair.png"), "cards": ["quarry", "temple"], "foreign": 0},
        {"image": str(photos / "3-empty.png"), "cards": [], "foreign": 0},
    ]


def test_text_names_the_cards_and_the_foreign_codes(
    capsys: pytest.CaptureFixture[str], photos: Path
) -> None:
    status, out, _ = run(capsys, str(photos / "1-one.jpg"), str(photos / "3-empty.png"))
    assert status == 0
    assert out.splitlines() == [
        f"{photos / '1-one.jpg'}: lighthouse (1 foreign code ignored)",
        f"{photos / '3-empty.png'}: no card",
    ]


def test_unreadable_images_get_an_error_and_the_others_are_still_read(
    capsys: pytest.CaptureFixture[str], photos: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG not really")
    missing = tmp_path / "missing.png"
    status, out, err = run(capsys, str(broken), str(photos / "2-pair.png"), str(missing), "--json")
    assert status == 2  # bad input, as the other commands
    assert json.loads(out) == [
        {"image": str(broken), "cards": [], "foreign": 0, "error": "not a readable image"},
        {"image": str(photos / "2-pair.png"), "cards": ["quarry", "temple"], "foreign": 0},
        {"image": str(missing), "cards": [], "foreign": 0, "error": "no such file"},
    ]
    assert err.splitlines() == [
        f"scan: {broken}: not a readable image",
        f"scan: {missing}: no such file",
    ]
    assert "Traceback" not in err


def test_an_empty_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, str(tmp_path))
    assert (status, out) == (2, "")
    assert err == "scan: no images in the folders given\n"


@pytest.mark.parametrize("decoder", ["zxing", "zbar"])
def test_both_decoders_read_the_same_cards(
    capsys: pytest.CaptureFixture[str], photos: Path, decoder: str
) -> None:
    status, out, _ = run(capsys, str(photos / "2-pair.png"), "--json", "--decoder", decoder)
    assert status == 0
    assert json.loads(out)[0]["cards"] == ["quarry", "temple"]


def test_a_huge_or_special_image_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import struct
    import zlib

    ihdr = b"IHDR" + struct.pack(">IIBBBBB", 32000, 32000, 8, 0, 0, 0, 0)
    huge = tmp_path / "huge.png"  # declares 1 gigapixel in a few bytes
    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr
                     + struct.pack(">I", zlib.crc32(ihdr)))  # fmt: skip
    assert main(["scan", "--json", str(huge), "/dev/zero"]) == 2
    answers = json.loads(capsys.readouterr().out)
    assert [a["error"] for a in answers] == [
        "The photo has 32000 x 32000 pixels; at most 50 megapixels are read",
        "not a regular file (a pipe, a device or a folder); name a file",
    ]
