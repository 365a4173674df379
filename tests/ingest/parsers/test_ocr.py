"""OCR of scanned pages: image-only PDFs, image files and DOCX files of pictures are read
with page numbers, a confidence per page and word boxes; text layers are never OCR'd."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import ConfigError, CorruptDocumentError, NoTextError, UnsupportedFormatError
from citewise.ingest.parsers import parse_file
from citewise.ingest.parsers.ocr import get_engine, parse_tesseract_tsv
from ingest.scans import image_pdf, mixed_pdf, picture_docx, scanned_page

PAGE_ONE = ["Herons nest on the northern island.", "Volunteers counted 412 nests."]
PAGE_TWO = ["The estuary feeding routes shift with the", "autumn tides, as the survey shows."]


def _words(text: str) -> set[str]:
    return {w.strip(".,").lower() for w in text.split()}


def test_scanned_pdf_is_read_with_pages_confidence_and_word_boxes(tmp_path: Path) -> None:
    pdf = image_pdf(tmp_path / "scan.pdf", [scanned_page(PAGE_ONE), scanned_page(PAGE_TWO)])
    parsed = parse_file(pdf, ocr="tesseract")
    by_page = {p: " ".join(b.text for b in parsed.blocks if b.page == p) for p in (1, 2)}
    assert {"herons", "northern", "412"} <= _words(by_page[1])
    assert {"estuary", "autumn", "tides"} <= _words(by_page[2])
    assert [(r.page, r.engine) for r in parsed.ocr] == [(1, "tesseract"), (2, "tesseract")]
    assert all(0.8 < r.confidence <= 1 for r in parsed.ocr)
    heron = next(w for w in parsed.ocr[0].words if w.text == "Herons")
    # drawn at x = 140 px of a 200 dpi page: 50.4 pt from the left, near the top
    assert heron.unit == "pt" and heron.page == 1
    assert 45 < heron.x0 < 56 and heron.x0 < heron.x1 and 40 < heron.y0 < heron.y1 < 90


def test_a_page_with_a_text_layer_is_never_ocrd(tmp_path: Path) -> None:
    pdf = mixed_pdf(
        tmp_path / "mixed.pdf", ["Typed page about kingfishers."], scanned_page(PAGE_TWO)
    )
    parsed = parse_file(pdf, ocr="tesseract")
    assert [r.page for r in parsed.ocr] == [2]
    assert [b.page for b in parsed.blocks if "kingfishers" in b.text] == [1]
    assert any("estuary" in b.text and b.page == 2 for b in parsed.blocks)


def test_scanned_pdf_with_ocr_off_says_how_to_turn_it_on(tmp_path: Path) -> None:
    pdf = image_pdf(tmp_path / "scan.pdf", [scanned_page(PAGE_ONE)])
    with pytest.raises(NoTextError, match="CITEWISE_OCR"):
        parse_file(pdf, ocr="none")


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".tiff"])
def test_image_files_are_read_by_ocr(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"note{suffix}"
    scanned_page(PAGE_ONE).save(path)
    parsed = parse_file(path, ocr="tesseract")
    assert parsed.format == "image" and parsed.page_count == 1
    assert {"herons", "volunteers"} <= _words(" ".join(b.text for b in parsed.blocks))
    assert parsed.ocr[0].words[0].unit == "px" and parsed.ocr[0].page == 1


def test_multipage_tiff_keeps_page_numbers(tmp_path: Path) -> None:
    path = tmp_path / "fax.tiff"
    first, second = scanned_page(PAGE_ONE), scanned_page(PAGE_TWO)
    first.save(path, save_all=True, append_images=[second])
    parsed = parse_file(path, ocr="tesseract")
    assert [b.page for b in parsed.blocks if "estuary" in b.text] == [2]


def test_docx_made_of_pictures_is_read_by_ocr(tmp_path: Path) -> None:
    path = picture_docx(tmp_path / "pasted.docx", [scanned_page(PAGE_ONE)])
    parsed = parse_file(path, ocr="tesseract")
    assert {"herons", "412"} <= _words(" ".join(b.text for b in parsed.blocks))
    assert parsed.ocr and parsed.ocr[0].page is None


def test_image_with_ocr_off_is_refused_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "note.png"
    scanned_page(PAGE_ONE).save(path)
    with pytest.raises(UnsupportedFormatError, match="OCR, which is off"):
        parse_file(path, ocr="none")


def test_text_named_png_is_not_an_image(tmp_path: Path) -> None:
    path = tmp_path / "fake.png"
    path.write_text("just words\n", encoding="utf-8")
    with pytest.raises(CorruptDocumentError, match="not a PNG, JPEG or TIFF"):
        parse_file(path)


def test_unknown_engine_lists_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match="rapidocr, tesseract, none"):
        get_engine("abbyy")


def test_tesseract_tsv_words_group_into_lines() -> None:
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\t…\ttext"
    rows = [
        "5\t1\t1\t1\t1\t1\t10\t20\t30\t12\t96.5\tHello",
        "5\t1\t1\t1\t1\t2\t45\t20\t40\t12\t90.5\tworld",
        "5\t1\t1\t1\t2\t1\t10\t40\t30\t12\t-1\t ",
        "5\t1\t1\t2\t1\t1\t10\t60\t50\t12\t80\tAgain",
    ]
    result = parse_tesseract_tsv("\n".join([header, *rows]))
    assert [line.text for line in result.lines] == ["Hello world", "Again"]
    assert result.lines[0].x1 == 85 and round(result.confidence, 3) == 0.89


@pytest.mark.slow
def test_rapidocr_reads_a_scanned_pdf_too(tmp_path: Path) -> None:
    pdf = image_pdf(tmp_path / "scan.pdf", [scanned_page(PAGE_ONE)])
    parsed = parse_file(pdf, ocr="rapidocr")
    assert {"herons", "northern"} <= _words(" ".join(b.text for b in parsed.blocks))
    assert parsed.ocr[0].engine == "rapidocr" and parsed.ocr[0].words
