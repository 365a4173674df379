"""Candidates whose subject is implied by the heading they stand under (pure).

Reference pages document an entry under a heading that names it and then describe it
without the name: "Delete an entire directory tree …" under `shutil.rmtree(path, …)`. A
sentence like that matches a question about the entry only once the entry is counted as its
subject.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from citewise.extractive.candidates import CandidateSentence, stems_of
from citewise.extractive.definitions import opening_index, subject_heading
from citewise.extractive.units import entry_name
from citewise.question.terms import headed_by
from citewise.types import Passage
from citewise.types.vectors import Vectors


def framed_by_subject(
    subject: tuple[str, ...], cands: Sequence[CandidateSentence]
) -> dict[int, str]:
    """By candidate index, the heading of each candidate that opens its passage under a
    heading naming the subject of a definitional question: reference pages say what an entry
    does without naming it ("Delete an entire directory tree …" under "shutil.rmtree(…)")."""
    out: dict[int, str] = {}
    openings: dict[int, int | None] = {}  # by passage: each passage's text is read once
    for i, c in enumerate(cands):
        heading = subject_heading(subject, c.passage.hit.section)
        if heading is None:
            continue
        if c.passage.n not in openings:
            openings[c.passage.n] = opening_index(c.passage.context)
        if c.index == openings[c.passage.n]:
            out[i] = heading
    return out


def entry_openings(subject: tuple[str, ...], passages: Sequence[Passage]) -> set[tuple[int, int]]:
    """(passage n, sentence index) of each opening sentence under a heading naming the
    subject: framed by the heading, a terse one ("Prepares for compression.", "Kills the
    child.") is a whole definition, however few its words."""
    if not subject:
        return set()
    out: set[tuple[int, int]] = set()
    for p in passages:
        if subject_heading(subject, p.hit.section) is not None:
            index = opening_index(p.context)
            if index is not None:
                out.add((p.n, index))
    return out


def with_entry_words(
    key: Sequence[str], cands: Sequence[CandidateSentence]
) -> list[CandidateSentence]:
    """A question naming an identifier: the sentences of the entry documenting it that do not
    name it ("If seq is empty, raises IndexError." under `random.choice(seq)`) count the
    entry's words as theirs. Only words: embedding them "entry: sentence" as for definitions
    made every sentence of an entry alike and answers wordier."""
    out = []
    for c in cands:
        entry = entry_name(c.passage.hit.section)
        unnamed = entry is not None and entry[1].lower() not in c.text.lower()
        if entry and unnamed and any(headed_by(c.passage, t) for t in key):
            c = replace(c, stems=c.stems | stems_of(entry[0]))
        out.append(c)
    return out


@dataclass(frozen=True, slots=True)
class Framing:
    """Candidates a definitional question's subject frames: the heading each stands under, by
    candidate index, and the vector of "heading: sentence"."""

    headings: dict[int, str]
    vectors: Mapping[int, Vectors]

    def applied(
        self, cands: Sequence[CandidateSentence], vectors: Vectors
    ) -> tuple[list[CandidateSentence], Vectors]:
        """The candidates scored as "subject: sentence": their words and their vectors."""
        if not self.headings:
            return list(cands), vectors
        vectors = np.array(vectors, copy=True)
        for i, vector in self.vectors.items():
            vectors[i] = vector
        out = [
            replace(c, stems=c.stems | stems_of(self.headings[i])) if i in self.headings else c
            for i, c in enumerate(cands)
        ]
        return out, vectors


def framed_text(cand: CandidateSentence, heading: str) -> str:
    return f"{heading}: {cand.text}"
