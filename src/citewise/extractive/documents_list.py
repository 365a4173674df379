"""The answer to "Which of my documents discuss X?": the documents, each with the passage that
names X quoted and cited, not one passage (issue #40 item 5).

A passage names X when one of its sentences holds every content word of X (light stems), or
X's initials as a word when X is a name of several capitalised words ("FHS" for the
Filesystem Hierarchy Standard). The documents come in the passages' order (retrieval puts each
document's best passage first on these questions: `retrieve.ordering.documents_first`); none
named, no list: the usual answerer answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.extractive.compose import ExtractiveResult
from citewise.extractive.parties_list import parties_list
from citewise.text.sentences import content_words, split_sentences, stem, words
from citewise.types import Passage

# the nouns the query router's "which documents" route takes (`chat.query_router`)
_WHICH = re.compile(
    r"\bwhich\s+(?:of\s+(?:my|the|our)\s+)?(?P<noun>documents|files|papers|agreements|contracts"
    r"|guides|manuals)\s+(?P<rest>.+?)[?.!\s]*$",
    re.I,
)
# the verb that says "discuss"; any other predicate ("are governed by the laws of Delaware")
# is matched whole
_DISCUSS = re.compile(
    r"^(?:(?:do|does|did)\s+)?(?:discuss|mention|cite|cover|describe|name|talk\s+about"
    r"|refer\s+to|deal\s+with|contain|explain|use)(?:e?s|ed)?\s+(?P<subject>.+)$",
    re.I,
)
_CAPITALISED = re.compile(r"\b[A-Z][\w-]*")
QUOTE_WORDS = 40  # a longer sentence is quoted around where it names X


def asked_subject(question: str) -> str | None:
    """What a "which documents …" question asks about: "Chubby" of "Which of my documents
    discuss Chubby?", "are governed by the laws of Delaware" of "Which agreements are
    governed by …"; None for any other question."""
    m = _WHICH.search(" ".join(question.split()))
    if m is None:
        return None
    rest = m["rest"]
    said = _DISCUSS.match(rest)
    subject = said["subject"] if said else rest
    return subject if content_words(subject) else None


def documents_list(
    question: str, passages: Sequence[Passage], *, asked: str = ""
) -> ExtractiveResult | None:
    """The documents among `passages` that name what `question` asks about, one line each
    with the first sentence that names it, cited; None when the question does not ask which
    documents, or no passage names it. `asked`: the question as the user wrote it, when
    `question` reads it with the documents' own names ("SBI" for "Sensor Bus Interface"):
    a sentence naming either counts. "Who are the parties to …?" is listed by
    `parties_list` (the agreements the graph found)."""
    parties = parties_list(asked or question, passages)
    if parties is not None:  # "who are the parties to …": every agreement the graph found
        return parties
    said = [q for q in dict.fromkeys((asked, question)) if q and asked_subject(q) is not None]
    if not said:
        return None
    names = [_Named.of(asked_subject(q) or "") for q in said]
    lines: list[str] = []
    used: list[Passage] = []
    seen: set[int] = set()
    for p in passages:
        if p.hit.doc_id in seen:
            continue
        sentence = next((s for n in names if (s := n.sentence_in(p.context))), None)
        if sentence is None:
            continue
        seen.add(p.hit.doc_id)
        used.append(p)
        lines.append(f'- {p.hit.source}: "{sentence}" [{p.n}]')
    if not lines:
        return None
    head = f"{_heading(said[0])} ({len(lines)}):"
    return ExtractiveResult(
        text="\n".join([head, *lines]),
        used_passages=tuple(used),
        support=tuple(1.0 for _ in lines),  # each line quotes a sentence holding every word
        abstained=False,
        best_score=1.0,
    )


@dataclass(frozen=True, slots=True)
class _Named:
    """What the question asks about, as a sentence would name it: every content word (light
    stems), or the initials of a name of several capitalised words."""

    wanted: frozenset[str]
    initials: str | None

    @classmethod
    def of(cls, subject: str) -> _Named:
        return cls(frozenset(stem(w) for w in content_words(subject)), _initials(subject))

    def sentence_in(self, text: str) -> str | None:
        return _naming(text, set(self.wanted), self.initials)


def _naming(text: str, wanted: set[str], initials: str | None) -> str | None:
    """The first sentence of `text` naming the subject, quoted (shortened around the name)."""
    for sentence in split_sentences(text):
        toks = words(sentence)
        stems = {stem(w) for w in toks}
        if wanted <= stems:
            return _shortened(sentence, wanted)
        if initials is not None and re.search(rf"\b{initials}\b", sentence):
            return _shortened(sentence, {stem(initials.lower())})
    return None


def _shortened(sentence: str, wanted: set[str]) -> str:
    """The sentence, or its QUOTE_WORDS words around the first word of the subject."""
    parts = " ".join(sentence.split()).split(" ")
    if len(parts) <= QUOTE_WORDS:
        return " ".join(parts)
    at = next((i for i, w in enumerate(parts) if {stem(x) for x in words(w)} & wanted), 0)
    start = max(0, min(at - QUOTE_WORDS // 2, len(parts) - QUOTE_WORDS))
    cut = " ".join(parts[start : start + QUOTE_WORDS])
    return f"{'… ' if start else ''}{cut}{' …' if start + QUOTE_WORDS < len(parts) else ''}"


def _initials(subject: str) -> str | None:
    """ "FHS" for "the Filesystem Hierarchy Standard": a name of 2+ capitalised words."""
    caps = _CAPITALISED.findall(subject)
    if len(caps) < 2 or len(caps) != len(content_words(subject)):
        return None
    return "".join(c[0] for c in caps)


def _where(p: Passage) -> str:
    """The document and, when known, the page the cited passage is on."""
    h = p.hit
    return f"{h.source} (p. {h.page})" if h.page is not None else h.source


def _heading(question: str) -> str:
    """ "Documents that discuss Chubby", "Agreements that are governed by …": the question's
    own words."""
    m = _WHICH.search(" ".join(question.split()))
    assert m is not None  # only called for a question `asked_subject` read
    return f"{m['noun'].capitalize()} that {m['rest']}"
