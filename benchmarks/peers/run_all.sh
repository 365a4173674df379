#!/usr/bin/env bash
# Run the peer baselines one after another (never in parallel: 2 cores), niced, on the full
# dev corpus. Results: benchmarks/peers/results/*.json; logs: $LOG_DIR (default /tmp/peers_logs).
#   bash benchmarks/peers/run_all.sh [llamaindex] [bm25] [llamaindex-htmltag]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PY="${PEERS_VENV:-$ROOT/.venv-peers}/bin/python"
LOG_DIR="${LOG_DIR:-/tmp/peers_logs}"
mkdir -p "$LOG_DIR" "$HERE/results"
bash "$HERE/setup.sh"
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

run() {  # name, script, args...
    local name="$1"; shift
    echo "$(date -u +%FT%TZ) start $name" >&2
    nice -n 10 "$PY" "$@" --out "$HERE/results/$name.json" > "$LOG_DIR/$name.log" 2>&1
    echo "$(date -u +%FT%TZ) done  $name" >&2
}

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(llamaindex bm25 llamaindex-htmltag)
for t in "${targets[@]}"; do
    case "$t" in
        llamaindex) run llamaindex "$HERE/llamaindex_ingest.py" ;;
        bm25) run bm25_bruteforce "$HERE/bm25_bruteforce.py" ;;
        llamaindex-htmltag) run llamaindex_htmltag "$HERE/llamaindex_ingest.py" --reader html-tag ;;
        *) echo "unknown target: $t" >&2; exit 2 ;;
    esac
done
