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

from citewise.extractive.ask_coverage import ask_terms
from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.scoring import type_fit
from citewise.question.analysis import Analysis, AnswerType
from citewise.question.terms import focus
from citewise.text.sentences import (
    content_words,
    split_sentences,
    stem,
    stems,
    strip_citation_marks,
    topic_stem,
)

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
    counted = counted_blank(question, sentences)
    if counted is not None:
        return counted
    if kind in _VALUE_KINDS:
        # a value stated in a sentence about something else ("the Agreement dated April 1")
        # does not fill the blank of the one about what is asked ("the plan dated ____")
        asked = max(ask_held(question, s) for s in sentences if placeholder(s))
        if any(
            type_fit(kind, without_placeholders(s))
            and ask_held(question, s) >= asked
            and not blank_after_focus(question, s)
            for s in sentences
        ):
            return None
        return marks[0]
    if kind in _OPEN_KINDS:
        return found[0]
    return None


def ask_held(question: str, sentence: str) -> int:
    """How many of the question's ask terms (`ask_coverage.ask_terms`) `sentence` holds."""
    has = {topic_stem(w) for w in content_words(sentence)} | stems(sentence)
    return sum(t in has for t in ask_terms(question))


FOCUS_GAP = 2  # words between the asked attribute and the placeholder ("DATED: ____")


def blank_after_focus(question: str, sentence: str) -> bool:
    """Whether a placeholder stands right after the attribute the question asks for
    (`question.terms.focus`: "date" in "What is the date of the plan?", "PLAN DATED ____")."""
    head = focus(question)
    if head is None:
        return False
    for m in _ANY.finditer(sentence):
        before = content_words(sentence[: m.start()])[-(FOCUS_GAP + 1) :]
        if any(stem(w) == head for w in before):
            return True
    return False


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


# "How many Ceres Ventures shares does …": the counted noun, before the verb
_HOW_MANY = re.compile(
    r"\bhow\s+many\s+(?P<what>(?:[\w'’-]+\s+){0,4}?[\w'’-]+?)\s+(?:does|do|did|is|are|was|were|will"
    r"|would|can|could|shall|should|must|may|has|have|had)\b",
    re.IGNORECASE,
)
COUNTED_GAP = 3  # words a placeholder may stand before the counted noun ("[***] common shares")


def counted_blank(question: str, sentences: Sequence[str]) -> Blank | None:
    """For "how many X …?": the placeholder that stands for the count of X in `sentences`
    ("[****] shares of Licensee's common stock"), else None."""
    m = _HOW_MANY.search(question)
    if m is None:
        return None
    noun = re.sub(r"(?:es|s)$", "", m.group("what").split()[-1].lower())
    if len(noun) < 3:
        return None
    near = re.compile(
        rf"{_PLACEHOLDER}\s+(?:[\w'’-]+\s+){{0,{COUNTED_GAP}}}?{re.escape(noun)}", re.IGNORECASE
    )
    return next((placeholder(s) for s in sentences if near.search(s)), None)


# a sentence that introduces what follows it: "Notices … shall be addressed as follows:"
_LEAD_IN = re.compile(r"\bas\s+follows\b|:\s*$", re.IGNORECASE)
FOLLOWING_CHARS = 120  # what a lead-in introduces, read on in its passage this far
TAIL_CHARS = 30  # the end of an answer sentence, found again in its passage


def introduced(sentences: Sequence[str], contexts: Sequence[str]) -> list[str]:
    """`sentences`, each lead-in with the line it introduces in its passage (`contexts`)
    that the answer left out ("… addressed as follows: Akai Studio LLC" + "[ADDRESS]")."""
    out: list[str] = []
    flats = [" ".join(c.split()) for c in contexts]
    for sentence in sentences:
        out.append(sentence)
        if not _LEAD_IN.search(sentence):
            continue
        tail = " ".join(sentence.split()).rstrip(".")[-TAIL_CHARS:]
        for flat in flats:
            at = flat.find(tail)
            if at >= 0:
                following = flat[at + len(tail) : at + len(tail) + FOLLOWING_CHARS]
                line = split_sentences(following.lstrip(". "))[:1]
                out[-1] = " ".join([sentence, *line])
                break
    return out


def answer_units(text: str) -> list[str]:
    """The sentences of an extractive answer, split at its citation marks too (a unit the
    answer joined, "… Akai Studio LLC [1] Notices to Licensee …", is two)."""
    pieces = [p for p in _MARK.split(text) if re.search(r"\w", p)]
    return [strip_citation_marks(s) for p in pieces for s in split_sentences(p)]


_MARK = re.compile(r"\s*\[\d+(?:,\s*\d+)*\]\s*")


def blanked(result: ExtractiveResult, a: Analysis) -> ExtractiveResult:
    """`result`, or when it gives the asked value only as a placeholder (`leaves_blank`),
    shown as a passage that does not state it, labelled why; a lead-in's line the answer
    left out is read too (the address "as follows:" introduces may be "[ADDRESS]")."""
    if result.abstained or result.kind == "none":
        return result
    units = answer_units(result.text)
    sentences = introduced(units, [p.context for p in result.used_passages])
    blank = leaves_blank(a.question, a.answer_type, sentences)
    if blank is None:
        return result
    return replace(result, kind="passage", label=LABELS[blank], reason=f"value {blank}")
