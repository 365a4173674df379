"""The key under which a text's vector is kept: equal after whitespace, equal vector.

WordPiece splits on whitespace before anything else, so texts that differ only in the kind
or run length of their whitespace give the same token ids, and so the same vector: such
chunks share one vector across documents and collections (`Store.share_vectors`).
"""

from __future__ import annotations

import hashlib


def normalised(text: str) -> str:
    """`text` with every run of whitespace one space, none at the ends."""
    return " ".join(text.split())


def embed_key(text: str) -> str:
    """SHA-1 of the whitespace-normalised text (hex): the chunks' `embed_hash` column."""
    return hashlib.sha1(normalised(text).encode("utf-8")).hexdigest()
