"""An extractor that cites a later passage first: what renumbering citations is about."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citewise.answer.flow import Extracted
from citewise.text.sentences import split_sentences
from citewise.types import Passage


@dataclass(frozen=True)
class Outcome:
    text: str
    kind: str = "answer"
    abstained: bool = False
    support: Sequence[float] = (0.9,)


class PickingExtractor:
    """Answers with the first sentence of the `pick`-th passage shown (the last one when
    fewer are shown), cited by that passage's number; `cited` is the number it used."""

    def __init__(self, pick: int, kind: str = "answer") -> None:
        self.pick = pick
        self.kind = kind
        self.cited = 0

    def extract(self, question: str, passages: Sequence[Passage], **_: object) -> Extracted:
        p = passages[min(self.pick, len(passages) - 1)]
        self.cited = p.n
        return Outcome(f"{split_sentences(p.context)[0]} [{p.n}]", self.kind)
