"""Whether a sentence is set on the day, month or year the question asks about (pure).

"What does the canteen serve on Mondays?" meets "The canteen serves fish soup on Fridays."
and the reply "And lentil stew on Mondays.": the first shares every other word of the
question and matches it best, yet it answers another day. A weekday, a month or a year is a
closed set of values: a sentence naming one the question asks for is set where it asks; one
naming only others of that kind answers another question.
"""

from __future__ import annotations

import re

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
)  # fmt: skip
_DAY_NAME = re.compile(r"\b(" + "|".join(_WEEKDAYS) + r")s?\b", re.I)
# a month spelled out ("May" only before a day or year: "May 1", "May 2021", else a verb)
_MONTH = re.compile(
    r"\b(" + "|".join(m for m in _MONTHS if m != "may") + r")\b|\b(may)(?=\s+\d)", re.I
)
_YEAR = re.compile(r"(?<![\d.,$€£-])((?:19|20)\d\d)(?![\d%]|[.,]\d|\s*percent)")
# a year the question is set in follows a preposition ("in 2011"); one before a noun picks
# the document ("the 2013 changes deck", "the 2017 talk"): its subject, not its setting
_SET_IN = re.compile(
    r"\b(?:in|for|during|since|by|until|before|after|from|to|of|between|and)\s+$", re.I
)


def calendar_values(text: str, *, asked: bool = False) -> dict[str, frozenset[str]]:
    """The weekdays, months and years `text` names, by kind (kinds it names none of left
    out); `asked`: `text` is a question, whose years count only where it is set in them."""
    years = [
        m.group(1) for m in _YEAR.finditer(text) if not asked or _SET_IN.search(text[: m.start()])
    ]
    found = {
        "weekday": frozenset(m.group(1).lower() for m in _DAY_NAME.finditer(text)),
        "month": frozenset((m.group(1) or m.group(2)).lower() for m in _MONTH.finditer(text)),
        "year": frozenset(years),
    }
    return {kind: values for kind, values in found.items() if values}


def calendar_fit(asked: dict[str, frozenset[str]], sentence: str) -> float:
    """1.0 when `sentence` names a day, month or year the question asks about (`asked`:
    its `calendar_values`), -1.0 when it names only others of a kind asked about, else 0."""
    if not asked:
        return 0.0
    held = calendar_values(sentence)
    fit = 0.0
    for kind, values in asked.items():
        named = held.get(kind)
        if not named:
            continue
        if named & values:
            return 1.0
        fit = -1.0
    return fit
