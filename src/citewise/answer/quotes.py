"""A citation's quote (pure): the passage sentences that carry the claims citing it, verbatim.

Each claim's quote is the passage sentence that best supports it (word and trigram overlap),
widened to the neighbouring sentences the claim recites whole (a lead-in with the items it
introduces, an entry's signature line the answer opens with). The quotes of several claims
citing one passage are joined in passage order, contiguous ones as one run of the passage, so
the reader's highlight finds them. A sentence longer than a quote may be is quoted whole when
the claim recites it, else cut to the window holding most of the claim's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citewise.answer.lexical import Evidence, trigram_overlap, word_overlap
from citewise.text.sentences import split_sentences, stems, strip_citation_marks, words

MAX_QUOTE_CHARS = 300
# a sentence the claim recites whole is quoted whole up to this: cut short, the fact at its
# end ("… prior to 30 days after Your receipt of the notice.") would be lost
RECITED_QUOTE_CHARS = 600
# the quotes of several claims citing one passage, together (the first claim's always)
JOINED_QUOTE_CHARS = 1200
MIN_RECITED_WORDS = 2  # a shorter neighbour ("Note:") is contained in claims by chance
# … and a sentence elsewhere in the passage: a claim that runs on past a line without a full
# stop ("… 128: @lru_cache [1] If maxsize is set to None, …") recites two places at once
MIN_RECITED_ELSEWHERE = 3


@dataclass(frozen=True, slots=True)
class Quote:
    """Sentences `lo`..`hi` of a passage (inclusive) and their text as quoted."""

    lo: int
    hi: int
    text: str
    whole: bool  # the text is the sentences in full, not a window of them


@lru_cache(maxsize=4096)
def _sentence_evidence(sentence: str) -> Evidence:
    """`Evidence` of one passage sentence (frozen, so shared): every claim citing a passage
    weighs all of its sentences again."""
    return Evidence.of([sentence])


def _phrase(text: str) -> str:
    return " " + " ".join(words(strip_citation_marks(text))) + " "


def _recites(claim_phrase: str, sentence: str) -> bool:
    """Whether the claim holds `sentence`'s words, in order, as one run."""
    phrase = _phrase(sentence)
    return len(phrase.split()) >= MIN_RECITED_WORDS and phrase in claim_phrase


def quote_for(claim: str, sentences: Sequence[str], max_chars: int = MAX_QUOTE_CHARS) -> Quote:
    """The quote of `claim` among a passage's `sentences` (at least one)."""
    scored = []
    for i, s in enumerate(sentences):
        ev = _sentence_evidence(s)
        scored.append((0.6 * word_overlap(claim, ev) + 0.4 * trigram_overlap(claim, ev), -i))
    lo = hi = -max(scored)[1]
    if sentences[lo].endswith(":") and lo + 1 < len(sentences):
        hi = lo + 1  # a fragment ending in ':' is quoted with what it introduces
    claim_phrase = _phrase(claim)
    while hi + 1 < len(sentences) and _recites(claim_phrase, sentences[hi + 1]):
        hi += 1
    while lo > 0 and _recites(claim_phrase, sentences[lo - 1]):
        lo -= 1
    text = " ".join(sentences[lo : hi + 1])
    if len(text) <= max_chars:
        return Quote(lo, hi, text, True)
    recited = all(_recites(claim_phrase, s) for s in sentences[lo : hi + 1])
    if recited and len(text) <= max(max_chars, RECITED_QUOTE_CHARS):
        return Quote(lo, hi, text, True)
    return Quote(lo, hi, window(claim, text, max_chars), False)


def recited_elsewhere(claim: str, sentences: Sequence[str], main: Quote) -> list[Quote]:
    """The passage's sentences outside `main` that the claim recites whole."""
    claim_phrase = _phrase(claim)
    return [
        Quote(i, i, s, True)
        for i, s in enumerate(sentences)
        if not main.lo <= i <= main.hi
        and len(words(s)) >= MIN_RECITED_ELSEWHERE
        and _recites(claim_phrase, s)
    ]


def window(claim: str, text: str, max_chars: int) -> str:
    """The run of `text`'s words, at most `max_chars`, holding most of the claim's content
    words (the earliest such run)."""
    tokens = text.split()
    wanted = stems(claim)
    held_by = [stems(t) & wanted for t in tokens]
    best, best_at = -1, (0, 0)
    for start in range(len(tokens)):
        size, end = 0, start
        held: set[str] = set()
        while end < len(tokens) and size + len(tokens[end]) + (end > start) <= max_chars:
            size += len(tokens[end]) + (end > start)
            held |= held_by[end]
            end += 1
        if end == start:
            continue
        if len(held) > best:
            best, best_at = len(held), (start, end)
        if end == len(tokens):
            break
    start, end = best_at
    return " ".join(tokens[start:end]) if end > start else text[:max_chars]


def best_quote(claim: str, passage_text: str, max_chars: int = MAX_QUOTE_CHARS) -> str:
    """The sentence of `passage_text` that best supports `claim`, verbatim (`quote_for`)."""
    sentences = split_sentences(passage_text)
    if not sentences:
        return passage_text[:max_chars].strip()
    return quote_for(claim, sentences, max_chars).text


def claims_quote(claims: Sequence[str], passage_text: str) -> str:
    """The passage's sentences that carry `claims`: each claim's quote and the other
    sentences it recites whole, the first claim's quote always, the others while all fit
    `JOINED_QUOTE_CHARS`, in passage order; quotes that touch are one run of the passage.
    One quote for the joined claims would favour the sentence sharing most words with all
    of them together, often not the one stating the fact."""
    sentences = split_sentences(passage_text)
    if not sentences:
        return passage_text[:MAX_QUOTE_CHARS].strip()
    kept: list[Quote] = []
    size = 0
    for claim in claims:
        main = quote_for(claim, sentences)
        for q in (main, *recited_elsewhere(claim, sentences, main)):
            if any(k.lo <= q.lo and q.hi <= k.hi for k in kept):
                continue
            if kept and size + len(q.text) + 1 > JOINED_QUOTE_CHARS:
                continue
            kept.append(q)
            size += len(q.text) + 1
    return " ".join(q.text for q in _merged(sorted(kept, key=lambda q: (q.lo, q.hi)), sentences))


def _merged(quotes: Sequence[Quote], sentences: Sequence[str]) -> list[Quote]:
    """Quotes in passage order with those that overlap or touch joined into one run."""
    out: list[Quote] = []
    for q in quotes:
        last = out[-1] if out else None
        if last is not None and last.whole and q.whole and q.lo <= last.hi + 1:
            hi = max(last.hi, q.hi)
            out[-1] = Quote(last.lo, hi, " ".join(sentences[last.lo : hi + 1]), True)
        else:
            out.append(q)
    return out
