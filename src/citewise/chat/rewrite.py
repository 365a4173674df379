"""Follow-ups become standalone queries, using the last few turns.

"What is its default size?" finds nothing on its own; after "What does functools.lru_cache
do?" it should search for "What is functools.lru_cache's default size?". Without an LLM the
pronoun (or ellipsis) is replaced by the previous turn's topic, and where no clean
replacement exists the topic is added to the question, which serves keyword and dense
retrieval alike. "Simplify that" and "tell me more" search with the previous question itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from citewise.chat.ellipsis import about, named_before
from citewise.chat.intents.rules import match_rules
from citewise.chat.references import BackReference, find_reference
from citewise.chat.topics import topic_of
from citewise.errors import BackendError
from citewise.llm.base import LLM, Message
from citewise.text.identifiers import identifiers
from citewise.text.sentences import content_words, stem

RewriteMethod = Literal["none", "heuristic", "llm", "previous"]
WINDOW = 5
MAX_QUERY_CHARS = 400

REWRITE_PROMPT = """Rewrite the user's last message as one standalone search query for their \
documents. Use the conversation to replace pronouns and fill in the subject the message leaves \
out; keep the user's own wording otherwise. Do not answer the question. If the message is \
already standalone, return it unchanged. Reply with the query only, on one line."""

_STAND_IN = re.compile(
    r"^(?:this|that|these|those)\s+(?:function|method|module|class|decorator|library|package"
    r"|tool|command|option|feature|approach|thing|one)s?$",
    re.I,
)
_LABEL = re.compile(
    r"^(?:standalone\s+)?(?:rewritten\s+)?(?:search\s+)?(?:query|question)\s*:\s*", re.I
)


@dataclass(frozen=True, slots=True)
class PriorTurn:
    """One earlier exchange; `rewritten_query` is what was searched for, if it differed."""

    question: str
    answer: str
    rewritten_query: str | None = None


@dataclass(frozen=True, slots=True)
class Rewrite:
    """The query to search with. `note` records why an LLM rewrite was not used."""

    query: str
    changed: bool
    method: RewriteMethod
    topic: str | None
    note: str = ""


def rewrite(
    question: str,
    history: Sequence[PriorTurn],
    *,
    summary: str | None = None,
    llm: LLM | None = None,
    intent: str | None = None,
) -> Rewrite:
    """The standalone form of `question` given `history` (oldest first)."""
    window = list(history)[-WINDOW:]
    if not window:
        return Rewrite(question, False, "none", None)
    previous = _searched(window[-1])
    topic = next((t for t in (topic_of(_searched(p)) for p in reversed(window)) if t), None)
    if intent is None:
        rule = match_rules(question)
        intent = rule.intent if rule else None
    if intent in ("simplify", "deepen"):
        return Rewrite(previous, previous != question, "previous", topic)
    ref = find_reference(question) or elliptic(question, previous)
    note = ""
    if llm is not None and (ref or intent == "followup" or not _self_contained(question)):
        result = _llm_rewrite(question, window, summary, llm)
        if isinstance(result, str):
            return Rewrite(result, result != question, "llm", topic)
        note = result.note
    if topic is None or (ref is None and intent != "followup"):
        return Rewrite(question, False, "none", topic, note)
    query = resolve(question, ref, topic, previous, answer=window[-1].answer)
    return Rewrite(query, query != question, "heuristic", topic, note)


def resolve(
    question: str, ref: BackReference | None, topic: str, previous: str, *, answer: str = ""
) -> str:
    """`question` with its reference to the previous turn spelled out (no LLM); `answer`:
    the previous answer, where "those files" may find what files they are."""
    q = question.strip()
    if ref is None:
        return _append(q, topic)
    condition = _CONDITION.match(q)
    if condition and ref.kind in ("pronoun", "possessive", "continuation"):
        return under_condition(previous, condition.group("cond"), topic)
    if ref.kind == "about" and ref.subject:
        return about(ref.subject, topic, previous)
    if ref.kind == "ellipsis":
        return _ellipsis(q, previous)
    if ref.kind == "continuation":
        rest = _capitalise(q[ref.end - ref.start :].strip())
        return rest if _self_contained(rest) else _append(rest, topic)
    words = ref.words.lower()
    end = ref.end
    if ref.kind == "demonstrative" and " " not in words:
        noun = re.match(r"\s+([a-z][\w-]*)", q[end:])  # "Is that directory required?"
        if noun and content_words(noun.group(1)):
            words, end = f"{words} {noun.group(1)}", end + noun.end()
    named = named_before(words, previous, answer) if ref.kind == "demonstrative" else None
    if named is not None:
        # "those files" after "… as a set of segment files": "the segment files"
        out = f"{q[: ref.start]}the {named}{q[end:]}"
        return _append(_capitalise(out), topic)
    words = ref.words.lower()
    if ref.kind == "possessive":
        replacement = f"{topic}'" if topic.endswith("s") else f"{topic}'s"
    elif (
        ref.kind == "pronoun"
        or words in ("this", "that", "these", "those")
        or _STAND_IN.match(words)
    ):
        replacement = topic
    else:
        return _append(q, topic)
    out = q[: ref.start] + replacement + q[ref.end :]
    return _capitalise(re.sub(r"^(?:and|but|also|so|then|or|plus)\b[,\s]*", "", out, flags=re.I))


# "And if it wants the extra six months?": a condition and no ask of its own
_CONDITION = re.compile(
    r"^\s*(?:(?:and|but|so|or)[\s,]+)?(?P<cond>(?:if|when|unless|in\s+case)\b[^,;:]+?)[\s?.!]*$",
    re.I,
)
# the qualifier a previous ask ends on, which a new condition takes the place of
_QUALIFIER = re.compile(
    r"\s+(?:for|during|in|within|under|on|at)\s+(?:the|a|an|its|their|this|that)\s+"
    r"(?:[\w-]+\s+){0,2}[\w-]+\s*(?=[?.!]*$)",
    re.I,
)
_SUBJECT_PRONOUN = re.compile(r"\b(?:it|they)\b", re.I)


def under_condition(previous: str, condition: str, topic: str) -> str:
    """The previous ask under a new condition: "What does A pay B for the initial term?" and
    "And if it wants the extra six months?" → "What does A pay B if A wants the extra six
    months?" (the condition's pronoun is the previous topic; it replaces the qualifier the
    ask ended on)."""
    ask = _QUALIFIER.sub("", previous.strip()).rstrip("?.! ")
    said = _SUBJECT_PRONOUN.sub(lambda m: topic, condition, count=1)
    return f"{ask} {said[:1].lower()}{said[1:]}?"


# "What about the least serious ones, how long does he get to fix them?": the subject, then
# a question of its own that leans on the last turn as a whole
_ABOUT_THEN_ASKS = re.compile(r"^\s*(?:and\s+)?what\s+about\s+[^,;]+[,;]\s*\w", re.I)
SHORT_WORDS = 2  # a question of this few content words sharing one with the last is elliptical


def elliptic(question: str, previous: str) -> BackReference | None:
    """An ellipsis the reference rules leave out: a question of a word or two that shares a
    word with the last one ("What isn't covered?" after "What does the warranty cover?"),
    or "what about X, <question>?"; searched together with the last question."""
    words = content_words(question)
    if _ABOUT_THEN_ASKS.match(question):
        return BackReference("ellipsis", 0, len(question), question)
    if not words or len(words) > SHORT_WORDS or identifiers(question):
        return None
    shared = {stem(w) for w in words} & {stem(w) for w in content_words(previous)}
    return BackReference("ellipsis", 0, len(question), question) if shared else None


def _searched(turn: PriorTurn) -> str:
    return turn.rewritten_query or turn.question


def _self_contained(question: str) -> bool:
    return bool(identifiers(question)) or len(content_words(question)) >= 3


def _append(question: str, topic: str) -> str:
    if topic.lower() in question.lower():
        return question
    body = question.rstrip("?.! ")
    return f"{body} ({topic}){question[len(body) :].strip()}"


def _ellipsis(question: str, previous: str) -> str:
    return f"{_capitalise(question)} {previous}"


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class _Failed:
    note: str


def _llm_rewrite(
    question: str, window: Sequence[PriorTurn], summary: str | None, llm: LLM
) -> str | _Failed:
    lines = [f"Conversation summary: {summary}", ""] if summary else []
    for turn in window:
        lines += [f"User: {turn.question}", f"Assistant: {_clip(turn.answer, 300)}"]
    lines += ["", f"Last message: {question}"]
    messages = [Message("system", REWRITE_PROMPT), Message("user", "\n".join(lines))]
    try:
        text = llm.complete(messages, temperature=0.0, max_tokens=120).text
    except BackendError as exc:
        return _Failed(f"llm rewrite failed: {exc}")
    rows = [r.strip() for r in text.strip().splitlines() if r.strip()]
    query = _LABEL.sub("", rows[0]).strip().strip("\"'`“”") if len(rows) == 1 else ""
    if not query or len(query) >= MAX_QUERY_CHARS:
        return _Failed(f"llm rewrite unusable: {text[:80]!r}")
    return query


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
