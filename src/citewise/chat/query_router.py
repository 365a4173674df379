"""The query router: how much retrieval a question needs, decided from its shape.

- summarize: "summarize X", "overview of X", "tl;dr X" — the whole target document;
- relationship: "how does X relate to Y", "difference between X and Y", "X vs Y", "should I use
  X or Y" — both sides need passages; and one-sided, "what depends on X?", "which documents
  discuss Y?" — what is linked to one thing (the knowledge graph's route);
- conversational: leans on the previous turn (it is rewritten before retrieval);
- complex: several questions in one, long questions, "why" and "how does X work";
- simple: everything else, one fact from one place.

Heuristics decide first; an LLM, when configured, only settles simple versus complex.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast, get_args

from citewise.answer.policy import QuestionKind
from citewise.chat.intents.rules import match_rules
from citewise.chat.references import refers_back
from citewise.errors import BackendError
from citewise.llm.base import LLM, Message
from citewise.question.analysis import Analysis
from citewise.question.terms import facets

KINDS: frozenset[str] = frozenset(get_args(QuestionKind))

QUERY_PROMPT = """Classify a question sent to a document question-answering assistant. \
Reply with one JSON object and nothing else:
{"kind": "simple" | "complex", "parts": ["<sub-question>", ...]}

- simple: asks for one fact that one passage can answer.
- complex: asks several things, or needs an explanation drawn from several passages.
List in "parts" the separate sub-questions of a complex question (an empty list otherwise)."""

_SUMMARY = re.compile(
    r"^(?:(?:please|can\s+you|could\s+you|would\s+you)\s+)*(?:summari[sz]e|sum\s+up|recap"
    r"|give\s+(?:me\s+)?(?:a|an)\s+(?:(?:short|brief|quick|high-level)\s+)?(?:summary|overview"
    r"|synopsis|recap|rundown)\s+(?:of|for|on)|(?:a\s+)?(?:summary|overview|synopsis)\s+(?:of|for"
    r"|on)|tl;?dr(?:\s+(?:of|for|on))?|what\s+are\s+the\s+(?:main|key)\s+(?:points|takeaways"
    r"|ideas)\s+(?:of|in|from))\s*:?\s*(?P<target>.*)$",
    re.I,
)
_DOC_NOUN = (
    r"(?:documentation|document|doc|docs|page|file|guide|chapter|paper|report|article|manual|pdf"
    r"|handbook|section|tutorial|howto|how\s+to|policy|spec|specification|book)"
)
_ABOUT = re.compile(rf"^what\s+is\s+(?P<target>.+?\b{_DOC_NOUN})\s+about$", re.I)
_TARGET_NOISE = re.compile(
    rf"^(?:(?:the|this|that|my|our|a|an)\s+)?(?:(?:documentation\s+)?{_DOC_NOUN}\s+"
    r"(?:for|on|about|of|called|named|titled)\s+)?(?:(?:the|a|an)\s+)?",
    re.I,
)
_NO_TARGET = re.compile(
    rf"^(?:it|this|that|these|those|them|everything|all|above|(?:the\s+)?{_DOC_NOUN}s?)$", re.I
)
_RELATION = (
    re.compile(
        r"\bhow\s+(?:does|do|is|are)\s+(?P<a>.+?)\s+(?:relate[sd]?|related|connected|compare[sd]?)"
        r"\s+(?:to|with)\s+(?P<b>.+)$",
        re.I,
    ),
    re.compile(
        r"\b(?:relationship|relation|connection|differences?|similarit(?:y|ies))\s+between\s+"
        r"(?P<a>.+?)\s+and\s+(?P<b>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?:compare|contrast)\s+(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+)$", re.I
    ),
    re.compile(r"\bhow\s+(?:do|does)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+differ\b", re.I),
    re.compile(
        r"\b(?:use|choose|pick|prefer)\s+(?P<a>.+?)\s+(?:or|instead\s+of|rather\s+than|over)\s+"
        r"(?P<b>.+)$",
        re.I,
    ),
    re.compile(r"(?P<a>[^\s,]+(?:\s+[^\s,]+)?)\s+compared?\s+(?:to|with)\s+(?P<b>.+)$", re.I),
    re.compile(r"^(?P<a>.+?)\s+(?:vs\.?|versus)\s+(?P<b>.+)$", re.I),
)
# the asker names one side and asks for the other: the subject is the question word
_ONE_SIDED = re.compile(
    r"^(?:what|which)(?:\s+(?!(?:does|do|is|are|was|were|can|should)\b)[\w-]+){0,2}\s+"
    r"(?:depends?\s+on|rel(?:y|ies)\s+on|uses?|requires?|references?|refers?\s+to|cites?"
    r"|mentions?|discuss(?:es)?|links?\s+to|connects?\s+to|configures?|replaces?"
    r"|(?:is|are)\s+(?:related\s+to|linked\s+to|part\s+of|built\s+on|based\s+on|used\s+by))"
    r"\s+(?!(?:the\s+)?(?:most|least|more|less|fewer)\b)(?P<b>.+)$",
    re.I,
)
# questions only the graph answers whole: which documents name something, who the parties are
_WHICH_DOCUMENTS = re.compile(
    r"\bwhich\s+(?:of\s+(?:my|the|our)\s+)?(?:documents|files|papers|agreements|contracts"
    r"|guides|manuals)\b",
    re.I,
)
_PARTIES = re.compile(
    r"\bwho\s+(?:are|is|were|was)\s+(?:the\s+)?part(?:y|ies)\s+(?:to|of|in)\b", re.I
)
_LEAD = re.compile(r"^(?:(?:what|which|when|how|should|i|we|the|a|an)\s+)+", re.I)
_AND_ASK = re.compile(r"\s+and\s+(?=(?:how|what|which|when|where|why|who)\s)", re.I)
_EXPLAIN = re.compile(
    r"^(?:why\b|explain\b|describe\s+how\b|how\s+(?:does|do|is|are)\s+.+\s+work\b"
    r"|what\s+are\s+the\s+(?:pros|cons|advantages|disadvantages|trade-?offs)\b)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """How to retrieve for one question. `target` names the document to summarize; `parts`
    are what to look up separately (sub-questions, or the two sides of a relationship)."""

    kind: QuestionKind
    target: str | None = None
    parts: tuple[str, ...] = ()
    method: Literal["heuristic", "llm"] = "heuristic"
    reason: str = ""


class QueryRouter:
    """Plans retrieval for a question: its kind (what the answer stage gives it, see
    `answer.policy`), the document to summarize, the parts to look up separately."""

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        long_question_words: int = 25,
        llm_min_words: int = 12,
    ) -> None:
        self.llm = llm
        self.llm_min_words = llm_min_words
        self.long_question_words = long_question_words

    def plan(
        self,
        question: str,
        *,
        intent: str | None = None,
        has_history: bool = False,
        analysis: Analysis | None = None,
    ) -> QueryPlan:
        """The plan for `question`; `intent` is the intent router's verdict, `analysis` the
        question's (`question.analyse`), if known."""
        asked = analysis if analysis is not None and analysis.question == question else None
        plan = self._heuristic(question, intent, has_history, asked)
        # Short questions are simple by any measure; the LLM only settles longer ones, so an
        # ordinary lookup costs no extra model round trip.
        ambiguous = len(question.split()) >= self.llm_min_words
        if self.llm is not None and plan.kind in ("simple", "complex") and ambiguous:
            return self._ask_llm(question, plan)
        return plan

    def _plan(
        self,
        kind: QuestionKind,
        reason: str,
        *,
        target: str | None = None,
        parts: tuple[str, ...] = (),
        method: Literal["heuristic", "llm"] = "heuristic",
    ) -> QueryPlan:
        return QueryPlan(kind, target, parts, method, reason)

    def _heuristic(
        self, question: str, intent: str | None, has_history: bool, analysis: Analysis | None
    ) -> QueryPlan:
        q = " ".join(question.strip().split()).rstrip("?.! ")
        m = _SUMMARY.match(q) or _ABOUT.match(q)
        if m:
            return self._plan("summarize", "asks for a summary", target=summary_target(m["target"]))
        if intent is None and has_history:
            rule = match_rules(q)
            intent = rule.intent if rule else ("followup" if refers_back(q) else None)
        if intent in ("followup", "simplify", "deepen"):
            return self._plan("conversational", "leans on the previous turn")
        for pattern in _RELATION:
            m = pattern.search(q)
            sides = (_side(m["a"]), _side(m["b"])) if m else ()
            if sides and all(sides):
                return self._plan("relationship", "relates two things", parts=sides)
        if asks_what_is_linked(q):
            return self._plan("relationship", "asks what is linked to one thing")
        if asks_the_graph(q):  # "which of my documents …", "who are the parties to …"
            return self._plan("relationship", "asks which documents or parties")
        parts = sub_questions(question, analysis.parts if analysis is not None else None)
        if len(parts) > 1:
            return self._plan("complex", f"{len(parts)} questions in one", parts=parts)
        if len(q.split()) > self.long_question_words:
            return self._plan("complex", "long question")
        if _EXPLAIN.match(q):
            return self._plan("complex", "asks for an explanation")
        return self._plan("simple", "one fact")

    def _ask_llm(self, question: str, plan: QueryPlan) -> QueryPlan:
        assert self.llm is not None
        messages = [Message("system", QUERY_PROMPT), Message("user", question)]
        try:
            reply = self.llm.complete(messages, temperature=0.0, max_tokens=200, json_mode=True)
        except BackendError as exc:
            return replace(plan, reason=f"{plan.reason}; llm failed: {exc}")
        parsed = _parse(reply.text)
        if parsed is None:
            return replace(plan, reason=f"{plan.reason}; llm reply unusable")
        kind, parts = parsed
        if kind == "complex" and not parts:
            parts = plan.parts
        return self._plan(kind, "llm classification", parts=parts, method="llm")


