"""How well ingest-time PDF positions land, on a PDF made here from the README's prose
(reportlab Platypus: wrapped, justified paragraphs, headings, page breaks).

    .venv/bin/python benchmarks/experiments/pdf_positions.py

Prints: chunks with boxes; of every sentence (>= 20 letters) used as a quote, how many have
their first marked line holding the quote's first two words (pdfium's text inside the
rectangle), and how many are marked with fewer lines than their chunk; and what positions
cost beside parsing.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

import pypdfium2 as pdfium
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate

from citewise.embed.hashing import HashingEmbedder
from citewise.ingest.chunking import ChunkingOptions, chunk_document
from citewise.ingest.parsers import parse_file
from citewise.ingest.pdf_positions import chunk_line_boxes
from citewise.text.sentences import split_sentences
from citewise.types.positions import alnum_index, boxes_for_quote

ROOT = Path(__file__).resolve().parents[2]


def make_pdf(path: Path) -> None:
    styles = getSampleStyleSheet()
    body = styles["BodyText"]
    body.alignment = 4  # justified: uneven spacing, as in typeset documents
    flow = []
    for block in re.split(r"\n\s*\n", (ROOT / "README.md").read_text(encoding="utf-8")):
        text = " ".join(block.split())
        if not text or text.startswith(("```", "|", "    ")):
            continue
        if text.startswith("#"):
            flow.append(Paragraph(escape(text.lstrip("# ")), styles["Heading2"]))
        else:
            flow.append(Paragraph(escape(re.sub(r"[`*_]", "", text)), body))
    SimpleDocTemplate(str(path)).build(flow)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "readme.pdf"
        make_pdf(pdf)
        started = time.perf_counter()
        parsed = parse_file(pdf)
        chunks = chunk_document(parsed, HashingEmbedder().count_tokens, ChunkingOptions())
        parse_s = time.perf_counter() - started
        started = time.perf_counter()
        boxes = chunk_line_boxes(pdf, chunks.children)
        boxes_s = time.perf_counter() - started
        doc = pdfium.PdfDocument(str(pdf))
        pages = {}
        quotes = own = landed = 0
        for child, found in zip(chunks.children, boxes, strict=True):
            for sentence in split_sentences(child.text):
                if len(alnum_index(sentence)[0]) < 20:
                    continue
                quotes += 1
                kept = boxes_for_quote(found, child.text, sentence)
                if not kept:
                    continue
                own += len(kept) < len(found)
                first = kept[0]
                if first.page not in pages:
                    pages[first.page] = doc[first.page - 1].get_textpage()
                inside = pages[first.page].get_text_bounded(first.x0, first.y0, first.x1, first.y1)
                head = alnum_index(" ".join(sentence.split()[:2]))[0]
                landed += head in alnum_index(inside)[0]
        with_boxes = sum(1 for b in boxes if b)
        print(f"pages {len(doc)}, chunks {len(boxes)}, with boxes {with_boxes}")
        print(f"quotes {quotes}: first marked line holds the quote's opening {landed};"
              f" fewer lines than the chunk's {own}")  # fmt: skip
        print(f"parse+chunk {parse_s:.2f} s, positions {boxes_s:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
