"""Grounding check: is each sentence of an answer supported by the passages it cites?

Per sentence, a lexical score = 0.6 × content-word overlap + 0.4 × word-trigram overlap
(the Axiom weights) against the cited passages decides clearly supported / clearly not /
uncertain. A sentence that states a value (number, size, version, identifier, quoted literal)
absent from its cited passages is unsupported whatever its score: the assistant never states a
value that is not in a cited passage. Uncertain sentences go to an optional `LLMJudge`;
without one they count as weakly supported.

For an LLM's answer (`terms=True`) every word is also held to what the model was shown (all
passages, their headings and the question): a capitalised name found nowhere there is
invented (unsupported); another word found nowhere there makes the sentence uncertain, for the
judge; a table row supports a claim whose label and value sit in different cells (its words
counted in the row and the header together). A sentence its cited passages do not support
is re-cited, instead of being dropped, to another passage shown that supports it clearly, or
else to one of the closest few the judge confirms (`repair=True`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from citewise.answer.citations import match_reference, parse_references
from citewise.answer.lexical import (
    Evidence,
    missing_spelled_numbers,
    missing_values,
    row_support,
    trigram_overlap,
    unknown_terms,
    word_overlap,
)
from citewise.text.sentences import (
    attach_marker,
    content_words,
    split_sentences,
    strip_citation_marks,
)
from citewise.types import Passage

Verdict = Literal["supported", "unsupported", "uncertain"]

# Lexical score per sentence: near-verbatim is supported, no more overlap than an unrelated
# passage is not, in between is the judge's job (measured: docs/measurements.md).
SUPPORTED_AT = 0.75
UNSUPPORTED_BELOW = 0.2
WORD_WEIGHT = 0.6
TRIGRAM_WEIGHT = 0.4
# An uncertain sentence without a judge still counts, at this strength, for confidence.
WEAK_SUPPORT = 0.5
MAX_RETRIES = 2  # stricter regenerations before unsupported sentences are dropped
RECITE_JUDGED = 3  # other passages the judge may be asked about for a wrongly cited sentence


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
    recited: bool = False  # its citation was changed to the passage that supports it

    @property
    def strength(self) -> float:
        """Score used for confidence: the lexical score, or the judge's verdict."""
        if self.verdict == "unsupported":
            return 0.0
        if self.verdict == "uncertain":
            return min(self.score, WEAK_SUPPORT)
        return 1.0 if self.judged else self.score


@dataclass(frozen=True, slots=True)
class GroundingReport:
    sentences: tuple[Support, ...]
    grounded: bool
    supported_text: str

    @property
    def unsupported(self) -> tuple[str, ...]:
        return tuple(s.sentence for s in self.sentences if s.verdict == "unsupported")

    @property
    def strengths(self) -> tuple[float, ...]:
        return tuple(s.strength for s in self.sentences if s.verdict != "unsupported")


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
    decided = judge.judge(claim, Evidence.of(p.context for p in passages_cited).text)
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


def check_answer(
    answer_text: str,
    passages: Sequence[Passage],
    judge: LLMJudge | None = None,
    *,
    question: str = "",
    terms: bool = False,
    repair: bool = False,
) -> GroundingReport:
    """Checks every sentence against the passages it cites. A sentence without a marker is
    checked against the markers of the next sentence (a claim often spans two sentences
    with one citation at the end), else the previous one. `terms` and `repair`: the checks
    of an LLM's answer (module docstring); `question` counts as shown to the model."""
    sentences = split_sentences(answer_text)
    own = [passages_cited(s, passages) for s in sentences]
    known = known_to_model(passages, question) if terms else None
    results: list[Support] = []
    for i, sentence in enumerate(sentences):
        cited = own[i] or _nearest(own, i)
        found = (
            _repaired(sentence, cited, passages, judge, known)
            if repair
            else check_sentence(sentence, cited, judge, known)
        )
        if found.recited:
            answer_text = answer_text.replace(sentence, found.sentence, 1)
        results.append(found)
    kept = _drop(answer_text, [r.sentence for r in results if r.verdict == "unsupported"])
    claims = [r for r in results if content_words(strip_citation_marks(r.sentence))]
    grounded = bool(claims) and all(r.verdict != "unsupported" for r in claims)
    return GroundingReport(tuple(results), grounded, kept)


