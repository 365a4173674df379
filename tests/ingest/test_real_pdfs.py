"""Public real-world PDFs from Debian's documentation packages (install.sh installs them)
ingest whole, with their text and highlight positions: a LaTeX manual full of tables and
ligatures (GLPK), a ReportLab-made guide with code, figures and tables, the FHS (Apache
FOP, tables of commands) and a mix of its text pages with one scanned page (OCR)."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from ingest.scans import image_pdf

pytestmark = pytest.mark.slow

GLPK = Path("/usr/share/doc/glpk-doc/glpk.pdf")  # glpk-doc
REPORTLAB = Path("/usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf")
FHS = Path("/usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz")  # debian-policy
MIX_TEXT_PAGES = [10, 11]  # FHS pages kept as text (0-based): "3.2. Requirements", "/bin"
MIX_SCANNED_PAGE = 12  # and the FHS page rendered to a picture: the rest of /bin's commands


@dataclass(frozen=True)
class Ingested:
    assistant: Assistant
    outcomes: dict[str, str]


def _mix(fhs: Path, out: Path) -> Path:
    """Two FHS text pages followed by a third one as a 200 dpi picture (no text layer)."""
    src = pdfium.PdfDocument(str(fhs))
    picture = src[MIX_SCANNED_PAGE].render(scale=200 / 72).to_pil().convert("L")
    scanned = image_pdf(out.with_suffix(".scan.pdf"), [picture])
    mix = pdfium.PdfDocument.new()
    mix.import_pages(src, MIX_TEXT_PAGES)
    mix.import_pages(pdfium.PdfDocument(str(scanned)))
    mix.save(str(out))
    scanned.unlink()
    return out


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ingested]:
    missing = [p for p in (GLPK, REPORTLAB, FHS) if not p.exists()]
    if missing:
        pytest.skip(f"not installed (install.sh installs them): {missing}")
    docs = tmp_path_factory.mktemp("real") / "docs"
    docs.mkdir()
    shutil.copy(GLPK, docs / GLPK.name)
    shutil.copy(REPORTLAB, docs / REPORTLAB.name)
    fhs = docs / "fhs-3.0.pdf"
    fhs.write_bytes(gzip.decompress(FHS.read_bytes()))
    _mix(fhs, docs / "fhs-scanned-mix.pdf")
    with Assistant(data_dir=docs.parent / "data", embedder="hashing") as assistant:
        report = assistant.ingest([docs])
        yield Ingested(assistant, {o.source: o.status for o in report.outcomes})


def test_every_real_pdf_ingests(ingested: Ingested) -> None:
    assert ingested.outcomes == {
        "glpk.pdf": "ingested", "reportlab-userguide.pdf": "ingested",
        "fhs-3.0.pdf": "ingested", "fhs-scanned-mix.pdf": "ingested",
    }  # fmt: skip


@pytest.mark.parametrize("source", ["glpk.pdf", "reportlab-userguide.pdf", "fhs-3.0.pdf"])
def test_nearly_every_chunk_of_a_text_pdf_gets_highlight_boxes(
    ingested: Ingested, source: str
) -> None:
    a = ingested.assistant
    (doc,) = [d for d in a.documents() if d.source == source]
    chunks = inside(a).store.document_chunks(doc.doc_id)
    boxed = [c for c in chunks if c.boxes]
    assert len(chunks) > 20 and len(boxed) >= 0.95 * len(chunks)
    for c in boxed:  # every box on one of the chunk's pages, inside the page
        assert all(c.page_start <= b.page <= (c.page_end or c.page_start) for b in c.boxes)
        assert all(0 <= b.x0 <= b.x1 <= 1000 and 0 <= b.y0 <= b.y1 <= 1000 for b in c.boxes)


@pytest.mark.parametrize(
    ("query", "source", "page"),
    [
        ("glp_set_col_bnds sets changes type bounds column structural variable", "glpk.pdf", 21),
        ("setCharSpace adjusts inter-character spacing", "reportlab-userguide.pdf", 31),
        ("bin Essential command binaries boot Static files of the boot loader", "fhs-3.0.pdf", 11),
    ],
)
def test_a_table_or_code_passage_is_found_on_its_page(
    ingested: Ingested, query: str, source: str, page: int
) -> None:
    hits = ingested.assistant.search(query, k=5, mode="keyword").hits
    assert any(h.source == source and h.page <= page <= (h.page_end or h.page) for h in hits)


def test_the_scanned_page_of_a_mix_is_read_and_its_text_pages_keep_their_boxes(
    ingested: Ingested,
) -> None:
    a = ingested.assistant
    (doc,) = [d for d in a.documents() if d.source == "fhs-scanned-mix.pdf"]
    chunks = inside(a).store.document_chunks(doc.doc_id)
    assert any(c.boxes for c in chunks if c.page_start == 1)
    hits = a.search("stty change print terminal line settings", k=5, mode="keyword").hits
    assert any(h.source == "fhs-scanned-mix.pdf" and (h.page_end or h.page) == 3 for h in hits)
