"""Clauses inside a sentence (pure): the stretches a long sentence joins — at ";", at ": ",
at a spaced dash ("— ", " – ", " -- "), before ", and" / ", but" / ", which" / ", while" and
the like — and its longer parenthetical asides. A sentence scored as a whole lets its
irrelevant clauses dilute the match; its best clause says how well the part that states the
asked thing matches.

Nothing inside brackets, quotes or backticks is split, nor a line of code; a comma or colon
without a space after it (numbers "1,000", times "10:30", versions, URLs) is never a place to
split, nor a colon after an abbreviation ("e.g.:"). A stretch shorter than `MIN_CLAUSE_WORDS`
words is joined to the next one (the last to the one before): "Note: …" stays whole. Every
clause is a stretch of the sentence as written (`sentence.find(clause)` finds it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from citewise.extractive.candidates import CandidateSentence
from citewise.extractive.units import is_code_line, lead_in_end
from citewise.text.sentences import ABBREVIATIONS
from citewise.types.vectors import Vectors

MIN_CLAUSE_WORDS = 4
MIN_ASIDE_WORDS = 4  # a parenthetical aside this long is a clause of its own
# a comma before one of these opens a clause of its own
_JOINERS = frozenset(
    {"and", "but", "or", "which", "while", "whereas", "so", "yet", "although", "though",
     "unless", "because", "where", "who", "whose", "whom", "otherwise", "however"}
)  # fmt: skip
_OPEN = {"(": ")", "[": "]", "{": "}"}
_QUOTES = {'"': '"', "“": "”", "‘": "’", "`": "`"}
_DASH = re.compile(r"\s(?:—|–|--)\s|—(?=\s)|\s—")
_WORD_AFTER = re.compile(r"\s+([A-Za-z]+)\b")
_LAST_WORD = re.compile(r"(\S+)$")
# code inside prose: braces, an assignment or comparison, a call's "();"
_CODE = re.compile(r"[{}]|\s[=!<>]=?\s|\w\(\S*\);|\+\+")


def _cuts(sentence: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where `sentence` may be cut, as (end of the clause before, start of the next), and its
    top-level parenthetical asides as (start, end) of their text."""
    cuts: list[tuple[int, int]] = []
    asides: list[tuple[int, int]] = []
    closers: list[str] = []
    opened_at = 0
    i, n = 0, len(sentence)
    while i < n:
        ch = sentence[i]
        if closers:
            if ch == closers[-1]:
                closers.pop()
                if not closers and ch == ")":
                    asides.append((opened_at + 1, i))
            elif ch in _OPEN and closers[-1] not in _QUOTES.values():
                closers.append(_OPEN[ch])
            i += 1
            continue
        if ch in _OPEN:
            closers.append(_OPEN[ch])
            opened_at = i
        elif ch in _QUOTES and _opens_quote(sentence, i):
            closers.append(_QUOTES[ch])
        elif ch in ";:" and _space_after(sentence, i) and not _after_abbreviation(sentence, i):
            cuts.append((i + 1, i + 1))
        elif ch == "," and _space_after(sentence, i):
            m = _WORD_AFTER.match(sentence, i + 1)
            if m and m.group(1).lower() in _JOINERS:
                cuts.append((i + 1, i + 1))
        else:
            m = _DASH.match(sentence, i)
            if m:
                cuts.append((i, m.end()))
                i = m.end()
                continue
        i += 1
    return cuts, asides


def _opens_quote(sentence: str, i: int) -> bool:
    """A quote mark that opens quoted text: the curly and backtick ones always, a straight
    double quote when a closing one follows."""
    if sentence[i] == '"':
        return sentence.find('"', i + 1) > 0
    return sentence.find(_QUOTES[sentence[i]], i + 1) > 0


def _space_after(sentence: str, i: int) -> bool:
    return i + 1 < len(sentence) and sentence[i + 1].isspace()


def _after_abbreviation(sentence: str, i: int) -> bool:
    m = _LAST_WORD.search(sentence[:i])
    return m is not None and m.group(1).lower().strip("(\"'").rstrip(".") in ABBREVIATIONS


def _words(text: str) -> int:
    """Words with a letter or digit: a list mark or an escape ("-", "\\n") is none."""
    return sum(1 for w in text.split() if re.search(r"[^\W_]", w) and not w.startswith("\\"))


