"""The verdict on one sentence against the passages it cites (`lexical_verdict`, and
`check_sentence` with the judge for uncertain ones): see `grounding` for the whole check.

Per sentence, a lexical score = 0.6 × content-word overlap + 0.4 × word-trigram overlap
(the Axiom weights) against the cited passages decides clearly supported / clearly not /
uncertain. A sentence that states a value (number, size, version, identifier, quoted literal)
absent from its cited passages is unsupported whatever its score. With `known` (what the model
was shown) its words are also held to that: a capitalised name found nowhere there is
invented (unsupported); another word found nowhere there makes the sentence uncertain; a
table row supports a claim whose label and value sit in different cells.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from citewise.answer.lexical import (
    Evidence,
    missing_spelled_numbers,
    missing_values,
    row_support,
    trigram_overlap,
    unknown_terms,
    word_overlap,
)
from citewise.text.sentences import content_words, strip_citation_marks
from citewise.types import Passage
from citewise.types.document_fields import DocumentFields

Verdict = Literal["supported", "unsupported", "uncertain"]
# a name in the documents -> the role words they use for it ("Acme Corp" -> "Distributor"),
# as the alias extractor gives them
Aliases = Mapping[str, Sequence[str]]

# Lexical score per sentence: near-verbatim is supported, no more overlap than an unrelated
# passage is not, in between is the judge's job (measured: docs/measurements.md).
SUPPORTED_AT = 0.75
UNSUPPORTED_BELOW = 0.2
WORD_WEIGHT = 0.6
TRIGRAM_WEIGHT = 0.4
# An uncertain sentence without a judge still counts, at this strength, for confidence.
WEAK_SUPPORT = 0.5


class LLMJudge(Protocol):
    def judge(self, sentence: str, evidence: str) -> bool | None:
        """True: supported; False: not supported; None: could not decide."""
        ...


@dataclass(frozen=True, slots=True)
class Support:
    sentence: str
    verdict: Verdict
    score: float
    cited: tuple[int, ...] = ()
    missing: tuple[str, ...] = ()
    judged: bool = False
    recited: bool = False  # its citation was changed to the passages that support it
    trimmed: bool = False  # a clause its passages do not hold was cut from it
    written: str = ""  # trimmed: the sentence as written, and `missing` what was cut for

    @property
    def strength(self) -> float:
        """Score used for confidence: the lexical score, or the judge's verdict."""
        if self.verdict == "unsupported":
            return 0.0
        if self.verdict == "uncertain":
            return min(self.score, WEAK_SUPPORT)
        return 1.0 if self.judged else self.score


def check_sentence(
    sentence: str,
    passages_cited: Sequence[Passage],
    judge: LLMJudge | None = None,
    known: Evidence | None = None,
) -> Support:
    """The verdict on one sentence against the passages it cites; `known` (what the model
    was shown) adds the check of its words (see the module docstring)."""
    lexical = lexical_verdict(sentence, passages_cited, known)
    if lexical.verdict != "uncertain" or judge is None or not passages_cited:
        return lexical
    claim = strip_citation_marks(sentence)
    ev = Evidence.of(p.context for p in passages_cited)
    evidence = ev.text
    if known is not None and known.aliases:
        # the claim as written, the evidence with the names the passages use for its parties
        said = _renamed(claim, known.aliases, ev)[1]
        evidence += "".join(f'\n(In these passages "{held}" is {name}.)' for name, held in said)
    decided = judge.judge(claim, evidence)
    if decided is None:
        return lexical
    verdict: Verdict = "supported" if decided else "unsupported"
    return Support(sentence, verdict, lexical.score, lexical.cited, lexical.missing, judged=True)


