"""Small documents for the store tests, chunked as the ingest pipeline would chunk them."""

from collections.abc import Sequence

from citewise.ingest.chunking import chunk_document
from citewise.types import Block, NewDocument, ParsedDocument


def document_of(source: str, blocks: Sequence[Block], *, collection: str = "default",
                category: str = "", tags: tuple[str, ...] = (),
                digest: str = "h1") -> NewDocument:  # fmt: skip
    parsed = ParsedDocument(title=source, blocks=tuple(blocks), format="text")
    chunks = chunk_document(parsed, lambda t: len(t.split()))
    return NewDocument(
        collection=collection, source=source, title=source, format="text", category=category,
        tags=tags, content_hash=digest, mtime=0.0, size=sum(len(b.text) for b in blocks),
        page_count=None, chunks=chunks,
    )  # fmt: skip


def new_document(source: str, text: str, *, collection: str = "default", category: str = "",
                 tags: tuple[str, ...] = (), digest: str = "h1") -> NewDocument:  # fmt: skip
    """One section, "Top", holding `text`."""
    blocks = [Block(text, ("Top",))]
    return document_of(source, blocks, collection=collection, category=category, tags=tags,
                       digest=digest)  # fmt: skip