def _parse(reply: str) -> tuple[QuestionKind, tuple[str, ...]] | None:
    m = re.search(r"\{.*\}", reply, re.S)
    try:
        data = json.loads(m.group(0)) if m else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("kind") not in ("simple", "complex"):
        return None
    raw = data.get("parts") or []
    if not isinstance(raw, list):
        return None
    parts = tuple(p.strip() for p in raw if isinstance(p, str) and 0 < len(p.strip()) < 300)
    return cast(QuestionKind, data["kind"]), (parts[:5] if len(parts) > 1 else ())


def asks_relationship(question: str) -> bool:
    """Whether `question` asks how things relate, either side named or one (the route on
    which the knowledge graph joins retrieval)."""
    q = " ".join(question.strip().split()).rstrip("?.! ")
    for pattern in _RELATION:
        m = pattern.search(q)
        if m and _side(m["a"]) and _side(m["b"]):
            return True
    return asks_what_is_linked(q) or asks_the_graph(q)


def asks_across_documents(question: str) -> bool:
    """Whether the answer to `question` is a list that spans documents: what is linked to one
    thing, which documents discuss it, who the parties are (not a comparison of two things)."""
    q = " ".join(question.strip().split())
    return asks_what_is_linked(q) or asks_the_graph(q)


def asks_the_graph(question: str) -> bool:
    """ "Which of my documents discuss X?", "Who are the parties to the Y agreement?" """
    return _WHICH_DOCUMENTS.search(question) is not None or _PARTIES.search(question) is not None


