"""Structured logs with request ids, and answer stages as OpenTelemetry spans."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from citewise.api import observability
from citewise.config import load_settings
from citewise.errors import ConfigError
from citewise.types import Answer


def test_json_log_lines_carry_the_request_id(tmp_path: Path) -> None:
    record = logging.LogRecord("citewise.x", logging.INFO, __file__, 1, "hello %s", ("you",), None)
    token = observability.REQUEST_ID.set("rid-7")
    try:
        observability._RequestIdFilter().filter(record)
    finally:
        observability.REQUEST_ID.reset(token)
    line = json.loads(observability.JsonFormatter().format(record))
    assert line["request_id"] == "rid-7" and line["message"] == "hello you"


def test_answer_stages_become_spans_under_one_answer_span(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    provider = observability.tracer_provider(
        load_settings(data_dir=tmp_path, trace_exporter="console")
    )
    try:
        answer = Answer("a", "question", (), (), False, "none", "s",
                        {"retrieve": 12.0, "rerank": 3.0, "total": 20.0})  # fmt: skip
        observability.record_answer(answer)
        provider.force_flush()
    finally:
        provider.shutdown()
        observability._tracer = None
    out = capfd.readouterr().out
    for name in ('"answer"', '"answer.retrieve"', '"answer.rerank"'):
        assert f'"name": {name}' in out


def test_tracing_is_off_by_default_and_unknown_exporters_are_refused(tmp_path: Path) -> None:
    assert observability.tracer_provider(load_settings(data_dir=tmp_path)) is None
    with pytest.raises(ConfigError, match="none, console or otlp"):
        observability.tracer_provider(load_settings(data_dir=tmp_path, trace_exporter="zipkin"))
