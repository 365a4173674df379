"""Labels for chunks stored before ingest labelled them: SQLite migration 5 and PostgreSQL
0009 add `chunks.label` as NULL, and this reads each such chunk's framing kind from its text
once (`text.blocks.label_of`), as ingest now does, so answers read the label from then on."""

from __future__ import annotations

from citewise.db.sql import SqlConn
from citewise.text.blocks import label_of

BATCH = 500  # chunks read and updated per statement pair: bounded memory on a large store


def label_unlabelled(conn: SqlConn, batch: int = BATCH) -> int:
    """Labels every chunk whose label is NULL (in the caller's transaction); returns how many."""
    done = 0
    while True:
        rows = conn.execute(
            "SELECT id, text, section FROM chunks WHERE label IS NULL ORDER BY id LIMIT ?",
            (batch,),
        ).fetchall()
        if not rows:
            return done
        cases = " ".join("WHEN ? THEN ?" for _ in rows)
        params: list[object] = []
        for cid, text, section in rows:
            params += [int(cid), label_of(str(text), str(section))]
        params += [int(r[0]) for r in rows]
        conn.execute(
            f"UPDATE chunks SET label = CASE id {cases} END"
            f" WHERE id IN ({','.join('?' * len(rows))})",
            params,
        )
        done += len(rows)
