"""Does a message lean on an earlier turn? Pronouns, demonstratives and ellipsis (pure).

A pronoun only points back to an earlier turn when the message has not yet named anything it
could stand for: in "What is its default size?" nothing precedes "its", while in "If I group
records by a key, do I need to sort them first?" "them" is the records. So a pronoun counts
when fewer than two content words come before it. "Is it safe to …" uses "it" as a dummy
subject and never counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citewise.text.sentences import content_words

ReferenceKind = Literal[
    "about", "ellipsis", "possessive", "pronoun", "demonstrative", "continuation"
]

_ABOUT = re.compile(
    r"^\s*(?:(?:and|but|so|ok(?:ay)?)[\s,]+)?(?:what|how)\s+about\s+(?P<subject>.+?)[\s?.!]*$", re.I
)
# "And for the Lakewood Ranch one?": a new subject for the previous ask
_AND_SUBJECT = re.compile(
    r"^\s*(?:and|but|also|ok(?:ay)?)[\s,]+(?:(?:for|in|with|under|about|regarding|on)\s+)?"
    r"(?P<subject>[^?!,;:]+?)[\s?.!]*$",
    re.I,
)
# words that make the rest a question or clause of its own ("And how are they encrypted?")
_ASKS_ITSELF = re.compile(
    r"\b(?:what|which|who|whom|whose|when|where|why|how|if|unless|whether|is|are|was|were|do"
    r"|does|did|can|could|will|would|should|must|may|might|has|have|had|it|they|them|he|she"
    r"|i|we|you|there)\b",
    re.I,
)
BARE_SUBJECT_WORDS = 5  # a subject of at most this many words, with no verb of its own


def _bare_subject(words: str) -> bool:
    return 0 < len(words.split()) <= BARE_SUBJECT_WORDS and not _ASKS_ITSELF.search(words)


_ELLIPSIS = re.compile(
    r"(?:(?:and|but|so)\s+)?(?:why(?:\s+not)?|how\s+so|how\s+come|really|such\s+as|like\s+what"
    r"|for\s+(?:example|instance)|(?:an\s+)?examples?|which\s+one|and\s+then|then\s+what|what\s+then"
    r"|is\s+that\s+(?:right|so|true|correct)|are\s+you\s+sure|how|when|where|who|what|which|and"
    r"|but|meaning|because)",
    re.I,
)
_POSSESSIVE = re.compile(r"\b(?:its|their)\b", re.I)
_PRONOUN = re.compile(r"\b(?:it|they|them)\b", re.I)
_GENERIC_NOUN = (
    r"(?:function|method|module|class|option|command|parameter|argument|setting|value|error"
    r"|exception|approach|example|feature|library|package|thing|case|way|part|step|answer|code"
    r"|snippet|syntax|behaviou?r|trick|solution|flag|field|attribute|object|type|default|tool|file"
    r"|page|section|rule|policy|decorator|call|operator|keyword|variable|version|limit|pattern"
    r"|list|one|explanation|result|output|process|procedure)s?"
)
_DEMONSTRATIVE = re.compile(
    r"(?<!\bso )(?<!\bsuch )(?<!\bone )(?<!\bway )(?<!\ball )(?<!\bany )"
    r"\b(?:this|that|these|those)\b"
    rf"(?:\s+{_GENERIC_NOUN}\b|(?=\s*(?:$|[?.!,;:)]))|(?=\s+(?:is|was|are|were|does|do|did|mean"
    r"|means|work|works|happen|happens|apply|applies|also|still|really|in|on|with|for|to|from|by"
    r"|at|about|under|over|too|again|instead)\b))",
    re.I,
)
_AUX_DEMONSTRATIVE = re.compile(
    r"\b(?:is|are|was|were|does|do|did|can|could|will|would|should)\s+(?P<d>this|that|these|those)\b",
    re.I,
)
_ONE = re.compile(
    r"\b(?:which|that|this|the\s+other|the\s+(?:first|second|third|last|same))\s+one\b"
    r"|\bthe\s+(?:former|latter|above)\b",
    re.I,
)
_CONTINUATION = re.compile(r"^\s*(?:and|but|also|or|then|plus)\b[,\s]*", re.I)
_EXPLETIVE = re.compile(
    r"\b(?:(?:is|was|isn't|wasn't|would|will|does|did|do|can)\s+it(?:\s+be)?|it(?:'s|\s+is|\s+was"
    r"|\s+would\s+be))\s+(?:safe|possible|ok|okay|true|necessary|needed|recommended|better|best"
    r"|worth|bad|wrong|a\s+good\s+idea|advisable|required|allowed|normal|common|faster|slower"
    r"|important|easy|hard|difficult|valid|legal|mandatory|enough)\b|\bit\s+(?:takes?|took|seems"
    r"|appears|looks\s+like|turns\s+out|depends|matters)\b|\b(?:does|did|will)\s+it\s+(?:take"
    r"|matter|depend)\b|\bmake\s+it\s+(?:possible|easy|easier|hard|harder)\b",
    re.I,
)


POSSESSIVE_WORDS = 3  # "its" or "their" after fewer content words than this points back
# "… to it?" at the end points back after fewer content words than this; after more, the
# sentence has named what it stands for ("remove entries from a dict while iterating over it")
END_WORDS = 4


@dataclass(frozen=True, slots=True)
class BackReference:
    """Where a message points back: `text[start:end]` are the referring words as written;
    `subject` is X in "what about X?"."""

    kind: ReferenceKind
    start: int
    end: int
    words: str
    subject: str | None = None


def refers_back(text: str) -> bool:
    """True when `text` cannot be understood without the previous turn."""
    return find_reference(text) is not None


def find_reference(text: str) -> BackReference | None:
    """The first way `text` points back to an earlier turn, or None."""
    m = _ABOUT.match(text)
    if m and not re.search(r"[,;]\s*\w", m.group("subject")):  # "what about X, how …?" asks more
        return BackReference("about", 0, len(text), text, m.group("subject").strip())
    m = _AND_SUBJECT.match(text)
    if m and _bare_subject(m.group("subject")):  # "And for the Lakewood Ranch one?", "And CSRF?"
        return BackReference("about", 0, len(text), text, m.group("subject").strip())
    bare = " ".join(text.strip().rstrip("?.!…").split())
    if bare and _ELLIPSIS.fullmatch(bare):
        return BackReference("ellipsis", 0, len(text), text)
    found = _first_reference(text)
    if found:
        return found
    m = _CONTINUATION.match(text)
    if m and text[m.end() :].strip():
        return BackReference("continuation", m.start(), m.end(), m.group(0))
    return None


def _first_reference(text: str) -> BackReference | None:
    dummies = [(m.start(), m.end()) for m in _EXPLETIVE.finditer(text)]
    candidates: list[BackReference] = []
    for m in _POSSESSIVE.finditer(text):
        candidates.append(BackReference("possessive", m.start(), m.end(), m.group(0)))
    for m in _PRONOUN.finditer(text):
        if not any(s <= m.start() < e for s, e in dummies):
            candidates.append(BackReference("pronoun", m.start(), m.end(), m.group(0)))
    for m in _DEMONSTRATIVE.finditer(text):
        candidates.append(BackReference("demonstrative", m.start(), m.end(), m.group(0)))
    for m in _AUX_DEMONSTRATIVE.finditer(text):
        start = m.start("d")
        candidates.append(BackReference("demonstrative", start, m.end(), m.group("d")))
    for m in _ONE.finditer(text):
        candidates.append(BackReference("demonstrative", m.start(), m.end(), m.group(0)))
    for ref in sorted(candidates, key=lambda r: r.start):
        before = len(content_words(text[: ref.start]))
        # "its" leans back further: "Is there a limit on how long its members can serve?"
        limit = POSSESSIVE_WORDS if ref.kind == "possessive" else 2
        leads = before < limit or (before < END_WORDS and _ends_clause(text, ref.end))
        if leads and not _relative(text, ref):
            return ref
    return None


def _ends_clause(text: str, end: int) -> bool:
    """A demonstrative or an object pronoun at the end of a clause ("what does the manual say
    about this?", "Can anybody else publish new versions of it?")."""
    return re.match(r"\s*(?:$|[?.!;])", text[end:]) is not None and text[:end].lower().endswith(
        ("this", "that", "these", "those", " it", " them")
    )


def _relative(text: str, ref: BackReference) -> bool:
    """In "anything that is …", "that" is a relative pronoun, not a reference."""
    before = text[: ref.start].lower().split()
    return ref.words.lower() == "that" and bool(before) and before[-1].endswith("thing")
