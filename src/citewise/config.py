"""Settings: the only module that reads environment variables or citewise.toml.

Precedence: explicit arguments > environment (CITEWISE_*) > ./citewise.toml > defaults.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from citewise.errors import ConfigError
from citewise.text.blocks import ASIDES
from citewise.text.names import NAME_RULE, valid_collection_name

DEFAULT_DATA_DIR = Path.home() / ".citewise"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CITEWISE_", extra="ignore")

    data_dir: Path = Field(default=DEFAULT_DATA_DIR, description="Where the SQLite store lives.")
    collection: str = "default"
    embedder: str = Field(
        default="minilm", description="minilm | minilm-l3 | hashing | st:PATH | ollama:M | openai:M"
    )
    embedder_base_url: str | None = None
    embedder_api_key: str | None = None
    model_cache: Path | None = None
    # Scale-out: the store by URL (unset: the SQLite file in the data dir), e.g.
    # postgresql://citewise@db/citewise, and the ingestion queue (redis://host:6379/0)
    store: str | None = Field(
        default=None, description="sqlite:///PATH (default: the data dir's file) | postgresql://…"
    )
    store_pool_size: int = 4
    queue: str = Field(
        default="", description="redis://HOST:PORT/DB: `citewise worker` and CITEWISE_JOBS=queue"
    )
    queue_retries: int = 3
    threads: int = 0  # 0 = one per core

    # Chunking (tuned on the dev set; see README "Tuning").
    parent_chars: int = 2000
    child_tokens: int = 200
    child_overlap: float = 0.15
    min_child_tokens: int = 40
    # framing blocks labelled at ingest (comma-separated `text.blocks` kinds: preamble,
    # recitals, signature, notices, contents, furniture) kept for display and keyword search
    # but not embedded; "" embeds every chunk. Preambles, recitals and notices stay embedded:
    # without vectors a contracts lookup about the parties was lost (docs/ingest-speed.md)
    unembedded_blocks: str = "signature,contents,furniture"

    # Retrieval. `search` fuses keyword top-10 with vector top-50 (see README "Measured");
    # the answer flow fuses both top-20 into the candidate pool its reranker re-scores
    # (the reranker adds vector similarity itself; a vector-heavy pool lost answers)
    keyword_k: int = 10
    vector_k: int = 50
    pool_keyword_k: int = 20
    pool_vector_k: int = 20
    rrf_k: int = 60
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    max_query_chars: int = 1000
    max_per_document: int = 3  # passages of one document before others get their turn
    release_notes_factor: float = 0.7  # score factor for release notes (1.0: off)

    # Answers.
    llm: str | None = Field(
        default=None, description="None (extractive) | ollama:MODEL | openai:MODEL"
    )
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_timeout: float = 120.0
    # Seconds for one LLM answer (first attempt, stricter retries and judge calls): a retry
    # that would not finish within it is skipped and the unsupported sentences dropped.
    llm_answer_budget: float = Field(default=45.0, gt=0)
    reranker: str = Field(
        default="rescore", description="rescore | none | cross-encoder:PATH | llm"
    )
    context_tokens: int = 1800
    # Passage tokens an LLM answer reads (retrieval's ranking, deduplicated): room for the
    # prompt and the answer in an 8k-token context.
    llm_context_tokens: int = Field(default=3000, gt=0)
    abstain_threshold: float = 0.5
    profile: str = Field(
        default="general",
        description="genre rules: general | api_reference | cli_options | software_docs"
        " | financial_reports",
    )

    # Conversation memory.
    # "sqlite" with a PostgreSQL store: the store's database (`services.memory_url`)
    memory: str = Field(
        default="sqlite", description="sqlite | redis://HOST:PORT/DB | postgresql://…"
    )
    session_ttl_hours: float = 24.0
    summary_tokens: int = 1500

    # Ingest limits.
    max_file_bytes: int = 100 * 2**20
    max_inflated_bytes: int = 256 * 2**20  # DOCX/PPTX: all parts together, once inflated
    # plain text (.txt .text .rst .log), CSV/TSV and Excel workbooks larger than this (or than
    # max_file_bytes) are read as a stream, in bounded memory, up to max_text_file_bytes
    # (mailboxes always are)
    stream_text_above_bytes: int = 8 * 2**20
    max_text_file_bytes: int = 2**30
    ocr: str = Field(
        default="tesseract",
        description="OCR for scanned pages and images: tesseract | rapidocr | none",
    )
    keep_originals: bool = True  # a copy of each ingested file, for the web UI's viewer
    # Web pages (`citewise ingest https://…`): pages kept per crawl, per page size and time,
    # and whether private, loopback and link-local addresses may be fetched (SSRF guard)
    web_max_pages: int = 50
    web_max_page_bytes: int = 10 * 2**20
    web_timeout_s: float = 20.0
    web_allow_private: bool = False

    # HTTP service (`citewise serve`, the API and its workers).
    # `queue`: uploads go to the workers on CITEWISE_QUEUE (a redis:// URL here is an alias
    # that sets CITEWISE_QUEUE)
    jobs: str = Field(default="thread", description="thread | queue | redis://HOST:PORT/DB")
    max_upload_bytes: int = 100 * 2**20  # one upload request, every file in it together
    trace_exporter: str = Field(default="none", description="none | console | otlp")
    trace_endpoint: str | None = None  # the OTLP HTTP endpoint when trace_exporter = otlp
    log_json: bool = False  # structured (JSON) log lines, one per event
    # Answers run on a bounded pool of worker threads, in arrival order; past the queue a
    # request gets 429 with Retry-After. 0 workers: three per core (an extractive answer
    # alternates Python and native steps that release the GIL), eight per core with an LLM
    # (its answers mostly wait on the model)
    serve_workers: int = Field(default=0, ge=0)
    serve_queue_depth: int = Field(default=64, ge=0)

    # Users and tenants (docs/auth.md).
    host: str = Field(
        default="127.0.0.1", description="serve binds here; auth is on unless loopback"
    )
    auth_required: bool = False  # credentials even on loopback
    # signs tokens; unset: <data_dir>/secret_key, made once (a PostgreSQL store: a row there)
    secret_key: SecretStr | None = None
    token_minutes: float = 60.0
    rate_limit: str = "120/minute"  # per user and per API key ("" turns it off)
    login_rate_limit: str = "10/minute"  # password attempts per user name
    rate_limit_storage: str = "memory://"  # redis://HOST:PORT shares counts between workers

    @field_validator("collection")
    @classmethod
    def _collection_name(cls, value: str) -> str:
        if not valid_collection_name(value):
            raise ValueError(f"collection names use {NAME_RULE}")
        return value

    @field_validator("unembedded_blocks")
    @classmethod
    def _block_kinds(cls, value: str) -> str:
        unknown = set(unembedded_kinds(value)) - set(ASIDES)
        if unknown:
            raise ValueError(f"unknown block kinds {sorted(unknown)}; known: {', '.join(ASIDES)}")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _TomlSource(settings_cls))

    @model_validator(mode="after")
    def _jobs_queue_alias(self) -> Settings:
        if "://" in self.jobs:
            if self.queue and self.queue != self.jobs:
                raise ValueError(
                    "CITEWISE_JOBS and CITEWISE_QUEUE name different queues: "
                    "set CITEWISE_QUEUE=redis://… and CITEWISE_JOBS=queue"
                )
            self.queue = self.jobs
        return self

    @property
    def db_path(self) -> Path:
        return self.data_dir / "citewise.db"

    @property
    def store_url(self) -> str:
        return self.store or f"sqlite:///{self.db_path}"

    @property
    def originals_dir(self) -> Path:
        """Ingested files kept by content hash, for the web UI's viewer."""
        return self.data_dir / "originals"

    @property
    def web_dir(self) -> Path:
        """Fetched web pages, kept per collection and site (`<collection>/<host>/<path>`)."""
        return self.data_dir / "web"


class _TomlSource(PydanticBaseSettingsSource):
    """Reads ./citewise.toml (or the file named by CITEWISE_CONFIG) if present."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        import os

        path = Path(os.environ.get("CITEWISE_CONFIG", "citewise.toml"))
        if not path.is_file():
            return {}
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read {path}: {exc}") from exc
        section = data.get("citewise", data)
        return dict(section) if isinstance(section, dict) else {}


def load_settings(**overrides: Any) -> Settings:
    """Settings with explicit overrides (None values are ignored)."""
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        return Settings(**given)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc


def unembedded_kinds(value: str) -> frozenset[str]:
    """The block kinds a `unembedded_blocks` setting names."""
    return frozenset(k.strip() for k in value.split(",") if k.strip())
