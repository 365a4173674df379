"""Check-set corpus "relations_pg": forty pages of the PostgreSQL 15 manual (package
postgresql-doc-15, as installed) that cite each other — configuration chapters, the commands
they configure, maintenance, WAL, replication and authentication — copied as shipped:

    runtime-config-*.html   20.x configuration sections (cite commands and chapters)
    sql-*.html, app-*.html  reference pages (cite the configuration sections)
    routine-*, wal-*, …     chapter and section pages

Relationship questions over it are in benchmarks/check_sets/relations_pg.jsonl.

    python benchmarks/corpora/build_relations_pg.py [--out DIR]
"""

from __future__ import annotations

import shutil
from pathlib import Path

from _writers import build_main

SRC = Path("/usr/share/doc/postgresql-doc-15/html")
PAGES = (
    "runtime-config-resource", "runtime-config-wal", "runtime-config-autovacuum",
    "runtime-config-replication", "runtime-config-connection", "runtime-config-query",
    "runtime-config-client", "routine-vacuuming", "routine-reindex", "maintenance",
    "wal-configuration", "wal-intro", "wal-async-commit", "sql-vacuum", "sql-analyze",
    "sql-createindex", "sql-reindex", "sql-cluster", "sql-lock", "indexes-types",
    "auth-pg-hba-conf", "auth-methods", "client-authentication", "logical-replication",
    "logical-replication-subscription", "logical-replication-publication", "warm-standby",
    "hot-standby", "continuous-archiving", "app-pgbasebackup", "mvcc-intro", "transaction-iso",
    "explicit-locking", "sql-createpublication", "sql-createsubscription", "storage-toast",
    "kernel-resources", "sql-checkpoint", "app-pgdump", "backup-dump",
)  # fmt: skip


def build(out: Path) -> None:
    for name in PAGES:
        shutil.copyfile(SRC / f"{name}.html", out / f"{name}.html")


if __name__ == "__main__":
    build_main("relations_pg", build)
