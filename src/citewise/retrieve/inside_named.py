"""Searching inside the documents a question names (pure): the filter that searches them first,
the query they are searched with (its ask), the question read in their own terms, the
documents a follow-up inherits, and the order of pages inside one report (what a rule pack adds
inside them comes through its retrieval hook: `rules.retrieval`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from citewise.question.periods import name_matches, periods, without_names
from citewise.retrieve.named_documents import DocumentMatch, NamedDocuments
from citewise.retrieve.query import query_terms
from citewise.rules.retrieval import Asks
from citewise.types import Hit, SearchFilter

_JOINERS = frozenset({"", "of", "&", "and"})  # words inside one name: "Isle of Capri"


def resolved(question: str, named: NamedDocuments, *, every_name: bool = True) -> str:
    """`question` with the names its singled-out documents define in those documents' own
    words: "What must Western Traction show?" -> "What must Distributor show?" (a name
    without a term stays as it is); without `every_name`, only the names that singled them
    out."""
    if not named.unambiguous:
        return question
    term_of: dict[str, str] = {}
    for word, term in named.terms:
        term_of.setdefault(word, term)
    out: list[str] = []
    last = 0
    previous = ""  # the term the last name became, when only spaces followed it
    for m, word in name_matches(question):
        # any name the chosen documents define, not only those that chose them: "Western
        # Traction" in the agreement "Liebherr" chose reads "Distributor" there
        if word not in term_of or not (every_name or word in named.names):
            previous = ""
            continue
        gap = question[last : m.start()]
        term = term_of[word]
        # "Theriac of Littlestown" is one name: one term, not "Owner of Owner"
        if term != previous or gap.strip().lower() not in _JOINERS:
            out += [gap, term]
        last = m.end()
        if question[last : last + 2] in ("'s", "’s"):
            last += 2
        previous = term
    out.append(question[last:])
    text = " ".join("".join(out).split())
    return text if text.strip(" ?.!") else question


def without_subject(question: str, named: NamedDocuments) -> str:
    """What ranks the passages of the documents a subject chose: `question` without the
    names that chose them and the names they define a term for ("Western Traction", which
    they call "Distributor"). Those words, or the terms, are in most of their passages, while
    a name's rarity in the whole collection would carry a passage on its own (a preamble, a
    signature block); a word the question uses as a word stays ("another company" where
    the documents' term is "Company"). `question` itself when no content word is left
    ("What about Liebherr?")."""
    words = {*named.names, *(word for word, _ in named.terms)}
    text = without_names(question, tuple(words))
    return text if query_terms(text) else question


def carried_documents(sources: Sequence[str], max_named: int = 3) -> NamedDocuments:
    """The documents a follow-up inherits from the previous turn's citations, searched first
    as if the follow-up named them (the rest of the collection follows)."""
    unique = tuple(dict.fromkeys(sources))[:max_named]
    return NamedDocuments(tuple(DocumentMatch(s, 1.0, False, False) for s in unique), unique)


def narrowed(flt: SearchFilter, named: NamedDocuments) -> SearchFilter | None:
    """The filter that searches only the documents the question singles out, if any."""
    if not named.unambiguous:
        return None
    return replace(flt, sources=named.unambiguous)


def first_then_rest(first: Sequence[Hit], rest: Sequence[Hit], k: int) -> list[Hit]:
    """`first`, then `rest`'s other chunks, `k` at most (pure)."""
    seen = {h.chunk_id for h in first}
    return [*first, *(h for h in rest if h.chunk_id not in seen)][:k]


def no_asks(query: str) -> Asks:
    """No rule pack's retrieval rule applies."""
    return Asks()


def inside_query(
    query: str,
    named: NamedDocuments,
    *,
    asked: Callable[[str], Asks] = no_asks,
    subject: bool = True,
) -> tuple[str, Asks]:
    """What to search the singled-out documents with: with a period named, the query
    without the names and periods that chose them (a report's name is on every page: it
    tells its passages apart no more); chosen by names alone, the query with each name the
    documents define a term for in that term ("Western Traction" -> "Distributor"), other
    names kept (they may be the topic itself: "the Apache License"), or without `subject`
    the query without those names (`without_subject`); followed by the words the rule packs'
    retrieval rules that apply add (`asked`: the financial statements' titles and row labels
    a question about a report's figures needs); and those rules' asks."""
    if periods(query).years:
        inside = without_names(query, named.names) or query
    elif subject:
        inside = resolved(query, named)
    else:
        inside = without_subject(query, named)
    ask = asked(inside)
    return ask.with_words(inside), ask


def pages_spread(hits: Sequence[Hit], per_page: int) -> list[Hit]:
    """The hits with any beyond the first `per_page` of one page moved behind the others
    (order otherwise kept; 0 turns it off; pure): inside one long report, a page that
    matches in several passages would otherwise fill the first places."""
    if per_page <= 0:
        return list(hits)
    seen: dict[tuple[str, int | None], int] = {}
    first: list[Hit] = []
    later: list[Hit] = []
    for h in hits:
        key = (h.source, h.page)
        seen[key] = seen.get(key, 0) + 1
        (first if h.page is None or seen[key] <= per_page else later).append(h)
    return first + later
