"""Every prompt citewise sends to an LLM, in one place.

Static instructions come first and never vary with the question, so servers that cache
prompt prefixes (llama.cpp, vLLM, OpenAI) reuse them; the passages and the question follow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

SYSTEM = """\
You answer questions using only the numbered passages you are given.
Rules:
- Every sentence that states a fact ends with the number of the passage it comes from, \
like [2] or [1, 3].
- Use only what the passages say. Do not add knowledge of your own, and never state a \
number, version, name or setting that the cited passage does not contain.
- If the passages do not contain the answer, reply exactly: \
"The documents do not contain this information." and cite nothing.
- Answer directly and briefly: a few sentences, the answer first."""

NOTHING_MORE = "The documents say nothing more about this."  # "tell me more" after an answer
# the model answered, but no sentence of it survived the check against the passages
UNVERIFIED = (
    "I could not verify an answer in the documents: nothing the model wrote is supported by "
    "the passages it was shown."
)
NO_ANSWER_REPLIES = frozenset({NOTHING_MORE, UNVERIFIED})  # besides NOT_FOUND

RETRY_INSTRUCTIONS = """\
Your previous answer contained sentences that the passages do not support. Write the \
answer again. State only what the cited passages say explicitly, cite each sentence, and \
leave out anything you cannot cite. Unsupported sentences were:"""

MAP_INSTRUCTIONS = """\
Summarise the passage below in 2–4 sentences: its main points, in the order they appear. \
Use only what the passage says and end each sentence with its number, like [3]."""

REDUCE_INSTRUCTIONS = """\
Combine the partial summaries below into one summary of the document: first one sentence \
on what the document is about, then its key points in reading order. Keep every [n] \
citation exactly as written, do not invent new ones, and add nothing the summaries do \
not say."""

JUDGE_INSTRUCTIONS = """\
You check whether a claim is supported by evidence. Supported means the evidence states \
the claim, or it follows directly; values (numbers, names, settings) must match exactly. \
Reply with JSON only: {"supported": true} or {"supported": false}."""


STYLE_INSTRUCTIONS = {
    "simple": "Answer in one or two short sentences in plain words, for a beginner.",
    "deep": "Give more detail than a short answer would: the further points the passages make.",
}


def styled_question(question: str, style: str) -> str:
    """The question with the follow-up's wish ("simplify that", "tell me more") spelled out."""
    extra = STYLE_INSTRUCTIONS.get(style)
    return f"{question.strip()}\n({extra})" if extra else question


def system_prompt() -> str:
    return SYSTEM


def answer_prompt(question: str, context: str) -> str:
    """The user message: the numbered passages, then the question."""
    return f"Passages:\n\n{context}\n\nQuestion: {question.strip()}"


def retry_prompt(question: str, context: str, unsupported: Sequence[str]) -> str:
    """The stricter second attempt, naming the sentences that failed the check."""
    listed = "\n".join(f"- {s.strip()}" for s in unsupported)
    return f"{RETRY_INSTRUCTIONS}\n{listed}\n\n{answer_prompt(question, context)}"


def map_prompt(numbered_passage: str) -> str:
    return f"{MAP_INSTRUCTIONS}\n\n{numbered_passage}"


def reduce_prompt(title: str, partial_summaries: Sequence[str]) -> str:
    body = "\n\n".join(s.strip() for s in partial_summaries if s.strip())
    return f"{REDUCE_INSTRUCTIONS}\n\nDocument: {title}\n\n{body}"


def judge_prompt(claim: str, evidence: str) -> str:
    return f"{JUDGE_INSTRUCTIONS}\n\nEvidence:\n{evidence.strip()}\n\nClaim: {claim.strip()}"


_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


def parse_judgement(reply: str) -> bool | None:
    """The judge's verdict from its reply, or None when the reply is not the JSON asked for
    (tolerates code fences and text around the object)."""
    for m in _JSON_OBJECT.finditer(reply):
        try:
            data = json.loads(m.group(0))
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("supported"), bool):
            return bool(data["supported"])
    return None
