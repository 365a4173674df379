"""The intent router: what a message wants, decided before anything is retrieved.

Three layers, cheapest first; the first that decides wins:

1. hard rules (`intent_rules`, `references`): greetings, thanks, keyboard mash, commands,
   "simplify that", "tell me more", follow-ups that lean on the last turn, calculator and
   date/time questions (intent "question" with a `tool` hint);
2. nearest exemplar phrase (`exemplars`) by cosine similarity of embeddings;
3. an LLM in JSON mode, when one is configured.

Turning a real question away costs far more than answering small talk, so "off_topic" needs
a clear exemplar match that beats every document-style exemplar by a margin, no code names
in the message, and (when `doc_overlap` is given) little lexical overlap with the documents.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, cast, get_args

import numpy as np

from citewise.chat.intents.exemplars import BANK
from citewise.chat.intents.rules import match_rules
from citewise.chat.references import find_reference
from citewise.embed.base import Embedder
from citewise.errors import BackendError
from citewise.llm.base import LLM, Message
from citewise.text.identifiers import identifiers
from citewise.text.sentences import content_words
from citewise.types.vectors import Vectors

Intent = Literal[
    "greeting", "gratitude", "garbage", "off_topic", "command",
    "followup", "simplify", "deepen", "question", "clarify",
]  # fmt: skip
Layer = Literal["rules", "exemplars", "llm", "default"]
INTENTS: frozenset[str] = frozenset(get_args(Intent))
COMMANDS: frozenset[str] = frozenset({"clear_history", "list_documents", "help"})
CONVERSATIONAL: frozenset[str] = frozenset({"followup", "simplify", "deepen"})

# Tuned on the bundled all-MiniLM-L6-v2, whose paraphrase similarities sit well below those
# of bge-small (where the reference system used 0.85); see tests/chat/test_intents_minilm.py.
DEFAULT_THRESHOLD = 0.5
DEFAULT_MARGIN = 0.2
# below it plain off-topic questions fall; the nearest document question stays under it
DEFAULT_OFF_TOPIC_THRESHOLD = 0.4

INTENT_PROMPT = """You sort messages sent to a document question-answering assistant. The \
assistant answers only from the user's own documents, which can be about any subject.

Reply with one JSON object and nothing else:
{"intent": "<label>", "command": null, "confidence": <0.0 to 1.0>}

