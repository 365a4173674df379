"""Is a word an ordinary English word? English dictionaries and the bundled MiniLM's
WordPiece vocabulary answer.

The support check holds an LLM's words to what the model was shown. A word found nowhere
there is either the model's own paraphrase ("typically", "employees") or a term it made up
("Vorlandexs, acceptors and learners …"). A dictionary tells them apart: a word that neither
it nor a form of it with a common affix taken off holds is not ordinary English, and one that
nothing shown holds is invented. Without the dictionaries the question is not answered (None).
"""

from __future__ import annotations

import json
from functools import lru_cache

from citewise.embed.minilm.weights import bundled_model_dir
from citewise.errors import EmbedderError

MIN_CHARS = 5  # shorter words are abbreviations and names as often as made-up terms
_SUFFIXES = (
    "ations", "ation", "ments", "ment", "ness", "ings", "ing", "ers", "ors", "ies", "ied",
    "ized", "ised", "izes", "ises", "ize", "ise", "ably", "ibly", "able", "ible", "ity", "ally",
    "al", "ed", "es", "er", "or", "ly", "s", "d", "r",
)  # fmt: skip
_PREFIXES = (
    "un", "re", "de", "non", "pre", "sub", "over", "under", "co", "multi", "inter", "mis",
    "dis", "anti", "auto", "self", "in", "im",
)  # fmt: skip


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """English words, lower-case: the dictionaries of `english-words` (Webster's 2nd and
    GCIDE, ~263,000 headwords) with the bundled model's whole words (its inflected forms and
    today's words). Empty without the dictionaries: the model's 22,000 words alone take too
    many legal and technical words ("waiver", "escrow", "lessee") for made-up ones."""
    try:
        from english_words import get_english_words_set
    except ImportError:
        return frozenset()
    words = set(get_english_words_set(["web2", "gcide"], lower=True, alpha=True))
    try:
        data = json.loads((bundled_model_dir() / "tokenizer.json").read_text("utf-8"))
        words.update(w for w in data["model"]["vocab"] if w.isascii() and w.isalpha())
    except (EmbedderError, OSError, ValueError, KeyError, TypeError):
        pass  # the dictionaries alone
    return frozenset(w for w in words if w.islower())


def ordinary(word: str) -> bool | None:
    """True when `word` (or it with a common suffix or prefix taken off) is an ordinary
    English word; False when it is not; None without a vocabulary. Short words, words in
    other scripts and words with digits count as ordinary: there is no telling."""
    vocab = vocabulary()
    if not vocab:
        return None
    w = word.lower()
    if len(w) < MIN_CHARS or not w.isascii() or not w.isalpha():
        return True
    return any(_known(base, vocab) for base in _bases(w))


def _bases(word: str) -> set[str]:
    found = {word}
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            found.add(word[: -len(suffix)])
    for base in list(found):
        for prefix in _PREFIXES:
            if base.startswith(prefix) and len(base) - len(prefix) >= 3:
                found.add(base[len(prefix) :])
    return found


def _known(base: str, vocab: frozenset[str]) -> bool:
    if base in vocab or f"{base}e" in vocab:
        return True
    if base.endswith("i") and f"{base[:-1]}y" in vocab:  # "replies" → "repli" → "reply"
        return True
    return len(base) >= 4 and base[-1] == base[-2] and base[:-1] in vocab  # "stopped" → "stop"
