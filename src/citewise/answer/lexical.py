"""Lexical evidence: word/trigram overlap between a claim and passages, and the concrete
values (numbers, sizes, versions, identifiers) a claim states (pure functions).

A claim may only state a value that its cited passages contain, so values are checked
exactly (after light normalisation: "4 MB" = "4mb", "4,300" = "4300"), while ordinary words
are compared through a light stemmer so inflection does not count as a difference.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from citewise.text.identifiers import identifiers, quoted
from citewise.text.sentences import (
    content_words,
    stem,
    strip_citation_marks,
    word_trigrams,
    words,
)

_UNITS = r"%|[kmgt]i?b|bytes?|bits?|ms|µs|ns|s|sec|seconds?|minutes?|hours?|days?|px|x"
_NUMBER = re.compile(
    rf"(?<![\w.])[-+]?\d+(?:\.\d+)*(?:e[-+]?\d+)?(?:(?:{_UNITS})(?![a-z]))?", re.IGNORECASE
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_UNIT_SPACE = re.compile(rf"(?<=\d)\s+(?=(?:{_UNITS})(?![a-z]))", re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")
_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}  # fmt: skip


def normalise(text: str) -> str:
    """Lower-case, thousands separators and number–unit spaces removed."""
    return _UNIT_SPACE.sub("", _THOUSANDS.sub("", text)).lower()


def numbers(text: str) -> list[str]:
    """Normalised numbers, versions and sizes stated in `text` (list markers excluded)."""
    body = normalise(_LIST_MARK.sub("", strip_citation_marks(text)))
    return [m.group(0).lstrip("+") for m in _NUMBER.finditer(body)]


@dataclass(frozen=True, slots=True)
class Evidence:
    """Pre-digested passage text: built once, checked against many claims."""

    text: str
    normalised: str
    stems: frozenset[str]
    trigrams: frozenset[tuple[str, str, str]]
    words: frozenset[str]

    @classmethod
    def of(cls, texts: Iterable[str]) -> Evidence:
        text = "\n".join(texts)
        normalised = normalise(text)
        ws = words(text)
        number_words = [_NUMBER_WORDS[w] for w in ws if w in _NUMBER_WORDS]
        if number_words:
            normalised = f"{normalised}\n{' '.join(number_words)}"
        return cls(
            text=text,
            normalised=normalised,
            stems=frozenset(stem(w) for w in content_words(text)),
            trigrams=frozenset(word_trigrams(stem(w) for w in ws)),
            words=frozenset(ws),
        )

    def has_number(self, value: str) -> bool:
        pattern = rf"(?<![\w.]){re.escape(value)}(?![\d])"
        return re.search(pattern, self.normalised) is not None

    def has_identifier(self, name: str) -> bool:
        """Exact (case-insensitive) or, for a dotted name, its last part as a word."""
        low = name.lower()
        if re.search(rf"(?<![\w-]){re.escape(low)}(?!\w)", self.normalised):
            return True
        last = low.rsplit(".", 1)[-1]
        return "." in low and len(last) > 2 and last in self.words

    def has_literal(self, literal: str) -> bool:
        return " ".join(literal.lower().split()) in " ".join(self.normalised.split())


def missing_values(claim: str, evidence: Evidence) -> list[str]:
    """Values the claim states that the evidence does not contain: numbers, identifiers and
    quoted literals. Any one of them makes the claim unsupported."""
    missing = [n for n in numbers(claim) if not evidence.has_number(n)]
    missing += [i for i in identifiers(claim) if not evidence.has_identifier(i)]
    missing += [q for q in quoted(claim) if not evidence.has_literal(q)]
    return list(dict.fromkeys(missing))


def word_overlap(claim: str, evidence: Evidence) -> float:
    """Share of the claim's (stemmed) content words found in the evidence."""
    claim_stems = {stem(w) for w in content_words(strip_citation_marks(claim))}
    if not claim_stems:
        return 1.0
    return len(claim_stems & evidence.stems) / len(claim_stems)


def trigram_overlap(claim: str, evidence: Evidence) -> float:
    """Share of the claim's topic-bearing word trigrams found verbatim (stemmed) in the evidence."""
    grams = word_trigrams(stem(w) for w in words(strip_citation_marks(claim)))
    if not grams:
        return word_overlap(claim, evidence)
    return len(grams & evidence.trigrams) / len(grams)
