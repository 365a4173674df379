"""Generation with an LLM: stream the answer, verify it, retry stricter, then drop what fails.

The first attempt streams its tokens as it is written. Its sentences are then checked against
the passages they cite (`grounding.check_answer`, with the LLM as judge for the uncertain
ones). If any is unsupported the answer is regenerated with a stricter prompt naming the
failing sentences, at most `MAX_RETRIES` times; whatever still fails is dropped. The final
text is what the `Done` event carries, so a client that rendered the streamed draft replaces
it with the verified answer.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

from citewise.answer.context import render_context
from citewise.answer.grounding import MAX_RETRIES, GroundingReport, check_answer
from citewise.answer.prompts import (
    NOT_FOUND,
    answer_prompt,
    judge_prompt,
    parse_judgement,
    retry_prompt,
    system_prompt,
)
from citewise.llm.base import LLM, LLMError, Message
from citewise.types import Passage, Status, Token

MAX_ANSWER_TOKENS = 600


@dataclass(frozen=True, slots=True)
class Draft:
    """The verified answer text (unsupported sentences dropped) and how it was reached."""

    text: str
    report: GroundingReport
    attempts: int
    declined: bool  # the model said the passages do not contain the answer


class LLMSentenceJudge:
    """`grounding.LLMJudge` backed by the configured LLM in JSON mode. A failing call is
    'could not decide' (the sentence stays uncertain), never a crash."""

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.failures = 0

    def judge(self, sentence: str, evidence: str) -> bool | None:
        try:
            reply = self.llm.complete(
                [Message("user", judge_prompt(sentence, evidence))], json_mode=True, max_tokens=20
            )
        except LLMError:
            self.failures += 1
            return None
        return parse_judgement(reply.text)


def generate_verified(
    llm: LLM,
    question: str,
    passages: Sequence[Passage],
    *,
    max_retries: int = MAX_RETRIES,
) -> Generator[Status | Token, None, Draft]:
    """Yields `Token`s of the first attempt and `Status` events; returns the `Draft`."""
    context = render_context(passages)
    judge = LLMSentenceJudge(llm)
    prompt = answer_prompt(question, context)
    text = ""
    report: GroundingReport | None = None
    attempts = 0
    for attempt in range(max_retries + 1):
        attempts = attempt + 1
        messages = [Message("system", system_prompt()), Message("user", prompt)]
        if attempt == 0:
            parts: list[str] = []
            for delta in llm.stream(messages, max_tokens=MAX_ANSWER_TOKENS):
                parts.append(delta)
                yield Token(delta)
            text = "".join(parts).strip()
        else:
            yield Status("retry", f"retrying with a stricter prompt ({attempt}/{max_retries})")
            text = llm.complete(messages, max_tokens=MAX_ANSWER_TOKENS).text.strip()
        if is_decline(text):
            return Draft(NOT_FOUND, check_answer("", passages), attempts, declined=True)
        yield Status("verify", "checking every sentence against its passage")
        report = check_answer(text, passages, judge)
        if not report.unsupported:
            break
        prompt = retry_prompt(question, context, report.unsupported)
    assert report is not None
    return Draft(report.supported_text, report, attempts, declined=False)


def is_decline(text: str) -> bool:
    """True when the model answered that the passages do not contain the answer."""
    norm = " ".join(text.lower().split()).strip(" .")
    if not norm:
        return True
    probe = NOT_FOUND.lower().strip(" .")
    return norm.startswith(probe) or (len(norm) < 120 and "do not contain" in norm)
