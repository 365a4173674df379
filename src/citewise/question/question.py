"""The question as it travels from the router to the answerer: its standalone text, its parts,
what it is about (the subject: names and periods) apart from what it asks, and the previous
turn's subject and cited documents for a follow-up.

Each distinct text (the question, each part, each facet) is analysed once and embedded once:
`analysis_of` and `vector_of` keep what they computed, so every stage that reads a part asks the
`Question` instead of analysing or embedding the text again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citewise.question.analysis import Analysis, analyse
from citewise.question.periods import name_words, periods
from citewise.types.vectors import Vectors


@dataclass(frozen=True, slots=True)
class Subject:
    """What a question is about: the words it spells as names (parties, organisations,
    products, titles) and the years it names. Which of them name documents is decided
    against the collection (`retrieve.named_documents`)."""

    names: tuple[str, ...] = ()
    years: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.names or self.years)

    @classmethod
    def of(cls, text: str) -> Subject:
        return cls(name_words(text), periods(text).years)


@dataclass(frozen=True, slots=True)
class Prior:
    """The previous turn a follow-up leans on: its subject, the documents its answer cited
    and its (standalone) question."""

    subject: Subject = Subject()
    sources: tuple[str, ...] = ()
    question: str = ""


class Question:
    """One question with its parts; `analysis_of`/`vector_of` compute each text's analysis
    and vector once (thread-safe: the retriever may embed on a helper thread)."""

    def __init__(
        self,
        text: str,
        *,
        parts: Sequence[str] = (),
        analysis: Analysis | None = None,
        vector: Vectors | None = None,
        prior: Prior | None = None,
    ) -> None:
        self.text = text
        self.parts = tuple(dict.fromkeys(part_text(p) for p in parts if part_text(p)))
        self.prior = prior
        self._analyses: dict[str, Analysis] = {}
        self._vectors: dict[str, Vectors] = {}
        self._lock = threading.Lock()
        if analysis is not None and analysis.question == text:
            self._analyses[text] = analysis
        if vector is not None:
            self._vectors[text] = vector

    def with_parts(self, parts: Sequence[str]) -> Question:
        """This question with its parts set (what it computed so far is kept)."""
        q = Question(self.text, parts=parts, prior=self.prior)
        with self._lock:
            q._analyses.update(self._analyses)
            q._vectors.update(self._vectors)
        return q

    @property
    def analysis(self) -> Analysis:
        return self.analysis_of(self.text)

    @property
    def subject(self) -> Subject:
        """The question's own subject (a follow-up that names none leans on `prior`)."""
        return Subject.of(self.text)

    def analysis_of(self, text: str) -> Analysis:
        """`analyse(text)`, computed once per distinct text."""
        with self._lock:
            found = self._analyses.get(text)
        if found is None:
            found = analyse(text)
            with self._lock:
                found = self._analyses.setdefault(text, found)
        return found

    def carried_vector(self, text: str) -> Vectors | None:
        """The embedding of `text` if it was computed already."""
        with self._lock:
            return self._vectors.get(text)

    def vector_of(self, text: str, embed: Callable[[str], Vectors]) -> Vectors:
        """The embedding of `text`, computed with `embed` the first time only."""
        found = self.carried_vector(text)
        if found is None:
            found = embed(text)
            with self._lock:
                found = self._vectors.setdefault(text, found)
        return found


def part_text(part: str) -> str:
    """A part as the question's analysis spells its facets (`question.terms.facets`): spaces
    collapsed, no closing punctuation ("What is the default level," and "What is the default
    level" are one text, analysed and embedded once)."""
    return " ".join(part.split()).strip(" ,;").rstrip("?.!").strip(" ,;")
