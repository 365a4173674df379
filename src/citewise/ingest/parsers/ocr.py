"""OCR engines behind one small protocol: Debian's tesseract (the binary, TSV output) and
rapidocr (PP-OCR models inside its wheel). `get_engine("none")` turns OCR off.

An engine reads one image and returns its text lines and words with pixel boxes and a
confidence; `page_lines` turns them into the layout lines the PDF rules already group into
paragraphs, and `word_boxes` into highlight rectangles."""

from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from citewise.errors import ConfigError, CorruptDocumentError, UnsupportedFormatError
from citewise.ingest.parsers._pdf_layout import Line
from citewise.types import Box, OcrPage

if TYPE_CHECKING:
    from PIL.Image import Image

MAX_PIXELS = 25_000_000  # an image larger than this is scaled down before OCR
TESSERACT_TIMEOUT = 180.0
_FONT_PER_BOX = 0.8  # a line box is about this much taller than its font size


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float  # pixels from the top-left corner
    confidence: float  # 0-1


@dataclass(frozen=True, slots=True)
class OcrResult:
    lines: tuple[OcrWord, ...]  # whole lines, in reading order
    words: tuple[OcrWord, ...]

    @property
    def confidence(self) -> float:
        scored = self.words or self.lines
        return sum(w.confidence for w in scored) / len(scored) if scored else 0.0


class OcrEngine(Protocol):
    name: str

    def read(self, image: Image) -> OcrResult: ...


class TesseractEngine:
    """The tesseract binary (`tesseract-ocr` from apt), one process per page, TSV output."""

    name = "tesseract"

    def __init__(self, language: str = "eng") -> None:
        binary = shutil.which("tesseract")
        if binary is None:
            raise UnsupportedFormatError(
                "OCR needs the tesseract program (apt-get install tesseract-ocr), "
                "or set CITEWISE_OCR=rapidocr"
            )
        self._command = [binary, "stdin", "stdout", "-l", language, "--psm", "3", "tsv"]

    def read(self, image: Image) -> OcrResult:
        png = io.BytesIO()
        image.save(png, format="PNG")
        try:
            run = subprocess.run(
                self._command,
                input=png.getvalue(),
                capture_output=True,
                timeout=TESSERACT_TIMEOUT,
                check=False,
                # its OpenMP threads only contend with the embedder for the same cores
                env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            )
        except subprocess.TimeoutExpired as exc:
            raise CorruptDocumentError("OCR took too long on one page (tesseract)") from exc
        if run.returncode != 0:
            message = run.stderr.decode("utf-8", "replace").strip().splitlines()
            raise CorruptDocumentError(f"tesseract failed: {message[-1] if message else '?'}")
        return parse_tesseract_tsv(run.stdout.decode("utf-8", "replace"))


def parse_tesseract_tsv(tsv: str) -> OcrResult:
    """Words (level 5 rows) with their boxes; lines are the words sharing block, paragraph
    and line numbers, in the order tesseract reads them."""
    words: list[OcrWord] = []
    grouped: dict[tuple[str, str, str], list[OcrWord]] = {}
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, width, height = (float(c) for c in cells[6:10])
        word = OcrWord(
            cells[11].strip(), left, top, left + width, top + height, max(float(cells[10]), 0) / 100
        )
        words.append(word)
        grouped.setdefault((cells[2], cells[3], cells[4]), []).append(word)
    lines = tuple(_joined(group) for group in grouped.values())
    return OcrResult(lines, tuple(words))


def _joined(words: Sequence[OcrWord]) -> OcrWord:
    return OcrWord(
        " ".join(w.text for w in words),
        min(w.x0 for w in words),
        min(w.y0 for w in words),
        max(w.x1 for w in words),
        max(w.y1 for w in words),
        sum(w.confidence for w in words) / len(words),
    )


class RapidOcrEngine:
    """rapidocr with the PP-OCR detection/recognition models its wheel ships."""

    name = "rapidocr"

    def __init__(self) -> None:
        from rapidocr import RapidOCR

        self._engine: Any = RapidOCR(params={"Global.log_level": "error"})

    def read(self, image: Image) -> OcrResult:
        import numpy as np

        output: Any = self._engine(np.asarray(image.convert("RGB")), return_word_box=True)
        if not output.txts:
            return OcrResult((), ())
        lines: list[OcrWord] = []
        words: list[OcrWord] = []
        for i, (text, score, box) in enumerate(
            zip(output.txts, output.scores, output.boxes, strict=True)
        ):
            lines.append(_boxed(text, float(score), box))
            line_words = output.word_results[i] if i < len(output.word_results) else ()
            words.extend(_boxed(w, float(s), b) for w, s, b in line_words if b is not None and w)
        return OcrResult(tuple(lines), tuple(words))


def _boxed(text: str, score: float, corners: Any) -> OcrWord:
    xs = [float(p[0]) for p in corners]
    ys = [float(p[1]) for p in corners]
    return OcrWord(str(text).strip(), min(xs), min(ys), max(xs), max(ys), score)


ENGINES: dict[str, Callable[[], OcrEngine]] = {
    "tesseract": TesseractEngine,
    "rapidocr": RapidOcrEngine,
}
OcrChoice = Literal["tesseract", "rapidocr", "none"]


@functools.cache
def get_engine(name: str) -> OcrEngine | None:
    """The engine registered under `name` (built once per process), None for "none"."""
    if name == "none":
        return None
    try:
        factory = ENGINES[name]
    except KeyError:
        valid = ", ".join([*sorted(ENGINES), "none"])
        raise ConfigError(f"unknown OCR engine {name!r}; valid engines: {valid}") from None
    return factory()


def bounded(image: Image) -> tuple[Image, float]:
    """The image scaled down to at most MAX_PIXELS, and the factor applied."""
    pixels = image.width * image.height
    if pixels <= MAX_PIXELS:
        return image, 1.0
    factor = (MAX_PIXELS / pixels) ** 0.5
    size = (max(1, int(image.width * factor)), max(1, int(image.height * factor)))
    return image.resize(size), factor


def page_lines(result: OcrResult, per_unit: float, height: float) -> list[Line]:
    """OCR lines as layout lines in the page's unit (`per_unit` pixels each) with y growing
    upwards from the bottom, like pdfium's, so the PDF paragraph rules apply unchanged."""
    out: list[Line] = []
    for line in result.lines:
        if not line.text:
            continue
        top, bottom = height - line.y0 / per_unit, height - line.y1 / per_unit
        size = (line.y1 - line.y0) / per_unit * _FONT_PER_BOX
        out.append(Line(line.text, top, bottom, line.x0 / per_unit, line.x1 / per_unit, size))
    return out


def ocr_page(
    result: OcrResult,
    engine: str,
    page: int | None,
    per_unit: float,
    unit: Literal["pt", "px"],
) -> OcrPage:
    """The page's confidence and word rectangles (top-left origin, in `unit`)."""
    words = tuple(
        Box(page, w.x0 / per_unit, w.y0 / per_unit, w.x1 / per_unit, w.y1 / per_unit, unit, w.text)
        for w in result.words
    )
    return OcrPage(page, engine, round(result.confidence, 4), words)
