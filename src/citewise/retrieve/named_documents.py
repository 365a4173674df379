"""The documents a question names, among many alike (pure, but for the store read in
`DocumentPrior`): "What was 3M's capital expenditure in FY2018?" over a folder of reports from
similar companies and years names 3M's 2018 annual report.

Each document's fields (`types.DocumentFields`: name words, the period's years, its kind) are
matched against the question's name words and periods (`question.periods`). A name word
counts by how rare it is among the documents' names ("3m" tells documents apart, "company"
does not). When the question's names and its year single out a few documents, search looks
in them first (a filter, the rest of the collection after); when only names match, their
hits are boosted.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citewise.question.periods import Periods, name_words, periods
from citewise.store.base import Store
from citewise.types import DocumentFields, DocumentInfo, Hit, SearchFilter

# share of the question's (rarity-weighted) telling names a document must carry
NAME_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class DocumentMatch:
    source: str
    names: float  # rarity-weighted share of the question's telling names it carries
    year: bool  # it covers a year the question names
    kind: bool  # its kind fits the period the question names (quarterly, annual)

    @property
    def score(self) -> float:
        return self.names + (0.5 if self.year else 0.0) + (0.25 if self.kind else 0.0)


@dataclass(frozen=True, slots=True)
class NamedDocuments:
    matches: tuple[DocumentMatch, ...] = ()  # the documents the question names, best first
    # the question's names and year single out the first documents: search them first
    unambiguous: tuple[str, ...] = ()

    def boost(self, source: str) -> float:
        """The match score of `source` (0: not named)."""
        return next((m.score for m in self.matches if m.source == source), 0.0)


def named_documents(
    question: str, docs: Sequence[DocumentInfo], *, max_named: int = 3
) -> NamedDocuments:
    """The documents `question` names by their described fields (undescribed ones are left
    out); `unambiguous` holds at most `max_named` sources."""
    described = [(d.source, d.fields) for d in docs if d.fields is not None]
    asked = periods(question)
    words = name_words(question)
    if len(described) < 2 or not words:
        return NamedDocuments()
    weights = _telling(words, [f.names for _, f in described])
    total = sum(weights.values())
    if total <= 0:
        return NamedDocuments()
    matches = [_match(source, fields, weights, total, asked) for source, fields in described]
    matches = [m for m in matches if m.names >= NAME_SHARE]
    matches.sort(key=lambda m: (-m.score, m.source))
    return NamedDocuments(tuple(matches), _unambiguous(matches, asked, max_named))


def _telling(words: Sequence[str], names: Sequence[Sequence[str]]) -> dict[str, float]:
    """The question's name words that some but not all documents carry, weighted by rarity."""
    df = Counter(w for n in names for w in set(n))
    count = len(names)
    return {w: math.log(count / df[w]) for w in words if 0 < df[w] < count}


def _match(
    source: str, fields: DocumentFields, weights: dict[str, float], total: float, asked: Periods
) -> DocumentMatch:
    carried = set(fields.names)
    share = sum(w for word, w in weights.items() if word in carried) / total
    year = bool(set(asked.years) & set(fields.years))
    kind = (asked.quarterly and "quarterly" in fields.kinds) or (
        asked.annual and not asked.quarterly and "annual" in fields.kinds
    )
    return DocumentMatch(source, share, year, kind)


def _unambiguous(
    matches: Sequence[DocumentMatch], asked: Periods, max_named: int
) -> tuple[str, ...]:
    """The best matches when they carry the question's names and one of its years and are
    few; else none (the question's names alone only boost)."""
    if not matches or not asked.years or not matches[0].year:
        return ()
    best = [m for m in matches if m.year and m.names >= matches[0].names]
    if asked.quarterly or asked.annual:
        fitting = [m for m in best if m.kind]
        best = fitting or best
    return tuple(m.source for m in best) if len(best) <= max_named else ()


@dataclass(frozen=True, slots=True)
class DocumentPrior:
    """Reads the collection's documents and applies `named_documents` to a search: the
    filter that searches the named documents first, and the boost of their hits."""

    store: Store
    boost: float = 0.5  # a named document's hits: score × (1 + boost × match score)
    max_named: int = 3

    def named(self, query: str, flt: SearchFilter) -> NamedDocuments:
        if not name_words(query):
            return NamedDocuments()
        docs = self.store.list_documents(flt.collection)
        if flt.sources:
            docs = [d for d in docs if d.source in flt.sources]
        return named_documents(query, docs, max_named=self.max_named)

    def rescored(self, hits: Sequence[Hit], named: NamedDocuments) -> list[Hit]:
        """The hits re-sorted with the named documents' scores raised (ranks as they were)."""
        if not named.matches or self.boost <= 0:
            return list(hits)
        out = [
            replace(h, score=h.score * (1 + self.boost * b)) if (b := named.boost(h.source)) else h
            for h in hits
        ]
        out.sort(key=lambda h: h.score, reverse=True)
        return out


def narrowed(flt: SearchFilter, named: NamedDocuments) -> SearchFilter | None:
    """The filter that searches only the documents the question singles out, if any."""
    if not named.unambiguous:
        return None
    return replace(flt, sources=named.unambiguous)


def first_then_rest(first: Sequence[Hit], rest: Sequence[Hit], k: int) -> list[Hit]:
    """`first`, then `rest`'s other chunks, `k` at most (pure)."""
    seen = {h.chunk_id for h in first}
    return [*first, *(h for h in rest if h.chunk_id not in seen)][:k]
