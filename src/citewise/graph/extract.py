"""Rule-based extraction: one document's chunks in, its entities, relations and references out.

Pure and deterministic. Two passes over the document's sentences: the first learns how the
document writes its words (which capitals are forced), the second finds mentions, resolves
aliases (an acronym and its expansion are one entity) and reads the edges between mentions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from citewise.graph.builder import Builder
from citewise.graph.model import (
    ChunkText,
    CrossReference,
    DocumentGraph,
    entity_key,
)
from citewise.graph.rules.citations import cited_titles, is_bibliography
from citewise.graph.rules.codes import find_codes
from citewise.graph.rules.names import (
    capitalised_runs,
    find_acronyms,
    find_names,
    inside_phrases,
)
from citewise.graph.rules.standing import unstanding
from citewise.graph.rules.technical import TechnicalEvidence, find_technical
from citewise.graph.rules.terms import find_abbreviations, find_terms
from citewise.graph.rules.tokens import (
    Mention,
    Sentence,
    Token,
    WordEvidence,
    is_heading_like,
    tokenize,
)
from citewise.text.aliases import definitions
from citewise.text.sentences import split_sentences
from citewise.types import ChunkRecord
from citewise.types.documents import SECTION_SEPARATOR


def extract(chunks: Iterable[ChunkText]) -> DocumentGraph:
    every = list(chunks)
    # a reference list names titles, not things: its titles are read as citations only
    chunks = [c for c in every if not is_bibliography(c)]
    citations = _citations(c for c in every if is_bibliography(c))
    evidence = WordEvidence()
    technical = TechnicalEvidence()
    for sentence in _sentences(chunks):
        evidence.add(sentence)
        evidence.phrases |= inside_phrases(sentence, _runs(sentence))
        technical.add(sentence.text)
    evidence.technical = technical.names()
    # each sentence is tokenised again rather than its tokens kept from the first pass, and
    # split again for the last one rather than its text kept: a long manual's (15,000
    # chunks) took ~100 MB and ~20 MB
    found = [sentence_mentions(s, evidence, _runs(s)) for s in _sentences(chunks)]
    headings = _headings(chunks)
    # the sentences are tokenised a third time rather than kept (see above)
    judged = zip(_sentences(chunks), found, strict=True)
    dropped = unstanding(judged, "\n\n".join(c.text for c in chunks), headings, evidence.roles)
    found = [[m for m in ms if m.key not in dropped] for ms in found]
    aliases = _alias_map(m for ms in found for m in ms)
    graph = Builder(subject=entity_key(headings[0]) if headings else "")
    for (chunk_id, text), mentions in zip(_texts(chunks), found, strict=True):
        graph.add(chunk_id, text, [_resolve(m, aliases) for m in mentions])
    for chunk in chunks:  # a party's "Inc." ends a sentence for the splitter: whole passages
        graph.agreements(chunk.chunk_id, chunk.text)
    return replace(graph.build(), headings=headings, citations=citations)


def _citations(chunks: Iterable[ChunkText]) -> tuple[CrossReference, ...]:
    found: dict[str, tuple[str, set[int]]] = {}
    for chunk in chunks:
        for key, title in cited_titles(chunk.text):
            found.setdefault(key, (title, set()))[1].add(chunk.chunk_id)
    return tuple(CrossReference(k, t, tuple(sorted(ids))) for k, (t, ids) in sorted(found.items()))


def _texts(chunks: Sequence[ChunkText]) -> Iterator[tuple[int, str]]:
    """Each sentence of the chunks, in order, with its chunk's id."""
    for chunk in chunks:
        for text in split_sentences(chunk.text):
            yield chunk.chunk_id, text


def _runs(sentence: Sentence) -> list[list[Token]] | None:
    """The sentence's capitalised runs, found once for the rules of one pass that read them."""
    return None if sentence.heading_like else capitalised_runs(sentence)


def _sentences(chunks: Sequence[ChunkText]) -> Iterator[Sentence]:
    for chunk_id, text in _texts(chunks):
        tokens = tokenize(text)
        yield Sentence(chunk_id, text, tokens, is_heading_like(text, tokens))


_NUMBERED_HEADING = re.compile(
    r"^(?:(?:Chapter|Section|Appendix|Part)\s+)?(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?\s+[A-Z]"
)


def _headings(chunks: Sequence[ChunkText]) -> tuple[str, ...]:
    """The document's section headings: from the chunks' section paths, and numbered heading
    lines in the text (a PDF's headings often reach the text only as lines)."""
    seen: dict[str, None] = {}
    for chunk in chunks:
        for part in chunk.section.split(SECTION_SEPARATOR):
            if part.strip():
                seen.setdefault(part.strip(), None)
    for chunk in chunks:
        for line in chunk.text.splitlines():
            line = line.strip()
            if _NUMBERED_HEADING.match(line) and is_heading_like(line, tokenize(line)):
                seen.setdefault(line, None)
    return tuple(seen)


def extract_records(records: Iterable[ChunkRecord]) -> DocumentGraph:
    """The graph of a stored document's chunks (`Store.document_chunks(doc_id)`)."""
    return extract(ChunkText(r.chunk_id, r.text, r.section) for r in records)


def sentence_mentions(
    sentence: Sentence, evidence: WordEvidence, runs: list[list[Token]] | None = None
) -> list[Mention]:
    """Every rule's mentions in one sentence, overlaps settled by rule priority then length
    (`runs`: the sentence's `capitalised_runs`, when the caller has them already)."""
    # when two rules claim overlapping text, the more specific rule (listed first) wins
    defined = definitions(sentence.text)
    by_rule = (
        # a role's short name standing alone ("the Company") is no entity of its own
        [m for m in find_terms(sentence.text, defined) if m.name not in evidence.roles],
        find_abbreviations(sentence.text, defined),
        find_technical(sentence.text, evidence.technical),
        find_codes(sentence.text),
        find_names(sentence, evidence, runs),
        find_acronyms(sentence, evidence),
    )
    ranked = sorted(
        ((rank, m) for rank, found in enumerate(by_rule) for m in found if m.key),
        key=lambda rm: (rm[0], -(rm[1].end - rm[1].start), rm[1].start),
    )
    kept: list[Mention] = []
    for _, m in ranked:
        if all(m.end <= k.start or k.end <= m.start for k in kept):
            kept.append(m)
    return sorted(kept, key=lambda m: m.start)


def _alias_map(mentions: Iterable[Mention]) -> dict[str, Mention]:
    """Alias key → the defining mention (its expansion or full name)."""
    out: dict[str, Mention] = {}
    for m in mentions:
        for alias in m.aliases:
            out.setdefault(entity_key(alias), m)
    return out


def _resolve(m: Mention, aliases: dict[str, Mention]) -> Mention:
    target = aliases.get(m.key)
    if target is None or target.key == m.key:
        return m
    return Mention(target.key, target.name, target.kind, m.start, m.end, (m.name,))
