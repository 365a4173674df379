"""Scanned pages made at run time: text drawn into images (no text layer), as PNG/JPEG/TIFF
files, image-only PDFs and DOCX files of pictures (shared with
benchmarks/experiments/ocr_compare.py)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import docx
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
A4_AT_200_DPI = (1654, 2339)


def scanned_page(
    lines: Sequence[str],
    *,
    font: str = "DejaVuSerif.ttf",
    size: int = 36,
    skew: float = 0.0,
    noise: int = 0,
    blur: float = 0.0,
    jpeg: int = 0,
    page: tuple[int, int] = A4_AT_200_DPI,
) -> Image.Image:
    """A white page with `lines` set in `font`, optionally rotated by `skew` degrees,
    speckled with `noise` random dark dots (seeded: the same page every time), blurred by a
    Gaussian of radius `blur` and saved once as a JPEG of quality `jpeg`."""
    import random

    from PIL import ImageFilter

    image = Image.new("L", page, 255)
    draw = ImageDraw.Draw(image)
    face = ImageFont.truetype(str(FONT_DIR / font), size)
    y = 160
    for line in lines:
        if line:
            draw.text((140, y), line, font=face, fill=0)
        y += int(size * 1.6)
    rng = random.Random(7)
    for _ in range(noise):
        draw.point((rng.randrange(page[0]), rng.randrange(page[1])), fill=rng.randrange(90))
    if skew:
        image = image.rotate(skew, expand=False, fillcolor=255, resample=Image.Resampling.BICUBIC)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    if jpeg:
        lossy = io.BytesIO()
        image.save(lossy, format="JPEG", quality=jpeg)
        image = Image.open(io.BytesIO(lossy.getvalue())).convert("L")
    return image


def image_pdf(path: Path, pages: Sequence[Image.Image]) -> Path:
    """A PDF whose pages are only pictures, as a scanner writes them."""
    first, *rest = [p.convert("RGB") for p in pages]
    first.save(path, format="PDF", save_all=True, append_images=rest, resolution=200.0)
    return path


def mixed_pdf(path: Path, text_lines: Sequence[str], scan: Image.Image) -> Path:
    """Page 1 has a text layer, page 2 is a scanned picture."""
    c = canvas.Canvas(str(path))
    c.setFont("Helvetica", 12)
    for i, line in enumerate(text_lines):
        c.drawString(72, 760 - 16 * i, line)
    c.showPage()
    png = io.BytesIO()
    scan.save(png, format="PNG")
    c.drawImage(ImageReader(io.BytesIO(png.getvalue())), 0, 0, 595, 842)
    c.showPage()
    c.save()
    return path


def picture_docx(path: Path, pictures: Sequence[Image.Image]) -> Path:
    """A DOCX whose body is only pictures (scans pasted into Word)."""
    from docx.shared import Inches

    document = docx.Document()
    for picture in pictures:
        png = io.BytesIO()
        picture.save(png, format="PNG")
        png.seek(0)
        document.add_picture(png, width=Inches(6))
    document.save(str(path))
    return path
