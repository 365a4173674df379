"""Answer metrics: runs every question through the full answer flow (`Assistant.ask`), the
conversations turn by turn in one session, and scores what a user sees.

- must_contain: the answer, lowercased without whitespace and commas, contains every string;
- passage ceiling: the same test on the answer's sources as the flow ranked them, the first
  passage alone and the first three together (what the answer could have said);
- citation precision: cited passages from a gold file / all citations; recall: gold files cited;
- unanswerable: abstentions, and answers that state a concrete value anyway;
- outcome: the answer's kind (`answer`, a labelled closest `passage`, `none`) and whether the
  citations' quotes hold must_contain (the quote carries the claim's fact);
- chit-chat: the intent is right and nothing is cited;
- conversation: the last turn's retrieval (with the rewritten query) hit@5 by gold file, and its
  must_contain.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from citewise.answer.prompts import NOTHING_MORE
from citewise.evaluation.dataset import EvalItem, Gold
from citewise.text.sentences import strip_citation_marks
from citewise.types import NOT_FOUND

if TYPE_CHECKING:
    from citewise.assistant import Assistant
    from citewise.types import Answer

CHIT_CHAT = "greeting/garbage/off_topic"
_VALUE = re.compile(r"\d|`[^`]+`|\b\w+\.\w+\(|\b\w+_\w+\b")


@dataclass(frozen=True, slots=True)
class AnswerResult:
    id: str
    type: str
    answer: str
    intent: str
    abstained: bool
    must_contain: float  # 1.0 when every string is there (items without strings: 1.0)
    cited: int
    cited_gold: int
    gold_files_cited: float
    states_value: bool
    intent_ok: bool | None
    retrieval_hit5: bool | None  # conversations: the last turn's sources hold a gold file
    first_passage: bool | None  # items with must_contain strings: the first source holds them
    first_three: bool | None  # … the first three sources together hold them
    answer_chars: int
    latency_ms: float
    rewritten_query: str | None
    kind: str = "answer"  # `answer` | `passage` (labelled closest passage) | `none`
    quotes_hold: bool | None = None  # items with must_contain strings: the quotes hold them


def squash(text: str) -> str:
    return re.sub(r"[\s,]+", "", text.lower())


def contains_all(answer: str, wanted: Sequence[str]) -> bool:
    body = squash(answer)
    return all(squash(w) in body for w in wanted)


def passages_contain(passages: Sequence[str], wanted: Sequence[str]) -> bool:
    """Every wanted string occurs in one of the passages (must_contain's normalisation)."""
    bodies = [squash(p) for p in passages]
    return all(any(squash(w) in body for body in bodies) for w in wanted)


def states_value(answer: str) -> bool:
    """Whether a (non-abstaining) answer asserts a concrete value: a number, a code literal,
    a call or a snake_case identifier."""
    return bool(_VALUE.search(strip_citation_marks(answer)))


def score_answer(item_id: str, kind: str, answer: Answer, want: Sequence[str],
                 gold: Sequence[Gold], expect_intent: str, ms: float) -> AnswerResult:  # fmt: skip
    abstained = answer.answer.strip() in (NOT_FOUND, NOTHING_MORE) or not answer.citations
    gold_files = {g.file for g in gold}
    cited_sources = [c.source for c in answer.citations]
    cited_gold = sum(1 for s in cited_sources if s in gold_files)
    covered = len(gold_files & set(cited_sources)) / len(gold_files) if gold_files else 0.0
    texts = [h.text for h in answer.sources]
    ceiling = bool(want)
    outcome = "none" if abstained and answer.answer_kind == "answer" else answer.answer_kind
    quotes = " ".join(c.quote for c in answer.citations)
    hit5 = None
    if kind == "conversation":
        hit5 = any(h.source in gold_files for h in answer.sources[:5])
    return AnswerResult(
        id=item_id,
        type=kind,
        answer=answer.answer,
        intent=answer.intent,
        abstained=abstained,
        must_contain=1.0 if contains_all(answer.answer, want) else 0.0,
        cited=len(cited_sources),
        cited_gold=cited_gold,
        gold_files_cited=covered,
        states_value=not abstained and states_value(answer.answer),
        intent_ok=(answer.intent == expect_intent) if expect_intent else None,
        retrieval_hit5=hit5,
        first_passage=passages_contain(texts[:1], want) if ceiling else None,
        first_three=passages_contain(texts[:3], want) if ceiling else None,
        answer_chars=len(answer.answer),
        latency_ms=ms,
        rewritten_query=answer.rewritten_query,
        kind=outcome,
        quotes_hold=passages_contain([quotes], want) if ceiling else None,
    )


def run_answers(chat: Assistant, items: Sequence[EvalItem]) -> list[AnswerResult]:
    results: list[AnswerResult] = []
    for item in items:
        session = f"eval-{item.id}"
        chat.forget_session(session)
        if item.turns:
            for turn in item.turns[:-1]:
                chat.ask(turn.question, session_id=session)
            last = item.turns[-1]
            question, want, gold = last.question, last.must_contain, last.gold
        else:
            question, want, gold = item.question, item.must_contain, item.gold
        started = time.perf_counter()
        answer = chat.ask(question, session_id=session)
        ms = (time.perf_counter() - started) * 1000
        results.append(score_answer(item.id, item.type, answer, want, gold, item.expect_intent, ms))
        chat.forget_session(session)
    return results


def summarize_answers(results: Sequence[AnswerResult]) -> dict[str, dict[str, float]]:
    """Per group: the acceptance figures. "answerable" = lookup + compare + multi."""
    groups: dict[str, list[AnswerResult]] = {}
    for r in results:
        groups.setdefault(r.type, []).append(r)
        if r.type in ("lookup", "compare", "multi"):
            groups.setdefault("answerable", []).append(r)
    out: dict[str, dict[str, float]] = {}
    for name, rows in groups.items():
        cited = sum(r.cited for r in rows)
        row: dict[str, float] = {
            "n": len(rows),
            "must_contain": _mean(r.must_contain for r in rows),
            "citation_precision": (sum(r.cited_gold for r in rows) / cited) if cited else 0.0,
            "citation_recall": _mean(r.gold_files_cited for r in rows),
            "abstained": sum(1 for r in rows if r.abstained),
            "states_value": sum(1 for r in rows if r.states_value),
            "p50_ms": statistics.median(r.latency_ms for r in rows),
        }
        intents = [r.intent_ok for r in rows if r.intent_ok is not None]
        if intents:
            row["intent_ok"] = sum(1 for ok in intents if ok)
            row["cited_anything"] = sum(1 for r in rows if r.cited)
        for name_, values in (
            ("first_passage", [r.first_passage for r in rows if r.first_passage is not None]),
            ("first3", [r.first_three for r in rows if r.first_three is not None]),
        ):
            if values:
                row[name_] = _mean(1.0 if v else 0.0 for v in values)
        answered = [r.answer_chars for r in rows if not r.abstained]
        if answered:
            row["answer_chars"] = float(round(_mean(answered)))
        hits = [r.retrieval_hit5 for r in rows if r.retrieval_hit5 is not None]
        if hits:
            row["last_turn_file@5"] = _mean(1.0 if h else 0.0 for h in hits)
        out[name] = {k: round(v, 3) for k, v in row.items()}
    return out


def _mean(values: object) -> float:
    vals = list(values)  # type: ignore[call-overload]
    return sum(vals) / len(vals) if vals else 0.0
