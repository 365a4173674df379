"""Elliptical follow-ups (pure): "What about the least serious ones?", "What about the
Supplier?", "Is that directory required?" rewritten against the previous ask."""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.chat.topics import ARTICLE, NAME_RUN
from citewise.text.identifiers import identifiers
from citewise.text.sentences import content_words


def about(subject: str, topic: str, previous: str) -> str:
    """The previous ask with "what about `subject`?" put in its place: "the least serious
    ones" after "What are the most serious breaches?" asks for the least serious breaches;
    a name takes the place of the name asked about before, a code name that of the topic,
    a plain noun that of the noun the previous ask ended on ("… for hardware?")."""
    words = ARTICLE.sub("", subject.strip()).split()
    named = named_subject(words)
    if named is not None:
        renamed = swap_name(named, previous)
        if renamed != previous:
            return renamed
    if len(words) > 1 and _ONES.fullmatch(words[-1]):
        swapped = _swap_modifiers(words[:-1], previous)
        if swapped is not None:
            return swapped
        head = topic.split()[-1]
        subject = " ".join([*words[:-1], head])  # "the red ones" of "blue cars": "red cars"
        swapped = re.sub(re.escape(topic), subject, previous, count=1, flags=re.I)
        if swapped != previous:
            return swapped
    name = ARTICLE.sub("", subject)
    swapped = previous
    if name[:1].isupper() and not identifiers(name):
        # a name for a name: "What about the Supplier?" after "… must the Distributor carry?"
        swapped = _NAME.sub(lambda m: name, previous, count=1)
    if swapped == previous and (identifiers(subject) or not subject[:1].islower()):
        swapped = re.sub(re.escape(topic), subject, previous, count=1, flags=re.I)
    if swapped == previous:
        swapped = _swap_last_noun(previous, subject)
    return swapped if swapped != previous else f"{subject}: {previous}"


# what is said of a name without naming another thing: "Blaw-Knox's side", "the Lakewood one"
_ROLE_WORDS = frozenset(
    {"one", "ones", "side", "part", "end", "obligations", "duties", "view", "position", "case"}
)


def named_subject(words: Sequence[str]) -> str | None:
    """The name a "what about …" subject names, as written ("Lakewood Ranch" of "Lakewood
    Ranch one", "Blaw-Knox" of "Blaw-Knox's side"), or None when it is no name."""
    kept = list(words)
    while len(kept) > 1 and kept[-1].lower() in _ROLE_WORDS:
        kept.pop()
    if not kept:
        return None
    kept[-1] = re.sub(r"['’]s$", "", kept[-1])
    name = " ".join(kept)
    capitalised = all(w[:1].isupper() or w.lower() in ("of", "&") for w in kept)
    code = any(c in name for c in "._()/")
    return name if capitalised and kept[0][:1].isupper() and not code else None


def swap_name(name: str, previous: str) -> str:
    """`previous` asked of `name`: when it names `name` already, `name` takes the place of
    the first other name ("What does A do to promote B?" → "What does B do to promote B?");
    else of the last name, the most specific one ("… Devoto's agreement with Theriac of
    Littlestown?" → "… Devoto's agreement with Lakewood Ranch?")."""
    runs = list(NAME_RUN.finditer(previous))
    if not runs:
        return previous
    bare = [re.sub(r"['’]s$", "", m.group(0)).lower() for m in runs]
    if name.lower() in bare:
        others = [m for m, b in zip(runs, bare, strict=True) if b != name.lower()]
        if not others:
            return previous
        target = others[0]
    else:
        target = runs[-1]
    own = re.search(r"['’]s$", target.group(0))
    new = name + (own.group(0) if own else "")
    return previous[: target.start()] + new + previous[target.end() :]


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


def named_before(words: str, previous: str, answer: str) -> str | None:
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
