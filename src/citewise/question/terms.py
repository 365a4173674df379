"""What a question is about, read from its surface (pure): the names an answer must mention,
and the parts of a question that asks several things at once.

- Key terms: code identifiers and constants (`typing.override`, `exist_ok`, `PYTHONPATH`).
  A question naming one of them is about that thing; passages that never mention it cannot
  answer it. When a question names no identifier, a product version ("Python 3.13") is its
  subject and becomes the key term instead (as a qualifier next to an identifier — "the value
  of pickle.DEFAULT_PROTOCOL in Python 3.11" — it is not).
- Names: capitalised words inside the sentence ("with Poetry"). Weaker evidence (a document
  may say "the tool" instead), so a missing name lowers the score instead of vetoing.
- Facets: "X, and how do I Y?" asks two things; "difference between A and B" asks about two
  items. Each facet gets its own best sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from citewise.text.headings import last_heading
from citewise.text.identifiers import identifiers, spaced_heading
from citewise.text.sentences import content_words, stem, topic_stem
from citewise.types import Passage

_VERSION = re.compile(r"\b[A-Z][A-Za-z]+\s+v?(\d+\.\d+(?:\.\d+)?)(?![\w.])")
_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]{2,}(?:'s)?\b")
_WH = r"(?:how|what|which|when|where|why|who|can|could|do|does|did|is|are|should|must|will)"
_CLAUSES = re.compile(
    rf",\s+(?:and|but)\s+(?=(?:(?:in|on|at|for|with|from|by|to)\s+)?{_WH}\b)|;\s+", re.I
)
_FILE_EXTENSIONS = frozenset(
    {"bat", "cfg", "csv", "exe", "gz", "html", "ini", "json", "md", "py", "pyc", "sh", "toml"}
    | {"txt", "xml", "yaml", "yml", "zip"}
)
_NOT_NAMES = frozenset({"true", "false", "none", "null"})
_COMPARE = (
    re.compile(r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.I),
    re.compile(
        r"^(?:how|in what way)\s+(?:do|does)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+differ", re.I
    ),
    re.compile(r"(?P<a>\S+(?:\s+\S+)?)\s+(?:compare|compares)\s+(?:with|to)\s+(?P<b>.+)$", re.I),
    re.compile(r"^(?P<a>.+?)\s+(?:vs\.?|versus|instead of|rather than)\s+(?P<b>.+)$", re.I),
)

_LEADING_AUX = re.compile(rf"^(?:{_WH}\s+)+", re.I)  # "does pickle compare with …" → "pickle"

# "What is the <attribute> of X?" / "How many <unit> …?": the attribute asked for. An answer
# must name it; generic attributes ("the value of", "the kind of") say nothing about it.
_FOCUS = re.compile(
    r"\b(?:what|which)\s+(?:is|are|was|were)\s+the\s+(?P<a>[\w\s-]+?)\s+(?:of|for|in|used)\b"
    r"|\bhow\s+(?:many|much)\s+(?P<b>[\w-]+)",
    re.I,
)
_GENERIC_FOCUS = frozenset(
    {"value", "values", "default", "kind", "type", "name", "purpose", "meaning", "difference"}
    | {"use", "role", "result", "effect", "way", "number", "amount", "best", "main"}
    # degrees and order say which value, not what it is of
    | {"largest", "smallest", "maximum", "minimum", "highest", "lowest", "most", "least"}
    | {"longest", "shortest", "first", "last", "latest", "current", "earliest", "oldest"}
)


def focus(question: str) -> str | None:
    """The stem of the head word of the attribute an attribute question asks for ("size" in
    "What is the default size of the pool?"), or None."""
    m = _FOCUS.search(question)
    if not m:
        return None
    words = [
        w for w in content_words(m.group("a") or m.group("b") or "") if w not in _GENERIC_FOCUS
    ]
    return stem(words[-1]) if words else None


_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b|\bwhat\s+(?:percentage|number)\b", re.I)
_QUANTITY = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twice|once|half|no)\b", re.I
)


def asks_quantity(question: str) -> bool:
    """ "How many …?", "how much …?": the answer states a quantity."""
    return bool(_HOW_MANY.search(question))


def states_quantity(sentence: str) -> bool:
    """Whether a sentence states a quantity (a numeral or a number word)."""
    return bool(_QUANTITY.search(sentence))


# "What does X raise …?", "Which exception is raised when …?", "What error does X throw?"
_ASKS_ERROR = re.compile(
    r"^\W*(?:what|which)\s+(?:exceptions?|errors?)\b"
    r"|^\W*(?:what|which)\s+(?:\S+\s+){0,4}?(?:raise[sd]?|throws?|thrown)\b",
    re.I,
)
_NAMES_ERROR = re.compile(
    r"\b(?:[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt)|ERR_[A-Z0-9_]+)\b"
)


_DEFAULT = re.compile(r"\bdefaults?\b", re.I)


def asks_default(question: str) -> bool:
    """ "What is the default weight …?": the answer says what the default is."""
    return bool(_DEFAULT.search(question)) and not asks_quantity(question)


def states_default(sentence: str) -> bool:
    """Whether a sentence speaks of a default ("The default weight value is 50", "(the
    default)", "Default: 1024 * 1024")."""
    return bool(_DEFAULT.search(sentence))


