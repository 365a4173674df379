"""Answer-type matching (pure): whether a sentence's form fits the kind of answer its question
expects. A value question wants a sentence that states a value ("The default is 10."), a
number question one that states a quantity, a yes/no question one that decides it ("must",
"may not", "only if"), a time question a date or a version, a reason question a cause, a
place question a path or a location. The answerer adds `type_weight × fit` to a sentence's
score, so a short sentence stating the value beats a long one that only repeats the question.
"""

from __future__ import annotations

import re

from citewise.question.analysis import AnswerType
from citewise.rules.places import names_place

_NUMERAL = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty"
    r"|hundred|thousand|million|twice|once|half|dozen)\b",
    re.I,
)
# a value stated: "is 10", "defaults to", "(the default)", "Default: 1024", a quoted literal,
# "set to", "is called X"
_STATES_VALUE = re.compile(
    r"\bdefaults?\b|\bset\s+to\b|\bis\s+(?:called|named|known\s+as)\b"
    r"|[\"“'`][^\"”'`]{1,40}[\"”'`]|\d",
    re.I,
)
_DECIDES = re.compile(
    r"\b(?:must|shall|may|can(?:not)?|can't|never|always|only|required|requires?|permit(?:s|ted)?"
    r"|allow(?:s|ed)?|prohibit(?:s|ed)?|forbid(?:s|den)?|not|no|yes|unless|except)\b",
    re.I,
)
_TIME_STATED = re.compile(
    r"\b(?:1[5-9]|20)\d\d\b|\b(?:january|february|march|april|may|june|july|august|september"
    r"|october|november|december)\b|\bversion\s+\d|\bv?\d+\.\d+\b"
    r"|\b(?:after|before|since|until|within|when|once)\b",
    re.I,
)
_REASON_STATED = re.compile(
    r"\b(?:because|since|so\s+that|in\s+order\s+to|due\s+to|as\s+a\s+result|therefore|thus"
    r"|the\s+reason|to\s+(?:avoid|prevent|ensure|allow|make))\b",
    re.I,
)
# a person or body named: two capitalised words ("Ian Murdock"), or a role ("the Project
# Leader", "the committee")
_PERSON_STATED = re.compile(
    r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+\s+[A-Z][a-z]+\b|\b(?:leader|committee|secretary|board"
    r"|maintainers?|authors?|developers?|members?|council|foundation)\b"
)
# a step stated: an instruction ("Add a line …", "Run …"), "you can/should …", "To do X, …"
_PROCEDURE_STATED = re.compile(
    r"^\W*(?:to\s+\w+\b.*,|(?:add|use|run|set|call|type|send|put|create|open|install|enter"
    r"|select|click|choose|write|pass|specify|include|edit|make|start|remove|delete|mark|mail"
    r"|contact|ask|submit|check|invoke|import|configure|change|copy|move|place|provide|apply"
    r"|follow|upload|download|register|sign|log|press|append|insert|replace|tell)\b)"
    r"|\byou\s+(?:can|should|must|may|need\s+to|have\s+to|will\s+need\s+to)\b",
    re.I,
)
_LIST_STATED = re.compile(r":\s|(?:[^,]+,){2,}|^\s*[-*•]\s|\b(?:include|including|such\s+as)\b")


def type_fit(kind: AnswerType, sentence: str) -> float:
    """1.0 when `sentence` has the form of an answer of `kind`, else 0.0; kinds without a
    telling form (definitions, comparisons, other) fit every sentence alike."""
    if kind == "number":
        return float(bool(_NUMERAL.search(sentence)))
    if kind == "value":
        return float(bool(_STATES_VALUE.search(sentence)))
    if kind == "yes_no":
        return float(bool(_DECIDES.search(sentence)))
    if kind == "time":
        return float(bool(_TIME_STATED.search(sentence)))
    if kind == "reason":
        return float(bool(_REASON_STATED.search(sentence)))
    if kind == "person":
        return float(bool(_PERSON_STATED.search(sentence)))
    if kind == "place":
        return float(names_place(sentence))
    if kind == "procedure":
        return float(bool(_PROCEDURE_STATED.search(sentence)))
    if kind == "list":
        return float(bool(_LIST_STATED.search(sentence)))
    return 0.0


def is_table_row(sentence: str) -> bool:
    """A row of a table flattened into one line ("Column Type Description: specific_name
    sql_identifier …", "| a | b | c |"): many short cells and no sentence structure."""
    if sentence.count("|") >= 3 or sentence.count("\t") >= 2:
        return True
    words = sentence.split()
    if len(words) < 6:
        return False
    verbs = re.search(
        r"\b(?:is|are|was|were|be|has|have|must|may|can|will|shall|should|does|do)\b", sentence
    )
    snake = sum(1 for w in words if "_" in w)
    return verbs is None and (snake >= 2 or not re.search(r"[.!?]\s*$", sentence))


_SHEET_ROW = re.compile(r"^[^·:]{1,80}: [^·]+(?: · [^·:]{1,80}: [^·]+)+$")
_SMALL = frozenset({"a", "an", "the", "of", "and", "or", "for", "to", "in", "on", "with", "by"})


def is_title(sentence: str) -> bool:
    """A heading or title left in the text ("The Debian Linux Manifesto", "Appendix The
    Debian Manifesto"): no closing punctuation and its words capitalised. It names a topic
    and states nothing."""
    text = sentence.strip()
    if not text or text[-1] in '.!?:;)"”’':
        return False
    if _SHEET_ROW.match(text):  # a spreadsheet row ("Port: Kiel · Depth: 12") states values
        return False
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", text) if w.lower() not in _SMALL]
    return bool(words) and sum(w[0].isupper() for w in words) >= 0.8 * len(words)
