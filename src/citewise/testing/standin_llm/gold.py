"""What the stand-in knows: a check set's questions, reference answers and gold quotes, and
how to find which of them a prompt asks and which numbered passages hold the evidence."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from citewise.errors import InputError
from citewise.evaluation.dataset import Gold
from citewise.evaluation.metrics import contains_quote
from citewise.text.sentences import content_words

# below this share of a known question's words in the asked text, the question is not known
MIN_COVERAGE = 0.75
_TOKEN = re.compile(r"\w+|[^\w\s]")  # as the retrieval metrics' quote test tokenises
_WORD = re.compile(r"[a-z0-9_]+(?:[.'][a-z0-9_]+)*")
_FOLLOW_UP_KINDS = {"pronoun": "followup", "simplify": "simplify", "tell_me_more": "deepen"}


@dataclass(frozen=True, slots=True)
class Asked:
    """One question the set asks: a single item, or one turn of a conversation (`turn` its
    index). `earlier` holds the questions of the turns before it."""

    item_id: str
    type: str
    question: str
    answer: str
    must_contain: tuple[str, ...]
    gold: tuple[Gold, ...]
    turn: int | None = None
    turn_kind: str = ""
    earlier: tuple[str, ...] = ()
    expect_intent: str = ""

    @property
    def key(self) -> str:
        return self.item_id if self.turn is None else f"{self.item_id}#{self.turn}"

    @property
    def intent(self) -> str:
        """The intent a capable classifier gives this message (with history where it has)."""
        if self.expect_intent:
            return self.expect_intent
        return _FOLLOW_UP_KINDS.get(self.turn_kind, "question")

    @property
    def several_sources(self) -> bool:
        return self.type in ("multi", "compare") and len(self.gold) > 1


@dataclass(frozen=True, slots=True)
class Passage:
    """A numbered passage as the prompt shows it: `[n] source › section (p. 4)` then text."""

    n: int
    source: str
    header: str
    text: str


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def normalised(text: str) -> str:
    return " ".join(words(text))


class Knowledge:
    """Every question of one check set, searchable by the text a prompt asks."""

    def __init__(self, asked: Sequence[Asked]) -> None:
        self.asked = tuple(asked)

    @classmethod
    def load(cls, path: Path) -> Knowledge:
        if not path.is_file():
            raise InputError(f"check set not found: {path}")
        asked: list[Asked] = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                asked.extend(_asked_of(json.loads(line)))
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(f"{path}:{n}: not a valid question record ({exc})") from exc
        return cls(asked)

    def find(self, text: str, *, style: str = "") -> Asked | None:
        """The known question `text` asks (it may carry more words, like a rewritten follow-
        up that names its subject); with a `style` ("simple", "deep") the conversation turn
        that asked for it, whose earlier question is the one `text` repeats."""
        asked = set(words(text))
        if not asked:
            return None
        best: tuple[float, int, Asked] | None = None
        for a in self.asked:
            if style:
                score = _styled_score(a, style, asked)
            else:
                score = _coverage(a.question, asked)
                if score >= MIN_COVERAGE and a.earlier:
                    score += 0.5 * _coverage(" ".join(a.earlier), asked)
                if normalised(a.question) == normalised(text):
                    score += 1.0
            if score >= MIN_COVERAGE:
                rank = (score, len(words(a.question)), a)
                if best is None or rank[:2] > best[:2]:
                    best = rank
        return best[2] if best else None


def _styled_score(a: Asked, style: str, asked: set[str]) -> float:
    wanted = {"simple": "simplify", "deep": "tell_me_more"}.get(style)
    if a.turn_kind != wanted or not a.earlier:
        return 0.0
    return _coverage(a.earlier[-1], asked)


def _coverage(question: str, asked: set[str]) -> float:
    own = set(words(question))
    return len(own & asked) / len(own) if own else 0.0


def holds(passage: Passage, gold: Gold) -> bool:
    """The passage comes from the gold file (when the prompt names its source) and holds its
    quote: verbatim after whitespace normalisation, or a contiguous run of most of its words
    (the retrieval metrics' test)."""
    source = passage.source
    same_file = not gold.file or not source or source == gold.file or source.endswith(gold.file)
    return same_file and bool(gold.quote) and contains_quote(passage.text, gold.quote)


def quote_window(text: str, quote: str, slack: int = 2) -> str:
    """The part of `text` where it says `quote`: the verbatim match, else the longest run of
    the quote's tokens extended by as many tokens as the quote has before and after that run
    (plus `slack`)."""
    spans = [m.span() for m in _TOKEN.finditer(text.lower())]
    t = [text[i:j].lower() for i, j in spans]
    q = _TOKEN.findall(quote.lower())
    if not q or not t:
        return ""
    matcher = SequenceMatcher(None, q, t, autojunk=False)
    a, b, size = matcher.find_longest_match(0, len(q), 0, len(t))
    if size == 0:
        return ""
    extra = 0 if size == len(q) else slack
    start = max(0, b - a - extra)
    end = min(len(t), b + len(q) - a + extra)
    return text[spans[start][0] : spans[end - 1][1]]


def holders(passages: Sequence[Passage], gold: Gold) -> list[int]:
    return [p.n for p in passages if holds(p, gold)]


def overlap(a: str, b: str) -> int:
    return len(set(content_words(a)) & set(content_words(b)))


def _asked_of(raw: dict[str, object]) -> list[Asked]:
    item_id, kind = str(raw["id"]), str(raw["type"])
    turns = raw.get("turns") or []
    if not isinstance(turns, list) or not turns:
        return [
            Asked(
                item_id,
                kind,
                str(raw["question"]),
                str(raw.get("answer", "")),
                _strings(raw.get("must_contain")),
                _gold(raw.get("gold")),
                expect_intent=str(raw.get("expect_intent", "")),
            )
        ]
    out: list[Asked] = []
    for i, t in enumerate(turns):
        last = i == len(turns) - 1
        answer = t.get("answer") or (raw.get("answer", "") if last else "")
        out.append(
            Asked(
                item_id,
                kind,
                str(t["q"]),
                str(answer),
                _strings(t.get("must_contain")),
                _gold(t.get("gold")),
                turn=i,
                turn_kind=str(t.get("kind", "")),
                earlier=tuple(str(x["q"]) for x in turns[:i]),
            )
        )
    return out


def _strings(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _gold(value: object) -> tuple[Gold, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(
        Gold(file=str(g["file"]), quote=str(g.get("quote", "")), section=str(g.get("section", "")))
        for g in value
    )
