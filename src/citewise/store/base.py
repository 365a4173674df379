"""The Store protocol: documents, chunks, keyword + vector search, atomic replace/delete.

Visibility rules every backend follows:
- a document is `staged` while its replacement is being built: invisible to every search;
- `indexing`: visible to keyword search, vectors still being computed;
- `ready`: fully indexed. `finalize()` promotes documents whose chunks all have vectors and,
  for a staged replacement, deletes the version it replaces in the same transaction. A
  replacement's chunks whose embedded text the replaced version has keep its vectors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol

from citewise.embed.base import Vectors
from citewise.types import (
    SECTION_SEPARATOR,
    Candidate,
    ChunkRecord,
    DocumentInfo,
    NewDocument,
    SearchFilter,
)


class Store(Protocol):
    def close(self) -> None: ...

    def collections(self) -> list[str]: ...

    def find_document(self, collection: str, source: str) -> DocumentInfo | None:
        """The visible (indexing or ready) version of `source`, if any."""
        ...

    def find_staged(self, collection: str, source: str) -> DocumentInfo | None: ...

    def add_document(self, new: NewDocument, *, replaces: int | None = None) -> int:
        """Inserts a version. With `replaces`, it is staged until `finalize()` swaps it in;
        without, it is visible to keyword search at once. Another process may have stored
        the source meanwhile: the same version is not added twice (its id is returned), and
        a different one becomes a staged replacement of the live version."""
        ...

    def snapshot(self) -> AbstractContextManager[None]:
        """Reads inside see one consistent state of the store (one search's queries)."""
        ...

    def delete_document(self, doc_id: int) -> None:
        """Removes a document from every index in one transaction."""
        ...

    def list_documents(
        self, collection: str, *, title_prefix: str | None = None
    ) -> list[DocumentInfo]:
        """Visible documents by source; `title_prefix` keeps those whose title starts so
        (case-insensitive), after a chapter number if any ("9. Massif: a heap profiler")."""
        ...

    def has_documents(self, collection: str) -> bool:
        """Whether any document of the collection is searchable."""
        ...

    def chunks_missing_vectors(self, limit: int, after_id: int = 0) -> list[tuple[int, str]]:
        """(chunk_id, embed_text) of chunks with no vector yet, ascending id > after_id."""
        ...

    def put_vectors(
        self,
        chunk_ids: Sequence[int],
        vectors: Vectors,
        embedder: str,
        *,
        texts: Sequence[str] | None = None,
    ) -> None:
        """With `texts` (the embedded texts), a vector is kept only where the chunk still
        holds that text: a chunk deleted meanwhile may have handed its id to a new one."""
        ...

    def finalize(self) -> list[int]:
        """Promotes fully embedded documents to ready; returns their ids."""
        ...

    def keyword_search(self, match: str, flt: SearchFilter, k: int) -> list[Candidate]:
        """`match` is an FTS expression built by `retrieve.keyword.build_match`."""
        ...

    def vector_search(self, query: Vectors, flt: SearchFilter, k: int) -> list[Candidate]: ...

    def get_chunks(
        self, chunk_ids: Sequence[int], *, with_parents: bool = False
    ) -> list[ChunkRecord]: ...

    def get_vectors(self, chunk_ids: Sequence[int]) -> dict[int, Vectors]:
        """Stored vectors by chunk id; chunks without one are left out."""
        ...

    def document_chunks(self, doc_id: int) -> list[ChunkRecord]:
        """Every chunk of a document in reading order, with parent texts."""
        ...

    def heading_search(self, name: str, flt: SearchFilter, k: int) -> list[Candidate]:
        """Up to `k` chunks, in reading order, whose last heading is the entry for `name`
        (`heading_names`): "-m <module-name>" or "-c, --check" for a command-line option."""
        ...

    def preceding_chunks(self, chunk_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        """For each chunk id, the chunk just before it in its document (reading order);
        first chunks and unknown ids are left out."""
        ...

    def chunks_before_parents(self, parent_ids: Sequence[int]) -> dict[int, ChunkRecord]:
        """For each parent id, the chunk just before the parent's first chunk in its
        document; parents that open their document and unknown ids are left out."""
        ...

    def stats(self) -> dict[str, int]: ...


def last_heading(section: str) -> str:
    """The last heading of a section path: "1.1. Command line > -m <module-name>" →
    "-m <module-name>" (a heading may itself hold ">")."""
    return section.rsplit(SECTION_SEPARATOR, 1)[-1].strip()


def heading_names(heading: str, name: str) -> bool:
    """Whether `heading` is the entry for `name`: it starts with `name`, or lists it among
    comma-separated aliases, and `name` is not the start of a longer one ("-O" is not
    "-OO", "--help" not "--help-env"). Case-sensitive: "-b" and "-B" are different options."""
    return any(
        alias.startswith(name) and not re.match(r"[\w-]", alias[len(name) : len(name) + 1])
        for alias in (a.strip() for a in heading.split(","))
    )


def bare_title(title: str) -> str:
    """A title without its chapter number: "9. Massif: a heap profiler" → "Massif: …"."""
    return re.sub(r"^\d+(?:\.\d+)*\.?\s+", "", title)


def title_starts(title: str, prefix: str) -> bool:
    """Whether `title` starts with `prefix` (case-insensitive), after a chapter number if any."""
    return bare_title(title).lower().startswith(prefix.lower())
