"""A document's own words for the names it is about (pure, no LLM): the defined terms it gives
parties and things, and the abbreviations it introduces.

- Defined terms: `Acme Widgets, Inc., a Nevada corporation ("Distributor")`, `(hereinafter
  referred to as the "Company")`, `Beta LLC (hereinafter "Licensee")`, `(each a "Party")`.
  The name is the first run of capitalised words after the last joining word ("between",
  "and", "by") before the definition: the party, not its state of incorporation.
- Abbreviations: `European Medicines Agency (EMA)`, whose letters are the initials of the
  words before it, in order; and `EMA (European Medicines Agency)`.

- Parties: `made between Acme Pumps Limited ("Supplier") and Borealis GmbH` (`text.parties`).
- Terms defined without a name: `"Confidential Information" means …`, `the term "Licensee"`.

`definitions(text)` is the one extractor: every definition with its kind and where its name is
written; the knowledge graph makes its `term`, `party` and `acronym` entities from it.
`aliases(text)` is its (name, term) pairs: the name as the document spells it, the term it
uses for it afterwards (what the retriever matches a question's words against).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citewise.text.abbreviations import abbreviations
from citewise.text.parties import find_parties, is_party_name

_QUOTE_OPEN = "\"“'‘"
_QUOTE_CLOSE = "\"”'’"
# a bracket that defines terms: (the "Company"), ("Vendor"), (hereinafter referred to as
# "Licensee"), (the “Company”, “Employer”), (each a "Party")
_BRACKET = re.compile(r"\((?P<body>[^()]{3,160})\)")
_QUOTED = re.compile(
    rf"[{_QUOTE_OPEN}]\s*(?P<term>[A-Za-z][\w&.'’ -]{{0,40}}?)\s*[,.]?[{_QUOTE_CLOSE}]"
)
_DEFINING_WORDS = frozenset(
    [
        "hereinafter",
        "hereafter",
        "herein",
        "referred",
        "to",
        "as",
        "the",
        "a",
        "an",
        "each",
        "either",
        "both",
        "individually",
        "collectively",
        "together",
        "called",
        "named",
        "designated",
        "known",
        "or",
        "and",
        "this",
        "its",
    ]
)
# referred to as "lessor," / hereinafter "the Company" / hereinafter called the Company
_HEREINAFTER = re.compile(
    r"\b(?:hereinafter|hereafter|(?:herein\s+)?referred\s+to(?:\s+herein)?\s+as)\s+"
    r"(?:(?:referred\s+to|called|named|designated)\s+)?(?:as\s+)?(?:the\s+)?"
    rf"(?:[{_QUOTE_OPEN}](?P<quoted>[A-Za-z][\w&.' -]{{0,40}}?)[,.]?[{_QUOTE_CLOSE}]"
    r"|(?P<term>[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}))"
)
# joining words after which a party's name starts
_JOINS = re.compile(
    r"(?:\bby\s+and\s+(?:between|among)|\bbetween|\bamong|\bby|\band|\bwith|[:;])\s+(?=\S)",
    re.I,
)
_MONTHS = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"}
)  # fmt: skip
# terms for the document itself or its dates, not for a name
_NOT_TERMS = frozenset({"agreement", "this agreement", "effective date", "contract"})
_NAME_WORD = r"(?:[A-Z][\w&.'’-]*|\d+[A-Z][\w-]*)"
_FORMS = (
    r"(?:Inc|Ltd|LLC|L\.?L\.?C|Corp|Co|plc|S\.?A|GmbH|AG|N\.?V|B\.?V|LP|L\.?P|Limited|Incorporated)"
)
_CONNECT = (
    r"(?:\s*,?\s+(?:of|and|&|de|du|der|van|von|la|le|the|for)\s+"
    rf"|\s*,\s*(?={_FORMS}\b)|\s+)"
)
_NAME_RUN = re.compile(rf"{_NAME_WORD}(?:{_CONNECT}{_NAME_WORD})*")
_NOT_NAME_START = frozenset(
    {"This", "The", "These", "That", "Such", "Each", "Any", "All", "In", "On", "As", "If",
     "Section", "Article", "Exhibit", "Schedule", "Appendix", "Annex", "Clause", "Part",
     "WHEREAS", "NOW", "THEREFORE", "Whereas"}
)  # fmt: skip
_SENTENCE_END = re.compile(
    r"(?<![A-Z][a-z])(?<!\b[A-Z])(?<!\bInc)(?<!\bCorp)(?<!\bCo)(?<!\bLtd)(?<!\bNo)(?<!\bSt)"
    r"[.;!?]\s+(?=[A-Z])|\n\s*\n"
)
_ENUMERATION = re.compile(r"^(?:[A-Z]\.\s+)+")
_WINDOW = 300  # characters before a definition its name is looked for in
MAX_ALIASES = 60


@dataclass(frozen=True, slots=True)
class Alias:
    name: str  # as the document first spells it: "Acme Widgets, Inc."
    term: str  # what it calls it afterwards: "Distributor", "EMA"


DefinitionKind = Literal["party", "term", "abbreviation"]


@dataclass(frozen=True, slots=True)
class Definition:
    """One thing `text` defines: its name where it is written (`start`, `end`), the term the
    document uses for it afterwards ("" for a party without a role; the name itself for a term
    defined by "means")."""

    name: str
    term: str
    kind: DefinitionKind
    start: int
    end: int


# "Confidential Information" means …, "Licensor" shall mean …
_MEANS = re.compile(
    rf"[{_QUOTE_OPEN}](?P<term>[^{_QUOTE_CLOSE}\n]{{2,60}})[{_QUOTE_CLOSE}]\s*,?\s+(?:means"
    r"|refers\s+to|is\s+defined\s+as|shall\s+mean|denotes|stands\s+for)\b"
)
_MEANS_WORDS = ("mean", "refers", "defined", "denotes", "stands")
_THE_TERM = re.compile(
    rf"\bthe\s+term\s+[{_QUOTE_OPEN}](?P<term>[^{_QUOTE_CLOSE}\n]{{2,60}})[{_QUOTE_CLOSE}]"
)
# a definition's name is a party's when the clause is "between … and …"
_PARTY_CLAUSE = re.compile(r"\b(?:between|among)\b", re.I)


def aliases(text: str) -> tuple[Alias, ...]:
    """The defined terms and abbreviations of `text`, each (name, term) pair once, in the
    order they are defined."""
    pairs = [
        Alias(d.name, d.term)
        for d in definitions(text)
        if d.term and d.name.lower() != d.term.lower()
    ]
    unique = {(a.name.lower(), a.term.lower()): a for a in reversed(pairs)}
    return tuple(sorted(unique.values(), key=pairs.index)[:MAX_ALIASES])


def definitions(text: str) -> tuple[Definition, ...]:
    """Every party, defined term and abbreviation of `text`, in the order written."""
    found = _bracketed(text)
    defined = {d.term.lower() for d in found}
    # "(each a "Party")" after a defined term names no one new
    found = [d for d in found if d.name.lower() not in defined or d.term.isupper()]
    named = {d.name.lower() for d in found}
    for p in find_parties(text):  # a party with no role defined, or one the brackets missed
        if p.name.lower() not in named:
            found.append(Definition(p.name, p.role, "party", p.start, p.end))
    found += _terms(text)
    found += [
        Definition(a.full, a.abbr, "abbreviation", a.start, a.end) for a in abbreviations(text)
    ]
    return tuple(sorted(found, key=lambda d: d.start))


def _bracketed(text: str) -> list[Definition]:
    """`Acme Widgets, Inc., a Nevada corporation ("Distributor")` and `… hereinafter referred
    to as "lessor,"`: the name before, each term the bracket or the clause defines."""
    found: list[Definition] = []
    last_end = 0
    spans: list[tuple[int, int]] = []
    for m in _BRACKET.finditer(text):
        terms = [_clean_term(q["term"]) for q in _QUOTED.finditer(m["body"])]
        rest = _QUOTED.sub(" ", m["body"]).replace(",", " ").lower().split()
        if not terms or any(w not in _DEFINING_WORDS for w in rest):
            continue
        named = _name_before(text, max(last_end, m.start() - _WINDOW), m.start())
        last_end = m.end()
        spans.append(m.span())
        found += [_definition(text, named, term, m.start()) for term in terms]
    for m in _HEREINAFTER.finditer(text):
        if not any(a <= m.start() < b for a, b in spans):
            term = _clean_term(m["quoted"] or m["term"] or "")
            named = _name_before(text, max(0, m.start() - _WINDOW), m.start())
            found.append(_definition(text, named, term, m.start()))
    return [d for d in found if d.term]


def _definition(text: str, named: tuple[str, int], term: str, at: int) -> Definition:
    name, start = named
    if not (term and name and name.lower() != term.lower() and _named(name, term)):
        return Definition("", "", "term", 0, 0)
    clause = text[max(0, start - 200) : start]
    party = _PARTY_CLAUSE.search(clause) is not None and is_party_name(name)
    return Definition(name, term, "party" if party else "term", start, start + len(name))


def _terms(text: str) -> list[Definition]:
    """Terms defined on their own: `"X" means …`, `the term "X"` (not a quoted value)."""
    if not any(q in text for q in _QUOTE_OPEN):
        return []
    found = []
    if any(word in text for word in _MEANS_WORDS):
        found += list(_MEANS.finditer(text))
    if "term" in text:
        found += list(_THE_TERM.finditer(text))
    return [
        Definition(t, t, "term", m.start("term"), m.start("term") + len(t))
        for m in found
        if (t := m["term"].strip()) and not t[:1].isdigit()
    ]


def _clean_term(term: str) -> str:
    term = " ".join(term.split()).strip(" .,'’")
    return term if 1 < len(term) <= 40 and term.lower() not in _NOT_TERMS else ""


def _named(name: str, term: str) -> bool:
    """Whether `name` looks like what a term stands for: two or more words, or one in
    capitals, or one the term abbreviates; never a date."""
    words = name.replace(",", " ").split()
    if not words or words[0].lower() in _MONTHS or len(name) < 2:
        return False
    # one word is a name only when the term abbreviates it ("Liebherr" -> "LCE")
    return len(words) > 1 or (term.isupper() and _initials_match([name], term) > 0)


def _name_before(text: str, start: int, end: int) -> tuple[str, int]:
    """The party's name in `text[start:end]` and where it starts: the first run of capitalised
    words after the last joining word that is followed by one."""
    window = text[start:end]
    ends = list(_SENTENCE_END.finditer(window))
    begin = ends[-1].end() if ends else 0
    cut = begin
    for j in _JOINS.finditer(window, begin):
        rest = window[j.end() :]
        if _NAME_RUN.match(rest) and not _starts_generic(rest):
            cut = j.end()
    for run in _NAME_RUN.finditer(window, cut):
        written = run.group(0).rstrip(" ,")
        # "A. Owner": an enumeration's letter is not part of the name
        lead = _ENUMERATION.match(written)
        skip = lead.end() if lead else 0
        name = " ".join(written[skip:].split())
        if _starts_generic(name):
            continue
        return (name, start + run.start() + skip) if len(name.split()) <= 8 else ("", 0)
    return "", 0


def _starts_generic(text: str) -> bool:
    first = text.split(maxsplit=1)[0].strip(",.") if text.split() else ""
    return first in _NOT_NAME_START


def _initials_match(words: list[str], abbr: str) -> int:
    """How many of `abbr`'s letters the capitalised words' initials spell in order (small
    joining words may be skipped)."""
    letters = [c.lower() for c in abbr if c.isalpha()]
    i = 0
    for w in words:
        if i < len(letters) and w[:1].lower() == letters[i]:
            i += 1
        elif w.lower() not in ("of", "and", "&", "the", "for", "de", "in"):
            return -1
    return i
