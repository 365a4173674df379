"""Turns a natural-language query into an FTS5 match expression (pure)."""

from __future__ import annotations

import re

# Words that carry no topic. Kept short on purpose: technical words like "default", "error"
# or "type" are topics in documentation and must stay.
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "don",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "tell",
        "explain",
        "describe",
        "happens",
        "happen",
        "way",
        "ways",
        "get",
        "gets",
        "got",
        "use",
        "using",
        "used",
    ]
)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def query_terms(query: str) -> list[str]:
    """Lower-cased content words in order of first appearance, stopwords dropped."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(query.lower()):
        if word in STOPWORDS or (len(word) == 1 and not word.isdigit()):
            continue
        seen.setdefault(word, None)
    return list(seen)


def build_match(query: str) -> str:
    """OR of the quoted terms: BM25 then ranks passages sharing more rare terms higher."""
    return " OR ".join(f'"{t}"' for t in query_terms(query))


# "-m", "--leak-check" (not "e-mail", "non-ASCII" or a trailing "-")
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?<!-)")


def command_options(query: str) -> list[str]:
    """The command-line options a query names, in order, duplicates dropped (pure). Their
    letters alone are no search terms: "-m" would be the word "m"."""
    return list(dict.fromkeys(_OPTION.findall(query)))