def _repaired(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    judge: LLMJudge | None,
    known: Evidence | None,
) -> Support:
    """`check_sentence`, and when its cited passages do not support it, the sentence
    re-cited to another passage shown: one that supports it clearly, else the first of the
    closest (at most `RECITE_JUDGED`) that the judge confirms."""
    found = lexical_verdict(sentence, cited, known)
    if found.verdict == "supported":
        return found
    others = recite_candidates(sentence, cited, passages, known)
    if others and others[0].verdict == "supported":
        return others[0]
    if found.verdict == "uncertain":
        found = check_sentence(sentence, cited, judge, known)
        if found.verdict != "unsupported":
            return found  # confirmed, or the judge could not decide: kept, weakly
    if judge is None:
        return found
    for other in others[:RECITE_JUDGED]:
        shown = [p for p in passages if p.n in other.cited]
        judged = check_sentence(other.sentence, shown, judge, known)
        if judged.verdict == "supported":
            return replace(judged, recited=True)
    return found


def recite(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    known: Evidence | None = None,
) -> Support | None:
    """The sentence citing the other passage shown that supports it best: `supported` when
    it does clearly, `uncertain` when only the judge can tell (None when no other passage
    may support it). A right claim with a wrong passage number is repaired with it."""
    found = recite_candidates(sentence, cited, passages, known)
    return found[0] if found else None


def recite_candidates(
    sentence: str,
    cited: Sequence[Passage],
    passages: Sequence[Passage],
    known: Evidence | None = None,
) -> list[Support]:
    """The sentence citing each other passage shown that may support it, best first (clearly
    supported before uncertain, then by lexical score; ties keep retrieval's order)."""
    claim = strip_citation_marks(sentence)
    if not content_words(claim):
        return []
    found: list[Support] = []
    for p in passages:
        if p in cited:
            continue
        alone = lexical_verdict(claim, [p], known)
        if alone.verdict != "unsupported":
            fixed = attach_marker(claim, alone.cited)
            found.append(Support(fixed, alone.verdict, alone.score, alone.cited, recited=True))
    found.sort(key=lambda s: (s.verdict == "supported", s.score), reverse=True)
    return found


def known_to_model(passages: Sequence[Passage], question: str) -> Evidence:
    """Everything the model was shown: the passages, their headings and the question."""
    texts = [p.context for p in passages]
    texts += [f"{p.hit.title} {p.hit.section} {p.hit.source}" for p in passages]
    return Evidence.of([*texts, question])


def passages_cited(sentence: str, passages: Sequence[Passage]) -> list[Passage]:
    """The passages a sentence's own `[n]` markers name."""
    out: list[Passage] = []
    for ref in parse_references(sentence):
        p = match_reference(ref, passages)
        if p is not None and p not in out:
            out.append(p)
    return out


def _nearest(own: list[list[Passage]], i: int) -> list[Passage]:
    if i + 1 < len(own) and own[i + 1]:
        return own[i + 1]
    return own[i - 1] if i > 0 else []


def _drop(text: str, sentences: Sequence[str]) -> str:
    if not sentences:
        return text.strip()
    for s in sentences:
        at = text.find(s)
        if at >= 0:
            end = at + len(s)
            while end < len(text) and text[end] == " ":
                end += 1
            text = text[:at] + text[end:]
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line).strip()


def invented_values(answer_text: str, cited: Mapping[int, str]) -> list[str]:
    """Values (numbers, identifiers, quoted literals) a final answer states that none of the
    passages its sentence cites contains; `cited` maps each `[n]` of the answer to that
    passage's text (with its title and section). A sentence without a marker is held to all
    the cited passages together. Empty for an answer that invents nothing."""
    out: list[str] = []
    everything = Evidence.of(cited.values())
    for sentence in split_sentences(answer_text):
        numbers = [r.n for r in parse_references(sentence) if r.n is not None and r.n in cited]
        ev = Evidence.of(cited[n] for n in numbers) if numbers else everything
        out += missing_values(strip_citation_marks(sentence), ev)
    return list(dict.fromkeys(out))
