"""The stand-in's answer to a question over numbered passages, in each mode.

Faithful: the set's reference answer, each sentence citing the passage that holds the gold
quote it rests on (a sentence resting on several, like a comparison's, cites each) and left
out when a quote it rests on is not shown (a passage holding most of a quote's words but not
its numbers does not show it); "not in the documents" when nothing is left. The
other modes change one thing:

- invented-value: the key number (one in a must_contain string, digits or a number word, else
  the first in digits) becomes a value no passage shows;
- invented-name: a key term (a must_contain string, else a capitalised name) becomes a
  made-up word;
- wrong-citation: the same text citing a passage that holds no gold quote (the first shown
  that also lacks the must_contain strings, when there is one);
- abstain: always "not in the documents".
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal, get_args

from citewise.testing.standin_llm.gold import Asked, Passage, holders, overlap, quote_window
from citewise.text.sentences import attach_marker, split_sentences

Mode = Literal["faithful", "invented-value", "invented-name", "wrong-citation", "abstain"]
MODES: tuple[str, ...] = get_args(Mode)
DECLINE = "The documents do not contain this information."

_NUMBER_WORDS = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "ninety", "hundred",
]  # fmt: skip
# a value ends at a non-word character or at a unit written against it ("12s", "1min", "4MB")
_END = r"(?=(?:ms|s|min|h|[kmgt]b|%)?(?!\w))"
_VALUE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)*" + _END + "|(?:" + "|".join(_NUMBER_WORDS) + r")(?!\w))", re.I
)
_DIGITS = re.compile(r"(?<![\w.])\d+(?:\.\d+)*" + _END, re.I)
_CAPITALISED = re.compile(r"(?<=[\w,;:(] )([A-Z][A-Za-z]{2,}(?: [A-Z][A-Za-z]+)*)")
_SYLLABLES = [
    "vor", "lan", "qui", "dex", "zar", "mel", "tov", "rin", "gas", "pho", "ulm", "ket", "bru",
    "sna", "fid", "oxa",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Composed:
    """An answer and what it did: the passages it cites, those holding a gold quote, and the
    strings it invented in place of the true ones."""

    text: str
    declined: bool
    cited: tuple[int, ...] = ()
    gold_passages: tuple[int, ...] = ()
    invented: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()
    wrong_citation: bool = False


def compose(
    asked: Asked | None, passages: Sequence[Passage], mode: str, decline: str = DECLINE
) -> Composed:
    if asked is None:
        return Composed(decline, True)
    held = [[n for n in holders(passages, g) if _states(passages, n, g.quote)] for g in asked.gold]
    gold_ns = tuple(sorted({n for ns in held for n in ns}))
    if mode == "abstain" or not asked.answer.strip() or not gold_ns:
        return Composed(decline, True, gold_passages=gold_ns)
    sentences = split_sentences(asked.answer)
    cited: list[tuple[str, list[int]]] = []
    for s in sentences:
        chosen = golds_for(s, asked, one_sentence=len(sentences) == 1)
        if all(held[i] for i in chosen):  # without all its evidence shown it is not said
            cited.append((s, sorted({held[i][0] for i in chosen})))
    if not cited:
        return Composed(decline, True, gold_passages=gold_ns)
    done = Composed("", False, gold_passages=gold_ns)
    text_of = [s for s, _ in cited]
    if mode == "invented-value":
        text_of, done = _invent(text_of, done, _key_value(text_of, asked), passages, _new_value)
    elif mode == "invented-name":
        text_of, done = _invent(text_of, done, _key_term(text_of, asked), passages, _made_up)
    elif mode == "wrong-citation":
        others = _wrong_passages(passages, gold_ns, asked.must_contain)
        if others:
            cited = [(s, [others[0]]) for s, _ in cited]
            done = replace(done, wrong_citation=True)
    marked = [attach_marker(t, ns) for t, (_, ns) in zip(text_of, cited, strict=True)]
    used = tuple(sorted({n for _, ns in cited for n in ns}))
    return replace(done, text=" ".join(marked), cited=used)


def _states(passages: Sequence[Passage], n: int, quote: str) -> bool:
    """Whether passage `n`, which holds `quote` (or most of its words in a run), states its
    values too, where the quote would say them: a passage sharing "The default value is" with
    the quote but not its "four megabytes" does not state the fact, nor one whose "one" is
    elsewhere ("… at any one time. The default is three." for "The default is one minute"),
    and a capable model would not say it from there."""
    text = next(p.text for p in passages if p.n == n)
    values = [m.group(0).lower() for m in _VALUE.finditer(quote)]
    if not values:
        return True
    where = quote_window(text, quote).lower()
    return all(_appears(v, where) for v in values)


def _wrong_passages(
    passages: Sequence[Passage], gold_ns: Sequence[int], must: Sequence[str]
) -> list[int]:
    """Passages a wrong citation may point at, best first: without a gold quote, those that
    also lack the answer's must_contain strings first (a passage stating the answer in other
    words is not a wrong citation)."""
    others = [p for p in passages if p.n not in gold_ns]
    silent = [p.n for p in others if not any(_appears(m.lower(), p.text.lower()) for m in must)]
    return silent + [p.n for p in others if p.n not in silent]


def golds_for(sentence: str, asked: Asked, *, one_sentence: bool) -> list[int]:
    """Indexes of the gold quotes a reference sentence rests on: the one gold; every gold for
    a one-sentence answer from several sources, or a sentence sharing no word with any; else
    those sharing at least half as many content words with it as the closest."""
    every = list(range(len(asked.gold)))
    if len(every) <= 1 or (one_sentence and asked.several_sources):
        return every
    shared = [overlap(sentence, g.quote) for g in asked.gold]
    best = max(shared)
    if best == 0:
        return every
    return [i for i in every if shared[i] >= max(1, best / 2)]


# -- inventions ------------------------------------------------------------------------


def _invent(
    sentences: list[str],
    done: Composed,
    key: str | None,
    passages: Sequence[Passage],
    make: Callable[[str, str], str],
) -> tuple[list[str], Composed]:
    if key is None:
        return sentences, done
    shown = " ".join(p.text for p in passages).lower() + " " + " ".join(sentences).lower()
    new = make(key, shown)
    pattern = re.compile(rf"(?<![\w.]){re.escape(key)}{_END}", re.I)
    changed = [pattern.sub(lambda m: _same_case(m.group(0), new), s) for s in sentences]
    return changed, replace(done, invented=(new,), replaced=(key,))


def _key_value(sentences: Sequence[str], asked: Asked) -> str | None:
    text = " ".join(sentences)
    for must in asked.must_contain:
        for m in _VALUE.finditer(must):
            if re.search(rf"(?<![\w.]){re.escape(m.group(0))}{_END}", text, re.I):
                return m.group(0)
    first = _DIGITS.search(text)  # a number word outside must_contain is rarely the value
    return first.group(0) if first else None


def _key_term(sentences: Sequence[str], asked: Asked) -> str | None:
    text = " ".join(sentences)
    for must in asked.must_contain:
        if not re.search(r"[a-zA-Z]{3}", must) or re.search(r"\d", must):
            continue  # values are invented-value's
        m = re.search(rf"(?<![\w.]){re.escape(must)}(?![\w])", text, re.I)
        if not m:
            continue
        words = m.group(0).split()
        if len(words) <= 3:
            return m.group(0)
        return max(words, key=len).strip(",.;:")
    name = _CAPITALISED.search(text)
    return name.group(1) if name else None


def _new_value(key: str, shown: str) -> str:
    if key.lower() in _NUMBER_WORDS:
        start = _NUMBER_WORDS.index(key.lower())
        for w in _NUMBER_WORDS[start + 3 :] + _NUMBER_WORDS[:start]:
            if not _appears(w, shown):
                return w
    if "." in key:
        head, _, last = key.rpartition(".")
        for bump in (3, 5, 7, 11):
            cand = f"{head}.{int(last) + bump}"
            if not _appears(cand, shown):
                return cand
    base = int(key) if key.isdigit() else 0
    for bump in (7, 13, 29, 41, 97, 131):
        cand = str(base + bump)
        if not _appears(cand, shown):
            return cand
    return str(base + 977)


def _made_up(key: str, shown: str) -> str:
    for salt in range(50):
        digest = hashlib.sha1(f"{key}/{salt}".encode()).digest()
        word = "".join(_SYLLABLES[b % len(_SYLLABLES)] for b in digest[:3])
        if not _appears(word, shown):
            return word
    return "zarquimelex"


def _appears(value: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w.]){re.escape(value.lower())}{_END}", text))


def _same_case(original: str, new: str) -> str:
    if original.isupper() and len(original) > 1:
        return new.upper()
    if original[:1].isupper():
        return new[:1].upper() + new[1:]
    return new.lower()
