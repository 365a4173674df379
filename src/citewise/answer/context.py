"""Context assembly: which hits the answerer sees, how much of each, numbered from 1.

Adaptive k (Axiom): a simple lookup needs few passages, a complex question more. A relevance
filter relative to the top score drops the tail that would only bleed unrelated context into
the answer. A child is expanded to its parent when the child alone is short or starts/ends
mid-thought, or the question is complex, and the budget allows; otherwise the child is used.
Either is led in by the last sentences of the chunk before it in the same section (a chunk
boundary often falls just after the sentence that states the point), and one that ends
mid-thought ("Attn:", a list's lead-in, a cut sentence) is continued by the first lines of
the chunk after it, so one fact cut by a boundary is shown as one passage. Assembly stops at
the budget.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from citewise.answer.policy import policy_for
from citewise.text.sentences import split_sentences
from citewise.types import ChunkRecord, Hit, Passage

TokenCounter = Callable[[str], int]

# Hits scoring below this share of the top hit's score are dropped: hits found by both
# retrievers score about twice those found by one, so this keeps one retriever's top hits.
MIN_RELATIVE_SCORE = 0.5
MIN_CHILD_TOKENS = 60  # a child shorter than this says too little alone: use its parent
MAX_PARENT_TOKENS = 700  # a parent longer than this costs more than it adds
LEAD_IN_SENTENCES = 2  # sentences of the preceding chunk put before a child passage
CONTINUATION_LINES = 2  # lines or sentences of the next chunk put after an unfinished passage
MAX_CONTINUATION_TOKENS = 80  # a continuation longer than this is another passage's work

_DANGLING_START = re.compile(r"^(?:[a-z]|(?:This|That|These|Those|It|Its|They|Such|Both)\b)")
# a child opening on a nested item ("  - Can have a unique token …") continues a list begun
# in the chunk before it: its parent holds the item it hangs under
_NESTED_ITEM = re.compile(r"^[ \t]+(?:[-*•▪◦‣–]|\d+[.)])\s")
# a finished thought ends with a sentence end, maybe inside closing quotes or brackets
_FINISHED = re.compile(r"[.!?…][\"'”’)\]]*$")


@dataclass(frozen=True, slots=True)
class Neighbours:
    """The chunks beside the hits, in reading order of their documents: `before`/`after` by
    hit chunk id, `before_parents`/`after_parents` by parent id (the chunk before the parent's
    first chunk, after its last)."""

    before: Mapping[int, ChunkRecord]
    before_parents: Mapping[int, ChunkRecord]
    after: Mapping[int, ChunkRecord]
    after_parents: Mapping[int, ChunkRecord]

    def of(self, hit: Hit, *, whole: bool) -> tuple[ChunkRecord | None, ChunkRecord | None]:
        """The chunks just before and after `hit`'s passage: its parent's when `whole`."""
        if whole:
            return self.before_parents.get(hit.parent_id), self.after_parents.get(hit.parent_id)
        return self.before.get(hit.chunk_id), self.after.get(hit.chunk_id)


def passage_header(p: Passage) -> str:
    """`[n] source › section (p. 4–5)`: what the model sees above each passage."""
    h = p.hit
    parts = [f"[{p.n}] {h.source}"]
    if h.section:
        parts.append(f" › {h.section}")
    if h.page is not None:
        end = h.page_end if h.page_end is not None and h.page_end != h.page else None
        parts.append(f" (p. {h.page}–{end})" if end else f" (p. {h.page})")
    return "".join(parts)


def render_context(passages: Sequence[Passage]) -> str:
    """The numbered passages as one block for a prompt."""
    return "\n\n".join(f"{passage_header(p)}\n{p.context.strip()}" for p in passages)


def select_hits(
    hits: Sequence[Hit], question_kind: str, min_relative: float = MIN_RELATIVE_SCORE
) -> list[Hit]:
    """Adaptive k plus the relevance filter relative to the top score, in rank order."""
    ordered = sorted(hits, key=lambda h: h.rank)
    if not ordered:
        return []
    k = policy_for(question_kind).passages
    top = max(h.score for h in ordered)
    floor = min_relative * top if top > 0 else float("-inf")
    return [h for h in ordered if h.score >= floor][:k]


def needs_parent(child_text: str, child_tokens: int) -> bool:
    """True when the child alone is short or starts/ends mid-thought."""
    text = child_text.strip()
    if child_tokens < MIN_CHILD_TOKENS or _NESTED_ITEM.match(child_text):
        return True
    return bool(_DANGLING_START.match(text)) or text.endswith(":")


def lead_in(hit: Hit, before: ChunkRecord, context: str) -> str:
    """The last sentences of the chunk `before` the passage (`context`: the hit's text, or
    its parent's) when it continues the same section of the same document on the same page,
    from another parent (children of one parent already overlap); else ""."""
    if before.doc_id != hit.doc_id or before.section != hit.section:
        return ""
    if before.page_end != hit.page or before.parent_id == hit.parent_id:
        return ""
    fresh = [s for s in split_sentences(before.text) if s not in context]
    return " ".join(fresh[-LEAD_IN_SENTENCES:])


def ends_mid_thought(text: str) -> bool:
    """True when `text` stops before its thought ends: a lead-in (":"), an item of a list
    (";", ", and"), a sentence cut by a chunk boundary."""
    return not _FINISHED.search(text.rstrip())


def continuation(hit: Hit, after: ChunkRecord, context: str, count_tokens: TokenCounter) -> str:
    """The first lines or sentences of the chunk `after` the passage (`context`: the hit's
    text, or its parent's) when the passage ends mid-thought and `after` continues the same
    section of the same document on the same page; else "". At most `CONTINUATION_LINES`
    and `MAX_CONTINUATION_TOKENS`, up to the first that ends a sentence: the end of the thought,
    not the next passage."""
    if after.doc_id != hit.doc_id or after.section != hit.section:
        return ""
    if after.page_start != hit.page_end or not ends_mid_thought(context):
        return ""
    fresh = [s for s in split_sentences(after.text) if s not in context]  # children overlap
    kept: list[str] = []
    used = 0
    for sentence in fresh[:CONTINUATION_LINES]:
        used += count_tokens(sentence) + 1
        if used > MAX_CONTINUATION_TOKENS:
            break
        kept.append(sentence)
        if not ends_mid_thought(sentence):
            break  # the thought is finished: the rest is the next passage's
    return "\n".join(kept)


def assemble(
    hits: Sequence[Hit],
    parents: Mapping[int, str],
    budget_tokens: int,
    count_tokens: TokenCounter,
    question_kind: str = "complex",
    preceding: Mapping[int, ChunkRecord] | None = None,
    before_parents: Mapping[int, ChunkRecord] | None = None,
    *,
    following: Mapping[int, ChunkRecord] | None = None,
    after_parents: Mapping[int, ChunkRecord] | None = None,
    min_relative: float = MIN_RELATIVE_SCORE,
) -> list[Passage]:
    """Numbered passages within `budget_tokens` (headers included). `parents` maps a hit's
    `parent_id` to the parent text, `preceding`/`following` a hit's `chunk_id` to the chunk
    before/after it, `before_parents`/`after_parents` a `parent_id` to the chunk before the
    parent's first one/after its last one; `min_relative`: the share of the top score a hit
    needs (0 for a list not ordered by score: one passage of each document first).
    The first passage is always included, cut to the budget by whole sentences if need be."""
    selected = select_hits(hits, question_kind, min_relative)
    beside = Neighbours(preceding or {}, before_parents or {}, following or {}, after_parents or {})
    return _fill(selected, parents, budget_tokens, count_tokens, question_kind, beside,
                 skip_oversized=False)  # fmt: skip


def assemble_within_budget(
    hits: Sequence[Hit],
    parents: Mapping[int, str],
    budget_tokens: int,
    count_tokens: TokenCounter,
    question_kind: str = "complex",
    preceding: Mapping[int, ChunkRecord] | None = None,
    before_parents: Mapping[int, ChunkRecord] | None = None,
    *,
    following: Mapping[int, ChunkRecord] | None = None,
    after_parents: Mapping[int, ChunkRecord] | None = None,
) -> list[Passage]:
    """The LLM's context: every hit in rank order, duplicates of a text already shown left
    out, until `budget_tokens` is spent. No count per question kind and no score floor: the
    budget decides, so the passage holding the answer reaches the model whenever it ranks
    within what fits. A passage too long for what is left is skipped for shorter ones."""
    ordered = sorted(hits, key=lambda h: h.rank)
    seen: set[str] = set()
    unique: list[Hit] = []
    for h in ordered:
        key = " ".join(h.text.lower().split())
        if key not in seen:
            seen.add(key)
            unique.append(h)
    beside = Neighbours(preceding or {}, before_parents or {}, following or {}, after_parents or {})
    return _fill(unique, parents, budget_tokens, count_tokens, question_kind, beside,
                 skip_oversized=True)  # fmt: skip


def _fill(
    selected: Sequence[Hit],
    parents: Mapping[int, str],
    budget_tokens: int,
    count_tokens: TokenCounter,
    question_kind: str,
    beside: Neighbours,
    *,
    skip_oversized: bool,
) -> list[Passage]:
    chosen = {h.chunk_id for h in selected}
    counts = Counter(h.parent_id for h in selected)
    out: list[Passage] = []
    used_parents: set[int] = set()
    remaining = budget_tokens
    for hit in selected:
        if hit.parent_id in used_parents:
            continue  # its text is already inside an expanded parent
        n = len(out) + 1
        header_tokens = count_tokens(passage_header(Passage(n, hit, ""))) + 1
        child_tokens = count_tokens(hit.text)
        parent = parents.get(hit.parent_id, "")
        context = hit.text
        cost = header_tokens + child_tokens
        if parent and len(parent) > len(hit.text):
            wanted = (
                counts[hit.parent_id] > 1
                or policy_for(question_kind).whole_parents
                or needs_parent(hit.text, child_tokens)
            )
            parent_cost = header_tokens + count_tokens(parent)
            small = parent_cost - header_tokens <= MAX_PARENT_TOKENS
            if wanted and small and parent_cost <= remaining:
                context, cost = parent, parent_cost
                used_parents.add(hit.parent_id)
        before, after = beside.of(hit, whole=context != hit.text)
        if after is not None:  # even when shown itself: one fact must sit in one passage
            more = continuation(hit, after, context, count_tokens)
            more_cost = count_tokens(more) + 1 if more else 0
            if more and cost + more_cost <= remaining:
                context, cost = f"{context}\n{more}", cost + more_cost
        if before is not None and before.chunk_id not in chosen:
            lead = lead_in(hit, before, context)
            lead_cost = count_tokens(lead) + 1 if lead else 0
            if lead and before.parent_id not in used_parents and cost + lead_cost <= remaining:
                context, cost = f"{lead}\n{context}", cost + lead_cost
        if cost > remaining:
            if out and skip_oversized and remaining > MIN_CHILD_TOKENS:
                continue
            if out:
                break
            context = _cut(hit.text, remaining - header_tokens, count_tokens)
            cost = remaining
        out.append(Passage(n, hit, context))
        remaining -= cost
    return out


def _cut(text: str, budget: int, count_tokens: TokenCounter) -> str:
    kept: list[str] = []
    used = 0
    for sentence in split_sentences(text):
        t = count_tokens(sentence) + 1
        if used + t > budget:
            break
        kept.append(sentence)
        used += t
    return " ".join(kept) if kept else text[: max(0, budget) * 4]
