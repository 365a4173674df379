"""The documents a question names, among many alike (pure, but for the store read in
`DocumentPrior`): "What was 3M's capital expenditure in FY2018?" over a folder of reports from
similar companies and years names 3M's 2018 annual report.

Each document's fields (`types.DocumentFields`: name words, the period's years, its kind) are
matched against the question's name words and periods (`question.periods`). A name word
counts by how rare it is among the documents' names ("3m" tells documents apart, "company"
does not); the words of titles and file names first, the capitalised words of first pages
only when no title or file name carries a name the question uses (covers are full of
capitalised words: "Net Sales", "FX"). When the question's names and its year single out a
few documents, search looks in them first (a filter, the rest of the collection after); of
several years named, the latest (a report states the periods before it). When only names
match, their hits are boosted.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from citewise.question.periods import (
    Periods,
    name_runs,
    name_words,
    periods,
)
from citewise.question.terms import compared
from citewise.store.base import Store
from citewise.types import DocumentFields, DocumentInfo, Hit, SearchFilter

# share of the question's (rarity-weighted) telling names a document must carry
NAME_SHARE = 0.5
# a name word more than this share of the documents carry does not tell them apart
NAME_SPREAD = 0.1
# a question's name word this long also names a title or file name word it begins
# ("MGM" the file MGMRESORTS_2018_10K.pdf)
PREFIX_CHARS = 3
ANSWERS_KEPT = 256  # questions whose named documents are kept (until the list is read again)


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
    names: tuple[str, ...] = ()  # the question's name words that named them
    # the terms the singled-out documents use for those names: (name word, term) pairs,
    # ("acme", "Distributor")
    terms: tuple[tuple[str, str], ...] = ()

    def boost(self, source: str) -> float:
        """The match score of `source` (0: not named)."""
        return next((m.score for m in self.matches if m.source == source), 0.0)


@dataclass(frozen=True, slots=True)
class DescribedDocuments:
    """A collection's described documents and how many of them carry each name word, in
    their titles and file names (`carriers`) and anywhere (`cover_carriers`)."""

    fields: tuple[tuple[str, DocumentFields], ...] = ()
    carriers: Mapping[str, int] = field(default_factory=dict)
    cover_carriers: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, docs: Sequence[DocumentInfo]) -> DescribedDocuments:
        """Undescribed documents (stored before documents were described) are left out."""
        described = tuple((d.source, d.fields) for d in docs if d.fields is not None)
        return cls(
            described,
            Counter(w for _, f in described for w in set(f.names)),
            Counter(w for _, f in described for w in set(f.names) | set(f.cover_names)),
        )

    def carried(self, word: str, *, cover: bool) -> int:
        """How many documents carry `word` (titles and file names: as a word's beginning)."""
        if cover:
            return self.cover_carriers.get(word, 0)
        if word in self.carriers or len(word) < PREFIX_CHARS:
            return self.carriers.get(word, 0)
        return sum(1 for _, f in self.fields if carries(f, word, cover=False))

    def telling(self, words: Sequence[str], max_named: int, *, cover: bool) -> dict[str, float]:
        """The question's name words that few documents carry, weighted by rarity."""
        count = len(self.fields)
        most = max(max_named, int(count * NAME_SPREAD))
        carried = {w: self.carried(w, cover=cover) for w in words}
        return {w: math.log(count / n) for w, n in carried.items() if 0 < n <= most and n < count}


def carries(fields: DocumentFields, word: str, *, cover: bool) -> bool:
    """Whether a document carries a question's name word: in its title or file name (a
    word there it begins, when long enough), or, with `cover`, on its first page."""
    if word in fields.names or (cover and word in fields.cover_names):
        return True
    return len(word) >= PREFIX_CHARS and any(n.startswith(word) for n in fields.names)


def named_documents(
    question: str, described: DescribedDocuments, *, max_named: int = 3, by_names: bool = False
) -> NamedDocuments:
    """The documents `question` names by their described fields; `unambiguous` holds at
    most `max_named` sources. With `by_names`, names alone single documents out when the
    question names no year (the subject chooses the documents, the ask ranks inside them)."""
    words = name_words(question)
    if len(described.fields) < 2 or not words:
        return NamedDocuments()
    cover = False
    weights = _whole_names(described.telling(words, max_named, cover=False), question, described)
    if not weights:
        cover = True
        weights = described.telling(words, max_named, cover=True)
    for run in name_runs(question):  # "Best Buy" written "bestbuy" is one name, not three
        if len(run) > 1 and "".join(run) in weights:
            for part in run:
                weights.pop(part, None)
    total = sum(weights.values())
    if total <= 0:
        return NamedDocuments()
    asked = periods(question)
    shares = [
        (src, fields, sum(w for word, w in weights.items() if carries(fields, word, cover=cover)))
        for src, fields in described.fields
    ]
    named = [
        (src, fields, share / total) for src, fields, share in shares if share / total >= NAME_SHARE
    ]
    # of several years named, the latest a named document covers: a report states the
    # periods before it ("from FY2018 to FY2020": the 2020 report)
    covered = [y for y in asked.years if any(y in f.years for _, f, _ in named)]
    latest = max(covered) if covered else None
    matches = [_match(src, fields, share, latest, asked) for src, fields, share in named]
    matches.sort(key=lambda m: (-m.score, m.source))
    unambiguous = _unambiguous(matches, asked, max_named, by_names=by_names)
    chosen = {src: fields for src, fields in described.fields if src in set(unambiguous)}
    terms = tuple(dict.fromkeys(pair for f in chosen.values() for pair in f.terms_for(words)))
    if by_names and not asked.years and not terms:
        # names alone choose documents that define them (parties, bodies): a name a title
        # merely carries ("Amazon", a paper that others cite) only boosts its document
        unambiguous = ()
    if not unambiguous and compared(question):
        # a comparison names two things: raising the one spelt as a name takes a side
        return NamedDocuments()
    return NamedDocuments(tuple(matches), unambiguous, tuple(weights), terms if unambiguous else ())


def _whole_names(
    weights: dict[str, float], question: str, described: DescribedDocuments
) -> dict[str, float]:
    """The title and file name words of `weights` without those of a name of several words
    no document's title or file name carries whole: "Point Therapeutics" is not named by a
    file called "center-point-drive"."""
    out = dict(weights)
    for run in name_runs(question):
        if len(run) < 2 or "".join(run) in weights or not any(w in weights for w in run):
            continue
        if not any(all(carries(f, w, cover=False) for w in run) for _, f in described.fields):
            for word in run:
                out.pop(word, None)
    return out


def _match(
    source: str, fields: DocumentFields, share: float, latest: int | None, asked: Periods
) -> DocumentMatch:
    year = latest is not None and latest in fields.years
    kind = (asked.quarterly and "quarterly" in fields.kinds) or (
        asked.annual and not asked.quarterly and "annual" in fields.kinds
    )
    return DocumentMatch(source, share, year, kind)


def _unambiguous(
    matches: Sequence[DocumentMatch], asked: Periods, max_named: int, *, by_names: bool = False
) -> tuple[str, ...]:
    """The best matches when they carry the question's names and the latest of its years a
    named document covers, of the kind of period it asks for when any is, and are few; else
    none (the question's names alone only boost). With `by_names` and no year asked, the
    few documents that carry the most of the question's names."""
    if matches and by_names and not asked.years:
        best = [m for m in matches if m.names >= matches[0].names]
        return tuple(m.source for m in best) if len(best) <= max_named else ()
    if not matches or not asked.years or not matches[0].year:
        return ()
    best = [m for m in matches if m.year and m.names >= matches[0].names]
    if asked.quarterly or asked.annual:
        fitting = [m for m in best if m.kind]
        best = fitting or best
    return tuple(m.source for m in best) if len(best) <= max_named else ()


class DocumentPrior:
    """Reads the collection's documents and applies `named_documents` to a search: the
    filter that searches the named documents first, and the boost of their hits. The
    documents are read again when `fresh_seconds` have passed: a document stored meanwhile is
    named from then on (one removed meanwhile narrows a search to nothing: the rest follows)."""

    def __init__(
        self,
        store: Store,
        boost: float = 0.5,
        max_named: int = 3,
        fresh_seconds: float = 30.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        by_names: bool = False,
    ) -> None:
        self.store = store
        self.by_names = by_names  # see `named_documents`
        self.clock = clock
        self.boost = boost  # a named document's hits: score × (1 + boost × match score)
        self.max_named = max_named
        self.fresh_seconds = fresh_seconds
        self._read: dict[str, tuple[float, DescribedDocuments]] = {}
        # the answer flow asks about one question several times (search, ask, reading)
        self._answers: dict[tuple[str, str, tuple[str, ...], float], NamedDocuments] = {}

    def named(self, query: str, flt: SearchFilter) -> NamedDocuments:
        if not name_words(query):
            return NamedDocuments()
        described = self._described(flt.collection)
        key = (query, flt.collection, flt.sources, self._read[flt.collection][0])
        found = self._answers.get(key)
        if found is not None:
            return found
        if flt.sources:
            wanted = set(flt.sources)
            described = DescribedDocuments(
                tuple(f for f in described.fields if f[0] in wanted), described.carriers
            )
        found = named_documents(query, described, max_named=self.max_named, by_names=self.by_names)
        if len(self._answers) >= ANSWERS_KEPT:
            self._answers.clear()
        self._answers[key] = found
        return found

    def _described(self, collection: str) -> DescribedDocuments:
        now = self.clock()
        read = self._read.get(collection)
        if read is None or now - read[0] > self.fresh_seconds:
            read = (now, DescribedDocuments.of(self.store.list_documents(collection)))
            self._read[collection] = read
        return read[1]

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
