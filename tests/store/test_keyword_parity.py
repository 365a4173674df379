"""PostgreSQL's keyword ranking is SQLite FTS5's bm25(): same chunks, same order, same scores."""

from pathlib import Path

import pytest

from citewise.store.registry import open_store
from citewise.types import Block, SearchFilter
from store.documents import document_of

pytestmark = pytest.mark.integration

TEXTS = [
    ("logging.txt", "Logging", "Rotate the log files every night. Logging handlers write logs."),
    ("handlers.txt", "Handlers", "A handler sends log records to a file, a socket or e-mail."),
    ("levels.txt", "Levels", "The default level is WARNING; the root logger's level decides."),
    ("cafe.txt", "Café menu", "Coffee, tea and the café's own logs of orders: log, log, log."),
    ("rotation.txt", "Rotation", "Rotation keeps seven files; rotate with logrotate nightly."),
]
QUERIES = [
    ["log", "files"], ["rotate", "logs", "nightly"], ["cafe", "log"], ["default", "level"],
    ["handler", "socket", "mail"], ["logging"], ["nothing", "matches"],
]  # fmt: skip


def test_postgres_ranks_keywords_as_sqlite_fts5_does(tmp_path: Path, postgres_url: str) -> None:
    stores = [open_store(f"sqlite:///{tmp_path / 's.db'}"), open_store(postgres_url)]
    try:
        for store in stores:
            for source, heading, text in TEXTS:
                store.add_document(document_of(source, [Block(text, (heading,))]))
        for terms in QUERIES:
            lite, pg = (s.keyword_search(terms, SearchFilter(), 10) for s in stores)
            names = [
                [r.source for r in s.get_chunks([c.chunk_id for c in found])]
                for s, found in zip(stores, (lite, pg), strict=True)
            ]
            assert names[0] == names[1], terms
            assert [c.score for c in pg] == pytest.approx([c.score for c in lite], rel=1e-6)
    finally:
        for store in stores:
            store.close()
