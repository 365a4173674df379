"""Which document a phrase names ("summarize the document about backups") — pure.

A document's names are its title and its file name. The phrase's words are matched against
them weighted by how rare each word is among all the documents' names, so "the page for the
zoneinfo module" picks zoneinfo's page, not a page called "module".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import PurePosixPath

from citewise.types import DocumentInfo

# share of the phrase's (rarity-weighted) words a document's names must cover
NAME_MATCH = 0.5
_FILLER = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "document",
        "documents",
        "doc",
        "docs",
        "file",
        "page",
        "pages",
        "pdf",
        "about",
        "on",
        "called",
        "named",
        "titled",
        "of",
        "for",
        "in",
        "to",
        "documentation",
        "summarize",
        "summarise",
        "summary",
        "overview",
        "module",
        "modules",
        "chapter",
        "section",
        "manual",
        "guide",
        "handbook",
        "article",
    ]
)
_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _FILLER}


def _names(doc: DocumentInfo) -> set[str]:
    stem = PurePosixPath(doc.source).stem
    return _words(doc.title) | _words(stem)


def match_document(phrase: str, docs: Sequence[DocumentInfo]) -> DocumentInfo | None:
    """The document whose title or file name covers most of the phrase's rare words (at least
    `NAME_MATCH` of them, rarity-weighted), or None: then the caller falls back to retrieval.
    Ties go to the document with the fewest extra words in its names."""
    want = _words(phrase)
    if not want or not docs:
        return None
    names = [_names(d) for d in docs]
    df = Counter(w for n in names for w in n)
    total = len(docs)

    def idf(word: str) -> float:
        return math.log(1 + total / (1 + df.get(word, 0)))

    weight = sum(idf(w) for w in want)
    best: tuple[float, float, int] | None = None
    for i, n in enumerate(names):
        covered = sum(idf(w) for w in want & n) / weight
        if covered < NAME_MATCH:
            continue
        key = (covered, -len(n - want), -i)
        if best is None or key > best:
            best = key
    return docs[-best[2]] if best is not None else None
