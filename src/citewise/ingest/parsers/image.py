"""Image parser (PNG, JPEG, TIFF): each image or TIFF frame is one page read by OCR, its
lines grouped into paragraphs by the PDF layout rules. Also reads the images of a DOCX
that holds no text."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator

from PIL import Image, ImageSequence, UnidentifiedImageError

from citewise.errors import CorruptDocumentError, TooLargeError, UnsupportedFormatError
from citewise.ingest.parsers._common import finish, stem
from citewise.ingest.parsers._pdf_layout import paragraphs
from citewise.ingest.parsers.ocr import OcrEngine, bounded, get_engine, ocr_page, page_lines
from citewise.types import Block, OcrPage, ParsedDocument

NO_TEXT = "OCR found no text in the image"
MAX_DECODE_PIXELS = 80_000_000  # refused before decoding: a decompression bomb
MAX_FRAMES = 1000


def engine_or_refuse(ocr: str, what: str) -> OcrEngine:
    engine = get_engine(ocr)
    if engine is None:
        raise UnsupportedFormatError(
            f"{what} can only be read by OCR, which is off (set CITEWISE_OCR=tesseract "
            "or CITEWISE_OCR=rapidocr)"
        )
    return engine


def open_image(data: bytes) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        raise TooLargeError(f"the image is too large to decode ({exc})") from exc
    except (UnidentifiedImageError, OSError) as exc:
        raise CorruptDocumentError(f"the image cannot be read ({exc})") from exc
    if image.width * image.height > MAX_DECODE_PIXELS:
        raise TooLargeError(
            f"the image is {image.width} x {image.height} pixels, over the limit of "
            f"{MAX_DECODE_PIXELS // 1_000_000} million"
        )
    return image


def read_image(
    image: Image.Image, engine: OcrEngine, page: int | None
) -> tuple[list[Block], OcrPage]:
    """One image's paragraphs (as blocks on `page`) and its OCR record (pixel boxes)."""
    try:
        image.load()
        scaled, factor = bounded(image)
        scaled = scaled.convert("RGB")
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise CorruptDocumentError(f"the image cannot be decoded ({exc})") from exc
    result = engine.read(scaled)
    lines = page_lines(result, factor, float(image.height))
    blocks = [Block(p.text, (), page, "text") for p in paragraphs(lines) if p.text]
    return blocks, ocr_page(result, engine.name, page, factor, "px")


def _frames(image: Image.Image) -> Iterator[Image.Image]:
    for number, frame in enumerate(ImageSequence.Iterator(image), start=1):
        if number > MAX_FRAMES:
            raise TooLargeError(f"the image has more than {MAX_FRAMES} pages")
        yield frame


def parse_image(data: bytes, name: str, ocr: str = "tesseract") -> ParsedDocument:
    engine = engine_or_refuse(ocr, "an image")
    image = open_image(data)
    blocks: list[Block] = []
    pages: list[OcrPage] = []
    for number, frame in enumerate(_frames(image), start=1):
        frame_blocks, record = read_image(frame, engine, number)
        blocks.extend(frame_blocks)
        pages.append(record)
    return finish(
        title=stem(name),
        blocks=blocks,
        fmt="image",
        no_text=NO_TEXT,
        page_count=len(pages),
        ocr=pages,
    )
