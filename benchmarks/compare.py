"""Side-by-side table of one bench run: citewise vs the peer pipelines (markdown on stdout).

python benchmarks/compare.py benchmarks/results/bench.json benchmarks/peers/results/*.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _citewise(d: dict[str, Any]) -> list[str]:
    ing, q = d["ingest"], d.get("query", {}).get("hybrid", {})
    return [
        "citewise (default: hybrid, bundled MiniLM int8 ONNX)",
        f"{ing['first_ingest_s']:.1f}",
        f"{ing['chunks']:,}",
        f"{ing['chunks_per_s']:.1f}",
        f"{ing['peak_rss_mb']:,.0f}",
        f"{ing['reingest_s']:.2f} ({100 * ing['reingest_share']:.1f} %)",
        f"{q.get('p50_ms', 0):.1f} / {q.get('p99_ms', 0):.1f}",
    ]


def _peer(d: dict[str, Any]) -> list[str]:
    ing = d["ingest"]
    wall = ing.get("wall_s") or ing.get("measured_wall_s")
    chunks = d.get("nodes") or d.get("chunks") or 0
    rate = ing.get("nodes_per_s") or ing.get("chunks_per_s") or 0
    return [
        d["baseline"] + (f" ({d['variant']})" if d.get("variant") else ""),
        f"{wall:.1f}",
        f"{chunks:,}",
        f"{rate:.1f}",
        f"{d['memory_mb']['peak_rss_after_ingest']:,.0f}",
        "–",
        f"{d['query']['p50_ms']:.1f} / {d['query']['p99_ms']:.1f}",
    ]


def main(paths: list[str]) -> None:
    head = ["pipeline", "first ingest s", "chunks", "chunks/s", "peak RSS MB",
            "unchanged re-ingest s", "query p50 / p99 ms"]  # fmt: skip
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for p in paths:
        d = json.loads(Path(p).read_text())
        row = _citewise(d) if "ingest" in d and "first_ingest_s" in d["ingest"] else _peer(d)
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
