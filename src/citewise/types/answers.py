"""What answering gives: numbered passages, citations, the answer, and the events a
streamed answer is made of."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from citewise.types.positions import LineBox
from citewise.types.search import Hit

Confidence = Literal["high", "medium", "low", "none"]
# the one reply when the documents do not hold the answer (the LLM is told to write it too)
NOT_FOUND = "The documents do not contain this information."
AnswerKind = Literal["answer", "passage", "none"]


@dataclass(frozen=True, slots=True)
class Passage:
    """A numbered passage given to the answerer: `n` is what `[n]` in an answer refers to.
    `context` is the text shown to the answerer (the child, or its parent when expanded)."""

    n: int
    hit: Hit
    context: str


@dataclass(frozen=True, slots=True)
class Citation:
    n: int
    source: str
    page: int | None
    section: str
    chunk_id: int
    quote: str
    doc_hash: str = ""  # opens the kept original (web UI)
    boxes: tuple[LineBox, ...] = ()  # the quote's lines on PDF pages

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "source": self.source,
            "page": self.page,
            "section": self.section,
            "chunk_id": self.chunk_id,
            "quote": self.quote,
            "doc_hash": self.doc_hash or None,
            "boxes": [b.to_json() for b in self.boxes],
        }


@dataclass(frozen=True, slots=True)
class Fallback:
    """Why an answer is not the LLM's own: `used` is "extractive" (the extractive answer) or
    "passages" (the best passages' opening sentences); `reason` says what happened."""

    used: Literal["extractive", "passages"]
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"used": self.used, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Answer:
    answer: str
    intent: str
    citations: tuple[Citation, ...]
    sources: tuple[Hit, ...]
    grounded: bool
    confidence: Confidence
    session_id: str
    timings_ms: Mapping[str, float]
    rewritten_query: str | None = None
    related_docs: tuple[str, ...] = ()
    fallback: Fallback | None = None  # set when the LLM's answer could not be used
    # `answer`: states the asked thing; `passage`: the closest passage, labelled as such;
    # `none`: not in the documents
    answer_kind: AnswerKind = "answer"

    def to_json(self) -> dict[str, object]:
        return {
            "answer": self.answer,
            "intent": self.intent,
            "citations": [c.to_json() for c in self.citations],
            "sources": [h.to_json() for h in self.sources],
            "grounded": self.grounded,
            "confidence": self.confidence,
            "session_id": self.session_id,
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "rewritten_query": self.rewritten_query,
            "related_docs": list(self.related_docs),
            "fallback": self.fallback.to_json() if self.fallback else None,
            "answer_kind": self.answer_kind,
        }


# -- events streamed by the answer flow (rendered by the CLI, serialised as SSE by the API) --


@dataclass(frozen=True, slots=True)
class Status:
    stage: str
    message: str


@dataclass(frozen=True, slots=True)
class Token:
    text: str


@dataclass(frozen=True, slots=True)
class CitationEvent:
    citation: Citation


@dataclass(frozen=True, slots=True)
class Sources:
    hits: tuple[Hit, ...]


@dataclass(frozen=True, slots=True)
class Retraction:
    """A streamed sentence withdrawn: the check found its cited passages do not support it.
    `sentence` is the text as streamed (markers included); `reason` says what was missing."""

    sentence: str
    reason: str


@dataclass(frozen=True, slots=True)
class Done:
    answer: Answer


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    message: str
    kind: str


Event = Status | Token | Retraction | CitationEvent | Sources | Done | ErrorEvent
