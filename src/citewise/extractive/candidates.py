"""CandidateSentence sentences of the extractive answerer and the pure measures it scores them with:
IDF-weighted overlap with the question, stems, near-duplicates, how many passages a
document contributes, and which candidates "tell me more" reads on in."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from citewise.text.headings import last_heading
from citewise.text.identifiers import command_options
from citewise.text.sentences import content_words, stem, topic_stem
from citewise.types import Passage


@dataclass(frozen=True, slots=True)
class CandidateSentence:
    passage: Passage
    index: int  # position of the sentence in its passage
    text: str  # the sentence, with what a lead-in introduces
    rank_bonus: float  # 1 for the first passage, falling linearly
    stems: frozenset[str]
    continues: bool = False  # comes right after something already said, in the same passage


def read_on(
    cands: list[CandidateSentence], said_in: dict[int, str]
) -> tuple[list[CandidateSentence], bool]:
    """For "tell me more": the candidates from the passages the previous answer was taken
    from (`said_in`), where it stopped reading — or, when those have fewer than two, from
    their documents — and whether there were any (else all candidates, as for a new
    question)."""
    same_passage = [c for c in cands if c.passage.n in said_in]
    if len(same_passage) >= 2:
        return same_passage, True
    home = set(said_in.values())
    kept = [c for c in cands if c.passage.hit.source in home]
    return (kept, True) if kept else (cands, False)


def document_share(cands: Sequence[CandidateSentence]) -> dict[str, float]:
    """Per source, the share of the other passages (those with candidates) from it: 0 for a
    document only one passage comes from, 1 when all do."""
    passages = {c.passage.n: c.passage.hit.source for c in cands}
    others = max(1, len(passages) - 1)
    return {source: (n - 1) / others for source, n in Counter(passages.values()).items()}


def term_weights(question: str, cands: Sequence[CandidateSentence]) -> dict[str, float]:
    """IDF of each question stem over the candidate sentences; absent stems weigh most."""
    words = [topic_stem(w) for w in content_words(question)]
    # a command-line option ("-c", "-O", "--inspect") is a term of its own: its letter alone is
    # too short to be a content word
    terms = list(dict.fromkeys([*words, *command_options(question)]))
    n = len(cands)
    return {t: math.log(1 + n / (1 + sum(t in c.stems for c in cands))) for t in terms}


def lexical(
    weights: dict[str, float], cand: CandidateSentence, shared: AbstractSet[str] = frozenset()
) -> float:
    """The weighted share of the question's terms `cand` holds; `shared`: terms it holds as
    every sentence under its heading does (the heading's), whether it spells them or not."""
    total = sum(weights.values())
    if not total:
        return 0.0
    return sum(w for t, w in weights.items() if t in cand.stems or t in shared) / total


def stems_of(text: str) -> set[str]:
    """Stems and topic stems ("unbounded": "unbound" and "bound"): a question's focus word
    is matched by its plain stem, its terms by their topic stems."""
    words = content_words(text)
    return {stem(w) for w in words} | {topic_stem(w) for w in words} | set(command_options(text))


def jaccard(a: AbstractSet[str], b: AbstractSet[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


# "It …", "This release …", "These functions …": the subject is named before the sentence
LEANS_BACK = re.compile(
    r"^(?:it|its|this|these|they|their|those|such)\b|\bthis\s+(?:release|version|module|function"
    r"|method|class|option|section|document|license|licence|policy|format|package|command)\b",
    re.I,
)


# a list's item: "- Add a secret …", "2. Rotate the keys"
ITEM = re.compile(r"^\s*(?:[-*•▪◦‣–]|\d+[.)])\s+")
MAX_TITLE_WORDS = 12  # a longer "heading" is a path of prose, not a title its items share


def slide_title(section: str) -> str:
    """The title a passage's items share: its last heading when it is short, else ""."""
    heading = last_heading(section)
    return heading if heading and len(heading.split()) <= MAX_TITLE_WORDS else ""


def embedded_text(c: CandidateSentence, anaphor_heading: bool) -> str:
    """The text a candidate is embedded as: a list's item read after its title (a slide's
    bullet says what its title is about: "A5 – Avoiding CSRF Flaws: Add a secret token …");
    with `anaphor_heading`, a sentence leaning on what came before after its heading path."""
    section = c.passage.hit.section
    title = slide_title(section)
    if title and ITEM.match(c.text):
        return f"{title}: {ITEM.sub('', c.text)}"
    if anaphor_heading and section and LEANS_BACK.search(c.text):
        return f"{section}: {c.text}"
    return c.text
