"""What a document says about itself, read from its title, file name and first page (pure):
the name words it is about, the years of the period it covers and its kind of report.

A report's cover says "For the fiscal year ended December 31, 2018", "quarterly period ended
June 30, 2023", "Fourth Quarter and Fiscal 2023 Results" or "Annual Report 2019"; its name
stands in capitals or title case ("3M COMPANY", "Amcor plc"). Name words are kept as they are
found: which of them tell documents apart is decided at query time, by how rare each is among
a collection's documents (`retrieve.named_documents`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from typing import Protocol

from citewise.question.periods import MONTH_NAMES, MONTHS, PERIOD_WORD
from citewise.store.base import Store
from citewise.text.aliases import aliases
from citewise.types import DocumentFields, DocumentInfo

# words read from the first page: enough for a cover page or a title block
FIRST_WORDS = 400
# words read for aliases: past a cover page and a table of contents to the preamble
OPENING_WORDS = 3000
MAX_NAMES = 80
_YEAR = r"((?:19|20)\d\d)"
_DATE = rf"(?:(?:{'|'.join(MONTHS)})[a-z]*\.?\s+\d{{1,2}},?\s+)?{_YEAR}"
_PERIOD_YEARS = (
    # "fiscal year ended December 31, 2018", "quarterly period ended June 30, 2023"
    re.compile(
        rf"\b(?:year|quarter|period|months|weeks)\s+(?:ended|ending)\s+(?:on\s+)?{_DATE}", re.I
    ),
    # "fiscal 2023", "fiscal year 2023", "FY2023", "FY 2023"
    re.compile(rf"\b(?:fiscal(?:\s+year)?|FY)\s*{_YEAR}\b", re.I),
    # "fourth quarter 2023", "Q4 2023", "Q4 FY2023", "annual report 2019"
    re.compile(
        r"\b(?:quarter|Q[1-4]|annual\s+report|results)\s+(?:of\s+)?(?:fiscal\s+|FY\s*)?"
        rf"{_YEAR}\b",
        re.I,
    ),
    # "Date of Report (Date of earliest event reported): May 5, 2023"
    re.compile(rf"\bdate\s+of\s+report\b[^:]{{0,60}}:\s*{_DATE}", re.I),
)  # fmt: skip
_STEM_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?)(?![\w.])")
_KINDS = (
    # a filing's cover lists the other kinds as unticked boxes ("☐ QUARTERLY REPORT …"):
    # the period it states decides
    ("annual", re.compile(
        r"\byear\s+ended\b|\bannual\s+report\s+\d{4}|\b10-?K\b|\bfull[- ]year\b", re.I
    )),
    ("quarterly", re.compile(
        r"\bquarterly\s+period\s+ended\b|\b(?:quarter|three\s+months)\s+ended\b|\b10-?Q\b"
        r"|\b(?:first|second|third|fourth)\s+quarter\b|\d{4}\s*Q[1-4]\b|\bQ[1-4]\b",
        re.I,
    )),
    ("current report", re.compile(r"\bcurrent\s+report\b|\b8-?K\b", re.I)),
    ("results release", re.compile(r"\bearnings\b|\breports?\s+(?:\w+\s+){0,4}results\b", re.I)),
)  # fmt: skip
_FORM = re.compile(r"\bform\s+(\d{1,2}-[A-Z]{1,2})\b", re.I)
# a capitalised or upper-case word, or one mixing digits and capitals ("3M")
_NAME_WORD = re.compile(r"\b(?:[A-Z][\w&'-]*[A-Za-z0-9]|\d+[A-Z][A-Za-z]*)\b")
_STEM_WORD = re.compile(r"[^\W_]+")
_SMALL = frozenset((
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "is", "it", "of", "on", "or",
    "the", "to", "with", "form", "page", "table", "contents", "inc", "co", "corp", "ltd",
    "llc", "plc", "company", "corporation", "group", "holdings", "report", "annual",
    "quarterly", "pursuant", "section", "act", "securities", "exchange", "commission",
    "washington", "united", "states", "yes", "no", "none", "fiscal", "year", "ended",
    "period", "quarter",
))  # fmt: skip


def describe(title: str, source: str, first_page: str, preamble: str = "") -> DocumentFields:
    """The fields of a document titled `title`, stored as `source`, whose first page reads
    `first_page` (empty for formats without pages: its opening text); its aliases are read
    from `preamble` (its first pages: parties are defined in the preamble), else the first
    page."""
    stem = PurePosixPath(source).stem.replace("_", " ")
    opening = " ".join(first_page.split()[:FIRST_WORDS])
    cover = f"{title}\n{stem}\n{opening}"
    found = tuple((a.name, a.term) for a in aliases(preamble or first_page))
    # the parties' names and abbreviations name the document even past its first page
    named = [
        w for name, term in found for w in (*_NAME_WORD.findall(name), term) if w[:1].isupper()
    ]
    return DocumentFields(
        names=_names(_STEM_WORD.findall(f"{stem} {title}")),
        cover_names=tuple(dict.fromkeys(_names(_NAME_WORD.findall(opening)) + _names(named))),
        years=_years(cover, stem),
        kinds=_kinds(cover),
        versions=tuple(dict.fromkeys(_VERSION.findall(f"{title} {stem}"))),
        aliases=found,
    )


class PagedText(Protocol):
    @property
    def page_start(self) -> int | None: ...

    @property
    def text(self) -> str: ...


def first_page_text(chunks: Sequence[PagedText]) -> str:
    """The text of a document's first page from its chunks in reading order (its opening
    chunks when it has no pages)."""
    first = next((c.page_start for c in chunks if c.page_start is not None), None)
    parts: list[str] = []
    words = 0
    for chunk in chunks:
        if first is not None and chunk.page_start not in (None, first):
            break
        parts.append(chunk.text)
        words += len(chunk.text.split())
        if words >= FIRST_WORDS:
            break
    return "\n".join(parts)


def opening_text(chunks: Sequence[PagedText], words: int = OPENING_WORDS) -> str:
    """The text of a document's first chunks, up to `words` words: where its parties and
    abbreviations are defined."""
    parts: list[str] = []
    count = 0
    for chunk in chunks:
        parts.append(chunk.text)
        count += len(chunk.text.split())
        if count >= words:
            break
    return "\n".join(parts)


def describe_stored(store: Store, doc: DocumentInfo) -> DocumentFields:
    """Describes a document stored before documents were described, from its stored
    chunks (no re-parse), and stores the fields."""
    chunks = store.document_chunks(doc.doc_id)
    fields = describe(doc.title, doc.source, first_page_text(chunks), opening_text(chunks))
    store.describe_document(doc.doc_id, fields)
    return fields


def _names(raw: Iterable[str]) -> tuple[str, ...]:
    """Name words, a hyphenated one also as its parts and joined ("coca-cola": "coca",
    "cola", "cocacola")."""
    found: list[str] = []
    for word in raw:
        parts = word.split("-")
        found += _words([word, *parts, "".join(parts)] if len(parts) > 1 else [word])
    return tuple(dict.fromkeys(found))[:MAX_NAMES]


def _words(raw: Iterable[str]) -> list[str]:
    out: list[str] = []
    for word in raw:
        w = word.lower().removesuffix("'s").strip("'-&")
        if len(w) < 2 or w in _SMALL or w.isdigit() or PERIOD_WORD.fullmatch(w):
            continue
        if w in MONTH_NAMES:
            continue
        out.append(w)
    return out


def _years(cover: str, stem: str) -> tuple[int, ...]:
    """The periods the cover states and the years the file name carries (a fiscal year is
    often named by the year it ends in: "2024Q2" for a quarter ended in 2023; a title's
    year is more often the filing date)."""
    found = [int(m[1]) for p in _PERIOD_YEARS for m in p.finditer(cover)]
    found += [int(y) for y in _STEM_YEAR.findall(stem)]
    return tuple(sorted(set(found)))


def _kinds(cover: str) -> tuple[str, ...]:
    kinds = [kind for kind, pattern in _KINDS if pattern.search(cover)]
    kinds += [m[1].lower() for m in _FORM.finditer(cover)]
    return tuple(dict.fromkeys(kinds))
