"""The answer flow's signals agree with each other: a labelled closest passage is not a
grounded answer, and the citation numbers the reader saw streamed are those of the citation
events and of the final answer."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from citewise.answer.flow import DocumentAnswerer
from citewise.answer.request import AnswerRequest
from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.embed.hashing import HashingEmbedder
from citewise.llm.base import Message
from citewise.testing.fakes import FakeLLM
from citewise.text.sentences import split_sentences
from citewise.types import CitationEvent, Done, Event, SearchFilter, Token
from picking import PickingExtractor
from support import write_corpus

_MARK = re.compile(r"\[(\d+)\]")


@pytest.fixture(scope="module")
def assistant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Assistant]:
    root = tmp_path_factory.mktemp("signals")
    with Assistant(data_dir=root / "data", embedder=HashingEmbedder(dim=64)) as a:
        a.ingest([write_corpus(root / "docs")])
        yield a


def _events(assistant: Assistant, extractor: PickingExtractor, question: str) -> list[Event]:
    answerer: DocumentAnswerer = inside(assistant).parts.conversation.get().answerer
    kept = answerer.extractor
    answerer.extractor = extractor
    try:
        return list(answerer.stream(AnswerRequest(question, SearchFilter())))
    finally:
        answerer.extractor = kept


def test_the_closest_passage_is_not_a_grounded_answer(assistant: Assistant) -> None:
    events = _events(assistant, PickingExtractor(0, kind="passage"), "How are log files rotated?")
    done = next(e for e in events if isinstance(e, Done)).answer
    assert done.answer_kind == "passage" and done.citations
    assert done.grounded is False and done.confidence == "low"


def test_not_in_the_documents_is_not_grounded(assistant: Assistant) -> None:
    done = assistant.ask("What colour is the office cat?")
    assert done.answer_kind == "none" and done.grounded is False


def test_streamed_citation_numbers_are_those_of_the_citation_events_and_the_answer(
    assistant: Assistant,
) -> None:
    picks = PickingExtractor(2)
    events = _events(assistant, picks, "What is the default level, timeout or snapshot time?")
    assert picks.cited > 1  # the model's number is not the reader's [1]
    streamed = "".join(e.text for e in events if isinstance(e, Token))
    cited = [e.citation.n for e in events if isinstance(e, CitationEvent)]
    done = next(e for e in events if isinstance(e, Done)).answer
    assert cited and [c.n for c in done.citations] == cited
    assert _MARK.findall(streamed) == _MARK.findall(done.answer) == [str(n) for n in cited]


class _CitesTheLastPassage(FakeLLM):
    """A model that answers with the first sentence of the last passage it was shown, cited by
    that passage's number, streamed three characters at a time."""

    def __init__(self) -> None:
        super().__init__("")
        self.cited = 0

    def stream(self, messages: Sequence[Message], **_: object) -> Iterator[str]:
        blocks = re.findall(r"^\[(\d+)\] [^\n]*\n([^\n]+)", messages[-1].content, re.M)
        n, text = blocks[-1]
        self.cited = int(n)
        reply = f"{split_sentences(text)[0]} [{n}]"
        for i in range(0, len(reply), 3):
            yield reply[i : i + 3]


def test_an_llms_streamed_numbers_are_those_of_its_citations_and_answer(tmp_path: Path) -> None:
    llm = _CitesTheLastPassage()
    with Assistant(data_dir=tmp_path / "data", embedder=HashingEmbedder(dim=64), llm=llm) as a:
        a.ingest([write_corpus(tmp_path / "docs")])
        events = list(a.stream("What is the default level, timeout or snapshot time?"))
    assert llm.cited > 1  # the model's number is not the reader's [1]
    streamed = "".join(e.text for e in events if isinstance(e, Token))
    cited = [e.citation.n for e in events if isinstance(e, CitationEvent)]
    done = next(e for e in events if isinstance(e, Done)).answer
    assert done.fallback is None and cited == [1]
    assert _MARK.findall(streamed) == _MARK.findall(done.answer) == ["1"]