def asks_error(question: str) -> bool:
    """ "What does X raise?", "Which exception …?": the answer names an exception."""
    return bool(_ASKS_ERROR.search(question))


def names_error(sentence: str) -> bool:
    """Whether a sentence names an exception class or an error code (ERR_INVALID_ARG_TYPE)."""
    return bool(_NAMES_ERROR.search(sentence))


def key_terms(question: str) -> list[str]:
    """Lower-cased names an answer must be about: identifiers, else versions."""
    found = [t.lower() for t in identifiers(question) if not _is_file_name(t)]
    if not found:
        found = [m.group(1) for m in _VERSION.finditer(question)]
    return list(dict.fromkeys(found))


def versions(question: str) -> list[str]:
    """Product versions the question names ("Python 3.13" → 3.13, "FHS 4.0" → 4.0)."""
    return list(dict.fromkeys(m.group(1) for m in _VERSION.finditer(question)))


def names(question: str) -> list[str]:
    """Capitalised words inside the question that are not identifiers: likely proper nouns."""
    idents = {t.lower() for t in identifiers(question)}
    out = [m.group(0).removesuffix("'s").lower() for m in _NAME.finditer(question)]
    return [n for n in dict.fromkeys(out) if n not in idents and n not in _NOT_NAMES]


def _is_file_name(term: str) -> bool:
    """`pyproject.toml` is something the question acts on, not what it asks about."""
    return "." in term and term.rsplit(".", 1)[-1].lower() in _FILE_EXTENSIONS


def clauses(question: str) -> list[str]:
    """The clauses of a question that asks several things in turn ("How do I read X, and in
    which mode …?"); one for any other question."""
    q = " ".join(question.strip().rstrip("?.!").split())
    parts = [p.strip(" ,;") for p in _CLAUSES.split(q)]
    parts = [p for p in parts if len(content_words(p)) >= 2]
    return parts if len(parts) > 1 else [q]


def facets(question: str) -> list[str]:
    """The parts of a question that asks several things (its clauses, or the two sides it
    compares); one part for a simple question."""
    parts = clauses(question)
    if len(parts) > 1:
        return carry_subject(parts)
    q = parts[0]
    sides = compared(q)
    return [f"What is {side}?" for side in sides] if sides else [q]


def compared(question: str) -> tuple[str, str] | None:
    """The two things a comparison question sets side by side, or None."""
    q = " ".join(question.strip().rstrip("?.!").split())
    for pattern in _COMPARE:
        m = pattern.search(q)
        if not m:
            continue
        a = _LEADING_AUX.sub("", m.group("a").strip())
        b = m.group("b").strip()
        if content_words(a) and content_words(b):
            return a, b
    return None


