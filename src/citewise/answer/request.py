"""What the answer flow is asked: the question (its standalone form), where to search, how
to answer, and what is already known about it: the `Question` the conversation built (its
parts, analyses, vectors and the previous turn it leans on), or its analysis and embedding."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from citewise.answer.policy import QuestionKind
from citewise.question.analysis import Analysis, analyse
from citewise.question.question import Question
from citewise.types import SearchFilter
from citewise.types.trace import Trace
from citewise.types.vectors import Vectors

Style = Literal["normal", "simple", "deep"]


@dataclass(frozen=True, slots=True)
class AnswerRequest:
    question: str  # searched for and answered: the standalone form of a follow-up
    flt: SearchFilter
    intent: str = "question"
    kind: QuestionKind = "simple"
    style: Style = "normal"
    session_id: str = ""
    rewritten_query: str | None = None
    trace: Trace = field(default_factory=Trace)
    parts: tuple[str, ...] = ()  # sub-questions of a multi-part or comparison question
    already_said: str = ""  # the previous answer: "tell me more" avoids it, "simplify" keeps to it
    # searched in this order (own before global), merged, each passage once; () = flt's only
    collections: tuple[str, ...] = ()
    # `analyse(question)` and the question's embedding, when the caller has them: the flow
    # computes what is missing once and hands both to every step that reads the question
    analysis: Analysis | None = None
    question_vector: Vectors | None = None
    # the question object carried from the router (it holds the above and more); the flow
    # builds one from the fields above when none is carried
    question_object: Question | None = None

    def analysed(self) -> Analysis:
        """The question's analysis: the one carried, else computed now."""
        if self.analysis is not None and self.analysis.question == self.question:
            return self.analysis
        return analyse(self.question)

    def asked(self) -> Question:
        """The carried `Question` when it is this request's, else one made of the carried
        analysis and vector (the flow calls this once per answer)."""
        q = self.question_object
        if q is not None and q.text == self.question:
            return q
        return Question(
            self.question,
            parts=self.parts,
            analysis=self.analysis,
            vector=self.question_vector,
        )
