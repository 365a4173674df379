"""What the extractive answerer hands back, and how its picked sentences become the answer
text: passages in order of their best pick, sentences in reading order, each with `[n]`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from citewise.extractive.bullets import titled
from citewise.extractive.clauses import as_span
from citewise.extractive.definitions import is_preamble
from citewise.extractive.units import join_marked, lead_in_end, with_subject
from citewise.types import NOT_FOUND, Passage


@dataclass(frozen=True, slots=True)
class ScoredSentence:
    passage: Passage
    index: int  # position of the sentence in its passage
    text: str
    stems: frozenset[str]  # the candidate's, as `stems_of` gave them
    cosine: float
    lexical: float
    score: float
    prior: float = 0.0  # the part of `score` that says where the sentence is, not what
    position: float = 0.0  # the part of `score` its passage's rank gave
    clause: str = ""  # its clause that matches the question better than it does, if any


@dataclass(frozen=True, slots=True)
class ExtractiveResult:
    text: str
    used_passages: tuple[Passage, ...]
    support: tuple[float, ...]  # combined score of each chosen sentence, in answer order
    abstained: bool
    reason: str = ""
    best_score: float = 0.0
    # `answer`: sentences that state it; `passage`: the closest passage, labelled as such;
    # `none`: not in the documents (`outcome.py` decides between the last two)
    kind: Literal["answer", "passage", "none"] = "answer"
    evidence: tuple[tuple[str, float], ...] = ()  # the outcome features, when scored
    label: str = ""  # a `passage`'s own label, when not the closest passage's (placeholders)


# a sentence that says how to do what the one before it names: "A common use case for readline
# is to consume an input file one line at a time. The easiest way to do so is …"
_DOES_SO = re.compile(
    r"^(?:the\s+(?:\w+\s+)?way\s+to\s+do\s+(?:so|this|that)|to\s+do\s+(?:so|this|that)\b)", re.I
)
# a pick before the best one scoring this share of it (the runner-up floor) opens the answer
LEAD_SHARE = 0.75
# … but "This Employment Agreement shall be governed …" names the document itself
ANAPHOR = re.compile(
    r"^(?!This\s+(?:[A-Z][\w-]*\s+){0,3}(?:Agreement|Contract|Lease|Licen[cs]e|Amendment"
    r"|Addendum|Policy|Plan)\b)(?:This|That|These|Those|It|Its|They|Such|Both|However|Otherwise)\b"
)


def compose(
    picks: Sequence[ScoredSentence],
    split: dict[int, list[str]],
    plain: dict[int, list[str]],
    best: float,
    *,
    spans: bool = False,
) -> ExtractiveResult:
    """Passages in order of their best pick; sentences in reading order within a passage.
    `split` and `plain`: each passage's sentences with and without options' names; `spans`:
    a pick's clause that matches better than the whole (`ScoredSentence.clause`) is shown
    in its place."""
    chosen: dict[int, dict[int, str]] = {}
    used: dict[int, Passage] = {}
    spanned: set[tuple[int, int]] = set()
    opening: dict[int, int] = {}  # by passage: where the unit its answer opens with starts
    best_of: dict[int, float] = {}
    for pick in picks:
        best_of.setdefault(pick.passage.n, pick.score)
    for pick in picks:
        n = pick.passage.n
        sentences = split[pick.passage.n]
        end = lead_in_end(sentences, pick.index)
        # a pick nearly as good as the best that runs on into it opens the answer in reading
        # order; one clearly below it, or apart from it, follows the best: the answer starts
        # with the sentence that answers, not with a runner-up standing earlier in the text
        if n not in opening or (pick.score >= LEAD_SHARE * best_of[n] and end == opening[n]):
            opening[n] = pick.index
        span = _span(pick, sentences, end) if spans else None
        if span is not None:
            chosen.setdefault(pick.passage.n, {})[span[0]] = span[1]
            spanned.add((pick.passage.n, span[0]))
            used[pick.passage.n] = pick.passage
            continue
        idx = set(range(pick.index, end))
        if (
            ANAPHOR.match(pick.text)
            and pick.index > 0
            and not is_preamble(sentences[pick.index - 1])
        ):
            idx.add(pick.index - 1)  # "This module provides …" after "Source code: …" stands alone
            if opening.get(pick.passage.n) == pick.index:
                opening[pick.passage.n] = pick.index - 1
        if end < len(sentences) and _DOES_SO.match(sentences[end]):
            idx.update(range(end, lead_in_end(sentences, end)))  # "… The easiest way to do so …"
        shown = {i: sentences[i] for i in idx}
        if end == pick.index + 1 and titled(sentences[pick.index], pick.passage.hit.section) == (
            pick.text
        ):
            shown[pick.index] = pick.text  # a bullet answers with its title
        chosen.setdefault(pick.passage.n, {}).update(shown)
        used[pick.passage.n] = pick.passage
    for n, by in chosen.items():
        # an option's name leads a sentence of its list item only where the item is not
        # already being quoted ("- maxBuffer {number} Largest … If exceeded, …")
        for i in sorted(by):
            if i - 1 in by and (n, i) not in spanned:
                by[i] = plain[n][i]
        first = min(by)
        by[first] = with_subject(by[first], used[n].hit.section)
    parts = [
        " ".join(join_marked([by[i] for i in run], n) for run in leading(by, opening[n]))
        for n, by in chosen.items()
    ]
    return ExtractiveResult(
        text=" ".join(parts),
        used_passages=tuple(used.values()),
        support=tuple(p.score for p in picks),
        abstained=False,
        best_score=best,
    )


def leading(chosen: Mapping[int, str], start: int) -> list[list[int]]:
    """The chosen sentences of a passage in runs of neighbours, reading order, except that
    the run holding its best pick (starting at `start`) comes first: the answer starts with
    the sentence that answers, not with a runner-up that stands before it in the text."""
    runs: list[list[int]] = []
    for i in sorted(chosen):
        lead_in = chosen.get(i - 1, "").rstrip().endswith(":")  # it introduces sentence i
        if runs and runs[-1][-1] == i - 1 and (i != start or lead_in):
            runs[-1].append(i)
        else:
            runs.append([i])
    first = next((r for r in runs if start in r), None)
    return runs if first is None else [first, *(r for r in runs if r is not first)]


def _span(pick: ScoredSentence, sentences: Sequence[str], end: int) -> tuple[int, str] | None:
    """The sentence of `pick`'s unit holding its clause, and the clause as shown alone."""
    shown = as_span(pick.clause) if pick.clause else None
    at = [i for i in range(pick.index, end) if pick.clause in sentences[i]]
    return (at[0], shown) if shown and at else None


def abstain(reason: str, best: float = 0.0) -> ExtractiveResult:
    return ExtractiveResult(NOT_FOUND, (), (), True, reason, best, kind="none")
