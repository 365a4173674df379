"""Which document a phrase names ("summarize the document about backups") — pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from citewise.answer.citations import dice
from citewise.types import DocumentInfo

# a title or file name this similar to the phrase names the document outright
NAME_MATCH = 0.6
_FILLER = re.compile(
    r"\b(?:the|a|an|document|doc|file|page|pdf|guide|about|on|called|named|titled|of)\b", re.I
)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w.]+", " ", text.lower()).split())


def _names(doc: DocumentInfo) -> list[str]:
    path = PurePosixPath(doc.source)
    names = [_norm(doc.title), _norm(path.stem.replace("_", " ").replace("-", " "))]
    return [n for n in names if n]


def match_document(phrase: str, docs: Sequence[DocumentInfo]) -> DocumentInfo | None:
    """The document whose title or file name the phrase names (exact, contained, or Dice
    similarity ≥ NAME_MATCH), or None: then the caller falls back to retrieval."""
    want = _norm(_FILLER.sub(" ", phrase))
    if not want or not docs:
        return None
    best: DocumentInfo | None = None
    best_score = NAME_MATCH
    for doc in docs:
        for name in _names(doc):
            if name == want:
                return doc
            contained = len(want) >= 4 and (want in name or name in want)
            score = 0.9 if contained else dice(want, name)
            if score > best_score:
                best, best_score = doc, score
    return best
