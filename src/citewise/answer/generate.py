"""Generation with an LLM: stream the answer, verify it, retry stricter, then drop what fails.

The first attempt streams its tokens as it is written. Its sentences are then checked against
the passages they cite (`grounding.check_answer`, with the LLM as judge for the uncertain
ones). If any is unsupported the answer is regenerated with a stricter prompt naming the
failing sentences, at most `max_retries` times, and only while a retry can help: it must fit
the answer's time budget (judged by how long the last attempt took) and the previous retry must
have reduced the unsupported sentences. Whatever still fails is dropped. The final text is what
the `Done` event carries, so a client that rendered the streamed draft replaces it with the
verified answer.

`answer_with_fallback` wraps this for the answer flow: when the LLM fails (down, timed out,
malformed reply, stream cut, an empty reply) the reader gets the extractive answer (asked for
on demand), marked by a `Fallback` saying why; when there is no extractive answer either, the
best passages' opening sentences. A model that read the passages and declined is honoured: its
"not in the documents" is the answer. A model that answered but had every sentence dropped
(after its stricter retry) gets no fallback: the reader is told the answer could not be
verified (`UNVERIFIED`, no citations), never shown unsupported text.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace

from citewise.answer.context import render_context
from citewise.answer.excerpts import has_claim, is_claim, passage_excerpts
from citewise.answer.grounding import (
    MAX_RETRIES,
    Aliases,
    GroundingReport,
    Support,
    check_answer,
    known_to_model,
    lexical_verdict,
    passages_cited,
)
from citewise.answer.numbering import DraftNumbers
from citewise.answer.prompts import (
    UNVERIFIED,
    answer_prompt,
    judge_prompt,
    parse_judgement,
    retry_prompt,
    system_prompt,
)
from citewise.answer.repair import recite
from citewise.llm.base import LLM, LLMError, Message
from citewise.text.sentences import (
    split_sentences,
)
from citewise.types import NOT_FOUND, Fallback, Passage, Retraction, Status, Token
from citewise.types.trace import Trace

log = logging.getLogger("citewise.answer")

MAX_ANSWER_TOKENS = 600
DEFAULT_BUDGET_S = 45.0  # one answer's generation, retries and judge calls together

_SENTENCE_END = re.compile(r"[.!?\]](?=\s)")
_CITATION = re.compile(r"\[\d+")
_DECLINE = re.compile(
    r"\b(?:do|does|did)(?: not|n't) (?:contain|mention|say|state|provide|specify|include|"
    r"answer|cover|describe)\b|\bno information\b|\bnot (?:mentioned|specified|stated|"
    r"covered|provided) in\b|\bcannot (?:find|answer)\b"
)

Clock = Callable[[], float]
# The seam to the extractive answerer: its answer text for the same question and passages
# ("" when it has none), computed only when the LLM's answer cannot be used.
ExtractiveText = Callable[[], str]


@dataclass(frozen=True, slots=True)
class Draft:
    """The verified answer text (unsupported sentences dropped) and how it was reached.
    `retried` counts the unsupported sentences sent back for a stricter retry; `dropped`
    those removed from the final attempt; `stopped` why retries ended early ("budget",
    "no progress" or "")."""

    text: str
    report: GroundingReport
    attempts: int
    declined: bool  # the model said the passages do not contain the answer
    retried: int = 0
    dropped: int = 0
    stopped: str = ""
    # passage numbers in the order the streamed draft cited them (its `[1]`, `[2]`…)
    cited_order: tuple[int, ...] = ()

    @property
    def kept(self) -> int:
        """Claims (sentences with content words) of the final text that passed the check."""
        ok = [s for s in self.report.sentences if s.verdict != "unsupported"]
        return sum(1 for s in ok if is_claim(s.sentence))


@dataclass(frozen=True, slots=True)
class Generated:
    """What the answer flow shows: the text, its grounding report, the LLM's draft (None when
    the LLM failed before one was finished) and the fallback used, if any."""

    text: str
    report: GroundingReport
    draft: Draft | None
    fallback: Fallback | None


class LLMSentenceJudge:
    """`grounding.LLMJudge` backed by the configured LLM in JSON mode. A failing call, or one
    past the deadline, is 'could not decide' (the sentence stays uncertain), never a crash."""

    def __init__(self, llm: LLM, *, deadline: float = float("inf"), clock: Clock = time.monotonic):
        self.llm = llm
        self.failures = 0
        self.skipped = 0
        self.deadline = deadline
        self._clock = clock

    def judge(self, sentence: str, evidence: str) -> bool | None:
        if self._clock() >= self.deadline:
            self.skipped += 1
            return None
        try:
            reply = self.llm.complete(
                [Message("user", judge_prompt(sentence, evidence))], json_mode=True, max_tokens=20
            )
        except LLMError:
            self.failures += 1
            return None
        return parse_judgement(reply.text)


def retry_stop_reason(
    *,
    elapsed_s: float,
    last_attempt_s: float,
    budget_s: float,
    unsupported_now: int,
    unsupported_before: int | None,
) -> str:
    """Why another attempt cannot help ("" when it may): it would not finish within the
    budget if it took as long as the last one, or the last retry removed no unsupported
    sentence."""
    if unsupported_before is not None and unsupported_now >= unsupported_before:
        return "no progress"
    if elapsed_s + last_attempt_s > budget_s:
        return "budget"
    return ""


def generate_verified(
    llm: LLM,
    question: str,
    passages: Sequence[Passage],
    *,
    max_retries: int = MAX_RETRIES,
    budget_s: float = DEFAULT_BUDGET_S,
    clock: Clock = time.monotonic,
    aliases: Aliases | None = None,
) -> Generator[Status | Token | Retraction, None, Draft]:
    """Yields `Token`s of the first attempt, a `Retraction` for each of its sentences the
    check drops (as soon as a sentence is finished when the lexical check decides, else after
    the whole check) and `Status` events; returns the `Draft`. Raises `LLMError` when an
    attempt fails. `aliases`: the documents' own words for the names in them (the check
    holds a party named in the answer to its role in the passage)."""
    started = clock()
    context = render_context(passages)
    stream_check = SentenceWatch(passages, question, aliases)
    numbers = DraftNumbers(p.n for p in passages)  # the reader sees [1] for the first cited
    judge = LLMSentenceJudge(llm, deadline=started + budget_s, clock=clock)
    prompt = answer_prompt(question, context)
    report: GroundingReport | None = None
    retried, stopped, before = 0, "", None
    attempt = 0
    while True:
        attempt_started = clock()
        messages = [Message("system", system_prompt()), Message("user", prompt)]
        if attempt == 0:
            parts: list[str] = []
            deltas = llm.stream(messages, max_tokens=MAX_ANSWER_TOKENS)
            for delta in deltas:
                parts.append(delta)
                if shown := numbers.feed(delta):
                    yield Token(shown)
                for r in stream_check.finished("".join(parts)):
                    yield Retraction(numbers.apply(r.sentence), r.reason)
                if clock() - started >= budget_s:
                    close = getattr(deltas, "close", None)
                    if close is not None:
                        close()  # ends the request: the server stops writing
                    stopped = "budget"
                    yield Status("verify", "the time budget ran out: keeping the sentences written")
                    break
            if rest := numbers.flush():
                yield Token(rest)
            text = "".join(parts).strip()
            text = finished_sentences(text) if stopped else text
        else:
            yield Status("retry", f"retrying with a stricter prompt ({attempt}/{max_retries})")
            text = llm.complete(messages, max_tokens=MAX_ANSWER_TOKENS).text.strip()
        if not text:
            # nothing written (cut by the budget, or an empty reply): a failure, not a decline
            ended = stopped or "empty"
            return Draft("", check_answer("", passages), attempt + 1, False, retried, 0, ended)
        if is_decline(text):
            return Draft(NOT_FOUND, check_answer("", passages), attempt + 1, True, retried)
        yield Status("verify", "checking every sentence against its passage")
        report = check_answer(
            text, passages, judge, question=question, terms=True, repair=True, aliases=aliases
        )
        if attempt == 0:
            for r in stream_check.dropped(report):
                yield Retraction(numbers.apply(r.sentence), r.reason)
        failing = report.unsupported
        if not failing or attempt >= max_retries or stopped:
            break
        now = clock()
        stopped = retry_stop_reason(
            elapsed_s=now - started,
            last_attempt_s=now - attempt_started,
            budget_s=budget_s,
            unsupported_now=len(failing),
            unsupported_before=before,
        )
        if stopped:
            yield Status("verify", f"not retrying ({stopped}): dropping unsupported sentences")
            break
        retried += len(failing)
        before = len(failing)
        prompt = retry_prompt(question, context, failing)
        attempt += 1
    dropped = len(report.unsupported)
    order = tuple(numbers.order)
    return Draft(
        report.supported_text, report, attempt + 1, False, retried, dropped, stopped, order
    )


class SentenceWatch:
    """Checks a streaming draft's sentences as they are finished: one its cited passages
    clearly do not support, and no other passage shown supports, is retracted at once (the
    judge is left for the whole check, which retracts what it drops later)."""

    def __init__(
        self, passages: Sequence[Passage], question: str, aliases: Aliases | None = None
    ) -> None:
        self.passages = passages
        self.known = known_to_model(passages, question, aliases)
        self.checked = 0
        self.retracted: set[str] = set()

    def finished(self, text: str) -> Iterator[Retraction]:
        """Retractions for the sentences of `text` finished since the last call."""
        sentences = split_sentences(text)
        done = sentences[:-1]  # the last may still be growing
        for sentence in done[self.checked :]:
            cited = passages_cited(sentence, self.passages)
            if not cited:
                continue  # its marker may be on the next sentence: the whole check decides
            found = lexical_verdict(sentence, cited, self.known)
            if (
                found.verdict == "unsupported"
                and recite(sentence, cited, self.passages, self.known) is None
            ):
                yield self._retract(found)
        self.checked = max(self.checked, len(done))

    def dropped(self, report: GroundingReport) -> Iterator[Retraction]:
        """Retractions for sentences the check dropped or cut a clause from, not yet retracted."""
        for s in report.sentences:
            if s.trimmed and s.written not in self.retracted:
                yield self._retract(replace(s, sentence=s.written))
            elif s.verdict == "unsupported" and s.sentence not in self.retracted:
                yield self._retract(s)

    def _retract(self, s: Support) -> Retraction:
        self.retracted.add(s.sentence)
        why = "its cited passages do not support it"
        if s.missing:
            why = f"not in the cited passage: {', '.join(s.missing)}"
        return Retraction(s.sentence, why)


def answer_with_fallback(
    llm: LLM,
    question: str,
    passages: Sequence[Passage],
    extractive: ExtractiveText,
    *,
    max_retries: int = MAX_RETRIES,
    budget_s: float = DEFAULT_BUDGET_S,
    clock: Clock = time.monotonic,
    aliases: Aliases | None = None,
) -> Generator[Status | Token | Retraction, None, Generated]:
    """The LLM's verified answer, or a marked fallback when the LLM failed (see the module
    docstring). A model that declined gets "not in the documents", a draft whose every
    sentence was dropped gets "could not verify" (`UNVERIFIED`); neither is marked, neither
    cites anything. The passages are shown only when the LLM's connection failed."""
    try:
        draft = yield from generate_verified(
            llm,
            question,
            passages,
            max_retries=max_retries,
            budget_s=budget_s,
            clock=clock,
            aliases=aliases,
        )
    except LLMError as exc:
        return (yield from _fall_back(passages, extractive, f"the LLM failed: {exc}", None))
    if draft.declined:
        # the context was assembled normally and the model read it: its decline is the answer
        yield Status("verify", "the model found no answer in the passages")
        return Generated(NOT_FOUND, draft.report, draft, None)
    if not has_claim(draft.report):
        if draft.dropped:
            # the model answered and was sent back with the reasons; nothing it wrote holds
            # up: say so, with no claim and no fallback (not a transport failure)
            yield Status("verify", unverified_reason(draft))
            return Generated(UNVERIFIED, check_answer("", passages), draft, None)
        reason = (
            "the model sent an empty answer"
            if draft.stopped == "empty"
            else f"the time budget ({budget_s:g} s) ran out before the model finished a sentence"
        )
        return (yield from _fall_back(passages, extractive, reason, draft, passages_too=False))
    return Generated(draft.text, draft.report, draft, None)


