"""Grounding check: is each sentence of an answer supported by the passages it cites?

Each sentence gets a verdict from `support` (lexical score, values, and for an LLM's answer
its words held to what the model was shown; the judge for uncertain ones). For an LLM's
answer (`repair=True`) a sentence its cited passages do not support is repaired before it
is dropped (`repair`: re-cited to the passages that support it, or a clause that states what
no passage shown holds cut). Unsupported sentences are dropped from the text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from citewise.answer.citations import match_reference, parse_references
from citewise.answer.lexical import Evidence, missing_values
from citewise.answer.repair import RECITE_JUDGED, recite, recite_candidates, repaired
from citewise.answer.support import (
    SUPPORTED_AT,
    UNSUPPORTED_BELOW,
    WEAK_SUPPORT,
    Aliases,
    LLMJudge,
    Support,
    Verdict,
    check_sentence,
    known_to_model,
    lexical_verdict,
)
from citewise.text.sentences import content_words, split_sentences, strip_citation_marks
from citewise.types import Passage

__all__ = [
    "MAX_RETRIES",
    "RECITE_JUDGED",
    "SUPPORTED_AT",
    "UNSUPPORTED_BELOW",
    "WEAK_SUPPORT",
    "Aliases",
    "GroundingReport",
    "LLMJudge",
    "Support",
    "Verdict",
    "check_answer",
    "check_sentence",
    "invented_values",
    "known_to_model",
    "lexical_verdict",
    "passages_cited",
    "recite",
    "recite_candidates",
]

MAX_RETRIES = 2  # stricter regenerations before unsupported sentences are dropped


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


def check_answer(
    answer_text: str,
    passages: Sequence[Passage],
    judge: LLMJudge | None = None,
    *,
    question: str = "",
    terms: bool = False,
    repair: bool = False,
    aliases: Aliases | None = None,
) -> GroundingReport:
    """Checks every sentence against the passages it cites. A sentence without a marker is
    checked against the markers of the next sentence (a claim often spans two sentences
    with one citation at the end), else the previous one. `terms` and `repair`: the checks
    of an LLM's answer (module docstring); `question` counts as shown to the model;
    `aliases` (with `terms`): a name in the documents -> the role words they use for it, so
    a claim naming a party is held by a passage naming its role, and the other way round."""
    sentences = split_sentences(answer_text)
    own = [passages_cited(s, passages) for s in sentences]
    known = known_to_model(passages, question, aliases) if terms else None
    results: list[Support] = []
    for i, sentence in enumerate(sentences):
        cited = own[i] or _nearest(own, i)
        found = (
            repaired(sentence, cited, passages, judge, known)
            if repair
            else check_sentence(sentence, cited, judge, known)
        )
        if not own[i] and found.verdict == "supported" and _previous_recited(i, own, results):
            marked = _with_markers(found.sentence, cited)
            found = replace(found, sentence=marked, cited=found.cited or tuple(p.n for p in cited))
        if found.sentence != sentence:  # re-cited or trimmed
            answer_text = answer_text.replace(sentence, found.sentence, 1)
        results.append(found)
    kept = _drop(answer_text, [r.sentence for r in results if r.verdict == "unsupported"])
    claims = [r for r in results if content_words(strip_citation_marks(r.sentence))]
    grounded = bool(claims) and all(r.verdict != "unsupported" for r in claims)
    return GroundingReport(tuple(results), grounded, kept)


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


def _previous_recited(i: int, own: list[list[Passage]], results: list[Support]) -> bool:
    """A sentence without a marker leans on the previous sentence's passages, and that
    sentence is dropped or now cites others: the reader could no longer see what holds it."""
    leans_back = not (i + 1 < len(own) and own[i + 1]) and i > 0 and bool(own[i - 1])
    if not leans_back:
        return False
    before = results[i - 1]
    return before.verdict == "unsupported" or (
        passages_cited(before.sentence, own[i - 1]) != own[i - 1]
    )


def _with_markers(sentence: str, cited: Sequence[Passage]) -> str:
    """`sentence` with a `[n]` marker for each of `cited`, before its closing punctuation."""
    marks = "".join(f"[{p.n}]" for p in cited)
    body = sentence.rstrip()
    end = len(body.rstrip(".!?"))
    return f"{body[:end]} {marks}{body[end:]}"


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
