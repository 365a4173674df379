"""Check-set corpus "governance": the Debian project's governance and history documents that
Debian's doc-debian package ships in /usr/share/doc/debian, in mixed formats:

    constitution.pdf     Constitution for the Debian Project v1.9 (PDF pages)
    social-contract.pptx Social Contract and DFSG as a slide deck: each clause a slide, its
                         first sentence on the slide, the rest in the speaker notes
    manifesto.docx       The Debian Linux Manifesto (Ian A. Murdock, 1994)
    bug-reporting.html   How to report a bug in Debian (a web page with site navigation)
    mailing-lists.md     Introduction to the Debian mailing lists (Markdown)

    python benchmarks/corpora/build_governance.py [--out DIR]
"""

from __future__ import annotations

import re
from pathlib import Path

from _writers import (
    build_main,
    read_text,
    squash,
    text_items,
    write_docx,
    write_html,
    write_markdown,
    write_pdf,
    write_pptx,
)

SRC = Path("/usr/share/doc/debian")
_CLAUSE = re.compile(r"^\s{3,5}(\d+)\. (.+)$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def contract_slides(text: str) -> list[tuple[str, list[str], str]]:
    """One slide per numbered clause; unnumbered paragraphs go to an "About" slide."""
    parts = re.split(r"\n\s*_{10,}\s*\n", text)
    slides: list[tuple[str, list[str], str]] = []
    intro = [squash(p) for p in re.split(r"\n\s*\n", parts[0]) if p.strip()]
    slides.append(("Debian Social Contract", intro[:1], " ".join(intro[1:])))
    for part in parts[1:]:
        lines = part.strip("\n").split("\n")
        section = squash(lines[0])
        clause: list[str] = []
        title = ""
        tail: list[str] = []

        for line in lines[1:]:
            m = _CLAUSE.match(line)
            if m:
                slides.extend(_clause_slide(section, title, clause))
                title, clause = f"{m.group(1)}. {m.group(2).strip()}", []
            elif title and line.startswith("       "):
                clause.append(line)
            elif line.strip():
                tail.append(line)
            else:
                tail.append("\n")
        slides.extend(_clause_slide(section, title, clause))
        about = [squash(p) for p in re.split(r"\n\s*\n", "\n".join(tail)) if p.strip()]
        if about:
            slides.append((f"About the {section}", about[:1], " ".join(about[1:])))
    return slides


def _clause_slide(section: str, title: str, clause: list[str]) -> list[tuple[str, list[str], str]]:
    """A clause's slide: its first sentence on the slide, the rest in the notes."""
    if not title:
        return []
    body = squash(" ".join(clause))
    first, *rest = _SENTENCE_END.split(body, maxsplit=1)
    return [(f"{section}: {title}", [first], " ".join(rest))]


def build(out: Path) -> None:
    constitution = read_text(SRC / "constitution.txt.gz")
    write_pdf(
        out / "constitution.pdf", "Constitution for the Debian Project", text_items(constitution)
    )
    write_pptx(
        out / "social-contract.pptx", contract_slides(read_text(SRC / "social-contract.txt.gz"))
    )
    manifesto = read_text(SRC / "debian-manifesto.gz")
    write_docx(out / "manifesto.docx", "The Debian Linux Manifesto", text_items(manifesto))
    bugs = read_text(SRC / "bug-reporting.txt.gz")
    write_html(
        out / "bug-reporting.html", "How to report a bug in Debian", text_items(bugs), site="Debian"
    )
    write_markdown(out / "mailing-lists.md", text_items(read_text(SRC / "mailing-lists.txt.gz")))


if __name__ == "__main__":
    build_main("governance", build)
