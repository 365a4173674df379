"""The documents the browser tests upload, made at run time: a three-page PDF whose second
page holds the fact asked about, and a DOCX."""

from __future__ import annotations

from pathlib import Path

from docx import Document
from reportlab.pdfgen import canvas

HATCH_FACT = "Grey heron eggs hatch after twenty-five days of incubation by both parents."
PDF_PAGES = [
    [
        "Herons are long-legged wading birds found along rivers, lakes and coasts.",
        "They stand motionless in shallow water and wait for passing fish.",
    ],
    [
        "Breeding starts in late winter when the colonies are rebuilt.",
        "A clutch holds three to five pale blue eggs laid two days apart.",
        HATCH_FACT,
        "The chicks leave the nest about seven weeks after hatching.",
    ],
    [
        "Outside the breeding season herons roost alone or in small groups.",
        "Cold winters with frozen ponds are the main cause of losses.",
    ],
]
EGRET_INTRO = [  # page 1: its second line shares words with the plume sentence of page 2
    "Little egrets feed in shallow lagoons and salt pans along warm coasts.",
    "Drainage of the marshes and the hunting of breeding colonies nearly drove the bittern away.",
    "The plume trade",
]
EGRET_LINES = [  # page 2: the plume sentence runs over three lines
    "In spring the adults grow two long white plumes on the nape, plumes that",
    "were once so prized by milliners in Paris and London that the hunting of",
    "breeding colonies nearly drove the little egret to extinction in Europe.",
    "Today the species is protected and has spread north to Britain again.",
]
EGRET_QUOTE_WORDS = ["plumes that", "milliners", "drove the little"]
LONG_NAME = "annual_report_of_the_grey_heron_conservation_society_twenty_twenty_five.md"
OSPREY_FACT = "Ospreys dive feet first and carry a fish head forward to reduce drag."
DOCX_FACT = "The common kingfisher digs a nesting tunnel up to one metre long in a sandy riverbank."


def heron_pdf(path: Path) -> Path:
    c = canvas.Canvas(str(path))
    c.setTitle("Heron Field Guide")
    for number, lines in enumerate(PDF_PAGES, start=1):
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, 770, f"Chapter {number}")
        c.setFont("Helvetica", 11)
        y = 730
        for line in lines:
            c.drawString(72, y, line)
            y -= 16
        c.showPage()
    c.save()
    return path


def kingfisher_docx(path: Path) -> Path:
    doc = Document()
    doc.add_heading("Kingfisher Notes", level=1)
    doc.add_paragraph("Kingfishers hunt from low perches over clear, slow water.")
    doc.add_heading("Nesting", level=2)
    doc.add_paragraph(DOCX_FACT + " Both birds take turns digging.")
    doc.save(str(path))
    return path


def too_large(path: Path, size: int) -> Path:
    path.write_text(("Padding text for a file that is over the upload limit. " * 20 + "\n")
                    * (size // 1100 + 1))  # fmt: skip
    return path


def egret_pdf(path: Path) -> Path:
    """Two pages that one chunk spans: EGRET_INTRO, then EGRET_LINES."""
    c = canvas.Canvas(str(path))
    c.setTitle("Egret Notes")
    for lines in (EGRET_INTRO, EGRET_LINES):
        c.setFont("Helvetica", 11)
        for i, line in enumerate(lines):
            c.drawString(72, 730 - 16 * i, line)
        c.showPage()
    c.save()
    return path


def long_named_notes(folder: Path) -> Path:
    path = folder / LONG_NAME
    path.write_text("# Society report\n\nThe society counted two hundred nests this year.\n")
    return path


def osprey_notes(path: Path) -> Path:
    path.write_text(f"# Ospreys\n\n{OSPREY_FACT} They nest on tall dead trees near lakes.\n")
    return path
