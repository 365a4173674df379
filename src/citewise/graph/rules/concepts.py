"""Typed relations whose object is a common-noun phrase, not a name: "Chubby is a distributed
lock service", "Raft uses a heartbeat mechanism", "Bigtable depends on a cluster management
system". The phrase becomes a `concept` entity (two or three words, its head a noun that says
something: not "a variety of", "one table" or "us")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.graph.model import RelationKind, entity_key
from citewise.graph.rules.relations import _ACTIVE, _AUX, _NEGATION, _VERSION
from citewise.graph.rules.tokens import Mention, word_set
from citewise.text.words import STOPWORDS

_DETERMINER = r"(?:(?:the|a|an|its|their|this|these|several|multiple|some|each|every|many|one)\s+)?"
_NP = r"(?P<np>[a-z][a-z-]+(?:\s+[a-z][a-z-]+){1,5})"
_PATTERNS = [
    (kind, re.compile(rf"^[\s,\"”'’]*{_VERSION}{_AUX}(?:{verb})\s+{_DETERMINER}{_NP}", re.I))
    for kind, verb in _ACTIVE
    if kind in ("uses", "depends_on", "requires", "built_on", "is_a", "replaces", "part_of")
]
# words that end a noun phrase: prepositions, conjunctions, relative pronouns, verbs' "to"
_ENDS = word_set(
    "of for to that which who in into with and or as from by on at when where while than "
    "so because if since via per using called named like such is are was were be has have "
    "must should can will may would could does do"
)
# heads that say nothing on their own, and modifiers that add nothing
_VAGUE_HEADS = word_set(
    "variety number set lot way kind type form part collection series range amount use uses "
    "support approach thing things us them it one ones way ways time times case cases fact "
    "example instance lot deal bit piece pieces means result results"
)
_VAGUE_MODIFIERS = word_set(
    "new simple good small large single different important general common typical particular "
    "special same other various key major main basic certain very highly fast slow novel "
    "additional separate specific similar several few little much more most first second "
    "following long short"
)
MIN_WORDS, MAX_WORDS = 2, 3


def concept_relations(
    text: str, mentions: Sequence[Mention]
) -> list[tuple[str, Mention, RelationKind]]:
    """(source key, concept mention, kind) for each name followed by a relation verb whose
    object is a noun phrase rather than another name."""
    ordered = sorted((m for m in mentions if m.kind != "section"), key=lambda m: m.start)
    out: list[tuple[str, Mention, RelationKind]] = []
    for i, left in enumerate(ordered):
        end = ordered[i + 1].start if i + 1 < len(ordered) else len(text)
        after = text[left.end : end]
        for kind, pattern in _PATTERNS:
            m = pattern.match(after)
            if m is None:
                continue
            if _NEGATION.search(after[: m.start("np")]):
                break
            phrase = _phrase(m.group("np"))
            if phrase:
                start = left.end + m.start("np")
                concept = Mention(entity_key(phrase), phrase, "concept", start, start + len(phrase))
                if concept.key != left.key:
                    out.append((left.key, concept, kind))
            break
    return out


def _phrase(words_text: str) -> str:
    words: list[str] = []
    for word in words_text.split():
        if word in _ENDS or word in STOPWORDS or not word.islower():
            break
        if words and word.endswith(("ing", "ed")):
            break  # a participle opens a modifier: "the copyright owner granting …"
        words.append(word)
    while words and words[0] in _VAGUE_MODIFIERS:
        words = words[1:]
    if not MIN_WORDS <= len(words) <= MAX_WORDS or words[-1] in _VAGUE_HEADS:
        return ""
    if any(w.endswith("ly") or (w.endswith("ing") and w == words[-1]) for w in words):
        return ""
    return " ".join(words)
