"""Hybrid retrieval: the rankings of a list of candidate sources (keyword, vector, genre
sources) fused with RRF, then demoted and diversified."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from citewise.embed.base import Embedder
from citewise.errors import InputError
from citewise.question.asks import asks_about_history
from citewise.question.periods import periods
from citewise.retrieve.embed_ahead import embedding_ahead
from citewise.retrieve.fusion import Fused, reciprocal_rank_fusion
from citewise.retrieve.inside_named import (
    carried_documents,
    first_then_rest,
    inside_query,
    narrowed,
    pages_spread,
)
from citewise.retrieve.named_documents import DocumentPrior, NamedDocuments
from citewise.retrieve.ordering import entry_for, ranked, rescored, set_aside, spread
from citewise.retrieve.query import ValidQuery, validate_query
from citewise.retrieve.recognised import Recognition
from citewise.retrieve.sources.base import (
    CandidateSource,
    KeepingSource,
    SourceQuery,
    kept_in,
)
from citewise.retrieve.sources.in_store import StoreFused, fuse_in_store
from citewise.retrieve.sources.keyword import KeywordSource
from citewise.retrieve.sources.option_entries import OptionEntrySource
from citewise.retrieve.sources.vector import VectorSource
from citewise.rules.retrieval import Asks, RetrievalRules, raised
from citewise.store.base import Store
from citewise.text.release_notes import is_release_notes
from citewise.types import Candidate, Hit, SearchFilter, SearchMode, SearchResult
from citewise.types.vectors import Vectors

# inside the documents names alone chose, what the subject's words (the names and the
# documents' terms for them) still take part in: the whole ranking ("kept"), the vector side
# and the reranker only ("vector"), or nothing ("none": keyword search, vector and reranker
# read the ask without them)
SubjectWords = Literal["kept", "vector", "none"]


@dataclass(frozen=True, slots=True)
class RetrievalOptions:
    keyword_k: int = 20
    vector_k: int = 20
    rrf_k: int = 60
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    max_query_chars: int = 1000
    # at most this many passages of one document before other documents get their turn: a
    # page that repeats the query's words in many sections would otherwise fill the top
    max_per_document: int = 3
    # release notes mention everything as it was; unless the query is about versions or
    # changes their scores are multiplied by this
    release_notes_factor: float = 0.7
    # the option entry source (`retrieve.sources.option_entries`)
    entry_k: int = 10
    entry_weight: float = 2.0
    entries: bool = True  # the rule pack decides (`RulePack.option_items`)
    # keyword + vector fused by the store in one statement when it can (`store.base`);
    # off: two searches fused here (the same result, measured by benchmarks/scale_bench.py)
    store_fusion: bool = True
    # preambles, recitals, signature blocks and tables of contents answer only questions
    # about themselves (`text.blocks`): otherwise their scores are multiplied by this
    aside_factor: float = 0.5
    # the documents a question names by organisation and period (`retrieve.named_documents`):
    # searched first when they are at most `named_max`, else their hits boosted
    named_documents: bool = True
    named_boost: float = 0.2
    named_max: int = 3
    # names alone (no year) single out the documents searched first, with the ask: the
    # question without the names, plus the documents' own terms for them (their aliases)
    subject_first: bool = True
    # ... and ranks their passages without the subject's words (`SubjectWords`)
    subject_words: SubjectWords = "none"
    # inside the named documents, the passages a rule pack's retrieval rule raises (the
    # financial statements a question needs: `rules.retrieval`) have their scores raised by
    # this share
    rule_boost: float = 1.0
    # ... and at most this many passages of one page before other pages get their turn (a
    # statement's page raised whole would fill the list; 0: off)
    rule_per_page: int = 2


def default_sources(
    store: Store, embedder_factory: Callable[[], Embedder], opts: RetrievalOptions
) -> list[CandidateSource]:
    """Keyword, vector, then the option entries if on (they rank by what the first two
    found)."""
    sources: list[CandidateSource] = [
        KeywordSource(store, opts.keyword_k, opts.keyword_weight),
        VectorSource(store, embedder_factory, opts.vector_k, opts.vector_weight),
    ]
    if opts.entries:
        sources.append(OptionEntrySource(store, opts.entry_k, opts.entry_weight))
    return sources


class HybridRetriever:
    def __init__(
        self,
        store: Store,
        embedder_factory: Callable[[], Embedder],
        options: RetrievalOptions | None = None,
        sources: Sequence[CandidateSource] | None = None,
        beyond_named: Callable[[str], bool] | None = None,
        rules: RetrievalRules | None = None,
    ) -> None:
        self._store = store
        # the rule packs' retrieval rules (`rules.retrieval_rules`), and which named
        # documents the recognising ones recognise
        self._rules = rules or RetrievalRules()
        self._recognition = Recognition(store)
        # the questions answered outside the documents they name ("What uses X?"): those
        # documents are boosted, not searched alone
        self._beyond_named = beyond_named
        self.options = options or RetrievalOptions()
        opts = self.options
        self._prior = DocumentPrior(
            store, opts.named_boost, opts.named_max, by_names=opts.subject_first
        )
        self.sources: list[CandidateSource] = list(
            sources if sources is not None
            else default_sources(store, embedder_factory, self.options)
        )  # fmt: skip

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        mode: SearchMode = "hybrid",
        flt: SearchFilter,
        query_vector: Vectors | None = None,
        carried: Sequence[str] = (),
        ask_vector: Vectors | None = None,
    ) -> SearchResult:
        """The `k` best hits for `query`; `query_vector`: its embedding, when the caller has
        it (used only for the query as given: a query the validation changes is embedded);
        `carried`: the documents a follow-up inherits from the previous turn (weighted like
        named documents when the query names none). A `ValidQuery` was validated by the
        caller already. `ask_vector`: the embedding of `ask(query)`, when it differs."""
        text = (
            query
            if isinstance(query, ValidQuery)
            else validate_query(query, self.options.max_query_chars)
        )
        if k < 1:
            raise InputError("k must be at least 1")
        sq = SourceQuery(text, k, mode, flt, query_vector if text == query else None)
        trace = sq.trace
        # one snapshot for every read: a replace committing meanwhile cannot lose the hits
        with self._store.snapshot(), trace.span("total"):
            hits = self._search(sq, tuple(carried), ask_vector)
        return SearchResult(query=text, hits=tuple(hits), timings_ms=trace.timings_ms())

    def named(self, query: str, flt: SearchFilter) -> NamedDocuments:
        """The documents `query` names (`named_documents`), none when that is off."""
        if not self.options.named_documents:
            return NamedDocuments()
        return self._prior.named(query, flt)

    def ask(self, query: str, flt: SearchFilter) -> str:
        """What ranks the passages of `query`: inside the documents its subject singles out,
        the query without the names that chose them, with those documents' own terms for
        them (`named_documents.inside_query`); else the query itself."""
        if not self.options.named_documents:
            return query
        named = self._prior.named(query, flt)
        narrow = self._searched_alone(query, named, flt)
        if narrow is None:
            return query
        # reports singled out by a period keep the reranking measured on them (the whole
        # query); an ask is read where the names alone chose the documents
        if periods(query).years:
            return query
        return self._inside(query, named, narrow, subject=self.options.subject_words != "none")

    def _inside(
        self, query: str, named: NamedDocuments, narrow: SearchFilter, *, subject: bool
    ) -> str:
        """The ask inside the documents names alone chose, with the subject's names in
        their terms or without them (`inside_named.inside_query`)."""
        return inside_query(query, named, asked=self._asked(narrow), subject=subject)[0]

    def _asked(self, narrow: SearchFilter) -> Callable[[str], Asks]:
        """What the rule packs' retrieval rules ask inside the documents `narrow` singles
        out: those switched on everywhere, and those recognising all of them."""
        rules = self._rules
        if not rules:
            return lambda _: Asks()
        return lambda q: rules.asked(q, lambda rule: self._recognition.recognises(rule, narrow))

    def _search(
        self, sq: SourceQuery, carried: tuple[str, ...] = (), ask_vector: Vectors | None = None
    ) -> list[Hit]:
        named = NamedDocuments()
        if self.options.named_documents:
            with sq.trace.span("named_documents"):
                named = self._prior.named(sq.text, sq.flt)
        if not named.matches and carried:  # a follow-up naming no document keeps the last ones
            named = carried_documents(carried, self.options.named_max)
        narrow = self._searched_alone(sq.text, named, sq.flt)
        if narrow is None:
            return self._searched(sq, named)
        inside, ask = inside_query(sq.text, named, asked=self._asked(narrow))
        if not periods(sq.text).years:
            inside = self._inside(
                sq.text, named, narrow, subject=self.options.subject_words != "none"
            )
        # the statements' passages are raised from a deeper list: they may rank below k
        depth = sq.k * 2 if ask else sq.k
        vector = sq.vector if inside == sq.text else ask_vector
        keywords = self._keywords(sq.text, named, narrow)
        first = self._searched(
            replace(sq, flt=narrow, text=inside, k=depth, vector=vector, keywords=keywords), named
        )
        first = raised(first, ask, self.options.rule_boost)
        per_page = self.options.rule_per_page if ask else 0
        first = ranked(pages_spread(first, per_page)[: sq.k])
        if len(first) >= sq.k:
            return first
        return ranked(first_then_rest(first, self._searched(sq, named), sq.k))

    def _searched_alone(
        self, query: str, named: NamedDocuments, flt: SearchFilter
    ) -> SearchFilter | None:
        """The filter searching only the documents `query` names, None when it names none or
        is answered beyond them (`beyond_named`)."""
        if self._beyond_named is not None and self._beyond_named(query):
            return None
        return narrowed(flt, named)

    def _keywords(self, query: str, named: NamedDocuments, narrow: SearchFilter) -> str | None:
        """What keyword search matches inside the documents names alone chose, when not
        the ask: without the subject's words (`inside_named.without_subject`)."""
        if self.options.subject_words != "vector" or periods(query).years:
            return None
        return self._inside(query, named, narrow, subject=False)

    def _searched(self, sq: SourceQuery, named: NamedDocuments) -> list[Hit]:
        opts, trace = self.options, sq.trace
        in_store = (
            fuse_in_store(self._store, self.sources, sq, opts.rrf_k) if opts.store_fusion else None
        )
        rankings: dict[str, list[Candidate]] = dict(in_store.rankings) if in_store else {}
        serving = [s for s in self.sources if s.serves(sq.mode) and s.name not in rankings]
        ahead = embedding_ahead(sq, serving)
        for source in serving:
            if ahead is not None and isinstance(source, VectorSource):
                sq = ahead.wait()
            with trace.span(source.name):
                rankings[source.name] = source.candidates(sq, rankings)
        with trace.span("fuse"):
            return self._fused(sq, rankings, in_store, named)

    def _fused(
        self,
        sq: SourceQuery,
        rankings: dict[str, list[Candidate]],
        in_store: StoreFused | None,
        named: NamedDocuments,
    ) -> list[Hit]:
        opts, query = self.options, sq.text
        added = in_store is not None and any(
            cands for name, cands in rankings.items() if name not in in_store.rankings
        )
        if in_store is not None and not added:
            fused = in_store.fused
        else:  # genre sources added candidates: every list fused here
            fused = reciprocal_rank_fusion(
                rankings, k=opts.rrf_k, weights={s.name: s.weight for s in self.sources}
            )
        hits = self._prior.rescored(self._hits(fused), named)
        if opts.release_notes_factor != 1.0 and not asks_about_history(query):
            hits = rescored(hits, is_release_notes, opts.release_notes_factor)
        if opts.aside_factor != 1.0:
            hits = rescored(hits, set_aside(query), opts.aside_factor)
        if opts.max_per_document > 0:
            hits = spread(hits, opts.max_per_document, entry_for(query))
        keep = [
            c for s in self.sources if isinstance(s, KeepingSource)
            for c in s.kept(sq, rankings.get(s.name, ()))
        ]  # fmt: skip
        # ranked once, and only the hits returned
        return ranked(kept_in(hits, keep, sq.k) if keep else hits[: sq.k])

    def _hits(self, fused: list[Fused]) -> list[Hit]:
        records = {r.chunk_id: r for r in self._store.get_chunks([f.chunk_id for f in fused])}
        hits: list[Hit] = []
        for f in fused:
            rec = records.get(f.chunk_id)
            if rec is None:
                continue
            hits.append(Hit.of(rec, len(hits) + 1, f.score, f.ranks))
        return hits
