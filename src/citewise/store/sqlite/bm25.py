"""FTS5's `bm25()` ranking computed from the index's postings with numpy: the same scores,
bit for bit, in the same order as `SELECT rowid, bm25(chunks_fts, ...) ... ORDER BY score
LIMIT n`, without calling the ranking function on every matching row (a question's words
match thousands of chunks; FTS5 scores each through its auxiliary-function API).

What FTS5 computes for a row (fts5_aux.c, k1 = 1.2, b = 0.75): for each phrase i of the
query, f_i = the sum of the column weights over the phrase's instances in the row, and

    score = -(sum over i of idf_i * (f_i * (k1 + 1)) / (f_i + k1 * (1 - b + b * D / avgdl)))

with D the row's tokens in all columns, avgdl the table's tokens per row, idf_i =
log((N - n_i + 0.5) / (n_i + 0.5)) (1e-6 when not positive), N the table's rows, n_i the rows
holding phrase i. Rows tie in the order the index yields them (ascending rowid). Every term
here is one token, so a phrase's instances are the term's postings in the index
(`fts5vocab` instance table).

What is kept, per database file and state of the index (its structure and averages records,
which every write changes): N, avgdl, each row's length, and the postings of recent terms
(bounded). The state is built when a query finds the index as an earlier query did, long
enough ago (`STABLE_SECONDS_PER_ROW`) that an index changing all the time (an ingest
running beside the queries) is ranked by FTS5 instead of being read again and again.
"""

from __future__ import annotations

import math
import re
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from citewise.store.sqlite.reads import one_state

K1 = 1.2
B = 0.75
# postings entries kept per database file (a row id and a frequency each)
POSTINGS_BUDGET = 1_000_000
# how long the index must have stayed unchanged before its state is built, per row of it
# (reading the row lengths takes about a tenth of this)
STABLE_SECONDS_PER_ROW = 5e-6
_SIMPLE_TERM = re.compile(r"[a-z0-9]+")  # one token to FTS5's unicode61 tokenizer as is
_VOCAB = "temp.chunks_fts_instances"

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass
class _IndexState:
    rows: int  # N
    avgdl: float
    lengths: FloatArray  # tokens per row, indexed by rowid
    postings: OrderedDict[str, tuple[IntArray, FloatArray]] = field(default_factory=OrderedDict)
    held: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


# per database file: the index's key, its state once built, when the key was first seen
_states: dict[str, tuple[bytes, _IndexState | None, float]] = {}
_states_lock = threading.Lock()


def ranked(
    conn: sqlite3.Connection,
    database: str,
    terms: Sequence[str],
    weights: Mapping[str, float],
    depth: int,
) -> list[tuple[int, float]] | None:
    """The `depth` best (rowid, bm25) of the rows holding any of `terms` (distinct index
    tokens), as FTS5 ranks them with column `weights` (by column name, in column order);
    None when this cannot answer exactly (the caller asks FTS5)."""
    if not terms or depth < 1 or not all(_SIMPLE_TERM.fullmatch(t) for t in terms):
        return None
    if any(w != int(w) for w in weights.values()):
        return None  # integer weights sum exactly in any order
    with one_state(conn):
        state = _state(conn, database)
        if state is None:
            return None
        lists = [_postings(conn, state, term, weights) for term in terms]
    if any(p is None for p in lists):
        return None
    found = [p for p in lists if p is not None and len(p[0])]
    if not found:
        return []
    score = np.zeros(len(state.lengths), dtype=np.float64)  # by rowid
    touched = np.zeros(len(state.lengths), dtype=np.bool_)
    for ids, freq in found:  # phrase by phrase, as FTS5 sums them
        hits = len(ids)
        idf = math.log((state.rows - hits + 0.5) / (hits + 0.5))
        if idf <= 0.0:
            idf = 1e-6
        norm = K1 * ((1 - B) + (B * state.lengths[ids]) / state.avgdl)
        score[ids] += idf * ((freq * (K1 + 1.0)) / (freq + norm))
        touched[ids] = True
    rows = np.flatnonzero(touched)
    bm25 = -1.0 * score[rows]
    if len(rows) > depth:  # the best `depth` and every row tied with the last of them
        cut = np.partition(bm25, depth - 1)[depth - 1]
        near = np.flatnonzero(bm25 <= cut)
        rows, bm25 = rows[near], bm25[near]
    order = np.lexsort((rows, bm25))[:depth]
    return [(int(rows[i]), float(bm25[i])) for i in order]


