"""Model-based rerankers: a local cross-encoder, and an LLM that scores passages in one call."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from citewise.errors import ConfigError
from citewise.llm.base import LLM, LLMError, Message
from citewise.retrieve.rerank.base import FallbackRecorder, kept, reordered
from citewise.types import Hit
from citewise.types.vectors import Vectors


class CrossEncoderReranker(FallbackRecorder):
    """Implements `Reranker` with a sentence-transformers `CrossEncoder` loaded from a local
    directory (nothing is downloaded). Scores are the model's relevance probabilities in
    [0, 1] (a sigmoid is applied when the model returns raw logits)."""

    name = "cross-encoder"
    select_threshold = 0.5  # not measured (no local model): probabilities spread widely

    def __init__(
        self,
        path: str | Path,
        *,
        batch_size: int = 16,
        max_chars: int = 2000,
        model: Any | None = None,
    ) -> None:
        super().__init__()
        self.path = Path(path).expanduser()
        self._batch = batch_size
        self._max_chars = max_chars
        self._model = model if model is not None else _load_cross_encoder(self.path)

    def rerank(
        self, query: str, hits: Sequence[Hit], k: int, *, query_vector: Vectors | None = None
    ) -> list[Hit]:
        self._record(None)
        if not hits:
            return []
        pairs = [(query, h.text[: self._max_chars]) for h in hits]
        raw = self._model.predict(pairs, batch_size=self._batch, show_progress_bar=False)
        scores = np.asarray(raw, dtype=np.float64)
        if scores.ndim == 2:  # (n, labels): the last label is "relevant"
            scores = scores[:, -1]
        if scores.size and (scores.min() < 0.0 or scores.max() > 1.0):
            scores = 1.0 / (1.0 + np.exp(-scores))
        return reordered(hits, [float(s) for s in scores], k)


def _load_cross_encoder(path: Path) -> Any:
    if not path.exists():
        raise ConfigError(
            f"cross-encoder reranker: {path} does not exist; give the directory of a saved"
            " sentence-transformers CrossEncoder model (e.g. cross-encoder:/models/ms-marco)"
        )
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from sentence_transformers import CrossEncoder
    except ImportError as exc:
        raise ConfigError(
            "the cross-encoder reranker needs sentence-transformers and torch (CPU build): "
            "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu "
            "sentence-transformers"
        ) from exc
    try:
        return CrossEncoder(str(path), device="cpu", local_files_only=True)
    except Exception as exc:  # a broken or partial model directory
        raise ConfigError(f"cannot load the cross-encoder model at {path}: {exc}") from exc


LLM_RERANK_INSTRUCTIONS = """\
You rate how useful each numbered passage is for answering the question. Score every \
passage from 0 (unrelated) to 10 (states the answer directly). Reply with JSON only, \
mapping each passage number to its score, like {"scores": {"1": 7, "2": 0, "3": 10}}."""

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


class LLMReranker(FallbackRecorder):
    """Implements `Reranker` by asking the LLM (JSON mode) for a 0–10 score per passage in one
    call. Scores are divided by 10; ties keep the incoming order. If the call fails or the
    reply cannot be parsed, the incoming order is kept and `last_fallback` says why."""

    name = "llm"
    select_threshold = 0.5  # with a top score of 10, keeps passages the LLM rated 5 or more

    def __init__(self, llm: LLM, *, max_chars: int = 1200, max_passages: int = 20) -> None:
        super().__init__()
        self._llm = llm
        self._max_chars = max_chars
        self._max_passages = max_passages

    def prompt(self, query: str, hits: Sequence[Hit]) -> list[Message]:
        blocks = []
        for n, h in enumerate(hits, start=1):
            where = " > ".join(p for p in (h.title, h.section) if p)
            text = " ".join(h.text.split())[: self._max_chars]
            blocks.append(f"[{n}] ({where})\n{text}" if where else f"[{n}]\n{text}")
        user = f"Question: {query.strip()}\n\nPassages:\n\n" + "\n\n".join(blocks)
        return [Message("system", LLM_RERANK_INSTRUCTIONS), Message("user", user)]

    def rerank(
        self, query: str, hits: Sequence[Hit], k: int, *, query_vector: Vectors | None = None
    ) -> list[Hit]:
        self._record(None)
        head, tail = list(hits[: self._max_passages]), list(hits[self._max_passages :])
        if not head:
            return []
        try:
            reply = self._llm.complete(
                self.prompt(query, head), json_mode=True, max_tokens=16 + 12 * len(head)
            ).text
        except LLMError as exc:
            return self._keep_order(hits, k, f"llm rerank failed ({exc}); kept retrieval order")
        scores = parse_scores(reply, len(head))
        if not scores:
            return self._keep_order(hits, k, "llm rerank reply had no usable scores; kept order")
        if len(scores) < len(head):
            self._record(f"llm rerank scored {len(scores)} of {len(head)} passages")
        # passages beyond max_passages were not shown: they follow the scored ones, in order
        head_scores = [scores.get(n, 0.0) / 10.0 for n in range(1, len(head) + 1)]
        return reordered(hits, head_scores + [0.0] * len(tail), k)

    def _keep_order(self, hits: Sequence[Hit], k: int, reason: str) -> list[Hit]:
        self._record(reason)
        return kept(hits, k)


def parse_scores(reply: str, n: int) -> dict[int, float]:
    """Passage number (1..n) → score in [0, 10] from an LLM reply. Accepts {"scores": {...}},
    {"scores": [...]}, a bare object or list, lists of numbers or of {"id"/"passage", "score"}
    objects, numeric strings, code fences and text around the JSON; ignores anything else."""
    data = _first_json(reply)
    if isinstance(data, dict) and len(data) == 1:
        (only,) = data.values()
        if isinstance(only, dict | list):
            data = only
    pairs: list[tuple[object, object]] = []
    if isinstance(data, dict):
        pairs = list(data.items())
    elif isinstance(data, list):
        for i, item in enumerate(data, start=1):
            if isinstance(item, dict):
                key = next((item[x] for x in ("id", "passage", "n", "index") if x in item), None)
                pairs.append((key, item.get("score", item.get("relevance"))))
            else:
                pairs.append((i, item))
    out: dict[int, float] = {}
    for key, value in pairs:
        number, score = _number(key), _number(value)
        if number is None or score is None or not number.is_integer():
            continue
        if 1 <= int(number) <= n and math.isfinite(score):
            out[int(number)] = min(max(score, 0.0), 10.0)
    return out


def _first_json(reply: str) -> object:
    text = _FENCE.sub("", reply.strip())
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:
            return decoder.raw_decode(text, m.start())[0]
        except json.JSONDecodeError:
            continue
    return None


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip().strip("[]"))
        except ValueError:
            return None
    return None
