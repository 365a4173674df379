"""Document cross-references.

Explicit: one document names another — its title, its file name, a code in its title, or its
section number ("see Section 20.4" cites "20.4. Resource Consumption"). Implicit: two documents
share at least two specific entities; rare entities count more (IDF-like), so two documents
that both name "FC-001-234" and "Sensor Bus Interface" are linked, while two that both say
"PDF" and "HTTP" in a collection where everyone does are not.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath

from citewise.graph.model import (
    LOCAL_KINDS,
    DocumentGraph,
    DocumentLink,
    DocumentProfile,
    entity_key,
)
from citewise.graph.rules.codes import find_codes, section_names

MIN_SHARED = 2
# an entity in more than this share of a collection's documents says nothing about a pair
COMMON_SHARE = 0.5
EXPLICIT_BASE = 0.6
EXPLICIT_STEP = 0.15
IMPLICIT_STEP = 0.35
MAX_EVIDENCE = 5
_NUMBERING = re.compile(r"^\s*(?:(?:Chapter|Section|Appendix)\s+)?[A-Z0-9]+(?:\.[0-9]+)*\.?\s+")
_TITLE_HEAD = re.compile(r"^\s*(?P<head>[^—:]{2,60}?)\s+(?:—|–|-{1,2}|:)\s+\S")


def document_names(title: str, source: str, headings: Iterable[str] = ()) -> frozenset[str]:
    """Keys another document may use to cite this one: its title, file name, title code or
    number, and its section headings of two words or more."""
    names: set[str] = set()
    if len(entity_key(title).split()) >= 2 or _is_code_like(title):
        names.add(entity_key(title))
    for heading in headings:
        bare = _NUMBERING.sub("", heading)
        if len(entity_key(bare).split()) >= 2:
            names.add(entity_key(bare))
    head = _TITLE_HEAD.match(title)
    if head:  # "json — JSON encoder and decoder" is cited as "json"
        names.add(entity_key(head.group("head")))
    file_name = PurePath(source.replace("\\", "/")).name
    if file_name:
        names.add(entity_key(file_name))
        stem = entity_key(PurePath(file_name).stem)
        if len(stem.split()) >= 2 and not stem.isdigit():
            names.add(stem)
    names.update(entity_key(n) for n in section_names(title))
    names.update(m.key for m in find_codes(title) if m.kind != "section")
    return frozenset(n for n in names if n)


def profile(doc_id: int, title: str, source: str, graph: DocumentGraph) -> DocumentProfile:
    # a bare "Chapter 5" or "Section 3" names a place in a book without saying which book: it
    # is never a citation of another document (its own chapter, or a book it does not name)
    cites = {e.key for e in graph.entities}
    cites.update(entity_key(a) for e in graph.entities for a in e.aliases)
    cites.update(p for r in graph.references for p in _prefixes(r.key))
    cites.update(c.key for c in graph.citations)  # titles in its reference list
    cites = {c for c in cites if _number_of(c) is None}  # an alias or a title too
    shares = {e.key for e in graph.entities if e.kind not in LOCAL_KINDS}
    names = document_names(title, source, graph.headings)
    return DocumentProfile(doc_id, names, frozenset(cites - names), frozenset(shares))


_NUMBERED_KEY = re.compile(r"^(?:section|chapter|appendix|annex|clause|part)(?=\d|\s\w\b)\s?(.+)$")


def _number_of(key: str) -> str | None:
    """The number a section-like key cites ("section7 2" → "7 2"); None for other keys."""
    m = _NUMBERED_KEY.match(key)
    return m.group(1) if m else None


def _prefixes(key: str) -> list[str]:
    """A reference and its leading word runs: "see Syntax of relationship fields for details"
    cites "syntax of relationship fields" among them."""
    words = key.split()
    return [key, *(" ".join(words[:n]) for n in range(2, len(words)))]


def _is_code_like(title: str) -> bool:
    """A one-word title that is a name by its form: "VACUUM", "pg_dump", "os.path"."""
    word = title.strip()
    return " " not in word and (word.isupper() or "_" in word or "." in word) and len(word) > 2


def explicit_links(doc: DocumentProfile, others: Iterable[DocumentProfile]) -> list[DocumentLink]:
    """Links from `doc` to the documents it names and from the documents that name it."""
    out: list[DocumentLink] = []
    for other in others:
        if other.doc_id == doc.doc_id:
            continue
        for citing, cited in ((doc, other), (other, doc)):
            hits = sorted(citing.cites & cited.names)
            if hits:
                strength = min(1.0, EXPLICIT_BASE + EXPLICIT_STEP * (len(hits) - 1))
                out.append(
                    DocumentLink(
                        (citing.doc_id, cited.doc_id), "explicit", round(strength, 4),
                        tuple(hits[:MAX_EVIDENCE]),
                    )
                )  # fmt: skip
    return out


def document_frequencies(profiles: Iterable[DocumentProfile]) -> Counter[str]:
    df: Counter[str] = Counter()
    for p in profiles:
        df.update(p.shares)
    return df


def rarity(df: int, n_docs: int) -> float:
    """In (0, 1]: 1 for an entity one document names, falling as more documents do."""
    return math.log((n_docs + 1) / df) / math.log(n_docs + 1) if n_docs > 0 and df > 0 else 0.0


def implicit_links(
    doc: DocumentProfile,
    others: Sequence[DocumentProfile],
    df: Mapping[str, int],
    n_docs: int,
) -> list[DocumentLink]:
    """Links between `doc` and each document sharing ≥ 2 specific entities with it; strength
    1 − Π(1 − 0.35·rarity) over the shared entities."""
    out: list[DocumentLink] = []
    for other in others:
        if other.doc_id == doc.doc_id:
            continue
        shared = [
            k for k in doc.shares & other.shares if df.get(k, 1) <= max(2, COMMON_SHARE * n_docs)
        ]
        if len(shared) < MIN_SHARED:
            continue
        weights = {k: rarity(df.get(k, 1), n_docs) for k in shared}
        miss = math.prod(1.0 - IMPLICIT_STEP * w for w in weights.values())
        evidence = sorted(shared, key=lambda k: (-weights[k], k))[:MAX_EVIDENCE]
        pair = (min(doc.doc_id, other.doc_id), max(doc.doc_id, other.doc_id))
        out.append(DocumentLink(pair, "implicit", round(1.0 - miss, 4), tuple(evidence)))
    return out


def links_for(doc: DocumentProfile, others: Sequence[DocumentProfile]) -> list[DocumentLink]:
    """Every link between `doc` and the other documents of its collection."""
    everyone = [doc, *(o for o in others if o.doc_id != doc.doc_id)]
    df = document_frequencies(everyone)
    return [
        *explicit_links(doc, everyone),
        *implicit_links(doc, everyone, df, len(everyone)),
    ]