def _state(conn: sqlite3.Connection, database: str) -> _IndexState | None:
    """The kept state for the index as this connection sees it; None until it is built."""
    blocks = dict(conn.execute("SELECT id, block FROM chunks_fts_data WHERE id IN (1, 10)"))
    if 1 not in blocks or 10 not in blocks:
        return None
    key = bytes(blocks[10]) + b"|" + bytes(blocks[1])
    now = time.monotonic()
    with _states_lock:
        known = _states.get(database)
        if known is None or known[0] != key:
            _states[database] = (key, None, now)
            return None
        if known[1] is not None:
            return known[1]
        totals = varints(bytes(blocks[1]))
        if not len(totals) or now - known[2] < STABLE_SECONDS_PER_ROW * int(totals[0]):
            return None
    state = _build(conn, bytes(blocks[1]))
    with _states_lock:  # a state that cannot be built is not tried again for this key
        _states[database] = (key, state, now if state is not None else math.inf)
    return state


def _build(conn: sqlite3.Connection, averages: bytes) -> _IndexState | None:
    totals = varints(averages)
    if len(totals) < 2 or totals[0] < 1:
        return None
    rows = int(totals[0])
    avgdl = float(int(totals[1:].sum())) / float(rows)
    sizes = conn.execute("SELECT id, sz FROM chunks_fts_docsize").fetchall()
    if not sizes:
        return None
    ids = np.fromiter((r[0] for r in sizes), dtype=np.int64, count=len(sizes))
    per_column = varints(b"".join(bytes(r[1]) for r in sizes))
    columns = len(totals) - 1
    if len(per_column) != columns * len(sizes):
        return None
    lengths = np.zeros(int(ids.max()) + 1, dtype=np.float64)
    lengths[ids] = per_column.reshape(len(sizes), columns).sum(axis=1)
    return _IndexState(rows, avgdl, lengths)


def _postings(
    conn: sqlite3.Connection, state: _IndexState, term: str, weights: Mapping[str, float]
) -> tuple[IntArray, FloatArray] | None:
    """The rows holding `term` and its weighted frequency in each (kept, least recent out);
    None if a row has no length (the state and the index disagree)."""
    with state.lock:
        kept = state.postings.get(term)
        if kept is not None:
            state.postings.move_to_end(term)
            return kept
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {_VOCAB} USING fts5vocab(main, chunks_fts, instance)"
    )
    cases = " ".join("WHEN ? THEN ?" for _ in weights)
    found = conn.execute(
        f"SELECT doc, sum(CASE col {cases} ELSE 1.0 END) FROM {_VOCAB} WHERE term = ? GROUP BY doc",
        (*(x for pair in weights.items() for x in pair), term),
    ).fetchall()
    postings = (
        np.fromiter((r[0] for r in found), dtype=np.int64, count=len(found)),
        np.fromiter((r[1] for r in found), dtype=np.float64, count=len(found)),
    )
    if len(found) and int(postings[0].max()) >= len(state.lengths):
        return None
    with state.lock:
        if term not in state.postings:
            state.postings[term] = postings
            state.held += len(found)
        while state.held > POSTINGS_BUDGET and len(state.postings) > 1:
            _, dropped = state.postings.popitem(last=False)
            state.held -= len(dropped[0])
    return postings


def varints(data: bytes) -> IntArray:
    """SQLite's big-endian varints (7 bits a byte, the high bit set on all but the last),
    decoded at once."""
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw < 0x80)
    if not len(ends):
        return np.zeros(0, dtype=np.int64)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    sizes = ends - starts + 1
    values = np.zeros(len(ends), dtype=np.int64)
    for k in range(int(sizes.max())):
        longer = sizes > k
        values[longer] = (values[longer] << 7) | (raw[starts[longer] + k] & 0x7F).astype(np.int64)
    return values
