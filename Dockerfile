# citewise: the API server (`citewise serve`) and, with another command, the ingest worker.
# The bundled model's ONNX graph is built at image build time: nothing is fetched at run time.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HF_HUB_OFFLINE=1 \
    TOKENIZERS_PARALLELISM=false \
    CITEWISE_DATA_DIR=/data \
    CITEWISE_MODEL_CACHE=/opt/citewise/models

WORKDIR /opt/citewise
COPY pyproject.toml README.md MANIFEST.in ./
COPY build_backend ./build_backend
COPY src ./src
RUN pip install ".[scale]" \
 && python -m citewise.embed.minilm.export --cache-dir "$CITEWISE_MODEL_CACHE" --recipe portable \
 && python -m citewise.embed.minilm.export --cache-dir "$CITEWISE_MODEL_CACHE" --recipe vnni

RUN useradd --system --uid 10001 --home-dir /data citewise \
 && mkdir -p /data && chown citewise:citewise /data
USER citewise
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4)"
# bound to all interfaces, so auth is required (users: `citewise users create NAME --admin`)
CMD ["citewise", "serve", "--host", "0.0.0.0", "--port", "8000"]
