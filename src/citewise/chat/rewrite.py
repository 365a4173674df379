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

from citewise.chat.intents.rules import match_rules
from citewise.chat.references import Reference, find_reference
from citewise.errors import BackendError
from citewise.llm.base import LLM, Message
from citewise.text.identifiers import identifiers, quoted
from citewise.text.sentences import content_words

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
_GENERIC_HEAD = frozenset(
    {"purpose", "difference", "default", "meaning", "use", "role", "value", "point", "kind"}
    | {"type", "advantage", "benefit", "goal", "idea", "definition", "name"}
)
_NP_STOP = (
    r"(?:in|of|for|with|on|at|by|from|to|when|if|that|which|and|or|used|work|works|do|does|mean"
    r"|handle|affect|compare|differ|relate|behave|get|run|return|store|support|change|decide"
    r"|interact|help|happen|need|look|fit)"
)
_AUX = r"(?:is|are|was|were|do|does|did|can|will|should|must)"
_NOUN_PHRASE = (
    re.compile(
        r"^(?:summari[sz]e|give\s+me\s+an?\s+(?:overview|summary)\s+of)\s+(?P<np>.+)$", re.I
    ),
    # "What was said about marking sqlite as a release candidate …?"
    re.compile(
        r"^what\s+(?:is|are|was|were)\s+(?:said|decided|agreed|discussed|stated|written)\s+"
        r"(?:about|on|regarding)\s+(?P<np>.+)$",
        re.I,
    ),
    re.compile(r"^(?:what|who)\s+(?:is|are|was|were)\s+(?P<np>.+)$", re.I),
    # "Who appoints the delegates in the Debian project?"
    re.compile(r"^who\s+(?!(?:is|are|was|were|do|does|did)\b)\w+\s+(?P<np>.+)$", re.I),
    # "What chunk size did the Google File System choose?", "What lock does it need?"
    re.compile(
        r"^(?:what|which)\s+(?!" + _AUX + r"\b)(?P<np>\w+(?:[\s-]+\w+){0,2}?)\s+" + _AUX + r"\b",
        re.I,
    ),
    # "Where does the server keep its write-ahead log?"
    re.compile(
        r"^(?:where|when|why|how)\s+"
        + _AUX
        + r"\s+(?:the\s+)?\w+\s+\w+\s+(?:its|their)\s+(?P<np>.+)$",
        re.I,
    ),
    re.compile(r"^what\s+(?:does|do|did)\s+(?P<np>.+?)\s+(?:do|mean|return|contain|say)\b", re.I),
    re.compile(
        r"^how\s+(?:do|does|can|should|would|could)\s+(?:i|you|we|one)\s+\w+\s+(?P<np>.+)$", re.I
    ),
    re.compile(r"^how\s+(?:many|much)\s+(?P<np>.+?)\s+" + _AUX + r"\b", re.I),
    re.compile(
        r"^how\s+(?:long|often|soon|far|fast|big|large|old|frequently)\s+"
        + _AUX
        + r"\s+(?P<np>.+)$",
        re.I,
    ),
    re.compile(r"^(?:how|why)\s+(?:do|does|did|is|are|can)\s+(?P<np>.+)$", re.I),
)
# "How long are backups kept?": the phrase ends before the participle
_PARTICIPLE = re.compile(
    r"\s+(?:\w+ed|kept|made|done|given|taken|built|run|sent|set|held|found|written|shown|known)$",
    re.I,
)
_BETWEEN = re.compile(r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.I)
_ARTICLE = re.compile(r"^(?:a|an|the|my|your|our|python's)\s+", re.I)
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
    ref = find_reference(question)
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
    question: str, ref: Reference | None, topic: str, previous: str, *, answer: str = ""
) -> str:
    """`question` with its reference to the previous turn spelled out (no LLM); `answer`:
    the previous answer, where "those files" may find what files they are."""
    q = question.strip()
    if ref is None:
        return _append(q, topic)
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
    named = _named_before(words, previous, answer) if ref.kind == "demonstrative" else None
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


def about(subject: str, topic: str, previous: str) -> str:
    """The previous ask with "what about `subject`?" put in its place: "the least serious
    ones" after "What are the most serious breaches?" asks for the least serious breaches;
    a name takes the place of the name asked about before, a code name that of the topic,
    a plain noun that of the noun the previous ask ended on ("… for hardware?")."""
    words = _ARTICLE.sub("", subject.strip()).split()
    if len(words) > 1 and _ONES.fullmatch(words[-1]):
        swapped = _swap_modifiers(words[:-1], previous)
        if swapped is not None:
            return swapped
        head = topic.split()[-1]
        subject = " ".join([*words[:-1], head])  # "the red ones" of "blue cars": "red cars"
        swapped = re.sub(re.escape(topic), subject, previous, count=1, flags=re.I)
        if swapped != previous:
            return swapped
    name = _ARTICLE.sub("", subject)
    swapped = previous
    if name[:1].isupper() and not identifiers(name):
        # a name for a name: "What about the Supplier?" after "… must the Distributor carry?"
        swapped = _NAME.sub(lambda m: name, previous, count=1)
    if swapped == previous and (identifiers(subject) or not subject[:1].islower()):
        swapped = re.sub(re.escape(topic), subject, previous, count=1, flags=re.I)
    if swapped == previous:
        swapped = _swap_last_noun(previous, subject)
    return swapped if swapped != previous else f"{subject}: {previous}"