def contrast_terms(question: str) -> tuple[str, str] | None:
    """For a comparison question, one word stem that tells each side from the other
    ("pickle" / "json", "shallow" / "deep"): a sentence naming both sets them side by side."""
    sides = compared(question)
    if sides is None:
        return None
    a, b = ([topic_stem(w) for w in content_words(re.sub(r"[()]", " ", s))] for s in sides)
    only_a = [w for w in a if w not in b]
    only_b = [w for w in b if w not in a]
    return (only_a[0], only_b[0]) if only_a and only_b else None


_PRONOUN = re.compile(r"\b(?:it|its|they|them|their|this|that one)\b", re.I)


def carry_subject(parts: list[str]) -> list[str]:
    """Later parts of a question that say "it" ("… and how do I make it unbounded?") get the
    first part's named subject appended, so each part can be searched and scored alone."""
    names = [n for p in parts[:1] for n in identifiers(p)]
    if not names:
        return parts
    return [parts[0]] + [
        f"{p} ({names[0]})" if _PRONOUN.search(p) and names[0] not in p else p for p in parts[1:]
    ]


def mentions(p: Passage, term: str) -> bool:
    """True when the passage (text or header) names `term`. A dotted name also counts when
    its last part appears in code form (`.info`, `info(`, `@info`) and its head anywhere:
    reference pages document `pkg.func` as `func(...)` under a heading naming `pkg`."""
    h = p.hit
    hay = f"{p.context}\n{h.title}\n{h.section}\n{h.source}".lower()
    # a version also stands after a name's hyphen (lgpl-2.1), never after a minus or a range
    before = r"(?:(?<![\w-])|(?<=[a-z]-))" if term[:1].isdigit() else r"(?<![\w-])"
    if re.search(rf"{before}{re.escape(term)}(?![\w]|\.\d)", hay):
        return True
    if spaced_heading(term, h.section):
        return True
    if "." not in term or term[0].isdigit():
        return False
    head, last = term.split(".", 1)[0], term.rsplit(".", 1)[-1]
    code_form = rf"(?:[.@]{re.escape(last)}(?!\w)|(?<![\w.]){re.escape(last)}\s*\()"
    return head in hay and re.search(code_form, hay) is not None


def headed_by(p: Passage, term: str) -> bool:
    """True when the passage's own heading (the last of its section path) names `term`:
    the passage documents it rather than mentions it."""
    heading = last_heading(p.hit.section).lower()
    if re.search(rf"(?<![\w.-]){re.escape(term)}(?![\w]|\.\w)", heading):
        return True
    return spaced_heading(term, p.hit.section)


class _Sentence(Protocol):
    @property
    def text(self) -> str: ...


T = TypeVar("T", bound=_Sentence)


# what a question asks for, the sentences that state it, and whether the question must name
# the attribute it asks about (`focus`) for the rule to apply
_ASKED_FOR: tuple[tuple[Callable[[str], bool], Callable[[str], bool], bool], ...] = (
    (asks_quantity, states_quantity, True),  # "How many …?": "Pickle has 6 of them."
    (asks_default, states_default, True),  # "What is the default weight …?"
    (asks_error, names_error, False),  # "What does X raise?": "… raises IndexError."
)


def stating_what_is_asked(question: str, fits: list[T], *, focused: bool = True) -> list[T]:
    """`fits` narrowed to the sentences that state what the question asks for (a quantity, a
    default, an exception), for each such request that some sentence meets."""
    for asks, states, needs_focus in _ASKED_FOR:
        if (focused or not needs_focus) and asks(question):
            fits = [x for x in fits if states(x.text)] or fits
    return fits


def narrowed_to(fits: list[T], keep: Callable[[T], bool], answers: Callable[[T], bool]) -> list[T]:
    """`fits` (best first) narrowed to those `keep` accepts when the best of them `answers`
    (clears the abstention thresholds) on its own; else unchanged, so preferring a kind of
    sentence never turns an answer into a refusal."""
    kept = [x for x in fits if keep(x)]
    return kept if kept and answers(kept[0]) else fits
