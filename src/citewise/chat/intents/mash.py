"""Keyboard mash told from words no vocabulary knows, by their shape (pure): the garbage
rule of the intent router (`rules.is_garbage`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from citewise.text.words import STOPWORDS

_VOWELS = frozenset("aeiouy")


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_RARE_PAIRS = _set(
    "qw qz qx qj qk qp qg qf qv qh qc qd qn qm qb qy qe qo qs qt qr wq wx wz xq xz xj xk zx zq zj"
    " jq jx jz jw vq vx vj vz vw vb vf vk vp fq fz fx fj kq kz kx gq gz gx gj pq px pz bq bz bx"
    " dq dx mq mx mz cj cx cv hx hz hq lq lx jv jf jg jk jh jl jb jc jd jm jn jp jr js jt"
)
_KNOWN = _set(
    "ok hi hey yes no api app bug cli code data file files help list log python java linux sql"
    " server error test user page docs doc config json html http url web query table index"
)


def is_mash(tokens: Sequence[str], known_word: Callable[[str], bool] | None = None) -> bool:
    """Whether the words of a message (`tokens`, lower-cased) are mostly mash: few look
    like words, or a short message has none a vocabulary knows."""
    known = [w for w in tokens if _is_known(w, known_word)]
    wordlike = sum(1 for w in tokens if w in known or _looks_like_word(w))
    return wordlike / len(tokens) < 0.5 or (not known and wordlike < len(tokens) <= 3)


def _is_known(word: str, known_word: Callable[[str], bool] | None) -> bool:
    return word in STOPWORDS or word in _KNOWN or (known_word is not None and known_word(word))


def _looks_like_word(word: str) -> bool:
    """Shape test for a word no vocabulary knows: vowels, consonant runs, letter pairs."""
    if not word.isascii():
        return True  # other scripts: no basis to judge
    if re.search(r"(.)\1\1", word) or (len(word) >= 4 and _keyboard_walk(word)):
        return False
    if len(word) <= 4:
        return True  # acronyms and short names: npm, ssh, tcp
    if not any(c in _VOWELS for c in word) or re.search(r"[^aeiouy]{6,}", word):
        return False
    return not any(word[i : i + 2] in _RARE_PAIRS for i in range(len(word) - 1))


def _keyboard_walk(word: str) -> bool:
    """Letters from one keyboard row, mostly struck side by side: "asdf", "hjkl", "sdfsdf"."""
    row = next((r for r in _ROWS if all(c in r for c in word)), None)
    if row is None:
        return False
    steps = [abs(row.index(a) - row.index(b)) for a, b in itertools.pairwise(word)]
    adjacent = steps.count(1)
    return adjacent / (len(word) - 1) >= 0.75
