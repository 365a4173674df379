"""The question analysed once (pure): what kind of answer it expects, what it is about, the
names an answer must mention and the parts it asks in turn. `analyse` is called once per
question; the stages after it read the `Analysis` instead of parsing the question again.

The expected answer type is read from the question's surface: "How many …?" wants a number,
"What is the default …?" a value, "Is/Does/Can …?" a decision, "What is X?" a definition,
"How do I …?" a procedure, "Where …?" a place, "When …?" a time, "Who …?" a person or body,
"Why …?" a reason, "What are the …s?" a list, "difference between A and B" a comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citewise.question.asks import asks_about_change, asks_about_history, asks_place
from citewise.question.subject import definition_subject
from citewise.question.terms import compared, facets, focus, key_terms, names, versions

AnswerType = Literal[
    "number",
    "value",
    "yes_no",
    "definition",
    "procedure",
    "place",
    "time",
    "reason",
    "person",
    "list",
    "comparison",
    "other",
]

_AUX = r"(?:is|are|was|were|does|do|did|can|could|should|must|may|might|will|would|has|have|had)"
_YES_NO = re.compile(rf"^\W*{_AUX}\s+(?!there\s+(?:any|a)\s+\w+\s+(?:that|which)\b)", re.I)
_NUMBER = re.compile(
    r"\bhow\s+(?:many|much|long|old|large|big|often|far)\b"
    r"|\bwhat\s+(?:percentage|proportion|fraction|number|amount)\b",
    re.I,
)
_TIME = re.compile(
    r"^\W*when\b|\b(?:what|which)\s+(?:year|date|day|month|time|release|version)\b", re.I
)
_PERSON = re.compile(r"^\W*(?:who|whom|whose)\b|\bby\s+whom\b", re.I)
_REASON = re.compile(r"^\W*why\b|\bfor\s+what\s+reason\b|\bwhat\s+is\s+the\s+reason\b", re.I)
_PROCEDURE = re.compile(
    r"^\W*how\s+(?:do|can|should|would|could|must)\s+(?:i|you|we|one|users?)\b"
    r"|^\W*how\s+to\b|\bwhat\s+(?:steps|must\s+\w+\s+do)\b",
    re.I,
)
_LIST = re.compile(
    r"^\W*(?:what|which)\s+(?:are|were)\s+(?:the\s+)?(?:\w+\s+){0,3}?\w+s\b"
    r"|^\W*(?:list|name)\s+(?:the|all)\b|\bwhat\s+(?:kinds|types|forms)\s+of\b",
    re.I,
)
_DEFAULT = re.compile(r"\bdefaults?\b", re.I)
# "What is the default …", "Which licence …", "What is the name/size/limit of …"
_VALUE = re.compile(
    r"\bdefaults?\b|^\W*(?:what|which)\s+(?:\w+\s+){0,2}?(?:is|are|was|were|does|do)\b"
    r"|^\W*(?:what|which)\s+\w+\b",
    re.I,
)


# a name spelt as code (dotted, snake_case, a call, an option, a long CamelCase or CAPITALS
# word such as PYTHONMAXRECURSION) or a version: documents that discuss it spell it the same way
_CODE_SPELLING = re.compile(r"[._(]|^-|\d\.\d|^\w{8,}$")


def _required(
    terms: tuple[str, ...], versions_named: tuple[str, ...], code_names: bool
) -> tuple[str, ...]:
    required = tuple(t for t in terms if code_names or _CODE_SPELLING.search(t))
    if terms and not required:  # only acronyms: the question's version is its subject again
        required = versions_named
    return required


@dataclass(frozen=True, slots=True)
class Analysis:
    question: str
    answer_type: AnswerType
    subject: tuple[str, ...]  # stems of what a definitional question asks about
    focus: str | None  # the attribute an attribute question asks for ("size")
    key_terms: tuple[str, ...]  # identifiers or versions an answer must be about
    versions: tuple[str, ...]  # product versions it names ("3.13" in "Python 3.13")
    names: tuple[str, ...]  # proper names the answer should mention
    parts: tuple[str, ...]  # the parts asked in turn (one for a simple question)
    asks_place: bool  # "Where …?"
    asks_history: bool  # about versions at all
    asks_change: bool  # about a change, not merely naming a version

    def required(self, *, code_names: bool = False) -> tuple[str, ...]:
        """The names a passage must mention to answer the question: identifiers spelt as code
        and versions; with `code_names`, CamelCase and CAPITALS words too (in reference
        documentation they name code entities; elsewhere "GPLv3" may be written "GPL
        version 3")."""
        return _required(self.key_terms, self.versions, code_names)


def analyse(question: str) -> Analysis:
    """Everything the later stages read from the question's surface, computed once."""
    subject = definition_subject(question)
    return Analysis(
        question=question,
        answer_type=answer_type(question, subject),
        subject=subject,
        focus=focus(question),
        key_terms=tuple(key_terms(question)),
        versions=tuple(versions(question)),
        names=tuple(names(question)),
        parts=tuple(facets(question)),
        asks_place=asks_place(question),
        asks_history=asks_about_history(question),
        asks_change=asks_about_change(question),
    )


def answer_type(question: str, subject: tuple[str, ...] | None = None) -> AnswerType:
    """The kind of answer `question` expects (see the module docstring); `subject`: its
    `definition_subject`, when the caller has it."""
    q = " ".join(question.split())
    if subject is None:
        subject = definition_subject(q)
    if compared(q):
        return "comparison"
    if _NUMBER.search(q):
        return "number"
    if asks_place(q):
        return "place"
    if _REASON.search(q):
        return "reason"
    if _PERSON.search(q):
        return "person"
    if _TIME.search(q):
        return "time"
    if _YES_NO.search(q):
        return "yes_no"
    if _PROCEDURE.search(q):
        return "procedure"
    if _DEFAULT.search(q):
        return "value"
    if subject:
        return "definition"
    if _LIST.search(q):
        return "list"
    if _VALUE.search(q):
        return "value"
    return "other"
