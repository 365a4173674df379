"""A document's own words for the names it is about (pure, no LLM): the defined terms it gives
parties and things, and the abbreviations it introduces.

- Defined terms: `Acme Widgets, Inc., a Nevada corporation ("Distributor")`, `(hereinafter
  referred to as the "Company")`, `Beta LLC (hereinafter "Licensee")`, `(each a "Party")`.
  The name is the first run of capitalised words after the last joining word ("between",
  "and", "by") before the definition: the party, not its state of incorporation.
- Abbreviations: `European Medicines Agency (EMA)`, whose letters are the initials of the
  words before it, in order; and `EMA (European Medicines Agency)`.

Each alias is a (name, term) pair: the name as the document spells it, the term it uses for it
afterwards. The graph's entity extraction can read the same pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
_ABBREVIATION = re.compile(r"\(\s*(?P<abbr>[A-Z][A-Za-z0-9&]{1,9})\s*\)")
_EXPANSION = re.compile(r"\b(?P<abbr>[A-Z][A-Z0-9&]{1,9})\s*\(\s*(?P<full>[A-Z][^()]{3,80}?)\s*\)")
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


def aliases(text: str) -> tuple[Alias, ...]:
    """The defined terms and abbreviations of `text`, each (name, term) pair once, in the
    order they are defined."""
    found: list[Alias] = []
    last_end = 0
    spans: list[tuple[int, int]] = []
    for m in _BRACKET.finditer(text):
        defined = [_clean_term(q["term"]) for q in _QUOTED.finditer(m["body"])]
        rest = _QUOTED.sub(" ", m["body"]).replace(",", " ").lower().split()
        if not defined or any(w not in _DEFINING_WORDS for w in rest):
            continue
        name = _name_before(text, max(last_end, m.start() - _WINDOW), m.start())
        last_end = m.end()
        spans.append(m.span())
        found += [
            Alias(name, term)
            for term in defined
            if term and name and name.lower() != term.lower() and _named(name, term)
        ]
    for m in _HEREINAFTER.finditer(text):
        if any(a <= m.start() < b for a, b in spans):
            continue
        term = _clean_term(m["quoted"] or m["term"] or "")
        name = _name_before(text, max(0, m.start() - _WINDOW), m.start())
        if term and name and name.lower() != term.lower() and _named(name, term):
            found.append(Alias(name, term))
    terms = {a.term.lower() for a in found}
    # "(each a "Party")" after a defined term names no one new
    found = [a for a in found if a.name.lower() not in terms or a.term.isupper()]
    for m in _ABBREVIATION.finditer(text):
        abbr = m["abbr"]
        if sum(c.isupper() for c in abbr) < 2:
            continue
        full = _expansion_before(text[max(0, m.start() - 120) : m.start()], abbr)
        if full:
            found.append(Alias(full, abbr))
    for m in _EXPANSION.finditer(text):
        full = m["full"].strip()
        if _initials_match(full.split(), m["abbr"]) == sum(c.isalpha() for c in m["abbr"]):
            found.append(Alias(full, m["abbr"]))
    unique = {(a.name.lower(), a.term.lower()): a for a in reversed(found)}
    ordered = sorted(unique.values(), key=lambda a: found.index(a))
    return tuple(ordered[:MAX_ALIASES])


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


def _name_before(text: str, start: int, end: int) -> str:
    """The party's name in `text[start:end]`: the first run of capitalised words after the
    last joining word that is followed by one."""
    window = text[start:end]
    ends = list(_SENTENCE_END.finditer(window))
    window = window[ends[-1].end() :] if ends else window
    cut = 0
    for j in _JOINS.finditer(window):
        rest = window[j.end() :]
        if _NAME_RUN.match(rest) and not _starts_generic(rest):
            cut = j.end()
    for run in _NAME_RUN.finditer(window, cut):
        # "A. Owner": an enumeration's letter is not part of the name
        name = _ENUMERATION.sub("", " ".join(run.group(0).strip(" ,").split()))
        if _starts_generic(name):
            continue
        return name if len(name.split()) <= 8 else ""
    return ""


def _starts_generic(text: str) -> bool:
    first = text.split(maxsplit=1)[0].strip(",.") if text.split() else ""
    return first in _NOT_NAME_START


def _expansion_before(before: str, abbr: str) -> str:
    """The words before "(ABC)" whose initials spell ABC, in order ("European Medicines
    Agency" for "EMA"), or ""."""
    words = re.findall(r"[\w&'’-]+", before)
    letters = [c for c in abbr if c.isalpha()]
    for n in range(len(letters), min(len(letters) + 3, len(words)) + 1):
        tail = words[-n:]
        if (
            tail
            and tail[0][0].upper() == letters[0]
            and _initials_match(tail, abbr) == len(letters)
        ):
            return " ".join(tail)
    return ""


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
