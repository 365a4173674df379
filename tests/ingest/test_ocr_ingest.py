"""End to end: a scanned PDF (pages that are only pictures) is found by its words, with the
right page, through the keyword and vector indexes."""

from __future__ import annotations

import textwrap
from pathlib import Path

from citewise.assistant import Assistant
from ingest.scans import image_pdf, scanned_page


def _page(topic: str, key_sentence: str) -> list[str]:
    """About 250 words on `topic`, the key sentence in the middle."""
    filler = [
        f"The {topic} survey team walked the shore at first light and wrote down what they saw.",
        f"Each report on the {topic} notes the weather, the tide and the time of the count.",
        f"Later the notes on the {topic} were copied into the yearly ledger by hand.",
    ]
    sentences = filler * 3 + [key_sentence] + filler * 3
    return textwrap.wrap(" ".join(sentences), width=62)


def test_scanned_pdf_is_found_by_its_words_on_the_right_page(tmp_path: Path) -> None:
    docs = tmp_path / "scans"
    docs.mkdir()
    pages = [
        _page("heron", "Herons nest on the northern island every spring."),
        _page("lighthouse", "The lighthouse keeper logs every passing cormorant."),
    ]
    image_pdf(docs / "survey.pdf", [scanned_page(lines, size=30) for lines in pages])
    with Assistant(data_dir=tmp_path / "data", embedder="hashing") as assistant:
        report = assistant.ingest([docs])
        assert [o.status for o in report.outcomes] == ["ingested"]
        for mode in ("keyword", "vector"):
            hit = assistant.search("keeper logs passing cormorant", k=1, mode=mode).hits[0]
            assert (hit.source, hit.page, hit.page_end) == ("survey.pdf", 2, 2), mode
            assert "cormorant" in hit.text
        hit = assistant.search("herons nest northern island", k=1, mode="keyword").hits[0]
        assert (hit.source, hit.page, hit.page_end) == ("survey.pdf", 1, 1)
