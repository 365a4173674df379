"""The picks of a question asked in parts: the best sentence for each part, and for a
comparison the sentences that set both sides side by side."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from citewise.embed.base import Embedder
from citewise.extractive.candidates import CandidateSentence
from citewise.extractive.compose import ScoredSentence
from citewise.extractive.options import ExtractiveOptions
from citewise.extractive.sentence_fit import in_context
from citewise.question.analysis import Analysis
from citewise.question.terms import contrast_terms, stating_what_is_asked
from citewise.types.vectors import Vectors


class _Scoring(Protocol):
    embedder: Embedder
    embed_query: Callable[[str], Vectors]
    analyse_part: Callable[[str], Analysis]
    options: ExtractiveOptions

    def _score(
        self, a: Analysis, cands: Sequence[CandidateSentence], vectors: Vectors, qv: Vectors
    ) -> list[ScoredSentence]: ...

    def _adds(self, cand: ScoredSentence, picks: Sequence[ScoredSentence]) -> bool: ...


class PartPicks:
    """Mixed into `ExtractiveAnswerer`: uses its scoring, options and embedder."""

    def _facet_picks(
        self: _Scoring,
        facets: Sequence[str],
        cands: Sequence[CandidateSentence],
        vectors: Vectors,
        picks: list[ScoredSentence],
        whole: Sequence[ScoredSentence],
    ) -> list[ScoredSentence]:
        """The best sentence for each part of a multi-part or comparison question; `whole`:
        the candidates as scored against the whole question, when its later parts lean on
        the earlier ones."""
        out: list[ScoredSentence] = []
        home = picks[0].passage.hit.source
        by_whole = {(x.passage.n, x.index): x.score for x in whole}
        for part, facet in enumerate(facets):
            asked = self.analyse_part(facet)
            head = asked.focus
            ranked = self._score(asked, cands, vectors, self.embed_query(facet))
            if part and by_whole:
                ranked = in_context(ranked, by_whole, self.options.later_part_context)
            fits = [x for x in ranked if head is None or head in x.stems]
            fits = stating_what_is_asked(facet, fits)
            if not fits:
                continue
            # the best sentence's document keeps the answer when it answers this part
            # nearly as well: one source is easier to check than two
            near = fits[0].score - self.options.same_source_margin
            top = next(
                (x for x in fits if x.passage.hit.source == home and x.score >= near), fits[0]
            )
            # a part is answered only by a sentence that clears the abstention threshold on
            # its own (a lower floor let a part take a glossary line about something else)
            clears = top.score - top.prior >= self.options.threshold
            if clears and self._adds(top, picks + out):
                out.append(top)
        return out

    def _contrast(
        self: _Scoring, question: str, scored: Sequence[ScoredSentence]
    ) -> list[ScoredSentence]:
        """A comparison is best answered by sentences that set both sides side by side, from
        the page that does so most ("There are fundamental differences between pickle and
        JSON: - JSON is human-readable, while pickle is not"), rather than by a definition of
        each side from wherever it scores best. Empty when fewer than two such sentences clear
        the threshold."""
        terms = contrast_terms(question)
        if terms is None:
            return []
        floor = self.options.threshold
        both = [x for x in scored if x.score - x.prior >= floor and {terms[0], terms[1]} <= x.stems]
        if len(both) < 2:
            return []
        by_source: dict[str, list[float]] = {}
        for x in both:  # `scored` is best first, so each list is too
            by_source.setdefault(x.passage.hit.source, []).append(x.score)
        home = max(by_source, key=lambda source: sum(by_source[source][:3]))
        out: list[ScoredSentence] = []
        for x in both:
            if x.passage.hit.source == home and self._adds(x, out):
                out.append(x)
        return out
