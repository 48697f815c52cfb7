"""Stickers: payloads in data/, sheets at an exact size, single PNGs that decoders read."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.engine.catalog import default_catalog
from companion.vision import payloads, stickers
from companion.vision.decode import make_decoder
from companion.vision.payloads import StickerDataError, load_sticker_table

SVG = "{http://www.w3.org/2000/svg}"


def read_payloads(image: Image.Image, decoder: str = "zxing") -> set[str]:
    gray = np.asarray(image.convert("L"))
    return {sticker.text for sticker in make_decoder(decoder).decode(gray)}


def test_every_card_wonder_and_token_has_exactly_one_sticker() -> None:
    catalog = default_catalog()
    ids = {c.id for c in catalog.cards} | {w.id for w in catalog.wonders}
    ids |= {t.id for t in catalog.progress_tokens}
    assert set(payloads.sticker_ids()) == ids
    assert len(payloads.sticker_ids()) == len(ids)


def test_payloads_are_version_1_codes_with_our_prefix() -> None:
    for card_id in payloads.sticker_ids():
        text = payloads.payload_for(card_id)
        assert re.fullmatch(r"7WD:[AGWP]\d\d[0-9A-Z]", text)
        assert stickers.qr_modules(text).shape == (21, 21)
        assert payloads.parse(text) == card_id


def test_one_changed_or_swapped_character_is_never_another_card() -> None:
    for text in (payloads.payload_for(i) for i in payloads.sticker_ids()):
        body = text[4:]
        for position in range(4):
            for char in payloads.ALPHABET:
                if char != body[position]:
                    changed = text[:4] + body[:position] + char + body[position + 1 :]
                    assert payloads.parse(changed) is None, changed
        for position in range(3):
            swapped = list(body)
            swapped[position], swapped[position + 1] = swapped[position + 1], swapped[position]
            if swapped != list(body):
                assert payloads.parse(text[:4] + "".join(swapped)) is None


@pytest.mark.parametrize("text", ["HELLO", "7WD:A01", "7WD-A01E", "7wd:a01e", "7WD:X01A", ""])
def test_foreign_texts_parse_to_none(text: str) -> None:
    assert payloads.parse(text) is None


def test_a_duplicate_payload_in_the_data_is_refused() -> None:
    raw = {
        "error_correction": "H",
        "sticker": [{"id": "a", "payload": "7WD:A01E"}, {"id": "b", "payload": "7WD:A01E"}],
    }
    with pytest.raises(StickerDataError, match="sticker 'b': duplicate id or payload"):
        load_sticker_table(raw)


def test_a_bad_check_character_in_the_data_is_refused() -> None:
    raw = {"error_correction": "H", "sticker": [{"id": "a", "payload": "7WD:A01F"}]}
    with pytest.raises(StickerDataError, match="sticker 'a': malformed payload '7WD:A01F'"):
        load_sticker_table(raw)


def test_single_pngs_are_named_by_id_at_300_dpi_and_decode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stickers", "--format", "png", "--out", str(tmp_path / "one")]) == 0
    files = sorted((tmp_path / "one").glob("*.png"))
    assert [f.stem for f in files] == sorted(payloads.sticker_ids())
    for path in files[::9]:  # a sample: both decoders, every tenth sticker
        with Image.open(path) as image:
            assert image.size == (236, 236)  # 20 mm at 300 dpi
            assert [round(v) for v in image.info["dpi"]] == [300, 300]
            padded = Image.new("L", (336, 336), 255)
            padded.paste(image, (50, 50))
            expected = {payloads.payload_for(path.stem)}
            assert read_payloads(padded, "zxing") == expected
            assert read_payloads(padded, "zbar") == expected


def test_png_sheets_hold_every_sticker_and_name(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert main(["stickers", "--out", str(out), "--paper", "letter"]) == 0
    pages = sorted(tmp_path.glob("sheet-*.png"))
    assert len(pages) == 3
    found: set[str] = set()
    for page in pages:
        with Image.open(page) as image:
            assert image.size == (2550, 3300)  # US Letter at 300 dpi
            found |= read_payloads(image)
    assert found == {payloads.payload_for(i) for i in payloads.sticker_ids()}


def test_svg_sheets_are_a4_in_millimetres_with_stickers_of_the_asked_size(
    tmp_path: Path,
) -> None:
    assert main(["stickers", "--out", str(tmp_path / "s.svg"), "--size", "16"]) == 0
    roots = [ET.parse(p).getroot() for p in sorted(tmp_path.glob("s-*.svg"))]
    assert {(r.get("width"), r.get("height")) for r in roots} == {("210.0mm", "297.0mm")}
    groups = [g for r in roots for g in r.iter(f"{SVG}g")]
    assert {g.get("id") for g in groups} == set(payloads.sticker_ids())
    for group in groups:
        rect = group.find(f"{SVG}rect")
        assert rect is not None and (rect.get("width"), rect.get("height")) == ("16.0", "16.0")
        assert float(rect.get("x", 0)) >= 10 and float(rect.get("x", 0)) + 16 <= 200
    names = [t.text for r in roots for t in r.iter(f"{SVG}tspan")]
    assert "Lumber" in " ".join(n or "" for n in names)


def test_the_pdf_is_a4_and_decodes_when_rasterised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "stickers.pdf"
    assert main(["stickers", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote 1 file: {out}\n"
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and b"/Count 3" in data  # 3 pages
    # 210 x 297 mm in points (72 / 25.4 per mm): 595.28 x 841.89
    box = re.search(rb"/MediaBox ?\[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert box is not None
    assert (float(box[1]), float(box[2])) == pytest.approx((595.28, 841.89), abs=0.01)
    # compressed: every page's drawing is a Flate stream, and the names and labels are in it
    found = re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
    streams = [zlib.decompress(m[1]) for m in found
               if b"FlateDecode" in data[max(0, m.start() - 200) : m.start()]]  # fmt: skip
    text = b"".join(streams)
    assert b"(Lumber Yard)" in text and b"(Age I, brown)" in text and b"(Guild, purple)" in text
    assert len(data) < 120_000  # the hand-written writer made 389 KB
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("Ghostscript is not installed: the PDF is not rasterised")
    subprocess.run(
        [
            gs,
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-sDEVICE=pnggray",
            "-r200",
            "-dFirstPage=1",
            "-dLastPage=1",
            f"-sOutputFile={tmp_path / 'p.png'}",
            str(out),
        ],
        check=True,
        timeout=60,
    )
    with Image.open(tmp_path / "p.png") as page:
        found = read_payloads(page)
    first_page = [payloads.payload_for(i) for i in payloads.sticker_ids()[:44]]
    assert found == set(first_page)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "x.doc"], "cannot tell the format of x.doc: use .pdf, .svg, .png or --format"),
        (["--out", "x.pdf", "--size", "2"], "--size 2 mm is outside 5 to 60 mm"),
        (["--out", "/no/such/folder/x.pdf"], "no folder /no/such/folder"),
    ],
)
def test_refusals_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["stickers", *args]) == 2
    assert capsys.readouterr().err == f"stickers: {message}\n"


def test_an_unknown_language_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.pdf"
    assert main(["stickers", "--language", "fr", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "'fr'" in error and "en, nb, sv, da" in error
    assert not out.exists()


def test_each_sticker_has_its_age_and_colour_and_cut_marks(tmp_path: Path) -> None:
    labels = {e.id: e.label for e in stickers.entries()}
    assert labels["lumber_yard"] == "Age I, brown"
    assert labels["sawmill"] == "Age II, brown"
    assert labels["arena"] == "Age III, yellow"
    assert labels["builders_guild"] == "Guild, purple"
    assert labels["the_pyramids"] == "Wonder" and labels["law"] == "Progress token"
    # two marks at each of the 4 corners, 0.4 mm away, 1.2 mm long, along the edges
    marks = stickers.cut_marks(10.0, 20.0, 20.0)
    assert len(marks) == 8
    assert (9.6, 20.0, 8.4, 20.0) in marks  # top-left corner, toward the left
    assert (30.0, 40.4, 30.0, 41.6) in marks  # bottom-right corner, downward
    out = tmp_path / "s.svg"
    assert main(["stickers", "--out", str(out)]) == 0
    root = ET.parse(tmp_path / "s-1.svg").getroot()
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "lumber_yard")
    [cut] = [p for p in group.iter(f"{SVG}path") if p.get("class") == "cut"]
    assert cut.get("d", "").count("M") == 8
    assert "Age I, brown" in [t.text for t in group.iter(f"{SVG}tspan")]
