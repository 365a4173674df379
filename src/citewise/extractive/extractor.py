"""The extractive answerer as the answer flow is given it: one per flow, its options set per
answer style ("simple" keeps to one short sentence, "deep" reads on for more)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from citewise.embed.base import Embedder
from citewise.extractive.answerer import ExtractiveAnswerer
from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.documents_list import documents_list
from citewise.extractive.options import ExtractiveOptions
from citewise.extractive.units import norm_sentence
from citewise.question.analysis import Analysis
from citewise.question.question import Question
from citewise.rules import RulePack
from citewise.types import Passage
from citewise.types.vectors import Vectors

STYLE_SENTENCES = {"normal": 3, "simple": 1, "deep": 4}
# "tell me more": runners-up may score lower than for a first answer (the options' default
# relative floor, 0.85), since the reader asked for more than the best sentences
DEEP_RELATIVE_FLOOR = 0.7
SIMPLE_LENGTH_PENALTY = 0.01  # per word over 20: a simpler answer is a shorter sentence


@dataclass(frozen=True, slots=True)
class Extractor:
    embedder_factory: Callable[[], Embedder]
    threshold: float  # abstains below it (`Settings.abstain_threshold`)
    rules: RulePack

    def extract(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        question_vector: Vectors | None,
        analysis: Analysis | None,
        style: str,
        already_said: str,
        asked: Question | None = None,
        document_names: Sequence[str] = (),
    ) -> ExtractiveResult:
        """The answer from `passages` alone, or the abstention; `already_said`: the previous
        answer ("tell me more" avoids it, "simplify" keeps to it); `asked`: the question
        object, whose vectors (of the question and its parts) are reused, not re-embedded;
        `document_names`: the question's names that named the passages' documents."""
        listed = documents_list(question, passages, asked=asked.text if asked else "")
        if listed is not None:  # "which of my documents discuss X?": each document, cited
            return listed
        embedder = self.embedder_factory()
        embed_query = None
        if asked is not None:
            embed_query = functools.partial(asked.vector_of, embed=embedder.embed_query)
        opts = replace(self.options(style, already_said), document_names=frozenset(document_names))
        analyse_part = asked.analysis_of if asked is not None else None
        answerer = ExtractiveAnswerer(embedder, opts, embed_query, analyse_part)
        return answerer.answer(question, passages, question_vector, analysis=analysis)

    def options(self, style: str, already_said: str) -> ExtractiveOptions:
        opts = ExtractiveOptions(
            threshold=self.threshold,
            max_sentences=STYLE_SENTENCES[style],
            already_said=norm_sentence(already_said),
            said_mode="prefer" if style == "simple" else "exclude",
            length_penalty=SIMPLE_LENGTH_PENALTY if style == "simple" else 0.0,
            rules=self.rules,
        )
        if style == "deep":
            opts = replace(opts, relative_floor=DEEP_RELATIVE_FLOOR)
        return opts