Labels:
- question: asks for information a document could contain. When in doubt, choose question.
- followup: continues the previous exchange and only makes sense with it.
- simplify: wants the previous answer explained more simply.
- deepen: wants more detail about the previous answer.
- greeting: hello or small talk about the assistant.
- gratitude: thanks, an acknowledgement or a goodbye.
- garbage: meaningless input.
- off_topic: chit-chat or requests no document would answer (weather, jokes, \
recommendations, opinions, general trivia).
- command: set "command" to "clear_history", "list_documents" or "help".
- clarify: too vague to act on, even with the previous exchange."""

_REPLIES: Mapping[str, str] = {
    "greeting": "Hello! Ask me anything about your documents and I'll answer with citations.",
    "gratitude": "Glad I could help! Ask another question about your documents any time.",
    "garbage": "Sorry, I couldn't make sense of that. Could you type your question again?",
    "off_topic": "I can only answer from your documents, and that seems outside them. "
    "Try asking about something they cover.",
    "help": "Ask a question about your documents and I'll answer with citations to the exact "
    'passage. You can also say "list documents", "clear history", "simplify that" or '
    '"tell me more".',
    "clarify": "Could you say a little more about what you'd like to know?",
}


@dataclass(frozen=True, slots=True)
class RoutedIntent:
    """The router's verdict. `command` names the action for intent "command"; `tool` is a
    hint ("calculator", "datetime") that a question is better answered by a tool."""

    intent: Intent
    confidence: float
    layer: Layer
    reason: str
    command: str | None = None
    tool: str | None = None
    # the embedding of the text, when routing made or was given one: the answer flow reuses it
    vector: Vectors | None = field(default=None, compare=False, repr=False)


def reply_for(intent: str) -> str:
    """The canned reply for greeting, gratitude, garbage, off_topic, clarify and help."""
    if intent not in _REPLIES:
        raise ValueError(f"no canned reply for intent {intent!r}")
    return _REPLIES[intent]


# With an LLM configured, a message whose nearest chit-chat/follow-up exemplar comes this
# close (below the deciding threshold) goes to the LLM; further away it is a question.
LLM_BAND = 0.35


class IntentRouter:
    """Routes one message. `embedder` may be a factory, called on first use; exemplar vectors
    are embedded on first use and kept."""

    def __init__(
        self,
        embedder: Embedder | Callable[[], Embedder] | None,
        llm: LLM | None = None,
        threshold: float = DEFAULT_THRESHOLD,
        *,
        off_topic_threshold: float = DEFAULT_OFF_TOPIC_THRESHOLD,
        margin: float = DEFAULT_MARGIN,
        off_topic_margin: float = DEFAULT_MARGIN,
        overlap_limit: float = 0.5,
        known_word: Callable[[str], bool] | None = None,
        doc_overlap: Callable[[str], float] | None = None,
        exemplars: Mapping[str, Sequence[str]] = BANK,
        llm_band: float = LLM_BAND,
    ) -> None:
        self._embedder = embedder
        self.llm = llm
        self.threshold = threshold
        self.off_topic_threshold = off_topic_threshold
        self.margin = margin
        self.off_topic_margin = off_topic_margin
        self.overlap_limit = overlap_limit
        self.known_word = known_word
        self.doc_overlap = doc_overlap
        self.llm_band = llm_band
        self._exemplars = exemplars
        self._bank: tuple[Vectors, tuple[str, ...]] | None = None

    def route(self, text: str, *, has_history: bool, vector: Vectors | None = None) -> RoutedIntent:
        """The intent of `text`. Follow-up intents without history become "question".
        `vector`: the embedding of `text`, when the caller has it (then it is not embedded)."""
        routed, vector = self._route(text, has_history, vector)
        return replace(_without_history(routed, text, has_history), vector=vector)

    def _route(
        self, text: str, has_history: bool, vector: Vectors | None
    ) -> tuple[RoutedIntent, Vectors | None]:
        """The verdict, and the embedding of `text` if there is one by then."""
        rule = match_rules(text, self.known_word)
        if rule:
            intent = cast(Intent, rule.intent)
            verdict = RoutedIntent(intent, 1.0, "rules", rule.reason, rule.command, rule.tool)
            return verdict, vector
        fallback = RoutedIntent("question", 0.5, "default", "no rule or exemplar matched")
        near, closeness = fallback, 1.0
        if self._embedder is not None:
            try:
                vectors, labels = self._exemplar_bank()
                if vector is None:
                    vector = self.embedder.embed_query(text)
                near, decided, closeness = self._nearest(text, vector, vectors, labels)
            except BackendError as exc:
                near, decided = replace(fallback, reason=f"exemplars skipped: {exc}"), False
            if decided:
                return near, vector
        return self._unsettled(text, has_history, near, closeness), vector

    def _unsettled(
        self, text: str, has_history: bool, near: RoutedIntent, closeness: float
    ) -> RoutedIntent:
        """What the rules and exemplars left open: a reference back, else the LLM's verdict
        when it is configured and the exemplars came close, else `near`."""
        ref = find_reference(text)
        if ref and (has_history or not content_words(text)):
            reason = f"refers back ({ref.kind}: {ref.words!r})"
            return RoutedIntent("followup", 0.9, "rules", reason)
        # The LLM settles only what the exemplars leave ambiguous: asking it about every
        # ordinary question would add a model round trip to each answer.
        if self.llm is not None and closeness >= self.llm_band:
            return self._ask_llm(text, has_history, near)
        return near

    @property
    def embedder(self) -> Embedder:
        """The embedder, created on first use when a factory was given."""
        if self._embedder is None:
            raise ValueError("this router has no embedder")
        if not isinstance(self._embedder, Embedder):
            self._embedder = self._embedder()
        return self._embedder

    def _nearest(
        self, text: str, vector: Vectors, vectors: Vectors, labels: Sequence[str]
    ) -> tuple[RoutedIntent, bool, float]:
        """The best exemplar match (`vectors`, `labels`: the exemplar bank), whether it is
        strong enough to decide, and how close the nearest non-question exemplar came."""
        sims = vectors @ vector
        best: dict[str, float] = {}
        for label, sim in zip(labels, sims.tolist(), strict=True):
            best[label] = max(best.get(label, -1.0), float(sim))
        question = best.pop("question", -1.0)
        if not best:
            return RoutedIntent("question", 0.5, "default", "no exemplars"), False, 0.0
        label = max(best, key=best.__getitem__)
        sim = best[label]
        reason = f"nearest exemplar: {label} {sim:.2f} (question {question:.2f})"
        near = RoutedIntent("question", 0.5, "default", reason)
        off = label == "off_topic"
        if sim < (self.off_topic_threshold if off else self.threshold):
            return near, False, sim
        if sim - question < (self.off_topic_margin if off else self.margin):
            return near, False, sim
        if off and self._about_documents(text):
            return replace(near, reason=reason + "; the documents mention it"), False, sim
        return RoutedIntent(cast(Intent, label), round(sim, 4), "exemplars", reason), True, sim

    def _about_documents(self, text: str) -> bool:
        if identifiers(text):
            return True
        return self.doc_overlap is not None and self.doc_overlap(text) >= self.overlap_limit

    def _exemplar_bank(self) -> tuple[Vectors, tuple[str, ...]]:
        if self._bank is None:
            labels = tuple(k for k, phrases in self._exemplars.items() for _ in phrases)
            texts = [p for phrases in self._exemplars.values() for p in phrases]
            self._bank = (np.asarray(self.embedder.embed_documents(texts)), labels)
        return self._bank

    def _ask_llm(self, text: str, has_history: bool, fallback: RoutedIntent) -> RoutedIntent:
        assert self.llm is not None
        history = "yes" if has_history else "no"
        messages = [
            Message("system", INTENT_PROMPT),
            Message("user", f"Earlier exchange exists: {history}\nMessage: {text}"),
        ]
        try:
            reply = self.llm.complete(messages, temperature=0.0, max_tokens=60, json_mode=True)
        except BackendError as exc:
            return replace(fallback, reason=f"{fallback.reason}; llm failed: {exc}")
        parsed = parse_llm_intent(reply.text)
        if parsed is None:
            return replace(fallback, reason=f"{fallback.reason}; llm reply unusable")
        if parsed.intent == "off_topic" and self._about_documents(text):
            reason = "llm said off_topic but the documents mention it"
            return replace(fallback, reason=f"{fallback.reason}; {reason}")
        return parsed


def parse_llm_intent(reply: str) -> RoutedIntent | None:
    """The intent in an LLM reply (a JSON object, or failing that a bare label), or None."""
    m = re.search(r"\{.*\}", reply, re.S)
    data: object = None
    if m:
        try:
            data = json.loads(m.group(0))
        except ValueError:
            data = None
    if isinstance(data, dict):
        intent, command, conf = data.get("intent"), data.get("command"), data.get("confidence")
    else:
        found = re.findall(r"[a-z_-]+", reply.lower())
        intent, command, conf = next((w for w in found if _label(w)), None), None, None
    label = _label(intent) if isinstance(intent, str) else None
    if label is None:
        return None
    if label == "command" and command not in COMMANDS:
        return None
    confidence = float(conf) if isinstance(conf, int | float) and 0 <= conf <= 1 else 0.7
    return RoutedIntent(
        cast(Intent, label),
        confidence,
        "llm",
        "llm classification",
        command=str(command) if label == "command" else None,
    )


def _label(word: str) -> str | None:
    w = word.strip().lower().replace("-", "_").replace(" ", "_")
    w = {"clarify_needed": "clarify", "offtopic": "off_topic", "thanks": "gratitude"}.get(w, w)
    return w if w in INTENTS else None


def _without_history(routed: RoutedIntent, text: str, has_history: bool) -> RoutedIntent:
    if routed.intent not in CONVERSATIONAL or has_history:
        return routed
    if not content_words(text):
        return replace(routed, intent="clarify", reason=routed.reason + "; no history")
    return replace(routed, intent="question", reason=routed.reason + "; no history")
