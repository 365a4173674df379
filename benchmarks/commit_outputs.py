"""What `compare_commits.py` compares and how it reports a difference: the parts of `ask
--json` and `search --json` that must not change (answer, citations, passages, hits; not
timings or session ids), and the documents and chunks of a SQLite store."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ANSWER_FIELDS = ("answer", "answer_kind", "intent", "grounded", "confidence", "fallback",
                 "rewritten_query", "related_docs")  # fmt: skip
CITATION_FIELDS = ("n", "source", "page", "section", "chunk_id", "quote")
PASSAGE_FIELDS = ("rank", "source", "page", "section", "chunk_id")
VOLATILE = {"session_id", "timings_ms", "trace"}


def _pick(record: dict[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    return {f: record.get(f) for f in fields}


def normalise(kind: str, exit_code: int, stdout: str) -> dict[str, Any]:
    """What is compared: the answer with its citations and passages, or the search hits."""
    try:
        payload = json.loads(stdout)
    except json.JSONDecodeError:
        return {"exit": exit_code, "stdout": stdout.strip()}
    if "error" in payload:
        return {"exit": exit_code, "error": payload["error"], "type": payload.get("type")}
    if kind == "search":
        return {"exit": exit_code, "hits": [_pick(h, PASSAGE_FIELDS) for h in payload["hits"]]}
    return {
        "exit": exit_code,
        **_pick(payload, ANSWER_FIELDS),
        "citations": [_pick(c, CITATION_FIELDS) for c in payload.get("citations", [])],
        "sources": [_pick(s, PASSAGE_FIELDS) for s in payload.get("sources", [])],
    }


def compared_records(raw: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for r in raw:
        key = r["key"]
        out.append({**key, "result": normalise(key["kind"], r["exit"], r["stdout"])})
    return out


def json_keys(raw: Sequence[dict[str, Any]]) -> dict[str, set[str]]:
    """The top-level keys each kind of output carried (a renamed field shows up here)."""
    keys: dict[str, set[str]] = {}
    for r in raw:
        try:
            payload = json.loads(r["stdout"])
        except json.JSONDecodeError:
            continue
        keys.setdefault(r["key"]["kind"], set()).update(set(payload) - VOLATILE)
    return keys


def differences(
    base: Sequence[dict[str, Any]], head: Sequence[dict[str, Any]]
) -> list[tuple[str, list[str]]]:
    """(question key, differing fields with both values) for every question that differs."""
    ident = ("set", "id", "turn", "kind")
    by_key = {tuple(r[k] for k in ident): r["result"] for r in head}
    found = []
    for r in base:
        key = tuple(r[k] for k in ident)
        label = f"{key[0]} {key[1]} turn {key[2]} {key[3]}"
        after = by_key.pop(key, None)
        if after is None:
            found.append((label, ["missing at HEAD"]))
            continue
        before = r["result"]
        fields = [_field_diff(f, before.get(f), after.get(f))
                  for f in sorted(set(before) | set(after))
                  if before.get(f) != after.get(f)]  # fmt: skip
        if fields:
            found.append((label, fields))
    found.extend((f"{k[0]} {k[1]} turn {k[2]} {k[3]}", ["missing at BASE"]) for k in by_key)
    return found


def _field_diff(field: str, before: Any, after: Any) -> str:
    def short(value: Any) -> str:
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 300 else text[:300] + "…"

    if isinstance(before, list) and isinstance(after, list):
        # the first differing item of a list (citations, passages, hits)
        pairs = zip(before, after, strict=False)
        i = next((n for n, (a, b) in enumerate(pairs) if a != b), min(len(before), len(after)))
        field = f"{field}[{i}] (of {len(before)} at BASE, {len(after)} at HEAD)"
        before = before[i] if i < len(before) else None
        after = after[i] if i < len(after) else None
    return f"{field}:\n      BASE {short(before)}\n      HEAD {short(after)}"


def store_snapshot(db: Path) -> dict[str, Any]:
    """Documents and chunks of a SQLite store, by (collection, source) and chunk ordinal,
    with a digest of each chunk's vector."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        docs = {}
        for row in conn.execute(
            "SELECT d.id, c.name, d.source, d.title, d.format, d.content_hash, d.chunk_count,"
            " d.page_count, d.status, d.pipeline FROM documents d"
            " JOIN collections c ON c.id = d.collection_id ORDER BY c.name, d.source"
        ):
            doc_id, collection, source, *rest = row
            chunks = [
                {"id": cid, "ordinal": o, "text": t, "embed_text": e, "section": s,
                 "pages": [p0, p1], "content_hash": h, "boxes": b,
                 "vector": hashlib.sha1(v).hexdigest() if v is not None else None}
                for cid, o, t, e, s, p0, p1, h, b, v in conn.execute(
                    "SELECT ch.id, ch.ordinal, ch.text, ch.embed_text, ch.section,"
                    " ch.page_start, ch.page_end, ch.content_hash, ch.boxes, v.vec"
                    " FROM chunks ch LEFT JOIN vectors v ON v.chunk_id = ch.id"
                    " WHERE ch.doc_id = ? ORDER BY ch.ordinal", (doc_id,))
            ]  # fmt: skip
            docs[f"{collection}/{source}"] = {"document": rest, "chunks": chunks}
        return docs
    finally:
        conn.close()


def ingest_differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    found = [f"{name}: only at {'BASE' if name in before else 'HEAD'}"
             for name in sorted(set(before) ^ set(after))]  # fmt: skip
    for name in sorted(set(before) & set(after)):
        a, b = before[name], after[name]
        if a["document"] != b["document"]:
            found.append(f"{name}: document row {a['document']} → {b['document']}")
        if len(a["chunks"]) != len(b["chunks"]):
            found.append(f"{name}: {len(a['chunks'])} chunks → {len(b['chunks'])}")
        for x, y in zip(a["chunks"], b["chunks"], strict=False):
            changed = sorted(k for k in x if x[k] != y.get(k))
            if changed:
                found.append(f"{name} chunk {x['ordinal']}: {', '.join(changed)} differ")
    return found
