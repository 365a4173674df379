"""Without an LLM, a relevance gate refusing on its score alone leaves the outcome to the
extractive answerer, whose calibrated evidence reads the sentences; a firm refusal (a name
the question is about that no passage mentions) still ends in "not in the documents"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.answer.flow import DocumentAnswerer
from citewise.answer.request import AnswerRequest
from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.gate import GateOptions, RelevanceGate
from citewise.types import NOT_FOUND, Done, SearchFilter
from support import write_corpus


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("defers")
    with Assistant(data_dir=root / "data", embedder=HashingEmbedder(dim=64)) as a:
        a.ingest([write_corpus(root / "docs")])
        yield a


def _answer(answerer: DocumentAnswerer, question: str) -> str:
    done = next(
        e for e in answerer.stream(AnswerRequest(question, SearchFilter())) if isinstance(e, Done)
    )
    return done.answer.answer


def _refusing(assistant: Assistant) -> DocumentAnswerer:
    """The wired answer flow with a gate whose threshold no score reaches."""
    answerer = inside(assistant).parts.conversation.get().answerer
    answerer.gate = RelevanceGate(answerer.reader.vectors, GateOptions(threshold=9.0))
    return answerer


def test_a_gate_refusing_on_its_score_alone_leaves_the_answer_to_the_extractive_answerer(
    assistant: Assistant,
) -> None:
    answer = _answer(_refusing(assistant), "What is the default logging level?")
    assert answer != NOT_FOUND and "WARNING" in answer


def test_a_question_naming_what_no_passage_mentions_is_still_not_in_the_documents(
    assistant: Assistant,
) -> None:
    assert _answer(_refusing(assistant), "What is the default of pool_timeout_ms?") == NOT_FOUND
