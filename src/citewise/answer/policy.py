"""What each kind of question gets from the answer stage: how many passages are selected after
rerank and assembled for the answerer, and whether a passage reads its whole parent section.

One table, read by `select_passages` (through the flow) and `context.assemble`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

QuestionKind = Literal["simple", "complex", "conversational", "summarize", "relationship"]


@dataclass(frozen=True, slots=True)
class KindPolicy:
    passages: int  # at most this many passages reach the answerer
    # a definition, comparison or multi-part question reads whole parents (budget allowing):
    # a definition often opens the section a few sentences before the chunk that matched
    whole_parents: bool = False


# Axiom used k = 2 (simple) / 5 (complex) with a cross-encoder in front; our fusion ranking is
# noisier, so one more passage each: the gold passage is within the top 3 for most lookups.
POLICIES: Mapping[str, KindPolicy] = {  # by QuestionKind
    "simple": KindPolicy(3),
    "conversational": KindPolicy(4),
    "complex": KindPolicy(6, whole_parents=True),
    "relationship": KindPolicy(6),
    "summarize": KindPolicy(8),
}
DEFAULT_POLICY = KindPolicy(5)  # a kind the table does not name


def policy_for(kind: str) -> KindPolicy:
    return POLICIES.get(kind, DEFAULT_POLICY)
