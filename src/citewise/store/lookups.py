"""Title and heading lookups: an optional capability a store may offer beside the core
`Store` protocol.

Some documentation genres have structure general search misses: an entry headed by the
command-line option it documents ("-m <module-name>"), a page titled after its subject
("9. Massif: a heap profiler"). A backend that can find these cheaply implements
`HeadingLookups`; callers go through `documents_titled` / `heading_entries`, which fall back to
plain protocol calls (or nothing) for a backend that does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from citewise.text.headings import title_starts
from citewise.types import Candidate, DocumentInfo, SearchFilter

if TYPE_CHECKING:
    from citewise.store.base import Store


@runtime_checkable
class HeadingLookups(Protocol):
    def heading_search(self, name: str, flt: SearchFilter, k: int) -> list[Candidate]:
        """Up to `k` chunks, in reading order, whose last heading is the entry for `name`
        (`heading_names`): "-m <module-name>" or "-c, --check" for a command-line option."""
        ...

    def documents_titled(self, collection: str, prefix: str) -> list[DocumentInfo]:
        """Visible documents whose title starts with `prefix` (case-insensitive), after a
        chapter number if any, by source."""
        ...


def documents_titled(store: Store, collection: str, prefix: str) -> list[DocumentInfo]:
    if isinstance(store, HeadingLookups):
        return store.documents_titled(collection, prefix)
    return [d for d in store.list_documents(collection) if title_starts(d.title, prefix)]


def heading_entries(store: Store, name: str, flt: SearchFilter, k: int) -> list[Candidate]:
    """The entries headed by `name`, or none when the backend cannot look them up."""
    if isinstance(store, HeadingLookups):
        return store.heading_search(name, flt, k)
    return []


def like_prefix_patterns(prefix: str) -> tuple[str, str]:
    """LIKE patterns (escape character `\\`) that prefilter titles starting with `prefix`,
    at the start or after a space (a chapter number): `title_starts` decides."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%", "% " + escaped + "%"
