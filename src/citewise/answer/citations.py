"""Citation references in answer text: parse, match to passages, quote, renumber (pure).

An answer cites with `[1]`, `[1, 3]`, `[1][2]` or `[Title > Section]`. A reference is matched
to a passage in three tiers, first hit wins: (1) exact — the number, or the label equals the
passage's title/section label; (2) contains — one label contains the other; (3) Dice
similarity of character bigrams above `DICE_THRESHOLD`. Unmatched references cite nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from citewise.answer.quotes import claims_quote
from citewise.graph.store import GraphStore
from citewise.text.sentences import split_sentences, strip_citation_marks
from citewise.types import Citation, Hit, Passage
from citewise.types.positions import boxes_for_quote

RELATED_STRENGTH = 0.5  # a graph link this strong or stronger makes a document related
RELATED_LIMIT = 2

# Low enough for misspelt or shortened section names, above unrelated labels.
DICE_THRESHOLD = 0.5

_BRACKET = re.compile(r"(?<![\w`])\[([^\[\]\n]{1,200})\](?!\()")
_NUMBERS = re.compile(r"^\s*\d+(?:\s*(?:,|;|-|–)\s*\d+)*\s*$")
_SEPARATORS = re.compile(r"\s*(?:>|›|»|/|::)\s*")


@dataclass(frozen=True, slots=True)
class CitationMark:
    """One cited target: a passage number or a label; `start`/`end` span its brackets."""

    start: int
    end: int
    n: int | None = None
    label: str = ""


def parse_references(text: str) -> list[CitationMark]:
    """Every reference in `text`, in order; `[1, 3]` and `[2-4]` expand to one per number."""
    refs: list[CitationMark] = []
    for m in _BRACKET.finditer(text):
        body = m.group(1)
        if _NUMBERS.match(body):
            for n in _expand_numbers(body):
                refs.append(CitationMark(m.start(), m.end(), n=n))
        elif any(c.isalpha() for c in body) and not body.strip().startswith(("!", "^")):
            refs.append(CitationMark(m.start(), m.end(), label=" ".join(body.split())))
    return refs


def _expand_numbers(body: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r"\s*[,;]\s*", body.strip()):
        bounds = re.split(r"\s*[-–]\s*", part)
        lo, hi = int(bounds[0]), int(bounds[-1])
        out.extend(range(lo, hi + 1) if 0 < hi - lo < 20 else [lo])
    return list(dict.fromkeys(out))


# -- matching --------------------------------------------------------------------------


def _norm(label: str) -> str:
    return _SEPARATORS.sub(" > ", label.lower()).strip(" >")


def _labels(p: Passage) -> list[str]:
    h = p.hit
    section = _norm(h.section)
    out = [f"{_norm(h.title)} > {section}", f"{_norm(h.source)} > {section}", section]
    out += [_norm(h.title), _norm(h.source), section.rsplit(" > ", 1)[-1]]
    return [x for x in dict.fromkeys(out) if x.strip(" >")]


def dice(a: str, b: str) -> float:
    """Dice coefficient of the character-bigram multisets of `a` and `b` (spaces ignored)."""
    x, y = a.lower().replace(" ", ""), b.lower().replace(" ", "")
    if x == y:
        return 1.0
    if len(x) < 2 or len(y) < 2:
        return 0.0
    bx = Counter(x[i : i + 2] for i in range(len(x) - 1))
    by = Counter(y[i : i + 2] for i in range(len(y) - 1))
    return 2 * sum((bx & by).values()) / (sum(bx.values()) + sum(by.values()))


def match_reference(ref: CitationMark, passages: Sequence[Passage]) -> Passage | None:
    """The passage `ref` points at, or None. Earlier (better-ranked) passages win ties."""
    if ref.n is not None:
        return next((p for p in passages if p.n == ref.n), None)
    want = _norm(ref.label)
    if not want:
        return None
    for p in passages:  # tier 1: exact
        if want in _labels(p):
            return p
    for p in passages:  # tier 2: contains, either way (tiny labels would contain anything)
        if any(len(x) >= 4 and len(want) >= 4 and (want in x or x in want) for x in _labels(p)):
            return p
    best, best_score = None, DICE_THRESHOLD  # tier 3: Dice similarity
    for p in passages:
        score = max(dice(want, x) for x in _labels(p))
        if score > best_score:
            best, best_score = p, score
    return best


def canonical_markers(text: str, passages: Sequence[Passage]) -> str:
    """`text` with every reference rewritten as `[n]` of its passage; unmatched ones removed."""
    refs = parse_references(text)
    out: list[str] = []
    pos = 0
    by_span: dict[tuple[int, int], list[int]] = {}
    for ref in refs:
        p = match_reference(ref, passages)
        nums = by_span.setdefault((ref.start, ref.end), [])
        if p is not None and p.n not in nums:
            nums.append(p.n)
    for (start, end), nums in by_span.items():
        out.append(text[pos:start].rstrip(" ") if not nums else text[pos:start])
        if nums:
            out.append("[" + ", ".join(str(n) for n in nums) + "]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


# -- citations -------------------------------------------------------------------------


def build_citations(answer_text: str, passages: Sequence[Passage]) -> tuple[Citation, ...]:
    """One citation per cited passage, in order of first use, each with the quote that best
    supports the sentences citing it. `n` is the passage number used in the text."""
    claims: dict[int, list[str]] = {}
    for sentence in split_sentences(answer_text):
        claim = strip_citation_marks(sentence)
        for ref in parse_references(sentence):
            p = match_reference(ref, passages)
            if p is not None and claim not in claims.setdefault(p.n, []):
                claims[p.n].append(claim)
    by_n = {p.n: p for p in passages}
    out: list[Citation] = []
    for n, texts in claims.items():
        p = by_n[n]
        quote = claims_quote(texts, p.context)
        h = p.hit
        boxes = tuple(boxes_for_quote(h.boxes, h.text, quote))
        page = boxes[0].page if boxes else h.page  # the quote's page, in a multi-page chunk
        out.append(Citation(n, h.source, page, h.section, h.chunk_id, quote, h.doc_hash, boxes))
    return tuple(out)


def renumber(
    answer_text: str, citations: Sequence[Citation], first: Sequence[int] = ()
) -> tuple[str, tuple[Citation, ...]]:
    """Renumbers `[n]` markers and citations to 1..N: the passage numbers of `first` (the
    order a streamed draft cited them, `numbering.DraftNumbers.order`) that are still cited,
    then in order of first use in the text. Markers pointing at no citation are removed."""
    known = {c.n for c in citations}
    mapping: dict[int, int] = {}
    for n in first:
        if n in known and n not in mapping:
            mapping[n] = len(mapping) + 1
    for ref in parse_references(answer_text):
        if ref.n is not None and ref.n in known and ref.n not in mapping:
            mapping[ref.n] = len(mapping) + 1
    for c in citations:  # cited but somehow unmarked: keep, after the marked ones
        mapping.setdefault(c.n, len(mapping) + 1)
    text = rewrite_markers(answer_text, mapping.get)
    renumbered = sorted((replace(c, n=mapping[c.n]) for c in citations), key=lambda c: c.n)
    return text, tuple(renumbered)


def rewrite_markers(text: str, display: Callable[[int], int | None]) -> str:
    """`text` with each number of each `[n]` marker replaced by `display(n)`; numbers it
    maps to None are dropped, and a marker left empty is removed with its leading space."""
    out: list[str] = []
    pos = 0
    for m in _BRACKET.finditer(text):
        if not _NUMBERS.match(m.group(1)):
            continue
        nums = [d for n in _expand_numbers(m.group(1)) if (d := display(n)) is not None]
        before = text[pos : m.start()]
        if nums:
            out.append(before + "[" + ", ".join(str(n) for n in dict.fromkeys(nums)) + "]")
        else:
            out.append(before.rstrip(" "))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def related_docs(
    hits: Iterable[Hit],
    cited: Iterable[Citation],
    floor: float = 0.0,
    graph: GraphStore | None = None,
    collection: str = "default",
) -> tuple[str, ...]:
    """Documents related to the answer. With a knowledge graph: those the graph links to the
    first cited document (strength at least `RELATED_STRENGTH`, strongest first, at most
    `RELATED_LIMIT`), never a cited one. Without one (a store that keeps no graph): sources
    among the hits that no citation points at, in rank order, from hits scoring at least
    `floor` × the top score: in a small collection every document is among the hits, and a
    backup question should not list the vacation policy as related."""
    citations = list(cited)
    cited_sources = {c.source for c in citations}
    ordered = sorted(hits, key=lambda h: h.rank)
    if graph is not None:
        doc_of = {h.chunk_id: h.doc_id for h in ordered}
        top = next((doc_of[c.chunk_id] for c in citations if c.chunk_id in doc_of), None)
        if top is None:
            return ()
        links = graph.related_documents(
            collection, top, min_strength=RELATED_STRENGTH, limit=RELATED_LIMIT + len(citations)
        )
        linked = [link.other(top) for link in links]
        source_of = {d.doc_id: d.source for d in graph.documents(collection, linked)}
        named = [source_of[d] for d in linked if d in source_of]
        related = [src for src in dict.fromkeys(named) if src not in cited_sources]
        return tuple(related[:RELATED_LIMIT])
    top_score = max((h.score for h in ordered), default=0.0)
    relevant = [h for h in ordered if h.score >= floor * top_score]
    return tuple(dict.fromkeys(h.source for h in relevant if h.source not in cited_sources))
