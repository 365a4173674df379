"""Shared helpers for the peer baselines: question set, scoring, latency and memory figures.

Only the standard library and psutil, so both peer scripts (run in .venv-peers) can import it.

Scoring (retrieval only, no LLM):
- a question is scored when it has a non-empty `gold`; a `conversation` item is scored on its
  top-level `question` (the last turn alone, as a peer without memory would see it) and its
  top-level gold;
- file@5: some passage in the top 5 comes from a gold `file` (for `multi`: any gold file);
- all_files@5 (multi only): every gold file appears in the top 5;
- coverage@5: share of the item's distinct gold files that appear in the top 5;
- quote@5: a top-5 passage from a gold file holds the gold quote, verbatim after whitespace
  normalisation, or a contiguous run of >= 60 % of its tokens (same rule as
  citewise.evaluation.metrics.contains_quote); for `multi`, every gold quote must be found.
"""

from __future__ import annotations

import json
import os
import platform
import re
import resource
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

import psutil

CORPUS = Path("/usr/share/doc/python3.11/html")
QUESTIONS = Path(__file__).resolve().parents[1] / "check_sets" / "dev.jsonl"

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Question:
    id: str
    type: str
    style: str
    text: str
    gold: tuple[tuple[str, str], ...]  # (file, quote)


def load_questions(path: Path = QUESTIONS) -> list[Question]:
    out: list[Question] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        gold = tuple((str(g["file"]), str(g.get("quote", ""))) for g in raw.get("gold") or [])
        out.append(Question(raw["id"], raw["type"], raw.get("style", ""), raw["question"], gold))
    return out


def normalise(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


def contains_quote(text: str, quote: str, share: float = 0.6) -> bool:
    t, q = normalise(text), normalise(quote)
    if not q:
        return False
    if q in t:
        return True
    q_tokens, t_tokens = _TOKEN.findall(q), _TOKEN.findall(t)
    if not q_tokens:
        return False
    m = SequenceMatcher(None, q_tokens, t_tokens, autojunk=False)
    match = m.find_longest_match(0, len(q_tokens), 0, len(t_tokens))
    return match.size >= share * len(q_tokens)


def score(q: Question, passages: Sequence[tuple[str, str]], k: int = 5) -> dict[str, object]:
    """passages: ranked (file relative to corpus root, text)."""
    top = list(passages[:k])
    files = {f for f, _ in top}
    gold_files = {f for f, _ in q.gold}
    file_hit = bool(files & gold_files)
    coverage = len(files & gold_files) / len(gold_files)
    quote_found = [
        any(f == gf and contains_quote(text, gq) for f, text in top) for gf, gq in q.gold
    ]
    quote_hit = all(quote_found) if q.type == "multi" else any(quote_found)
    first = next((r for r, (f, _) in enumerate(passages, start=1) if f in gold_files), 0)
    return {
        "id": q.id,
        "type": q.type,
        "style": q.style,
        "file_hit": file_hit,
        "all_files_hit": gold_files <= files,
        "coverage": coverage,
        "quote_hit": quote_hit,
        "first_gold_rank": first,
        "top5_files": [f for f, _ in top],
    }


def _mean(xs: Sequence[float]) -> float:
    return round(sum(xs) / len(xs), 3) if xs else 0.0


def aggregate(rows: Sequence[dict[str, object]]) -> dict[str, object]:
    """Headline `all` = single-turn questions with gold (conversations reported apart);
    `all_incl_conversation` adds the conversations' last turns."""
    groups: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        groups.setdefault(str(r["type"]), []).append(r)
        if r["style"]:
            groups.setdefault(f"{r['type']}:{r['style']}", []).append(r)
    groups["all"] = [r for r in rows if r["type"] != "conversation"]
    groups["all_incl_conversation"] = list(rows)
    out: dict[str, object] = {}
    for name, rs in sorted(groups.items()):
        g: dict[str, object] = {
            "n": len(rs),
            "file@5": _mean([float(bool(r["file_hit"])) for r in rs]),
            "quote@5": _mean([float(bool(r["quote_hit"])) for r in rs]),
            "coverage@5": _mean([float(r["coverage"]) for r in rs]),  # type: ignore[arg-type]
            "mrr@10": _mean(
                [1.0 / int(r["first_gold_rank"]) if r["first_gold_rank"] else 0.0 for r in rs]  # type: ignore[call-overload]
            ),
        }
        if name == "multi":
            g["all_files@5"] = _mean([float(bool(r["all_files_hit"])) for r in rs])
        out[name] = g
    return out


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    xs = sorted(values)
    if not xs:
        return 0.0
    rank = max(1, min(len(xs), int(-(-p * len(xs) // 100))))
    return xs[rank - 1]


def latency_summary(ms: Sequence[float]) -> dict[str, object]:
    return {
        "n": len(ms),
        "p50_ms": round(statistics.median(ms), 1) if ms else 0.0,
        "p99_ms": round(percentile(ms, 99), 1),
        "mean_ms": round(statistics.fmean(ms), 1) if ms else 0.0,
        "max_ms": round(max(ms), 1) if ms else 0.0,
    }


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (ru_maxrss is KiB on Linux)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def rss_mb() -> float:
    return round(psutil.Process().memory_info().rss / 2**20, 1)


def machine() -> dict[str, object]:
    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def html_files(corpus: Path, limit: int | None) -> list[Path]:
    files = sorted(p for p in corpus.rglob("*.html") if p.is_file())
    return files[:limit] if limit else files


def write_result(result: dict[str, object], out: str | None) -> None:
    result.setdefault("machine", {})
    result["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]  # type: ignore[index]
    line = json.dumps(result, sort_keys=False)
    print(line, flush=True)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
