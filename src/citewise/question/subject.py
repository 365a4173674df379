"""What a definitional question asks about (pure): "What is a descriptor?", "What does
functools.lru_cache do?", "How do generators work?", "What does Counter.most_common() return?"."""

from __future__ import annotations

import re

from citewise.text.identifiers import command_options
from citewise.text.sentences import content_words, stem

_QUESTION = re.compile(
    r"^\s*(?:what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<a>.+?)"
    r"|what\s+(?:does|do)\s+(?P<b>.+?)\s+(?:do|return|provide|offer)"
    r"|how\s+(?:does|do)\s+(?P<c>.+?)\s+work"
    r"|(?:explain|describe|define)\s+(?:an?\s+|the\s+)?(?P<d>.+?))\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_CONTEXT = re.compile(r"\s+(?:in|of|for|with)\s+(?:python|the\s+\w+\s+module|\w+'s\s+\w+).*$", re.I)
# "… in Python?", "… with asyncio?": where the question is set, not what it asks about
_TRAILING_CONTEXT = re.compile(r"\s+(?:in|with|on|under)\s+[\w .'’-]{1,40}?(?=\s*[?.!]*\s*$)", re.I)
MAX_SUBJECT_WORDS = 4
_KINDS = frozenset(
    {"module", "package", "function", "method", "class", "decorator", "keyword", "declaration"}
)
_PURPOSE = re.compile(r"^(?:the\s+)?(?:purpose|point|meaning|role|job)\s+of\s+", re.I)


def without_setting(question: str) -> str:
    """The question without a trailing "in Python" / "with asyncio": the setting, which a
    definition need not repeat."""
    return _TRAILING_CONTEXT.sub("", question)


def definition_subject(question: str) -> tuple[str, ...]:
    """Stems of what a definitional question asks about, or () for other questions."""
    m = _QUESTION.match(_TRAILING_CONTEXT.sub("", question))
    if not m:
        return ()
    subject = _CONTEXT.sub("", next(g for g in m.groups() if g))
    subject = _PURPOSE.sub("", subject)  # "the purpose of the __slots__ declaration"
    if options := command_options(subject):
        return (options[0],)  # "the -m command line option", "python -B": the option itself
    if re.search(r"\b(?:of|to|when|if|between)\b", subject, re.I):
        return ()  # "the default size of X", "the difference between …": not a definition
    words = content_words(spaced(subject))
    if len(words) > 1 and words[-1] in _KINDS:
        words = words[:-1]  # "the bisect module": bisect, which its page's title leads with
    if not words or len(words) > MAX_SUBJECT_WORDS:
        return ()
    return tuple(stem(w) for w in words)


def spaced(text: str) -> str:
    return text.replace(".", " ").replace("_", " ")
