"""One passage per document first on the questions whose answer spans documents
(`retrieve.ordering.documents_first`, `retrieve.rerank.documents_first.DocumentsFirst`)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.query_router import asks_across_documents, asks_beyond_named
from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.ordering import documents_first, rescored, set_back
from citewise.retrieve.rerank import NoRerank
from citewise.retrieve.rerank.documents_first import DocumentsFirst
from citewise.retrieve.retriever import HybridRetriever
from citewise.store.base import Store
from citewise.types import Hit, SearchFilter
from retrieve.test_subject_and_ask import AGREEMENT_FILES, RecordingKeywords
from support import write_corpus

# (chunk, document, score), best first: document 1 holds the three best passages
HITS = [(1, 1, 0.9), (2, 1, 0.8), (3, 1, 0.7), (4, 2, 0.6), (5, 1, 0.5), (6, 3, 0.4)]


def _hits() -> list[Hit]:
    return [
        Hit(i + 1, c, d, f"{d}.md", "", None, None, "", s, "t", c)
        for i, (c, d, s) in enumerate(HITS)
    ]


def test_each_documents_best_passage_comes_first_the_rest_keep_their_order() -> None:
    out = documents_first(_hits())
    assert [h.chunk_id for h in out] == [1, 4, 6, 2, 3, 5]
    assert [h.rank for h in out] == [1, 2, 3, 4, 5, 6]
    # each passage keeps its own score: a source shows the passage's, not its slot's
    assert [h.score for h in out] == [0.9, 0.6, 0.4, 0.8, 0.7, 0.5]
    assert [h.chunk_id for h in documents_first(_hits(), per_document=2)] == [1, 2, 4, 6, 3, 5]


def test_setting_framing_blocks_back_keeps_the_order_documents_first_chose() -> None:
    out = documents_first(_hits())
    assert [h.chunk_id for h in set_back(out, lambda h: False, 0.5)] == [1, 4, 6, 2, 3, 5]
    # chunk 2 (0.8 → 0.4) goes behind 3 and 5, never ahead of 4 or 6, which preceded it
    back = set_back(out, lambda h: h.chunk_id == 2, 0.5)
    assert [(h.chunk_id, h.score) for h in back] == [
        (1, 0.9), (4, 0.6), (6, 0.4), (3, 0.7), (5, 0.5), (2, 0.4)
    ]  # fmt: skip
    # a re-sort by score would undo the order
    assert [h.chunk_id for h in rescored(out, lambda h: False, 1.0)] == [1, 2, 3, 4, 5, 6]


def test_on_a_list_sorted_best_first_setting_back_is_rescoring() -> None:
    def aside(h: Hit) -> bool:
        return h.chunk_id in (1, 4)

    expected = [(h.chunk_id, h.score) for h in rescored(_hits(), aside, 0.5)]
    assert [(h.chunk_id, h.score) for h in set_back(_hits(), aside, 0.5)] == expected


def test_the_wrapper_reorders_only_the_questions_its_route_takes() -> None:
    inner = NoRerank()
    wrapped = DocumentsFirst(inner, asks_across_documents)
    assert (wrapped.name, wrapped.select_threshold) == (inner.name, inner.select_threshold)
    assert wrapped.last_fallback is None
    spanning = wrapped.rerank("Which of my documents discuss pumps?", _hits(), 6)
    assert [h.doc_id for h in spanning[:3]] == [1, 2, 3]
    plain = wrapped.rerank("How often is the pump serviced?", _hits(), 6)
    assert plain == inner.rerank("How often is the pump serviced?", _hits(), 6)


@pytest.mark.parametrize(
    ("question", "spans"),
    [
        ("Which of my documents discuss Chubby?", True),
        ("What depends on the wal_level setting?", True),
        ("Who are the parties to the distributor agreement?", True),
        ("How does Raft relate to Paxos?", False),  # a comparison reads both sides' passages
        ("What is the default port?", False),
    ],
)
def test_questions_whose_answer_spans_documents(question: str, spans: bool) -> None:
    assert asks_across_documents(question) is spans


@pytest.mark.integration
def test_an_answers_sources_name_each_document_once_before_a_second_passage(
    linked_assistant: Assistant,
) -> None:
    assistant = linked_assistant
    spanning = assistant.ask("Which of my documents discuss the Intake Filter?", session_id=None)
    first = [h.source for h in spanning.sources[:4]]
    assert len(set(first)) == 4
    # a question about one thing keeps the reranker's order: the manual's passages lead
    lookup = assistant.ask("How often is the Intake Filter replaced?", session_id=None)
    assert [h.source for h in lookup.sources[:2]] == ["pump-manual.md", "pump-manual.md"]


@pytest.mark.parametrize(
    ("question", "beyond"),
    [
        ("What uses the Google File System?", True),
        ("Which of my documents discuss Chubby?", True),
        ("Who are the parties to the distributor agreement?", False),  # inside the agreement
        ("What is the default port?", False),
    ],
)
def test_questions_answered_beyond_the_documents_they_name(question: str, beyond: bool) -> None:
    assert asks_beyond_named(question) is beyond


@pytest.fixture(scope="module")
def agreements(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("agreements")
    with Assistant(data_dir=root / "data", embedder=HashingEmbedder(dim=64)) as a:
        a.ingest([write_corpus(root / "docs", dict(AGREEMENT_FILES))])
        yield inside(a).store


def test_the_document_a_question_names_is_not_searched_alone_when_others_answer(
    agreements: Store,
) -> None:
    question = "Which documents mention Western Traction?"
    embedder = partial(HashingEmbedder, dim=64)
    alone = RecordingKeywords(agreements)
    narrowing = HybridRetriever(agreements, embedder, None, [alone])
    assert narrowing.ask(question, SearchFilter()) != question  # names chose the agreement
    beyond = RecordingKeywords(agreements)
    whole = HybridRetriever(agreements, embedder, None, [beyond], beyond_named=asks_beyond_named)
    assert whole.ask(question, SearchFilter()) == question
    whole.search(question, k=3, mode="keyword", flt=SearchFilter())
    assert beyond.seen == [question]  # one search, of the whole collection