def lexical_verdict(
    sentence: str, passages_cited: Sequence[Passage], known: Evidence | None = None
) -> Support:
    """`check_sentence` without the judge."""
    claim = strip_citation_marks(sentence)
    cited = tuple(p.n for p in passages_cited)
    if not content_words(claim):
        return Support(sentence, "supported", 1.0, cited)  # connective text: no claim
    if not passages_cited:
        return Support(sentence, "unsupported", 0.0, cited)
    ev = Evidence.of(p.context for p in passages_cited)
    if known is not None and known.aliases:
        claim = in_passage_words(claim, known.aliases, ev)
    header = Evidence.of(f"{p.hit.title} {p.hit.section} {p.hit.source}" for p in passages_cited)
    # a value named only in a cited passage's title or section heading still counts as there
    not_in_header = set(missing_values(claim, header))
    missing = tuple(v for v in missing_values(claim, ev) if v in not_in_header)
    score = WORD_WEIGHT * word_overlap(claim, ev) + TRIGRAM_WEIGHT * trigram_overlap(claim, ev)
    unknown = unknown_terms(claim, known) if known is not None else None
    if unknown is not None and unknown.names:
        missing = tuple(dict.fromkeys(missing + unknown.names))
    if known is not None:
        missing = tuple(dict.fromkeys(missing + tuple(missing_spelled_numbers(claim, ev))))
        score = max(score, row_support(claim, ev.text))
    if missing:
        return Support(sentence, "unsupported", score, cited, missing)
    if score < UNSUPPORTED_BELOW:
        return Support(sentence, "unsupported", score, cited)
    if score >= SUPPORTED_AT and not (unknown is not None and unknown.words):
        return Support(sentence, "supported", score, cited)
    return Support(sentence, "uncertain", score, cited)


def known_to_model(
    passages: Sequence[Passage], question: str, aliases: Aliases | None = None
) -> Evidence:
    """Everything the model was shown: the passages, their headings and the question;
    `aliases`: the documents' own words for the names in them (a party → its role words)."""
    texts = [p.context for p in passages]
    texts += [f"{p.hit.title} {p.hit.section} {p.hit.source}" for p in passages]
    known = Evidence.of([*texts, question])
    if not aliases:
        return known
    pairs = tuple((name, tuple(roles)) for name, roles in aliases.items() if roles)
    return replace(known, aliases=pairs)


def document_aliases(fields: Iterable[DocumentFields | None]) -> dict[str, tuple[str, ...]]:
    """The documents' own words for the names in them, as `Aliases`: each name its document
    spells (a party, an expansion) -> the terms it uses for it (a role, an abbreviation)."""
    out: dict[str, list[str]] = {}
    for f in fields:
        for name, term in f.aliases if f is not None else ():
            if name.strip() and term.strip() and name.lower() != term.lower():
                out.setdefault(name, [])
                if term not in out[name]:
                    out[name].append(term)
    return {name: tuple(terms) for name, terms in out.items()}


def in_passage_words(
    claim: str, aliases: Sequence[tuple[str, tuple[str, ...]]], ev: Evidence
) -> str:
    """`claim` with each name the evidence does not hold put in the words it does: a party
    named in the claim by its role there ("Acme Corp" → "Distributor"), a role by the
    party's name; names the evidence holds stay as written. A party may be named short
    (`name_forms`: "EFJ" for "EFJ Inc")."""
    return _renamed(claim, aliases, ev)[0]


def _renamed(
    claim: str, aliases: Sequence[tuple[str, tuple[str, ...]]], ev: Evidence
) -> tuple[str, list[tuple[str, str]]]:
    """`in_passage_words`, and the (name in the claim, word in the evidence) pairs it put."""
    pairs = [(form, roles) for name, roles in aliases for form in name_forms(name)]
    pairs += [(role, (name,)) for name, roles in aliases for role in roles]
    put: list[tuple[str, str]] = []
    for name, others in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
        found = pattern.search(claim)
        if found is None or ev.has_phrase(name):
            continue
        held = next((o for o in others if ev.has_phrase(o)), None)
        if held is not None:
            put.append((found.group(0), held))
            claim = pattern.sub(held, claim)
    return claim, put


# company forms and joining words at a name's end: "EFJ" is how an answer names "EFJ Inc"
_NAME_FORMS = frozenset(
    [
        "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc",
        "plc", "gmbh", "ag", "lp", "llp", "sa", "nv", "bv", "group", "holdings",
    ]
)  # fmt: skip
_NAME_END = re.compile(r"[\s,.]*\b(\w+)[\s,.]*$")


def name_forms(name: str) -> list[str]:
    """`name` and its shorter forms without company forms at its end ("Identive Group, Inc."
    → "Identive Group", "Identive"), each at least two characters."""
    forms = [name.strip()]
    rest = name.strip()
    while (m := _NAME_END.search(rest)) and m.group(1).lower() in _NAME_FORMS:
        rest = rest[: m.start()].rstrip(" ,.")
        if len(rest) < 2 or all(w.lower() in _NAME_FORMS for w in rest.split()):
            break
        forms.append(rest)
    return forms