def _swap_last_noun(previous: str, noun: str) -> str:
    """`previous` with the plain words it ends on ("… for hardware?", "… source code?")
    replaced by `noun`."""
    body = previous.rstrip()
    end = len(body.rstrip("?.!"))
    tokens = body[:end].split()
    k = len(tokens)
    while k > 0 and len(tokens) - k < 3 and re.fullmatch(r"[a-z][a-z-]*", tokens[k - 1]):
        if not content_words(tokens[k - 1]):
            break
        k -= 1
    if k == len(tokens) or k == 0:
        return previous
    return " ".join([*tokens[:k], noun]) + body[end:]


# a name inside a sentence (not its first word): capitalised words, one after another
_NAME = re.compile(r"(?<=\s)[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*")
_ONES = re.compile(r"ones?", re.I)
_DETERMINER = frozenset({"the", "a", "an", "my", "our", "your", "their", "its", "his", "her"})


def _swap_modifiers(modifiers: Sequence[str], previous: str) -> str | None:
    """`previous` with the words before a modifier it shares replaced by `modifiers`' own
    ("most serious" → "least serious"); None when it shares none."""
    tokens = previous.split()
    bare = [t.strip(",;:?.!").lower() for t in tokens]
    for k in range(len(modifiers) - 1, -1, -1):
        anchor = modifiers[k].lower()
        if anchor not in bare or anchor in _DETERMINER:
            continue
        at = bare.index(anchor)
        start = at
        while start > 0 and at - start < k and bare[start - 1] not in _DETERMINER:
            start -= 1  # the previous ask's own modifiers before the anchor give way
        # the anchor keeps its punctuation ("serious?")
        new = [*modifiers[:k], tokens[at]]
        return " ".join([*tokens[:start], *new, *tokens[at + 1 :]])
    return None


def _named_before(words: str, previous: str, answer: str) -> str | None:
    """For "those files" / "that directory": the noun with the words the previous question
    (else its answer) put before it ("segment files", "home directory"), or None."""
    parts = words.split()
    if len(parts) != 2 or parts[1] in ("one", "ones"):
        return None
    noun = parts[1]
    base = re.sub(r"(?:ies|es|s|y)$", "", noun) or noun  # "directory" finds "directories"
    pattern = re.compile(rf"((?:[\w'-]+\s+){{1,2}}){re.escape(base)}\w*\b", re.I)
    for text in (previous, answer):
        for m in pattern.finditer(text):
            modifiers = [w for w in m.group(1).split() if content_words(w)]
            kept: list[str] = []
            for w in reversed(m.group(1).split()):
                if not content_words(w) or w.lower().endswith(("'s", "'", "’s", "’")):
                    break
                kept.insert(0, w)
            if kept and modifiers:
                return " ".join([*kept, noun])
    return None


def topic_of(question: str) -> str | None:
    """What a question is about: code names, else the noun phrase it asks about, else its
    key words."""
    names = _code_names(question)
    # a bare acronym ("TSC", "FHS") names the document more often than what is asked about
    if names and not all(_ACRONYM.fullmatch(n) for n in names):
        return " and ".join(names)
    phrase = _asked_phrase(question)
    if names and phrase is None:
        return " and ".join(names)
    return phrase or _key_words(question)


_ACRONYM = re.compile(r"[A-Z]{2,5}")


def _asked_phrase(question: str) -> str | None:
    """The noun phrase a question asks about, else its key words."""
    bare = " ".join(question.strip().rstrip("?.!").split())
    pair = _BETWEEN.search(bare)
    if pair:
        a, b = _noun_phrase(pair.group("a")), _noun_phrase(pair.group("b"))
        if a and b:
            return f"{a} and {b}"
    for pattern in _NOUN_PHRASE:
        m = pattern.match(bare)
        if m:
            phrase = _noun_phrase(_PARTICIPLE.sub("", m.group("np")))
            if phrase:
                return phrase
    return None


def _key_words(question: str) -> str | None:
    words = content_words(question)
    return " ".join(words[:4]) or None


def _code_names(text: str) -> list[str]:
    """Dotted names and calls (up to two), else the first other identifier or quoted term."""
    found: list[str] = []
    for name in identifiers(text):
        if name.lower() in _COMMON_CAPS:
            continue
        call = re.search(re.escape(name) + r"\(\)", text)
        found.append(call.group(0) if call else name)
    strong = [n for n in dict.fromkeys(found) if "." in n or n.endswith("()")]
    if strong:
        return strong[:2]
    return found[:1] or quoted(text)[:1]


_COMMON_CAPS = frozenset({"how", "what", "faq", "api", "i", "os"})


def _noun_phrase(text: str) -> str | None:
    words = _ARTICLE.sub("", text).split()
    out: list[str] = []
    for i, word in enumerate(words):
        if out and word.islower() and re.fullmatch(_NP_STOP, word):
            if word.lower() == "of" and out and out[-1].lower() in _GENERIC_HEAD:
                return _noun_phrase(" ".join(words[i + 1 :]))
            break
        out.append(word.strip(",;:"))
    phrase = " ".join(out[:5])
    return phrase if content_words(phrase) else None


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