def _pieces(sentence: str, cuts: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches between `cuts`, stripped, short ones joined to a neighbour."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end, nxt in [*cuts, (len(sentence), len(sentence))]:
        spans.append((start, end))
        start = nxt
    joined: list[tuple[int, int]] = []
    carry: int | None = None
    for lo, hi in spans:
        lo = carry if carry is not None else lo
        carry = None
        if _words(sentence[lo:hi]) < MIN_CLAUSE_WORDS:
            carry = lo
            continue
        joined.append((lo, hi))
    if carry is not None:
        if joined:
            joined[-1] = (joined[-1][0], len(sentence))
        else:
            joined.append((carry, len(sentence)))
    return [_stripped(sentence, lo, hi) for lo, hi in joined]


def _stripped(sentence: str, lo: int, hi: int) -> tuple[int, int]:
    text = sentence[lo:hi]
    lead = len(text) - len(text.lstrip())
    trail = len(text) - len(text.rstrip())
    return lo + lead, hi - trail


def clauses_of(sentence: str) -> list[str]:
    """The clauses of `sentence`, in reading order, then its long parenthetical asides; the
    sentence alone when it has no more than one (or is code)."""
    text = sentence.strip()
    if not text or is_code_line(text) or _CODE.search(text):
        return [text] if text else []
    cuts, asides = _cuts(text)
    spans = _pieces(text, cuts)
    out = [text[lo:hi] for lo, hi in spans]
    out += [text[lo:hi].strip() for lo, hi in asides if _words(text[lo:hi]) >= MIN_ASIDE_WORDS]
    out = [c for c in dict.fromkeys(out) if c]
    return out if len(out) > 1 else [text]


def unit_clauses(sentences: Sequence[str]) -> list[str]:
    """The clauses of a unit of sentences (a lead-in and the items it brings, as one
    candidate): each sentence's clauses of at least `MIN_CLAUSE_WORDS` words; empty when the
    unit is a single clause."""
    out = [c for s in sentences for c in clauses_of(s) if _words(c) >= MIN_CLAUSE_WORDS]
    whole = " ".join(s.strip() for s in sentences)
    return [] if len(out) < 2 or out == [whole] else list(dict.fromkeys(out))


_RELATIVE = re.compile(r"^(?:which|who|whose|whom|where)\b", re.I)
_LEADING_JOINER = re.compile(r"^(?:and|but|or|so|yet|however|otherwise)\b,?\s*", re.I)


def as_span(clause: str) -> str | None:
    """`clause` as an answer shows it on its own: without the joining word it opens with and
    the mark it ends on, closed by a full stop; None for a relative clause ("which …"),
    meaningless without what it refers to."""
    if _RELATIVE.match(clause):
        return None
    text = _LEADING_JOINER.sub("", clause).rstrip(" ,;:—–-")
    if _words(text) < MIN_CLAUSE_WORDS:
        return None
    first = text.split()[0]
    if first.isalpha() and first.islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def candidate_clauses(
    cands: Sequence[CandidateSentence], split: Mapping[int, Sequence[str]]
) -> dict[tuple[int, int], list[str]]:
    """By (passage, sentence): the clauses of each candidate that joins several (its unit:
    the sentence and what its lead-in brings, `units.lead_in_end`)."""
    out: dict[tuple[int, int], list[str]] = {}
    for c in cands:
        sentences = split[c.passage.n]
        found = unit_clauses(sentences[c.index : lead_in_end(sentences, c.index)])
        if found:
            out[(c.passage.n, c.index)] = found
    return out


@dataclass(frozen=True, slots=True)
class Clauses:
    """A candidate's clauses and their embeddings (one row each)."""

    texts: tuple[str, ...]
    vectors: Vectors

    def best(self, qv: Vectors) -> tuple[float, str]:
        """The cosine of the clause closest to the question vector `qv`, and its text."""
        sims = self.vectors @ qv
        k = int(np.argmax(sims))
        return float(sims[k]), self.texts[k]


def by_key(
    found: Mapping[tuple[int, int], Sequence[str]], vectors: Vectors
) -> dict[tuple[int, int], Clauses]:
    """`vectors` (the clauses of `found` embedded in order) split back by candidate."""
    out: dict[tuple[int, int], Clauses] = {}
    start = 0
    for key, texts in found.items():
        out[key] = Clauses(tuple(texts), vectors[start : start + len(texts)])
        start += len(texts)
    return out
