"""Check-set corpus "workplace": the ordinary documents of a workplace, from public
repositories, in the formats offices use:

    employee-handbook.docx   TTS Handbook (18F / GSA Technology Transformation Services):
                             leave types, going out of office, work schedules
    equipment.html           TTS Handbook: equipment (laptop, phone, peripherals), a web
                             page with site navigation
    travel-faq.html          TTS Handbook: the travel guide's frequently asked questions
    paid-parental-leave.pptx TTS Handbook: paid parental leave as a slide deck, each
                             section a slide, its first sentences on the slide and the rest in
                             the speaker notes
    gifts-and-entertainment-policy.pdf, anti-bribery-statement.pdf
                             GitHub's company policies (github/site-policy)
    minutes/tsc-YYYY-MM-DD.md
                             Node.js Technical Steering Committee meeting minutes (nodejs/TSC),
                             eight meetings, as published (Markdown)

Sources are repository snapshots, bare git directories (HEAD is read) or checkouts:

    python benchmarks/corpora/build_workplace.py [--out DIR] [--source-18f DIR]
        [--source-tsc DIR] [--source-policy DIR]

Defaults: /work/.mirror/{18F+handbook,nodejs+TSC,github+site-policy}/repo, or the folders
named by CITEWISE_SOURCE_18F, CITEWISE_SOURCE_TSC and CITEWISE_SOURCE_POLICY.
"""

from __future__ import annotations

import re
from pathlib import Path

from _markdown_source import markdown_items, read_source
from _writers import Item, Snapshot, build_main, write_docx, write_html, write_pdf, write_pptx

MIRROR = Path("/work/.mirror")
HANDBOOK_PAGES = (
    "pages/travel-and-leave/leave.md",
    "pages/travel-and-leave/going-out-of-office.md",
    "pages/general-information-and-resources/employee-resources-policies/work-schedules.md",
)
EQUIPMENT = "pages/getting-started/equipment.md"
TRAVEL_FAQ = "pages/travel-and-leave/travel-and-leave-policies/travel-guide-faq.md"
PARENTAL_LEAVE = "pages/travel-and-leave/paid-parental-leave.md"
COMPANY_POLICIES = "Policies/github-company-policies/github-"
POLICIES = {
    "gifts-and-entertainment-policy.pdf": f"{COMPANY_POLICIES}gifts-and-entertainment-policy.md",
    "anti-bribery-statement.pdf": f"{COMPANY_POLICIES}anti-bribery-statement.md",
}
MEETINGS = (
    "2025-01-08",
    "2025-07-16",
    "2025-07-23",
    "2025-08-06",
    "2026-01-07",
    "2026-02-11",
    "2026-03-04",
    "2026-04-01",
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_BULLETS_PER_SLIDE = 3


def sections(items: list[Item]) -> list[tuple[str, list[str]]]:
    """Items grouped under their nearest heading: (heading, paragraphs)."""
    out: list[tuple[str, list[str]]] = []
    for kind, text in items:
        if kind.startswith("h"):
            out.append((text, []))
        elif out:
            out[-1][1].append(text)
        else:
            out.append(("", [text]))
    return out


def deck(items: list[Item]) -> list[tuple[str, list[str], str]]:
    """One slide per section with text: the first sentence of its first paragraphs on the
    slide, the rest of those paragraphs and every further paragraph in the speaker notes."""
    slides: list[tuple[str, list[str], str]] = []
    for heading, paragraphs in sections(items):
        if not paragraphs:
            continue
        bullets: list[str] = []
        notes: list[str] = []
        for i, paragraph in enumerate(paragraphs):
            if i < _BULLETS_PER_SLIDE:
                first, *rest = _SENTENCE_END.split(paragraph, maxsplit=1)
                bullets.append(first)
                notes.extend(rest)
            else:
                notes.append(paragraph)
        slides.append((heading, bullets, " ".join(notes)))
    return slides


def build(out: Path, handbook: Path, tsc: Path, policy: Path) -> None:
    pages: list[Item] = []
    for page in HANDBOOK_PAGES:
        pages.extend(markdown_items(read_source(handbook, page)))
    write_docx(out / "employee-handbook.docx", "TTS Handbook: leave and work schedules", pages)
    write_html(
        out / "equipment.html",
        "Equipment | TTS Handbook",
        markdown_items(read_source(handbook, EQUIPMENT)),
        site="TTS Handbook",
    )
    faq = markdown_items(read_source(handbook, TRAVEL_FAQ))
    faq[0] = ("h1", "Travel guide: Frequently Asked Questions")
    write_html(out / "travel-faq.html", "Travel guide FAQ | TTS Handbook", faq, site="TTS Handbook")
    parental = markdown_items(read_source(handbook, PARENTAL_LEAVE))
    write_pptx(out / "paid-parental-leave.pptx", deck(parental))
    for name, source in POLICIES.items():
        items = markdown_items(read_source(policy, source))
        write_pdf(out / name, items[0][1], items)
    minutes = out / "minutes"
    minutes.mkdir()
    for date in MEETINGS:
        text = read_source(tsc, f"meetings/{date}.md")
        (minutes / f"tsc-{date}.md").write_text(text, encoding="utf-8")


def main() -> None:
    build_main("workplace", build, [
        Snapshot("--source-18f", "CITEWISE_SOURCE_18F", MIRROR / "18F+handbook" / "repo"),
        Snapshot("--source-tsc", "CITEWISE_SOURCE_TSC", MIRROR / "nodejs+TSC" / "repo"),
        Snapshot("--source-policy", "CITEWISE_SOURCE_POLICY",
                 MIRROR / "github+site-policy" / "repo"),
    ])  # fmt: skip


if __name__ == "__main__":
    main()