def asks_beyond_named(question: str) -> bool:
    """Whether the answer lies in other documents than the one `question` names: "What uses
    the Google File System?" is answered by the papers that use it, not by its own paper."""
    q = " ".join(question.strip().split())
    return asks_what_is_linked(q) or _WHICH_DOCUMENTS.search(q) is not None


def asks_what_is_linked(question: str) -> bool:
    """ "What depends on X?", "Which documents discuss Y?": one side named, the other asked."""
    m = _ONE_SIDED.match(question.strip().rstrip("?.! "))
    return m is not None and bool(_side(m["b"]))


def summary_target(text: str) -> str | None:
    """The document a summary request names, without articles and "the page for"."""
    target = _TARGET_NOISE.sub("", text.strip().rstrip("?.!: ")).strip()
    return None if not target or _NO_TARGET.match(target) else target


def sub_questions(question: str, facets_asked: Sequence[str] | None = None) -> tuple[str, ...]:
    """The separate questions in `question` ("X, and how do I Y?", "X? Y?"); `facets_asked`:
    its `facets`, when the caller has them."""
    asks = [a.strip() for a in re.split(r"(?<=\?)\s+", question.strip()) if a.strip()]
    if len(asks) == 1:
        asks = [p.strip() for p in _AND_ASK.split(asks[0])]
        if len(asks) == 1:
            asks = list(facets(question) if facets_asked is None else facets_asked)
    return tuple(asks) if len(asks) > 1 else ()


def _side(text: str) -> str:
    return _LEAD.sub("", text.strip(" ,;:?")).strip()
