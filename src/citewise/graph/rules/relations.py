"""Edges read from one sentence: typed relations between two named things ("X depends on Y"),
references to something elsewhere ("see X", "as described in Y"), and co-occurrence as a weak
`mentions_with` edge."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from citewise.graph.model import RelationKind, entity_key
from citewise.graph.rules.tokens import Mention

_AUX = (
    r"(?:(?:also|directly|only|always|usually|typically|now|still|must|should|may|can|will"
    r"|shall|could|might|does|do|is|are|was|were|be|been|which|that|it|and|itself|as|then"
    r"|therefore|thus|internally|heavily|primarily|mainly|often|generally)\s+)*"
)
_ACTIVE: tuple[tuple[RelationKind, str], ...] = (
    ("uses", r"uses?|used|using|makes?\s+use\s+of|relies\s+on|rely\s+on|relying\s+on"
     r"|employs?|utili[sz]es?|leverages?|calls?|invokes?|runs\s+on|stores?\s+\w+\s+in"),
    ("depends_on", r"depends?\s+(?:up)?on|depended\s+on|depending\s+on|dependent\s+on"),
    ("requires", r"requires?|required|needs?|needed"),
    ("built_on", r"built\s+(?:on|upon|on\s+top\s+of)|builds\s+on|based\s+on|layered\s+on"),
    ("part_of", r"(?:a\s+|an\s+|the\s+)?(?:part|component|module|member|subset|section|piece)"
     r"\s+of|belongs?\s+to|(?:runs|lives|resides)\s+(?:in|inside|within)"),
    ("replaces", r"replace[sd]?|supersede[sd]?|obsolete[sd]?|succeed(?:s|ed)|instead\s+of"
     r"|in\s+place\s+of|(?:the\s+)?successor\s+(?:to|of)"),
    ("updates", r"update[sd]?|amend(?:s|ed)?"),
    ("configures", r"configure[sd]?|control(?:s|led)?"),
    ("connects_to", r"connects?\s+(?:to|with)|connected\s+to|communicates?\s+with|talks?\s+to"
     r"|sends?\s+\w+\s+to"),
    ("defines", r"defines?|specif(?:y|ies)|standardi[sz]es"),
    ("is_a", r"(?:is|are|was|were)\s+(?:a|an|one)|(?:a|an)\s+(?:kind|type|form|variant)\s+of"
     r"|,\s+(?:a|an)|means?|shall\s+mean|refers\s+to|denotes|is\s+defined\s+as"),
)  # fmt: skip
_PASSIVE: tuple[tuple[RelationKind, str], ...] = (
    ("uses", r"used\s+by|employed\s+by|called\s+by|invoked\s+by"),
    ("depends_on", r"depended\s+(?:up)?on\s+by"),
    ("requires", r"required\s+by|needed\s+by"),
    ("replaces", r"replaced\s+by|superseded\s+by|obsoleted\s+by|succeeded\s+by"),
    ("updates", r"updated\s+by|amended\s+by"),
    ("configures", r"configured\s+(?:by|with|through|via)|controlled\s+by"),
    ("part_of", r"made\s+up\s+of|composed\s+of|consists\s+of|contains|includes|comprises"
     r"|is\s+divided\s+into"),
    ("defines", r"defined\s+(?:in|by)|specified\s+(?:in|by)|described\s+in"),
    ("built_on", r"underlies|is\s+the\s+basis\s+(?:of|for)"),
)  # fmt: skip
_VERSION = r"(?:\d+(?:\.\d+)*\s+)?"  # "PostgreSQL 15 uses …"
# up to three words between the verb and its object ("uses a modified version of the …"),
# none of which opens another clause
_FILLER = (
    r"(?:\s+(?!(?:and|or|but|that|which|who|when|if|while|because|not|no|unless|before|after)\b)"
    r"[a-z][\w'’-]*){0,3}"
)
_TAIL = r"\s*$"
_NEGATION = re.compile(r"\b(?:not|never|no\s+longer|cannot|n't)\b", re.I)


Patterns = list[tuple[RelationKind, re.Pattern[str]]]


def _compile(verbs: tuple[tuple[RelationKind, str], ...]) -> Patterns:
    return [
        (kind, re.compile(rf"^[\s,\"”'’]*{_VERSION}{_AUX}(?:{verb}){_FILLER}{_TAIL}", re.I))
        for kind, verb in verbs
    ]


ACTIVE = _compile(_ACTIVE)
PASSIVE = _compile(_PASSIVE)

_REFERENCE = re.compile(
    r"\b(?:see(?:\s+also)?|refer\s+to|as\s+(?:described|defined|specified|explained|documented)"
    r"\s+in|(?:described|defined|specified|explained|documented)\s+in|according\s+to|cf\.)"
    r"\s+(?:the\s+)?",
    re.I,
)
_QUOTED = re.compile(r"^[\"“‘'](?P<title>[^\"”’'\n]{3,120})[\"”’']")
# the words after "see" up to punctuation: a section title cited by name ("See Virtual
# packages - Provides", "see Syntax of relationship fields for details")
_PHRASE = re.compile(r"^(?P<phrase>[A-Z][\w'’]*(?:(?:\s+|\s*-\s*)[\w'’]+){1,7})")
CO_OCCURRENCE_WEIGHT = 0.25
MAX_CO_OCCURRING = 8  # a longer list of names is an enumeration: its pairs say little


def typed_relations(text: str, mentions: Sequence[Mention]) -> list[tuple[str, str, RelationKind]]:
    """(source key, target key, kind) for each pair of neighbouring mentions whose words
    between match a relation pattern, without a negation; an active verb's object list
    ("X requires A, B and C") gives each its edge."""
    out: list[tuple[str, str, RelationKind]] = []
    ordered = sorted((m for m in mentions if m.kind != "section"), key=lambda m: m.start)
    for i, (left, right) in enumerate(pairwise(ordered)):
        between = text[left.end : right.start]
        if left.key == right.key or _NEGATION.search(between):
            continue
        # the passive first: "is used by the" would also read as "uses"
        for kind, pattern in PASSIVE:
            if pattern.match(between):
                out.append((right.key, left.key, kind))
                break
        else:
            for kind, pattern in ACTIVE:
                if pattern.match(between):
                    out.append((left.key, right.key, kind))
                    out += [(left.key, m.key, kind) for m in _listed_after(text, ordered, i + 1)]
                    break
    return out


_LIST_JOIN = re.compile(r"^\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+)(?:the\s+|a\s+|an\s+)?$")


def _listed_after(text: str, ordered: Sequence[Mention], first: int) -> list[Mention]:
    """The mentions listed after `ordered[first]`, joined by commas, "and" or "or"."""
    out: list[Mention] = []
    for prev, nxt in pairwise(ordered[first:]):
        if not _LIST_JOIN.match(text[prev.end : nxt.start]):
            break
        out.append(nxt)
    return out


def references(text: str, mentions: Sequence[Mention]) -> list[tuple[str, str]]:
    """(key, text) of what "see …"-like phrases point at: the name just after the phrase, a
    quoted title, or the capitalised words that follow (a section title cited by name)."""
    out: list[tuple[str, str]] = []
    for m in _REFERENCE.finditer(text):
        after = text[m.end() :]
        nearest = [x for x in mentions if m.end() <= x.start <= m.end() + 2]
        if nearest:
            target = min(nearest, key=lambda x: x.start)
            out.append((target.key, target.name))
        quoted = _QUOTED.match(after)
        phrase = _PHRASE.match(after)
        if quoted and entity_key(quoted.group("title")):
            out.append((entity_key(quoted.group("title")), quoted.group("title")))
        elif phrase and len(entity_key(phrase.group("phrase")).split()) >= 2:
            out.append((entity_key(phrase.group("phrase")), phrase.group("phrase")))
    return out


def co_occurrences(mentions: Sequence[Mention]) -> list[tuple[str, str]]:
    """Each unordered pair of neighbouring distinct names in one sentence, (smaller key,
    larger key): names further apart in a sentence say little about each other."""
    ordered = [m.key for m in sorted(mentions, key=lambda m: m.start) if m.kind != "section"]
    if len(set(ordered)) > MAX_CO_OCCURRING:
        return []
    pairs = {(min(a, b), max(a, b)) for a, b in pairwise(ordered) if a != b}
    return sorted(pairs)
