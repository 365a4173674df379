"""Abbreviations a document introduces: "Sensor Bus Interface (SBI)" and "SBI (Sensor Bus
Interface)", the expansion's initials spelling the abbreviation in order (small joining words
such as "of" either used or skipped, hyphenated words read whole or by their parts)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

# words an expansion may skip or use: "Bureau of Labor Statistics (BLS)", "Write-Ahead Log"
JOINERS = frozenset(
    {"of", "and", "the", "for", "de", "du", "der", "van", "von", "la", "le", "a", "an", "on",
     "in", "to", "with", "by", "&"}
)  # fmt: skip
_PARENTHESISED = re.compile(r"\(\s*([^()]{1,80}?)\s*\)")
_ABBR = re.compile(r"[A-Z][A-Za-z0-9&]{1,9}")
_WORD = re.compile(r"[\w&'’]+(?:-[\w&'’]+)*")


@dataclass(frozen=True, slots=True)
class Abbreviation:
    full: str  # "Sensor Bus Interface"
    abbr: str  # "SBI"
    start: int  # the span of both in the text, expansion first or last
    end: int


def abbreviations(text: str) -> list[Abbreviation]:
    """Each abbreviation `text` defines, either way round, in the order written."""
    found: list[Abbreviation] = []
    if "(" not in text:
        return found
    for m in _PARENTHESISED.finditer(text):
        inside = m.group(1)
        words = list(_WORD.finditer(text, max(0, m.start() - 160), m.start()))
        if _ABBR.fullmatch(inside) and sum(c.isupper() for c in inside) >= 2:
            run = _expansion_before(words, text, m.start(), letters_of(inside))
            if run:
                full = text[run[0].start() : run[-1].end()]
                found.append(Abbreviation(full, inside, run[0].start(), m.end()))
        elif words and words[-1].end() == len(text[: m.start()].rstrip()):
            abbr = words[-1].group()
            inner = [w.group() for w in _WORD.finditer(inside)]
            upper = sum(c.isupper() for c in abbr)
            shaped = _ABBR.fullmatch(abbr) and abbr.upper() == abbr and upper >= 2
            spelled = inner and inner[0][:1].isupper() and initials_match(inner, letters_of(abbr))
            if shaped and spelled:
                found.append(Abbreviation(inside, abbr, words[-1].start(), m.end()))
    return found


def letters_of(abbr: str) -> str:
    """The letters an expansion spells: capitals and digits ("PgSQL" -> "psql"), lower case."""
    return "".join(c for c in abbr if c.isupper() or c.isdigit()).lower()


def _expansion_before(
    words: list[re.Match[str]], text: str, paren: int, letters: str
) -> list[re.Match[str]] | None:
    """The shortest run of words ending just before the parenthesis (blank between) whose
    initials spell `letters`."""
    # a closing quotation mark or a comma may stand between: “transparent huge pages” (THP)
    if not words or not letters or text[words[-1].end() : paren].strip(" \t\n\"”’',"):
        return None
    for n in range(1, min(len(words), len(letters) * 2 + 2) + 1):
        run = words[-n:]
        if run[0].group().lower() in JOINERS:
            continue
        if any(text[a.end() : b.start()].strip() for a, b in itertools.pairwise(run)):
            continue  # a comma or a full stop inside: two phrases, not one name
        if initials_match([w.group() for w in run], letters):
            return run
    return None


def initials_match(words: list[str], letters: str) -> bool:
    """Whether the words' initials spell `letters`, each joiner either used or skipped, and a
    hyphenated word by its first letter or by each part's ("Write-Ahead Log" = WAL)."""

    def walk(i: int, j: int) -> bool:
        if j == len(letters):
            return i == len(words) or all(w.lower() in JOINERS for w in words[i:])
        if i == len(words):
            return False
        word = words[i].lower()
        heads = [word[:1]]
        if "-" in word:
            heads.append("".join(p[:1] for p in word.split("-") if p))
        for head in heads:
            if letters.startswith(head, j) and walk(i + 1, j + len(head)):
                return True
        return word in JOINERS and walk(i + 1, j)

    return walk(0, 0)
