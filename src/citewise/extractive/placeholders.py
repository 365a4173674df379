"""Blank, redacted and placeholder values: "$[***]", "[Fill in state]", "[ ]", "____", "¨%".

A template or a filed copy with its confidential terms removed keeps the sentence that would
state a value while the value itself is gone. Such a sentence is not an answer: stating
"$[***]" as the fee asked for invents nothing, but it tells the reader nothing either, and
read quickly it looks like a figure. The answer says the document leaves the value blank (or
redacted) and shows the sentence, cited, as a passage that does not state it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.scoring import type_fit
from citewise.question.analysis import Analysis, AnswerType
from citewise.text.sentences import split_sentences, strip_citation_marks

Blank = Literal["redacted", "blank"]

# redaction marks: "[***]", "$[***]", "[*]", "***", "█████", "[REDACTED]", "[confidential]"
_REDACTED = re.compile(
    r"\[\s*\*+\s*\]|(?<![\w*])\*{3,}(?![\w*])|[█■▇]{2,}"
    r"|\[\s*(?:redacted|confidential(?:\s+treatment\s+requested)?|omitted|intentionally\s+omitted)"
    r"\s*\]",
    re.IGNORECASE,
)
# fill-in blanks: "[Fill in state]", "[insert date]", "[ ]", "____", "[●]", "[TBD]", and a
# lost glyph where a number should stand ("¨%", "•%")
_BLANK = re.compile(
    r"\[\s*(?:fill\s+in|insert|enter|specify|add|name\s+of|tbd|tba|to\s+be\s+(?:determined|agreed"
    r"|confirmed))\b[^\]]{0,60}\]"
    r"|\[\s*\]|\[\s*[●•.…xX]{1,5}\s*\]|_{3,}|(?<![\w\d])[¨•●◆□]\s*%",
    re.IGNORECASE,
)
# a field named in capitals and never filled in: "[ADDRESS]", "[COMPANY NAME]", "[DATE]"
_FIELD = re.compile(r"\[[A-Z][A-Z .,'/&-]{2,40}\]")
_ANY = re.compile(
    r"[$€£]?\s?(?:" + _REDACTED.pattern + "|" + _BLANK.pattern + "|" + _FIELD.pattern + ")",
    re.IGNORECASE,
)
# a defined term in quotes ("“Software” means …") names what is defined, not a value
_DEFINED = re.compile(r"[\"“][A-Z][^\"”]{0,40}[\"”]")
# answer types whose value a placeholder stands in for
_VALUE_KINDS: frozenset[str] = frozenset({"number", "value", "time", "person", "place"})
_OPEN_KINDS: frozenset[str] = frozenset({"other", "definition"})

LABELS: dict[Blank, str] = {
    "redacted": "The document does not give this value: it is redacted there.",
    "blank": "The document does not give this value: it is left blank there.",
}


def placeholder(text: str) -> Blank | None:
    """ "redacted" or "blank" when `text` holds a placeholder instead of a value, else None."""
    if _REDACTED.search(text):
        return "redacted"
    if _BLANK.search(text) or _FIELD.search(text):
        return "blank"
    return None


def without_placeholders(text: str) -> str:
    """`text` with every placeholder (and a currency sign before it) and every defined term
    in quotes taken out: what is left states a value or not."""
    return _DEFINED.sub(" ", _ANY.sub(" ", text))


def leaves_blank(question: str, kind: AnswerType, sentences: Sequence[str]) -> Blank | None:
    """Whether an answer of `sentences` (the answering one first) gives the asked value only
    as a placeholder: an amount or rate asked for that stands as "$[***]" or "[ ]%" there;
    another value the question asks for (a number, a date, a name, a place) when no sentence
    states one once the placeholders are taken out; for an open question, when the answering
    sentence holds a placeholder."""
    if not sentences:
        return None
    found = [placeholder(s) for s in sentences]
    marks = [f for f in found if f]
    if not marks:
        return None
    if _AMOUNT_ASKED.search(question):
        money = [placeholder(s) for s in sentences if _AMOUNT_BLANK.search(s)]
        if money:
            return money[0]
    if kind in _VALUE_KINDS:
        if any(type_fit(kind, without_placeholders(s)) for s in sentences):
            return None
        return marks[0]
    if kind in _OPEN_KINDS:
        return found[0]
    return None


# an amount, a rate or a price asked for, and one left as a placeholder ("$[***]", "[ ]%")
_AMOUNT_ASKED = re.compile(
    r"\b(?:how\s+much|amounts?|fees?|prices?|rates?|royalt(?:y|ies)|percent(?:age)?|costs?"
    r"|payments?|compensation|salary|commissions?|discounts?|penalt(?:y|ies)|deposits?"
    r"|minimums?|maximums?|cap|limits?|sums?|interest)\b",
    re.IGNORECASE,
)
_PLACEHOLDER = "(?:" + _REDACTED.pattern + "|" + _BLANK.pattern + ")"
_AMOUNT_BLANK = re.compile(
    rf"[$€£]\s?{_PLACEHOLDER}|{_PLACEHOLDER}\s?(?:%|percent|dollars|euros)", re.IGNORECASE
)


def blanked(result: ExtractiveResult, a: Analysis) -> ExtractiveResult:
    """`result`, or when it gives the asked value only as a placeholder (`leaves_blank`),
    shown as a passage that does not state it, labelled why."""
    if result.abstained or result.kind == "none":
        return result
    sentences = [strip_citation_marks(s) for s in split_sentences(result.text)]
    blank = leaves_blank(a.question, a.answer_type, sentences)
    if blank is None:
        return result
    return replace(result, kind="passage", label=LABELS[blank], reason=f"value {blank}")
