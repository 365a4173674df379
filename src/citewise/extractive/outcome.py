"""Which of the three outcomes a question gets when no sentence confidently answers it:
`passage` — the closest passage in the documents, labelled as not a stated answer — when the
retrieval evidence says the documents talk about the question's subject, else `none`.

The evidence is a few numbers (`OutcomeFeatures`): how close the best sentences are, how much
of the question the top passages hold, and whether the best sentence's passage mentions what
the question specifically names (`question/specifics.py`: its names, identifiers, versions,
numbers). The decision is a logistic regression over the retrieval evidence
(`REGRESSED`), fitted per embedder on the tuning halves of every check set together
(`benchmarks/outcome_calibration.py` writes `outcome_calibration.py`). An embedder without a
calibration (the hashing embedder, a user's model) falls back to a relative criterion that
needs none: the top passages hold most of the question's content words.

A second regression over the same evidence says whether an answer's sentences state what was
asked (fitted on the answers given: right ones 1, wrong ones and answers to unanswerable
questions 0): below its threshold the answer is shown as the closest passage, labelled as not
stating it, rather than as a confident answer (`states_confidently`). Whatever its
probability, an answer whose passage does not mention everything the question names is not
confident: a question about another organisation, another version or another year than the
passage speaks of is a near miss, and its sentences are shown as the closest passage.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache

from citewise.extractive.compose import ExtractiveResult, ScoredSentence
from citewise.extractive.outcome_calibration import CALIBRATIONS
from citewise.extractive.scoring import type_fit
from citewise.extractive.units import is_navigation, join_marked
from citewise.extractive.value_owner import states_other_value
from citewise.question.analysis import Analysis
from citewise.question.coverage import coverage
from citewise.question.periods import name_words
from citewise.question.specifics import share_in_passage, specifics
from citewise.text.blocks import asks_about, stored_aside
from citewise.text.sentences import content_words, topic_stem
from citewise.types import Passage

CLOSEST_PASSAGE = "Not stated directly; the closest passage in your documents:"
UNCALIBRATED_COVERAGE = 0.5  # the fallback: top passages hold half the question's words
WINDOW_CHARS = 450  # the shown window: the best sentence and its neighbours up to this


@dataclass(frozen=True, slots=True)
class OutcomeFeatures:
    """Retrieval and sentence evidence for one question, each roughly on a 0–1 scale."""

    best_evidence: float  # the best sentence's score without its document/type prior
    best_cosine: float  # the best cosine of a sentence to the question
    first_cosine: float  # … among the first passage's sentences
    coverage_first: float  # share of the question's content words the first passage holds
    coverage_top: float  # … the best of the first three passages
    best_in_first: float  # 1.0 when the best sentence stands in the first passage
    type_match: float  # the best sentence has the form of the asked answer type
    specifics_passage: float  # share of the question's names and numbers its passage holds
    # share of what the question asks (its content words but its names) the best sentence's
    # passage holds: a question about the parties' bonus meets their salary clause by name
    ask_in_best: float = 1.0
    # 1.0 when the best sentence's passage is a framing block (`text.blocks.aside_kind`: a
    # preamble, recitals, a signature block) the question does not ask about
    framing_best: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {f.name: round(float(getattr(self, f.name)), 4) for f in fields(self)}

    def items(self) -> tuple[tuple[str, float], ...]:
        return tuple(self.as_dict().items())


FEATURE_NAMES = tuple(f.name for f in fields(OutcomeFeatures))
# what the regressions read; the question's specifics decide apart (`states_confidently`)
REGRESSED = tuple(n for n in FEATURE_NAMES if n != "specifics_passage")


def features_of(
    a: Analysis, passages: Sequence[Passage], scored: Sequence[ScoredSentence]
) -> OutcomeFeatures:
    """The evidence of `scored` (best first) over `passages` for the question `a` (pure)."""
    if not scored or not passages:
        return OutcomeFeatures(*(0.0 for _ in FEATURE_NAMES))
    first = passages[0].n
    best = max(scored, key=lambda x: x.score - x.prior)
    in_first = [x.cosine for x in scored if x.passage.n == first]
    cover = [coverage(a.question, p) for p in passages[:3]]
    return OutcomeFeatures(
        best_evidence=best.score - best.prior,
        best_cosine=max(x.cosine for x in scored),
        first_cosine=max(in_first, default=0.0),
        coverage_first=cover[0],
        coverage_top=max(cover),
        best_in_first=float(best.passage.n == first),
        type_match=type_fit(a.answer_type, best.text),
        specifics_passage=share_in_passage(specifics(a), best.passage),
        ask_in_best=ask_share(a.question, best.passage),
        framing_best=float(framing(a.question, best.passage)),
    )


def ask_share(question: str, passage: Passage) -> float:
    """The share of the question's ask words (its content words, not the words it spells as
    names) the passage holds in its text, heading or title (pure); 1.0 when it asks none."""
    names = set(name_words(question))
    asked = {topic_stem(w) for w in content_words(question) if w.lower() not in names}
    if not asked:
        return 1.0
    h = passage.hit
    held = {topic_stem(w) for w in content_words(f"{passage.context}\n{h.section}\n{h.title}")}
    return len(asked & held) / len(asked)


def framing(question: str, passage: Passage) -> bool:
    """Whether `passage` is a framing block the question does not ask about."""
    kind = stored_aside(passage.hit.label, passage.hit.text, passage.hit.section)
    return kind is not None and not asks_about(question, kind)


@dataclass(frozen=True, slots=True)
class Calibration:
    """p(the documents hold the answer) = σ(bias + Σ weight × feature)."""

    weights: Mapping[str, float]
    bias: float
    threshold: float = 0.5

    def probability(self, f: OutcomeFeatures) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in f.as_dict().items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@lru_cache(maxsize=1)
def calibrations() -> dict[str, Calibration]:
    """The shipped calibrations, by embedder name."""
    return {name: _calibration(raw) for name, raw in CALIBRATIONS.items()}


@lru_cache(maxsize=1)
def answer_calibrations() -> dict[str, Calibration]:
    """The shipped calibrations of "the answer states it", by embedder name."""
    out = {}
    for name, raw in CALIBRATIONS.items():
        answer = raw.get("answer")
        if isinstance(answer, dict):
            out[name] = _calibration(answer)
    return out


def _calibration(raw: Mapping[str, object]) -> Calibration:
    weights = raw["weights"]
    assert isinstance(weights, dict)
    return Calibration(
        {str(k): float(v) for k, v in weights.items()},
        float(str(raw["bias"])),
        float(str(raw.get("threshold", 0.5))),
    )


def shows_passage(f: OutcomeFeatures, embedder_name: str) -> bool:
    """Whether the evidence is strong enough to show the closest passage instead of `none`."""
    calibration = calibrations().get(embedder_name)
    if calibration is None:
        return f.coverage_top >= UNCALIBRATED_COVERAGE
    return calibration.probability(f) >= calibration.threshold


def states_confidently(f: OutcomeFeatures, embedder_name: str) -> bool:
    """Whether an answer with this evidence is confident enough to be shown as one: never when
    its passage lacks a name or number the question names, nor when it is a framing block
    the question does not ask about, else by the embedder's answer calibration (True where it
    has none)."""
    if f.specifics_passage < 1.0 or f.framing_best >= 1.0:
        return False
    calibration = answer_calibrations().get(embedder_name)
    return calibration is None or calibration.probability(f) >= calibration.threshold


def closest_passage(
    scored: Sequence[ScoredSentence],
    split: Mapping[int, Sequence[str]],
    best_score: float,
    *,
    within: int | None = None,
) -> ExtractiveResult:
    """The `passage` outcome: the best sentence's passage's window around it (its neighbours
    while the window stays short), each sentence cited; `within`: the best sentence of that
    passage (the first one, as ranked), when it has a candidate."""
    mine = [x for x in scored if x.passage.n == within] or list(scored)
    best = max(mine, key=lambda x: x.score - x.prior)
    sentences = list(split[best.passage.n])
    lo, hi = window_of(sentences, best.index)
    window = join_marked(sentences[lo : hi + 1], best.passage.n)
    return ExtractiveResult(
        text=window,  # the flow labels it (`CLOSEST_PASSAGE`) after the grounding check
        used_passages=(best.passage,),
        support=(best.score,),
        abstained=False,
        reason="closest passage",
        best_score=best_score,
        kind="passage",
    )


def window_of(sentences: Sequence[str], i: int) -> tuple[int, int]:
    """The first and last sentence of the window around sentence `i`: its neighbours, one
    after and one before in turn, while the window stays within `WINDOW_CHARS`."""
    lo = hi = i
    size = len(sentences[i])
    grown = True
    while grown:
        grown = False
        for j in (hi + 1, lo - 1):
            if (
                0 <= j < len(sentences)
                and size + len(sentences[j]) <= WINDOW_CHARS
                and not is_navigation(sentences[j])  # a page's navigation bar ends the window
            ):
                size += len(sentences[j])
                lo, hi = min(lo, j), max(hi, j)
                grown = True
    return lo, hi


def unsure(
    result: ExtractiveResult, a: Analysis, embedder: str, *, doubt: bool
) -> ExtractiveResult:
    """`result`, or when it answers one part without confidence (`states_confidently`) or
    states only another attribute's values (`value_owner.states_other_value`), its sentences
    shown as the closest passage, labelled as not stating the answer."""
    if not doubt or result.abstained or result.kind != "answer" or not result.evidence:
        return result
    if len(a.parts) > 1:
        return result
    if states_other_value(a.question, a.answer_type, result.text):
        return replace(result, kind="passage", reason="closest passage: another attribute's value")
    if states_confidently(OutcomeFeatures(**dict(result.evidence)), embedder):
        return result
    return replace(result, kind="passage", reason="closest passage: unsure")
