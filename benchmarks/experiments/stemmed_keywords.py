"""Keyword search on stemmed or lemmatised tokens, tried on copies of built SQLite stores
(issue 37 follow-up: "governs" does not match "governed"). Not a citewise feature: the
measure behind docs/retrieval-subject.md's stemming section.

    pip install --target DIR snowballstemmer==3.1.1 simplemma==2.0.0   # not dependencies
    PYTHONPATH=src:DIR STEMMER=snowball|lemma python benchmarks/experiments/stemmed_keywords.py \\
        rebuild COPY/eval/*/citewise.db                  # the keyword index of the copies
    PYTHONPATH=src:DIR STEMMER=… python benchmarks/experiments/stemmed_keywords.py \\
        run benchmarks/check_sets.py --data-dir COPY --half tune --json   # any benchmark

`rebuild` writes each chunk's title, section and text into the FTS5 table as their index
tokens stemmed (the table's own tokenizer then keeps them as they are); `run` runs a benchmark
with `store.terms.index_tokens` stemming the same way, so the query's terms meet the index's
(SQLite only: the PostgreSQL tsvector is made by the same function).
"""

from __future__ import annotations

import functools
import os
import runpy
import sqlite3
import sys
from collections.abc import Callable

import citewise.store.terms as terms

_plain = terms.index_tokens


def _stemmer() -> Callable[[str], str]:
    if os.environ.get("STEMMER") == "lemma":
        import simplemma

        return lambda word: str(simplemma.lemmatize(word, lang="en")).lower()
    import snowballstemmer

    english = snowballstemmer.stemmer("english")
    return lambda word: str(english.stemWord(word))


_stem = functools.lru_cache(maxsize=200_000)(_stemmer())


def stemmed_tokens(text: str) -> list[str]:
    return [_stem(t) for t in _plain(text)]


def rebuild(db: str) -> None:
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT ch.id, d.title, ch.section, ch.text FROM chunks ch"
        " JOIN documents d ON d.id = ch.doc_id"
    ).fetchall()
    conn.execute("DELETE FROM chunks_fts")
    conn.executemany(
        "INSERT INTO chunks_fts(rowid, title, section, text) VALUES (?,?,?,?)",
        [(i, *(" ".join(stemmed_tokens(f)) for f in (t, s, x))) for i, t, s, x in rows],
    )
    conn.commit()
    print(f"{db}: {len(rows)} chunks re-indexed")


def main(argv: list[str]) -> None:
    terms.index_tokens = stemmed_tokens  # search_terms and fts5_match read it at call time
    if argv[0] == "rebuild":
        for db in argv[1:]:
            rebuild(db)
    else:
        sys.argv = argv[1:]
        runpy.run_path(argv[1], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
