"""Lexical evidence: word/trigram overlap between a claim and passages, the concrete values
(numbers, sizes, versions, identifiers) a claim states, and the terms it uses that nothing
shown to the model contains (pure functions).

A claim may only state a value that its cited passages contain, so values are checked
exactly (after light normalisation: "4 MB" = "4mb", "4,300" = "4300"), while ordinary words
are compared through a light stemmer so inflection does not count as a difference.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from citewise.answer.spelled import SPELLED, digitised, value_of
from citewise.answer.vocabulary import ordinary
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
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # "1,470GB" as well as "1,470 GB"
_UNIT_SPACE = re.compile(rf"(?<=\d)\s+(?=(?:{_UNITS})(?![a-z]))", re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")
# a plural unit counts as its singular: "240 hours" is the value of "a 240 hour limit"
_PLURAL_UNIT = re.compile(r"(?<=\d)(hour|day|minute|second|byte|bit|sec)s$")
# a value and its unit word: "240hour" (after `normalise`)
_VALUE_AND_UNIT = re.compile(r"^([-+]?\d+(?:\.\d+)*)([a-z]{3,})$")
# an ISO date's zero-padded month and day are also the numbers "7" of "7 January"
_ISO_DATE = re.compile(r"(?<!\d)\d{4}-(\d{2})-(\d{2})(?!\d)")
_SENTENCE_BREAK = re.compile(r"[.!?](?:\s|$)|\n")
_TERM = re.compile(r"[^\W\d_][^\W_]*(?:['’-][^\W_]+)*", re.UNICODE)
MIN_TERM_CHARS = 4  # shorter words are too often ordinary paraphrase to be suspicious
_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
}  # fmt: skip
_COUNTED_WORDS = "|".join(w for w in _NUMBER_WORDS if w not in ("zero", "one"))
# a number and the word it counts: "6 years", "six-year", "three (3) days", "25MB"
_COUNT = re.compile(rf"(?<![\w.])(\d+|(?:{_COUNTED_WORDS})\b)(?:\s*\(\w+\))?[\s-]*([a-z]+)")

# a size in words ("four megabytes", "64 megabytes") is the same value as "4MB", "64MB"
_SIZE_IN_WORDS = re.compile(
    rf"(?<![\w.])(\d+|(?:{_COUNTED_WORDS})\b)[\s-]*(kilo|mega|giga|tera)-?bytes?\b"
)


def normalise(text: str) -> str:
    """Lower-case, thousands separators and number–unit spaces removed."""
    return _UNIT_SPACE.sub("", _THOUSANDS.sub("", text)).lower()


def numbers(text: str) -> list[str]:
    """Normalised numbers, versions and sizes stated in `text` (list markers excluded)."""
    body = normalise(_LIST_MARK.sub("", strip_citation_marks(text)))
    return [_PLURAL_UNIT.sub(r"\1", m.group(0).lstrip("+")) for m in _NUMBER.finditer(body)]


@dataclass(frozen=True, slots=True)
class Evidence:
    """Pre-digested passage text: built once, checked against many claims."""

    text: str
    normalised: str
    stems: frozenset[str]
    trigrams: frozenset[tuple[str, str, str]]
    words: frozenset[str]
    counts: frozenset[tuple[str, str]] = frozenset()  # (number, what it counts): `counts`
    # what the model was shown only: a name -> the role words its document uses for it
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def of(cls, texts: Iterable[str]) -> Evidence:
        text = "\n".join(texts)
        normalised = normalise(text)
        ws = words(text)
        number_words = [_NUMBER_WORDS[w] for w in ws if w in _NUMBER_WORDS]
        sizes = [
            f"{_NUMBER_WORDS.get(n, n)}{prefix[0]}b"
            for n, prefix in _SIZE_IN_WORDS.findall(text.lower())
        ]
        dates = [str(int(part)) for m in _ISO_DATE.finditer(text) for part in m.groups()]
        if number_words or sizes or dates:
            normalised = f"{normalised}\n{' '.join(number_words + sizes + dates)}"
        stems = {stem(w) for w in content_words(text)}
        trigrams = set(word_trigrams(stem(w) for w in ws))
        found = counts(text)
        # "thirty (30) days" and "30 days" state one value; a file name or link spells its
        # words with underscores ("OpenJS_AI_Coding_Policy.pdf")
        digits = digitised(text).replace("_", " ")
        if digits != text:
            normalised = f"{normalised}\n{normalise(digits)}"
            stems.update(stem(w) for w in content_words(digits))
            trigrams.update(word_trigrams(stem(w) for w in words(digits)))
            found = found | counts(digits)
            ws = [*ws, *words(digits)]
        return cls(
            text=text,
            normalised=normalised,
            stems=frozenset(stems),
            trigrams=frozenset(trigrams),
            words=frozenset(ws),
            counts=found,
        )

    def has_number(self, value: str) -> bool:
        """The value as written, or its number with the unit word later in the same sentence
        ("240 hours" in "240 annual leave hours", "12 hours" in "the maximum number of hours
        ... is 12"), unless another unit follows the number there ("12 days")."""
        pattern = rf"(?<![\w.]){re.escape(value)}(?![\d])"
        if re.search(pattern, self.normalised) is not None:
            return True
        split = _VALUE_AND_UNIT.match(value)
        return split is not None and self._number_with_unit_nearby(split[1], split[2])

    def _number_with_unit_nearby(self, number: str, unit: str) -> bool:
        bare = re.compile(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)")
        unit_word = re.compile(rf"\b{unit}s?\b")
        for m in bare.finditer(self.normalised):
            start = max((b.end() for b in _SENTENCE_BREAK.finditer(self.normalised, 0, m.start())),
                        default=0)  # fmt: skip
            end_at = _SENTENCE_BREAK.search(self.normalised, m.end())
            end = end_at.start() if end_at else len(self.normalised)
            after = _NUMBER_AFTER.match(self.normalised, m.end())
            if after is not None and not unit_word.fullmatch(after[1]):
                continue  # "12 days": the number counts something else here
            if unit_word.search(self.normalised, start, end):
                return True
        return False

    def has_identifier(self, name: str) -> bool:
        """Exact (case-insensitive) or, for a dotted name, its last part as a word."""
        low = name.lower()
        if re.search(rf"(?<![\w-]){re.escape(low)}(?!\w)", self.normalised):
            return True
        last = low.rsplit(".", 1)[-1]
        return "." in low and len(last) > 2 and last in self.words

    def has_literal(self, literal: str) -> bool:
        return " ".join(literal.lower().split()) in " ".join(self.normalised.split())

    def has_phrase(self, phrase: str) -> bool:
        """`phrase` as whole words ("EFJ" is not in "EFJohnson")."""
        wanted = r"\s+".join(re.escape(w) for w in phrase.lower().split())
        return re.search(rf"(?<!\w){wanted}(?!\w)", self.normalised) is not None


# the unit word right after a bare number ("12 days"), if any
_NUMBER_AFTER = re.compile(rf"\s+((?:{_UNITS})s?|weeks?|months?|years?)\b")


def missing_values(claim: str, evidence: Evidence) -> list[str]:
    """Values the claim states that the evidence does not contain: numbers, identifiers and
    quoted literals. Any one of them makes the claim unsupported."""
    missing = [n for n in numbers(claim) if not evidence.has_number(n)]
    missing += [i for i in identifiers(claim) if not evidence.has_identifier(i)]
    missing += [q for q in quoted(claim) if not evidence.has_literal(q)]
    return list(dict.fromkeys(missing))


def word_overlap(claim: str, evidence: Evidence) -> float:
    """Share of the claim's (stemmed) content words found in the evidence (numbers in words
    as digits, like the evidence's)."""
    claim_stems = {stem(w) for w in content_words(digitised(strip_citation_marks(claim)))}
    if not claim_stems:
        return 1.0
    return len(claim_stems & evidence.stems) / len(claim_stems)


def trigram_overlap(claim: str, evidence: Evidence) -> float:
    """Share of the claim's topic-bearing word trigrams found verbatim (stemmed) in the evidence."""
    grams = word_trigrams(stem(w) for w in words(digitised(strip_citation_marks(claim))))
    if not grams:
        return word_overlap(claim, evidence)
    return len(grams & evidence.trigrams) / len(grams)


@dataclass(frozen=True, slots=True)
class UnknownTerms:
    """Words of a claim found in none of the texts it may draw on: `names` are capitalised
    inside the sentence (a proper name or a term of art: none may be invented); `words` are
    other content words (a paraphrase may bring its own words: the judge decides)."""

    names: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


def unknown_terms(claim: str, known: Evidence) -> UnknownTerms:
    """The claim's words that `known` (every passage shown, their headings and the question)
    does not contain, by stem or as written."""
    body = _LIST_MARK.sub("", strip_citation_marks(claim))
    names: list[str] = []
    others: list[str] = []
    for i, m in enumerate(_TERM.finditer(body)):
        word = m.group(0)
        low = word.lower()
        if len(low) < MIN_TERM_CHARS or not content_words(low):
            continue
        parts = [w for w in words(low) if w]
        if all(w in known.words or stem(w) in known.stems for w in parts):
            continue
        first = i == 0 or body[: m.start()].rstrip().endswith((".", ":", "!", "?", "("))
        made_up = any(_made_up(w, known) for w in parts if w not in known.words)
        (names if (word[0].isupper() and not first) or made_up else others).append(word)
    return UnknownTerms(tuple(dict.fromkeys(names)), tuple(dict.fromkeys(others)))


DERIVED_PREFIX = 6  # "indemnification" next to a shown "indemnify" is a form of it


def _made_up(word: str, known: Evidence) -> bool:
    """A word no English vocabulary holds and no word shown is a form of: invented wherever
    it stands (an opening "Vorlandexs, acceptors and learners …" as much as a name inside)."""
    if ordinary(word) is not False:
        return False
    return word[:DERIVED_PREFIX] not in _prefixes(known.words)


@lru_cache(maxsize=8)
def _prefixes(shown: frozenset[str]) -> frozenset[str]:
    return frozenset(w[:DERIVED_PREFIX] for w in shown if len(w) >= DERIVED_PREFIX)


def _cells(line: str) -> list[str]:
    """The cells of a table row written with pipes or tabs ([] for other lines)."""
    if "|" in line:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
    elif "\t" in line:
        cells = [c.strip() for c in line.split("\t")]
    else:
        return []
    cells = [c for c in cells if c]
    if len(cells) < 2 or all(set(c) <= set("-: ") for c in cells):
        return []
    return cells


def row_support(claim: str, text: str) -> float:
    """The largest share of the claim's content words found in one table row of `text`
    together with the table's header row: a row supports a claim whose label and value sit
    in different cells (0.0 when `text` has no table)."""
    claim_stems = {stem(w) for w in content_words(strip_citation_marks(claim))}
    if not claim_stems:
        return 0.0
    best = 0.0
    header: list[str] = []
    for line in text.splitlines():
        cells = _cells(line)
        if not cells:
            header = [] if "|" not in line and "\t" not in line else header
            continue
        if not header:
            header = cells
        row = {stem(w) for w in content_words(" ".join(header + cells))}
        best = max(best, len(claim_stems & row) / len(claim_stems))
    return best


def missing_spelled_numbers(claim: str, evidence: Evidence) -> list[str]:
    """Numbers a claim spells out ("six years") that the evidence holds neither spelled nor
    in digits; one that counts something must count the same thing there ("six years" is
    not held by a heading's "6." or by "6 months"). "one" is left out: it is as often a
    pronoun as a count."""
    body = strip_citation_marks(claim)
    out: list[str] = []
    for m in SPELLED.finditer(body):
        phrase = m.group(0)
        number = value_of(phrase)
        if number is None or phrase.lower() in ("one", "zero"):
            continue
        value = str(number)
        after = words(body[m.end() :])[:1]
        counted = after[0] if after and after[0].isalpha() else ""
        if counted and content_words(counted):
            held = (value, stem(counted)) in evidence.counts
        else:
            held = evidence.has_number(value)
        if not held:
            out.append(phrase)
    return out


def counts(text: str) -> frozenset[tuple[str, str]]:
    """(number in digits, stem of the word it counts) for every "6 years", "six-year" or
    "three (3) years" in `text`."""
    found = _COUNT.finditer(text.lower())
    return frozenset((_NUMBER_WORDS.get(m[1], m[1]), stem(m[2])) for m in found)
