"""Extractive summary of a document without an LLM (pure).

Per section: its first informative sentence (documentation usually opens a section with what
it is about) and the sentence most central to the section (highest mean word overlap with the
section's other sentences). Sections are kept in page order; when the budget is short, every
section's opening sentence comes before any central one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.text.sentences import attach_marker, content_words, split_sentences, stems
from citewise.types import Passage

MIN_WORDS = 6  # shorter sentences are headings, labels or fragments
MIN_CONTENT_WORDS = 3
NEAR_DUPLICATE = 0.8  # Jaccard overlap of stems above which two sentences say the same

_BOILERPLATE = re.compile(
    r"^(?:see also|note|changed in version|new in version|deprecated|source code:|"
    r"availability:|example|for example|>>>|\.\.\.|\$ )",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _Sentence:
    n: int
    order: int
    text: str
    stems: frozenset[str]


def _informative(text: str) -> bool:
    return (
        len(text.split()) >= MIN_WORDS
        and len(content_words(text)) >= MIN_CONTENT_WORDS
        and not text.endswith(":")
        and not _BOILERPLATE.match(text)
        and sum(c.isalpha() for c in text) >= 0.6 * len(text.replace(" ", ""))
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _sections(passages: Sequence[Passage]) -> list[list[_Sentence]]:
    groups: dict[str, list[_Sentence]] = {}
    order = 0
    for p in passages:
        group = groups.setdefault(p.hit.section, [])
        for text in split_sentences(p.context):
            if _informative(text):
                group.append(_Sentence(p.n, order, text, frozenset(stems(text))))
            order += 1
    return [g for g in groups.values() if g]


def _central(sentences: Sequence[_Sentence]) -> _Sentence | None:
    if len(sentences) < 3:
        return None
    return max(
        sentences[1:],
        key=lambda s: sum(_jaccard(s.stems, o.stems) for o in sentences if o is not s),
    )


def summarize_extractive(chunks_in_page_order: Sequence[Passage], max_sentences: int = 8) -> str:
    """Key sentences of the passages, each ending with its `[n]`, one paragraph per section."""
    sections = _sections(chunks_in_page_order)
    firsts = [(i, s[0]) for i, s in enumerate(sections)]
    centrals = [(i, c) for i, s in enumerate(sections) if (c := _central(s)) is not None]
    picked: list[tuple[int, _Sentence]] = []
    for i, cand in firsts + centrals:
        if len(picked) >= max_sentences:
            break
        if any(_jaccard(cand.stems, s.stems) >= NEAR_DUPLICATE for _, s in picked):
            continue
        picked.append((i, cand))
    paragraphs: list[str] = []
    for i in sorted({i for i, _ in picked}):
        chosen = sorted((s for j, s in picked if j == i), key=lambda s: s.order)
        paragraphs.append(" ".join(attach_marker(s.text, (s.n,)) for s in chosen))
    return "\n\n".join(paragraphs)
