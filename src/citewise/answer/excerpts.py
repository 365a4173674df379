"""What stands in for an answer nobody could write: the passages' own first claims, quoted
verbatim with their markers, and the test of whether a sentence claims anything at all."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.answer.grounding import GroundingReport
from citewise.text.sentences import (
    attach_marker,
    content_words,
    split_sentences,
    strip_citation_marks,
)
from citewise.types import Passage

PASSAGE_FALLBACK_COUNT = 2  # passages quoted when neither the LLM nor extraction answers
PASSAGE_FALLBACK_CHARS = 300


def passage_excerpts(
    passages: Sequence[Passage],
    count: int = PASSAGE_FALLBACK_COUNT,
    max_chars: int = PASSAGE_FALLBACK_CHARS,
) -> str:
    """The first sentence that makes a claim from each of the first `count` passages,
    verbatim with its `[n]` marker, one a line ("" when none has one)."""
    lines: list[str] = []
    for p in passages[:count]:
        first = next((s for s in split_sentences(p.context) if is_claim(s)), "")
        if first:
            cut = first if len(first) <= max_chars else first[:max_chars].rsplit(" ", 1)[0] + " …"
            lines.append(attach_marker(cut, [p.n]))
    return "\n".join(lines)


def is_claim(sentence: str) -> bool:
    """Whether a sentence states something (content words once its markers are gone)."""
    return bool(content_words(strip_citation_marks(sentence)))


def has_claim(report: GroundingReport) -> bool:
    """Whether a sentence that states something passed the check."""
    return any(is_claim(s.sentence) for s in report.sentences if s.verdict != "unsupported")
