"""Conversation summaries: keep long sessions within the context budget.

Once the turns not yet covered by a summary pass a token threshold, every turn but the last
few is summarized (by the LLM if one is configured, otherwise extractively: each question and
the first sentence of its answer) and the summary replaces those turns in `recent_context`.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence

from citewise.chat.memory.base import Memory, Turn
from citewise.llm import LLM, LLMError, Message
from citewise.text.sentences import strip_citation_marks

log = logging.getLogger(__name__)

SUMMARY_WORD_CAP = 120
LLM_SUMMARY_WORD_CAP = 200
_TRANSCRIPT_ANSWER_WORDS = 150

SUMMARY_PROMPT = (
    "You keep the running summary of a conversation between a user and an assistant that "
    "answers from the user's documents. Write at most 120 words of plain prose: the topics "
    "asked about, the key facts given (with the document names they came from), and any "
    "open question. Do not add facts that are not in the transcript. No preamble."
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def approx_tokens(text: str) -> int:
    """A cheap token estimate: words × 1.3."""
    return math.ceil(len(text.split()) * 1.3)


def turns_tokens(turns: Sequence[Turn]) -> int:
    """Approximate tokens of the turns' questions and answers together."""
    return approx_tokens(" ".join(f"{t.question} {t.answer}" for t in turns))


def should_summarize(turns: Sequence[Turn], token_threshold: int) -> bool:
    """True once the turns' questions and answers together exceed `token_threshold`."""
    return turns_tokens(turns) > token_threshold


def _words(text: str, cap: int) -> str:
    words = text.split()
    return " ".join(words) if len(words) <= cap else " ".join(words[:cap]) + " …"


def first_sentence(text: str) -> str:
    """The first sentence of `text`, without `[n]` citation markers."""
    clean = strip_citation_marks(" ".join(text.split()))
    return _SENTENCE_END.split(clean, maxsplit=1)[0] if clean else ""


def extractive_summary(turns: Sequence[Turn], word_cap: int = SUMMARY_WORD_CAP) -> str:
    """Each turn as `Q: question → A: first sentence`, newest kept when over `word_cap`."""
    entries = [
        f"Q: {_words(t.question, 20)} → A: {_words(first_sentence(t.answer), 25)}" for t in turns
    ]
    kept: list[str] = []
    used = 0
    for entry in reversed(entries):
        size = len(entry.split())
        if kept and used + size > word_cap:
            break
        kept.append(_words(entry, word_cap) if not kept else entry)
        used += size
    kept.reverse()
    omitted = len(entries) - len(kept)
    head = [f"({omitted} earlier exchange{'s' if omitted > 1 else ''} omitted.)"] if omitted else []
    return "\n".join(head + kept)


def _transcript(turns: Sequence[Turn]) -> str:
    return "\n".join(
        f"User: {t.question}\nAssistant: {_words(t.answer, _TRANSCRIPT_ANSWER_WORDS)}"
        for t in turns
    )


def summarize_turns(turns: Sequence[Turn], llm: LLM | None, previous: str | None = None) -> str:
    """A short summary of `turns` (continuing `previous`, if given). With an LLM that fails
    or returns nothing, falls back to the extractive summary and logs a warning."""
    if not turns:
        return previous or ""
    if llm is None:
        return extractive_summary(turns)
    parts = [f"Summary so far:\n{previous}\n"] if previous else []
    parts.append(f"Transcript:\n{_transcript(turns)}\n\nWrite the updated summary.")
    try:
        text = llm.complete(
            [Message("system", SUMMARY_PROMPT), Message("user", "\n".join(parts))],
            temperature=0.0,
            max_tokens=300,
        ).text.strip()
    except LLMError as exc:
        log.warning(
            "conversation summary by %s failed (%s); using extractive summary", llm.name, exc
        )
        return extractive_summary(turns)
    if not text:
        log.warning("conversation summary by %s was empty; using extractive summary", llm.name)
        return extractive_summary(turns)
    return _words(text, LLM_SUMMARY_WORD_CAP)


def maybe_summarize(
    memory: Memory,
    session_id: str,
    llm: LLM | None,
    token_threshold: int,
    keep_recent: int = 4,
) -> bool:
    """Summarizes all but the last `keep_recent` turns once the turns the current summary does
    not cover pass `token_threshold`. Returns True if a new summary was stored."""
    info = memory.require(session_id)
    turns = memory.turns(session_id)
    covered = min(info.covered_turns, len(turns))
    if not should_summarize(turns[covered:], token_threshold):
        return False
    cut = len(turns) - max(keep_recent, 0)
    if cut <= covered:
        return False
    if llm is None:  # extractive: cheap, so always rebuilt from every older turn
        summary = summarize_turns(turns[:cut], None)
    else:  # the LLM only reads what the previous summary does not cover yet
        summary = summarize_turns(turns[covered:cut], llm, memory.summary(session_id))
    memory.set_summary(session_id, summary, cut)
    return True


def recent_context(memory: Memory, session_id: str, last: int = 5) -> tuple[str | None, list[Turn]]:
    """(summary, up to `last` most recent turns the summary does not cover), oldest first."""
    info = memory.info(session_id)
    if info is None:
        return None, []
    uncovered = max(info.turns - info.covered_turns, 0)
    recent = memory.turns(session_id, last=min(last, uncovered)) if uncovered and last > 0 else []
    return memory.summary(session_id), recent
