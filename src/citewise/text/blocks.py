"""Blocks that never answer on their own (pure): page furniture, which ingest removes, and the
parts of a document that only frame it — a preamble naming the parties, recitals, a signature
block, a table of contents — which answer only a question about themselves (who the parties
are, when and by whom it was signed, what it contains).

A question that names the parties matches these blocks best by those names, while the clause
that answers uses the document's own terms ("Distributor shall …"); set aside, they no longer
crowd it out.
"""

from __future__ import annotations

import functools
import re
from typing import Literal, get_args

BLOCKS_VERSION = 1  # what ingest removes and labels: stored documents are re-read when it changes

Aside = Literal["preamble", "recitals", "signature", "notices", "contents", "furniture"]
ASIDES: tuple[Aside, ...] = get_args(Aside)

# "[Remainder of Page Intentionally Left Blank]", "This page intentionally left blank",
# "[Signature Page Follows]", "Page 3 of 12", "- 4 -", and the pilcrow/anchor glyphs of HTML
# and PDF headings ("Installation¶", "#")
_FURNITURE_LINE = re.compile(
    r"^\s*[\[(]?\s*(?:(?:the\s+)?remainder\s+of\s+(?:this\s+)?page\s+(?:is\s+)?"
    r"(?:intentionally\s+)?(?:left\s+)?blank|(?:this\s+)?page\s+(?:is\s+)?intentionally\s+"
    r"(?:left\s+)?blank|signature\s+pages?\s+(?:follows?|to\s+follow)|intentionally\s+"
    r"(?:left\s+)?blank)[^\n\]\)]{0,40}[\])]?\s*\.?\s*$"
    r"|^\s*page\s+\d+\s+of\s+\d+\s*$|^\s*[-–—]\s*\d{1,4}\s*[-–—]\s*$",
    re.I | re.M,
)
_ANCHOR_GLYPHS = re.compile(r"\s*[¶🔗](?=\s|$)")

_PREAMBLE = re.compile(
    r"\b(?:is|was|are)\s+(?:made|entered\s+into|executed)\b.{0,300}?\b(?:by\s+and\s+)?"
    r"(?:between|among)\b|\bby\s+and\s+(?:between|among)\b|\bmade\s+and\s+entered\s+into\b"
    # "THIS AGREEMENT made the 1st day of April, 1996, between …", "… effective …, is between …"
    r"|^\W*this\s+(?:[\w&-]+\s+){0,3}?(?:agreement|contract)\b.{0,120}?\b(?:made|dated|effective)\b"
    r".{0,200}?\b(?:between|among)\b",
    re.I | re.S,
)
_RECITALS = re.compile(
    r"^\W*(?:recitals?\b|whereas\b|w\s*i\s*t\s*n\s*e\s*s\s*s\s*e\s*t\s*h\b)", re.I
)
_WITNESS = re.compile(r"\bin\s+witness\s+where(?:of|to)\b", re.I)
# signature lines, wherever the chunker joined them: "By: /s/ …", "Name:", "Title:", "____"
_SIGN_MARK = re.compile(
    r"(?<![\w-])(?:By|BY|Name|NAME|Title|TITLE|Its|ITS|Signature|SIGNATURE|Print(?:ed)?\s+Name)"
    r"\s*:|/s/|_{4,}"
)
# "Attached to and made a part of the Sales & Service Agreement dated … between …"
_ATTACHED = re.compile(r"\battached\s+(?:hereto\s+)?(?:to\s+)?and\s+made\s+a\s+part\s+of\b", re.I)
# "Notices to Licensor shall be addressed as follows: … Attention: …", "If to the Company:"
_NOTICES = re.compile(
    r"\b(?:notices?|communications?)\b[^.]{0,80}\b(?:addressed|sent|delivered|given|mailed)\b"
    r"[^.]{0,40}\b(?:as\s+follows|to)\b|^\W*if\s+to\s+(?:the\s+)?[A-Z]",
    re.I | re.M,
)
_PIECE = re.compile(r"(?<=[.;:])\s+")
_FRAMING = re.compile(
    r"\(\s*(?:the\s+|this\s+|each\s+)?[\"“'‘]|\bby\s+and\s+(?:between|among)\b|\bbetween\b"
    r"|^\W*(?:whereas|now,?\s+therefore|recitals?|witnesseth)\b|\bagree\s+as\s+follows\b"
    r"|\b(?:is|was)\s+(?:made|entered\s+into)\b",
    re.I,
)
_ATTENTION = re.compile(r"\b(?:attention|attn\.?)\s*:", re.I)
_LEADER = re.compile(r"(?:\.\s?){4,}\s*\d+\s*$")
_PAGE_AFTER_WORD = re.compile(r"(?:(?:\.\s?){4,}|[A-Za-z)]\s+)\d{1,3}\s*$")
# a preamble opens the document: "This Distribution Agreement (the "Agreement") is made …"
_OPENS = re.compile(
    r"\b(?:agreement|contract|lease|licen[cs]e|amendment|memorandum|deed|addendum|plan|order"
    r"|statement\s+of\s+work)\b",
    re.I,
)
_CONTENTS_TITLE = re.compile(r"^\W*(?:table\s+of\s+)?contents\b", re.I)

