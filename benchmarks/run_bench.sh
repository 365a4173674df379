#!/usr/bin/env bash
# One benchmark run, side by side, on the dev corpus: citewise's first ingest, re-ingest,
# query and ask latency, vector index scaling; then LlamaIndex's default pipeline and the
# rank_bm25 + brute-force pipeline with the same model, one after another (never in
# parallel: 2 cores). Prints the comparison table; JSON in benchmarks/results/.
#   bash benchmarks/run_bench.sh [CORPUS] [QUESTIONS]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
CORPUS="${1:-/usr/share/doc/python3.11/html}"
QUESTIONS="${2:-$HERE/check_sets/dev.jsonl}"
mkdir -p "$HERE/results"
export HF_HUB_OFFLINE=1

echo "$(date -u +%FT%TZ) citewise bench" >&2
"$ROOT/.venv/bin/citewise" bench --corpus "$CORPUS" --questions "$QUESTIONS" \
    --vector-sizes 20000,100000,1000000 --out "$HERE/results/bench.json"
bash "$HERE/peers/run_all.sh" llamaindex bm25
"$ROOT/.venv/bin/python" "$HERE/compare.py" "$HERE/results/bench.json" \
    "$HERE/peers/results/llamaindex.json" "$HERE/peers/results/bm25_bruteforce.json" \
    | tee "$HERE/results/comparison.md"
