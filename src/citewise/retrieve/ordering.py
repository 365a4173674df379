"""The orderings retrieval applies to a ranked list of hits (pure): framing blocks set aside,
scores multiplied and re-sorted (or set back in an order kept), at most a few passages of one
document before the others, and the entry documenting a name the query spells kept where it
ranked."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from citewise.text.blocks import asks_about, stored_aside
from citewise.text.headings import heading_names, last_heading
from citewise.text.identifiers import query_identifiers
from citewise.types import Hit

# the name an entry's heading documents: "Popen.terminate()", "class dict(**kwargs)"
_ENTRY_NAME = re.compile(r"^(?:[a-z]+\s+)*@?([A-Za-z_][\w.]*)")


def set_aside(query: str) -> Callable[[Hit], bool]:
    """Whether a hit is a framing block (labelled at ingest, `text.blocks`) the query does not ask
    about: a preamble for a question about a clause, not for one about the parties."""

    def aside(h: Hit) -> bool:
        kind = stored_aside(h.label, h.text, h.section)  # labelled at ingest
        return kind is not None and not asks_about(query, kind)

    return aside


def demote(hits: list[Hit], which: Callable[[Hit], bool], factor: float) -> list[Hit]:
    """The hits re-sorted after multiplying the scores of those `which` picks by `factor`,
    re-ranked 1..n (pure)."""
    return ranked(rescored(hits, which, factor))


def rescored(hits: list[Hit], which: Callable[[Hit], bool], factor: float) -> list[Hit]:
    """As `demote`, the ranks left as they were."""
    out = [replace(h, score=h.score * factor) if which(h) else h for h in hits]
    out.sort(key=lambda h: h.score, reverse=True)
    return out


def ranked(hits: list[Hit]) -> list[Hit]:
    """The hits ranked 1..n in their order."""
    return [h if h.rank == i + 1 else replace(h, rank=i + 1) for i, h in enumerate(hits)]


def entry_for(query: str) -> Callable[[Hit], bool]:
    """Whether a hit stands under the entry documenting an identifier or option the query
    names: "Popen.terminate()" for "Popen.terminate", "-m <module-name>" for "-m" (pure)."""
    names = query_identifiers(query)

    def documents_a_name(h: Hit) -> bool:
        heading = last_heading(h.section)
        entry = _ENTRY_NAME.match(heading)
        return any(
            heading_names(heading, n)
            if n.startswith("-")
            else entry is not None and _same_entry(entry[1], n)
            for n in names
        )

    return documents_a_name


def _same_entry(heading_name: str, name: str) -> bool:
    """Whether the entry headed `heading_name` documents `name`: "Popen.terminate" heads the
    one for "Popen.terminate", "terminate" and "subprocess.Popen.terminate"; a bare
    "terminate" only the one for "terminate"."""
    if heading_name == name or heading_name.endswith("." + name):
        return True
    return "." in heading_name and name.endswith("." + heading_name)


def diversify(
    hits: list[Hit], max_per_document: int, exempt: Callable[[Hit], bool] | None = None
) -> list[Hit]:
    """The hits with any beyond the first `max_per_document` of a document moved behind
    the others (order otherwise kept), re-ranked 1..n. 0 turns it off (pure). The first
    `exempt` hit of a document neither moves nor counts: the entry for what the query names
    ("Popen.terminate()") stays where it ranked even when three passages of its page rank
    higher (one only: a long entry's chunks would fill the list again)."""
    if max_per_document <= 0:
        return hits
    return ranked(spread(hits, max_per_document, exempt))


def spread(
    hits: list[Hit], max_per_document: int, exempt: Callable[[Hit], bool] | None = None
) -> list[Hit]:
    """As `diversify` (`max_per_document` > 0), the ranks left as they were."""
    seen: dict[int, int] = {}
    exempted: set[int] = set()
    first: list[Hit] = []
    later: list[Hit] = []
    for h in hits:
        if exempt is not None and h.doc_id not in exempted and exempt(h):
            exempted.add(h.doc_id)
            first.append(h)
            continue
        seen[h.doc_id] = seen.get(h.doc_id, 0) + 1
        (first if seen[h.doc_id] <= max_per_document else later).append(h)
    return first + later


def documents_first(hits: list[Hit], per_document: int = 1) -> list[Hit]:
    """`diversify`d: at most `per_document` passages of a document before the other
    documents', each passage keeping its own score (the score shown with a source is the
    passage's); the order is carried by the ranks, so what comes after must keep the order
    rather than re-sort by score (`set_back`) (pure)."""
    if per_document <= 0 or not hits:
        return hits
    return ranked(spread(hits, per_document))


def set_back(hits: list[Hit], which: Callable[[Hit], bool], factor: float) -> list[Hit]:
    """The hits `which` picks scored × `factor` (< 1) and moved back behind every other hit
    scored above their new score that follows them; the others keep their order, whatever
    their scores (an order `documents_first` chose survives), and no hit moves forward.
    On a list sorted best first it is `rescored` (pure; ranks left as they were)."""
    kept: list[Hit] = []
    aside: list[tuple[int, Hit]] = []  # (kept hits that preceded it, the demoted hit)
    for h in hits:
        if which(h):
            aside.append((len(kept), replace(h, score=h.score * factor)))
        else:
            kept.append(h)
    out: list[Hit] = []
    j = 0
    for i, h in enumerate(kept):
        while j < len(aside) and aside[j][0] <= i and aside[j][1].score >= h.score:
            out.append(aside[j][1])
            j += 1
        out.append(h)
    out.extend(a for _, a in aside[j:])
    return out