# what a question asks when one of these blocks answers it
_ASKS: dict[Aside, re.Pattern[str]] = {
    "preamble": re.compile(
        r"\bpart(?:y|ies)\b|\bbetween\s+whom\b|\bwho\s+(?:is|are|were)\s+(?:the\s+)?"
        r"(?:\w+\s+){0,2}(?:to|in|of)\s+(?:th(?:e|is)\s+)?(?:agreement|contract)\b"
        r"|\bentered\s+into\b|\beffective\s+date\b|\bdated?\b|\bwhen\s+(?:was|did|is)\b"
        r"|\bincorporat|\bprincipal\s+(?:place|office)|\baddress|\bheadquarter|\blocated\b",
        re.I,
    ),
    "recitals": re.compile(
        r"\bwhy\b|\bpurpose\b|\bbackground\b|\brecitals?\b|\bwhereas\b|\bintend", re.I
    ),
    "signature": re.compile(
        r"\bsign(?:ed|s|er|atory|atories|ature|atures|ing)?\b|\bexecut(?:ed|ion|es)\b"
        r"|\bwitness|\bon\s+behalf\b|\bwho\s+(?:is|was)\b.*\b(?:title|officer)\b",
        re.I,
    ),
    "notices": re.compile(
        r"\bnotices?\b|\baddress|\bcontact|\bmail|\battention\b|\bwhere\s+(?:to|should)\s+send",
        re.I,
    ),
    "contents": re.compile(r"\bcontents\b|\bchapters?\b|\bwhat\s+(?:sections|topics)\b", re.I),
    "furniture": re.compile(r"(?!x)x"),
}


def without_furniture(text: str) -> str:
    """`text` without page-furniture lines and anchor glyphs."""
    if "¶" in text or "🔗" in text:
        text = _ANCHOR_GLYPHS.sub("", text)
    return _FURNITURE_LINE.sub("", text) if _might_hold_furniture(text) else text


def _might_hold_furniture(text: str) -> bool:
    low = text.lower()
    return "blank" in low or "page" in low or "follow" in low or "-" in text or "—" in text


@functools.lru_cache(maxsize=4096)  # the same passages come back question after question
def aside_kind(text: str, section: str = "") -> Aside | None:
    """Which framing block `text` (a chunk, under heading `section`) is, or None when it
    may answer on its own."""
    body = text.strip()
    if not body:
        return "furniture"
    last = section.rsplit(">", 1)[-1]
    titled = bool(_CONTENTS_TITLE.match(last) or _CONTENTS_TITLE.match(body))
    if _is_contents(body, titled):
        return "contents"
    if _signature(body):
        return "signature"
    head = body[:600]
    opening = _PREAMBLE.search(head) if _OPENS.search(head[:250]) else None
    if opening and opening.start() < 250 and _defines_parties(head) and _mostly(body):
        return "preamble"
    if _ATTACHED.search(head[:200]):
        return "preamble"
    if _ATTENTION.search(body) and _NOTICES.search(body):
        return "notices"
    if _RECITALS.match(body):
        return "recitals"
    return None


def label_of(text: str, section: str = "") -> str:
    """The label ingest stores for a chunk: its framing kind, or "" when it may answer."""
    return aside_kind(text, section) or ""


def stored_aside(label: str | None, text: str, section: str = "") -> Aside | None:
    """The framing kind of a stored chunk: its label from ingest, or (`label` None: a store
    not labelled yet) the kind read from its text now."""
    if label is None:
        return aside_kind(text, section)
    return _KINDS.get(label)


_KINDS: dict[str, Aside] = {kind: kind for kind in ASIDES}


def asks_about(question: str, kind: Aside) -> bool:
    """Whether `question` asks what a block of `kind` says (the parties, the signing)."""
    return bool(_ASKS[kind].search(question))


def _mostly(body: str) -> bool:
    """Whether framing sentences (the parties and their defined terms, recitals, "agree as
    follows", titles) make up at least half of `body`: a chunk that goes on past its
    preamble into clauses is no preamble."""
    pieces = _PIECE.split(body)
    framing = sum(len(p) for p in pieces if len(p) < 40 or _FRAMING.search(p))
    return framing >= 0.5 * sum(len(p) for p in pieces)


def _signature(body: str) -> bool:
    """A signature block: "IN WITNESS WHEREOF" near its start, or mostly signature lines
    (a clause the chunk holds before them is no signature block)."""
    witness = _WITNESS.search(body)
    if witness and witness.start() < 0.3 * len(body):
        return True
    marks = len(_SIGN_MARK.findall(body))
    return marks >= 3 and len(body) < 80 * marks


def _defines_parties(text: str) -> bool:
    """A preamble names the parties: a quoted defined term or a company form."""
    return bool(
        re.search(r"\(\s*(?:the\s+|each\s+)?[\"“'‘][A-Z]", text)
        or re.search(r"\b(?:Inc|LLC|Ltd|Corp(?:oration)?|Company|Limited|plc|GmbH|L\.?P)\b", text)
    )


def _is_contents(text: str, titled: bool) -> bool:
    """Most lines end in a page number after dot leaders, or (under a "Contents" title)
    after a word."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) < 4:
        return False
    pattern = _PAGE_AFTER_WORD if titled else _LEADER
    return sum(1 for ln in lines if pattern.search(ln)) >= 0.6 * len(lines)
