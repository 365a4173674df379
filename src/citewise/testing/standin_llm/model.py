"""The stand-in model: one reply per request, for every task citewise sends, in the format its
caller parses, plus a record of what it saw and did (for measuring the answer flow)."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from citewise.evaluation.metrics import contains_quote
from citewise.testing.standin_llm.answers import DECLINE, compose, golds_for
from citewise.testing.standin_llm.gold import Asked, Knowledge, holds, normalised, words
from citewise.testing.standin_llm.prompts import Request, numbered_passages
from citewise.text.sentences import attach_marker, content_words, split_sentences
from citewise.text.sentences import strip_citation_marks as unmarked

# share of a claim's content words the evidence must hold when the claim is no reference
# sentence the stand-in knows
JUDGE_WORD_SHARE = 0.7
_GREETING = re.compile(r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening))\b", re.I)
_THANKS = re.compile(r"\b(?:thanks?|thank you|cheers|bye|goodbye)\b", re.I)


@dataclass(frozen=True, slots=True)
class Behaviour:
    """How the stand-in answers: `mode` (see `answers`), and `judge` "json" or "malformed"
    (the judge replies with broken JSON, as some small models do)."""

    mode: str = "faithful"
    judge: Literal["json", "malformed"] = "json"


@dataclass
class StandinModel:
    knowledge: Knowledge
    behaviour: Behaviour = field(default_factory=Behaviour)
    records: list[dict[str, Any]] = field(default_factory=list)
    invented: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reply(self, messages: list[dict[str, object]]) -> str:
        request = Request.of(messages)
        record: dict[str, Any] = {"task": request.task}
        handler = getattr(self, f"_{request.task}")
        text: str = handler(request, record)
        record["reply"] = text
        record["prompt_chars"] = sum(len(str(m.get("content", ""))) for m in messages)
        with self._lock:
            self.records.append(record)
        return text

    # -- the answer and its stricter retry ----------------------------------------------

    def _answer(self, request: Request, record: dict[str, Any]) -> str:
        question, style = request.question()
        asked = self.knowledge.find(question, style=style) if style else None
        asked = asked or self.knowledge.find(question)
        passages = request.passages()
        decline = _decline_phrase(request.system)
        made = compose(asked, passages, self.behaviour.mode, decline)
        with self._lock:
            self.invented.update(made.invented)
        record.update(
            question=question,
            style=style,
            matched=asked.key if asked else None,
            passages=[{"n": p.n, "source": p.source, "text": p.text} for p in passages],
            gold_passages=list(made.gold_passages),
            cited=list(made.cited),
            declined=made.declined,
            invented=list(made.invented),
            replaced=list(made.replaced),
            wrong_citation=made.wrong_citation,
        )
        return made.text

    _retry = _answer  # the same deterministic model: a retry says the same thing again

    # -- the judge ----------------------------------------------------------------------

    def _judge(self, request: Request, record: dict[str, Any]) -> str:
        claim, evidence = unmarked(request.labelled("Claim")), request.evidence()
        verdict = self.supported(claim, evidence)
        record.update(claim=claim, supported=verdict)
        if self.behaviour.judge == "malformed":
            return '{"supported": ' + ("yes" if verdict else "no") + ", because"
        return json.dumps({"supported": verdict})

    def supported(self, claim: str, evidence: str) -> bool:
        """A capable judge: an invented value or name is never supported; a reference sentence
        is supported when the evidence holds a gold quote it rests on; any other claim when
        the evidence holds most of its content words."""
        lowered = claim.lower()
        with self._lock:
            if any(re.search(rf"(?<![\w.]){re.escape(i)}(?![\w])", lowered) for i in self.invented):
                return False
        source = self._reference_sentence(claim)
        if source is not None:
            asked, sentence, one = source
            golds = [asked.gold[i] for i in golds_for(sentence, asked, one_sentence=one)]
            return any(contains_quote(evidence, g.quote) for g in golds)
        wanted = set(content_words(claim))
        have = set(content_words(evidence))
        return bool(wanted) and len(wanted & have) / len(wanted) >= JUDGE_WORD_SHARE

    def _reference_sentence(self, claim: str) -> tuple[Asked, str, bool] | None:
        target = normalised(claim)
        for asked in self.knowledge.asked:
            sentences = split_sentences(asked.answer)
            for s in sentences:
                if normalised(s) == target:
                    return asked, s, len(sentences) == 1
        return None

    # -- the conversation's helpers ------------------------------------------------------

    def _intent(self, request: Request, record: dict[str, Any]) -> str:
        message = request.labelled("Message")
        history = bool(re.search(r"(?mi)^Earlier exchange exists: yes", request.user))
        asked = self.knowledge.find(message)
        if asked is not None and (asked.expect_intent or (asked.turn and history)):
            label = asked.intent
        elif asked is None and _GREETING.match(message):
            label = "greeting"
        elif asked is None and _THANKS.search(message) and len(words(message)) <= 5:
            label = "gratitude"
        else:
            label = "question"
        record.update(question=message, matched=asked.key if asked else None, label=label)
        return json.dumps({"intent": label, "command": None, "confidence": 0.9})

    def _query(self, request: Request, record: dict[str, Any]) -> str:
        asked = self.knowledge.find(request.user)
        several = asked is not None and asked.type in ("multi", "compare")
        kind = "complex" if several or len(words(request.user)) > 25 else "simple"
        record.update(question=request.user, matched=asked.key if asked else None, label=kind)
        return json.dumps({"kind": kind, "parts": []})

    def _rewrite(self, request: Request, record: dict[str, Any]) -> str:
        """The last message with the subject of the conversation spelled out: the earlier
        questions in brackets (what a capable model's standalone query would search for)."""
        last, earlier = request.labelled("Last message"), request.history_questions()
        asked = self.knowledge.find(" ".join([*earlier, last]))
        context = list(asked.earlier) if asked is not None and asked.earlier else earlier[-1:]
        record.update(question=last, matched=asked.key if asked else None)
        if not context:
            return last
        about = "; ".join(q.strip().rstrip("?.!") for q in context)
        return f"{last.strip().rstrip('?.!')} ({about})?"

    def _history(self, request: Request, record: dict[str, Any]) -> str:
        asked = "; ".join(q.rstrip("?.!") for q in request.history_questions())
        return f"The user asked about: {asked}." if asked else "No questions yet."

    def _rerank(self, request: Request, record: dict[str, Any]) -> str:
        question = request.user.split("\n\nPassages:", 1)[0].removeprefix("Question:").strip()
        asked = self.knowledge.find(question)
        wanted = set(content_words(question))
        scores: dict[str, int] = {}
        for p in request.passages():
            if asked is not None and any(holds(p, g) for g in asked.gold):
                scores[str(p.n)] = 10
            else:
                share = len(wanted & set(content_words(p.text))) / len(wanted) if wanted else 0
                scores[str(p.n)] = min(6, round(10 * share))
        record.update(question=question, matched=asked.key if asked else None)
        return json.dumps({"scores": scores})

    def _map(self, request: Request, record: dict[str, Any]) -> str:
        lines = []
        for p in numbered_passages(request.user):
            lines += [attach_marker(s, [p.n]) for s in split_sentences(p.text)[:2]]
        return " ".join(lines) or DECLINE

    def _reduce(self, request: Request, record: dict[str, Any]) -> str:
        partials = request.user.split("\n\n")[2:]
        return " ".join(split_sentences(p)[0] for p in partials if split_sentences(p))

    def _unknown(self, request: Request, record: dict[str, Any]) -> str:
        return DECLINE


def _decline_phrase(system: str) -> str:
    """The exact words the system prompt asks for when the passages hold no answer."""
    m = re.search(r'reply exactly:\s*"([^"]+)"', system)
    return m.group(1) if m else DECLINE
