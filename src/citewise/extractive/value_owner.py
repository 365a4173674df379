"""Whose value an answer states (pure). A question wanting a number, a date or a value asks
for it of some attribute ("annual bonus target", "sign"); a sentence answers it only when one
of its values stands beside a word of that attribute. A salary clause in a passage that
mentions the bonus states the salary ("a base salary of $250,000"), and a preamble's "entered
into as of August 20, 2004" dates the agreement, not its signing: neither is the value asked
for, whatever else the passage holds.
"""

from __future__ import annotations

import re

from citewise.extractive.ask_coverage import ask_terms
from citewise.question.analysis import AnswerType
from citewise.text.sentences import topic_stem

VALUE_TYPES: frozenset[AnswerType] = frozenset({"number", "time", "value"})
WINDOW = 8  # words either side of a value that may name what it is the value of
MIN_PREFIX = 4  # a stem this long matches its inflections and derivations ("sign", "signature")

# words that name the answer's form, not the attribute: "what date", "what amount"
_FORM = frozenset(
    topic_stem(w) for w in ("date", "year", "time", "amount", "number", "figure", "value", "total")
)
# a document's own kind: "his letter agreement" names the document every sentence of it is in
_DOCUMENT = frozenset(
    topic_stem(w)
    for w in ("agreement", "contract", "letter", "document", "lease", "licence", "license")
)
_MONTH = r"january|february|march|april|may|june|july|august|september|october|november|december"
_NUMBER_WORD = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
    r"|forty|fifty|hundred|thousand|million|billion|half|dozen"
)
_VALUE = re.compile(rf"\d|^(?:{_MONTH}|{_NUMBER_WORD})$", re.I)
_TOKEN = re.compile(r"[^\s\"“”()\[\],;:]+")
_CITATION = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")
_LEADING = re.compile(r"\d+(?:[.,]\d+)*")
_OWNER = re.compile(r"\b([A-Za-z][\w-]*)['’]s\b")  # "the executive's bonus": whose, not what
# "how many CWEs": what is counted governs the count, spelt as a name or not
_COUNTED = re.compile(r"\bhow\s+many\s+([A-Za-z][\w-]*)", re.I)


def asked_attribute(question: str) -> frozenset[str]:
    """The stems of what the question asks a value of: its ask's terms (`ask_terms`) but the
    words naming the answer's form or the document, nor an owner ("the executive's"), and
    the noun a "how many" counts."""
    owners = {topic_stem(m.lower()) for m in _OWNER.findall(question)}
    skip = _FORM | _DOCUMENT | owners
    asked = {s for s in ask_terms(question) if s not in skip}
    asked |= {topic_stem(m.lower()) for m in _COUNTED.findall(question)}
    return frozenset(s for s in asked if not s.isdigit())


def states_other_value(question: str, kind: AnswerType, answer: str) -> bool:
    """Whether `answer` (sentences with their `[n]`) states values for a question of `kind`
    wanting one, none of them beside a word of the asked attribute: the values it states are
    another attribute's. A value the question itself names (its year, its version) is not
    what is asked; an answer stating no value is left alone."""
    named = {_lead(t) for t in _TOKEN.findall(question.lower()) if _VALUE.search(t)}
    asked = asked_attribute(question) - named
    if kind not in VALUE_TYPES or not asked:
        return False
    stated = False
    for part in _CITATION.split(answer):
        tokens = [t.strip(".!?'’").lower() for t in _TOKEN.findall(part)]
        for i, token in enumerate(tokens):
            if not token or not _VALUE.search(token) or _lead(token) in named:
                continue
            stated = True
            near = tokens[max(0, i - WINDOW) : i + WINDOW + 1]
            if any(_names(topic_stem(w), asked) for w in near if w):
                return False
    return stated


def _lead(token: str) -> str:
    """A value as compared with the question's: its leading number ("20" of "20.x")."""
    number = _LEADING.match(token)
    return number.group() if number else token.strip(".")


def _names(word: str, asked: frozenset[str]) -> bool:
    return any(
        word == a
        or (min(len(word), len(a)) >= MIN_PREFIX and (word.startswith(a) or a.startswith(word)))
        for a in asked
    )