def unverified_reason(draft: Draft) -> str:
    """Why the model's answer is not shown: the check dropped every sentence it wrote."""
    tries = "attempt" if draft.attempts == 1 else "attempts"
    return (
        f"could not verify the model's answer: the grounding check dropped every sentence "
        f"({draft.dropped} after {draft.attempts} {tries})"
    )


def _fall_back(
    passages: Sequence[Passage],
    extractive: ExtractiveText,
    reason: str,
    draft: Draft | None,
    *,
    passages_too: bool = True,
) -> Generator[Status, None, Generated]:
    text = extractive().strip()
    report = None if is_decline(text) else check_answer(text, passages)
    if report is not None and has_claim(report):
        yield Status("fallback", f"showing the extractive answer: {reason}")
        return Generated(report.supported_text, report, draft, Fallback("extractive", reason))
    quoted = passage_excerpts(passages) if passages_too else ""
    if not quoted:
        declined = check_answer("", passages)
        return Generated(NOT_FOUND, declined, draft, None)
    yield Status("fallback", f"showing the most relevant passages: {reason}")
    return Generated(quoted, check_answer(quoted, passages), draft, Fallback("passages", reason))


def record_generation(trace: Trace, made: Generated) -> None:
    """What generation did, as notes in the answer's trace: attempts, the model's sentences
    kept, dropped and sent back for a retry, and a fallback (logged)."""
    if made.draft is not None:
        trace.note("attempts", float(made.draft.attempts))
        trace.note("llm_sentences_kept", float(made.draft.kept))
        trace.note("llm_sentences_dropped", float(made.draft.dropped))
        trace.note("llm_sentences_retried", float(made.draft.retried))
    if made.fallback is not None:
        trace.note("llm_fallback")
        log.warning("showing the %s answer: %s", made.fallback.used, made.fallback.reason)


def finished_sentences(text: str) -> str:
    """`text` without an unfinished last sentence (a stream cut off mid-way)."""
    stripped = text.rstrip()
    if not stripped or stripped[-1] in ".!?)]\"'`":
        return stripped
    ends = [m.end() for m in _SENTENCE_END.finditer(stripped)]
    return stripped[: ends[-1]].rstrip() if ends else ""


def is_decline(text: str) -> bool:
    """True when the model answered that the passages do not contain the answer: the
    prompt's decline sentence, or a short uncited reply saying the passages lack it."""
    norm = " ".join(text.lower().split()).strip(" .")
    if not norm:
        return True
    probe = NOT_FOUND.lower().strip(" .")
    if norm.startswith(probe):
        return True
    uncited = not _CITATION.search(text)
    return uncited and len(norm) < 240 and bool(_DECLINE.search(norm))
