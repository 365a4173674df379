"""Request ids in every log line, Prometheus metrics, and OpenTelemetry spans (off unless
`trace_exporter` names an exporter): FastAPI's own request spans plus one span per stage
of each answer, placed from the stage timings the answer flow records."""

from __future__ import annotations

import contextvars
import json
import logging
import time
import uuid
from typing import Any

from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from citewise.config import Settings
from citewise.errors import ConfigError
from citewise.types import Answer

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
HEADER = "x-request-id"

REQUESTS = Counter(
    "citewise_http_requests_total",
    "HTTP requests by route and status",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "citewise_http_request_seconds", "Time to the response's headers", ["method", "route"]
)
ANSWERS = Counter(
    "citewise_answers_total", "Answers by intent and confidence", ["intent", "confidence"]
)
STAGES = Histogram("citewise_answer_stage_seconds", "Answer flow stage durations", ["stage"])


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": round(record.created, 3), "level": record.levelname, "logger": record.name,
            "request_id": getattr(record, "request_id", "-"), "message": record.getMessage(),
        }  # fmt: skip
        for key in ("method", "path", "status", "ms"):
            if hasattr(record, key):
                data[key] = getattr(record, key)
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def configure_logging(settings: Settings, level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.addFilter(_RequestIdFilter())
    handler.setFormatter(
        JsonFormatter()
        if settings.log_json
        else logging.Formatter("%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s")
    )
    root = logging.getLogger("citewise")
    root.handlers = [handler]
    root.setLevel(level)
    root.propagate = False


access_log = logging.getLogger("citewise.access")


class RequestContext:
    """Pure ASGI middleware: a request id (the client's `X-Request-ID` or a new one) for the
    logs and the response header, one access log line, and the request metrics."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(HEADER.encode(), b"").decode("latin-1")
        rid = given if given and len(given) <= 64 and given.isprintable() else uuid.uuid4().hex[:16]
        token = REQUEST_ID.set(rid)
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (HEADER.encode(), rid.encode())]
                route = _route(scope)
                REQUESTS.labels(scope["method"], route, str(status)).inc()
                LATENCY.labels(scope["method"], route).observe(time.perf_counter() - started)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            ms = round((time.perf_counter() - started) * 1000, 1)
            fields = {"method": scope["method"], "path": scope["path"], "status": status, "ms": ms}
            access_log.info("%s %s %s %.1f ms", *fields.values(), extra=fields)
            REQUEST_ID.reset(token)


def _route(scope: Scope) -> str:
    """The route template (bounded label values), not the raw path."""
    route = scope.get("route")
    return str(getattr(route, "path", "unmatched"))


# -- tracing ----------------------------------------------------------------------------

_tracer: Any = None


def tracer_provider(settings: Settings) -> Any:
    """The provider for `trace_exporter` (none | console | otlp), or None when off."""
    global _tracer
    name = settings.trace_exporter
    if name == "none":
        return None
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

    exporter: Any
    if name == "console":
        exporter = ConsoleSpanExporter()
    elif name == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = (
            OTLPSpanExporter(endpoint=settings.trace_endpoint)
            if settings.trace_endpoint
            else OTLPSpanExporter()
        )
    else:
        raise ConfigError(f"unknown trace exporter {name!r}: use none, console or otlp")
    provider = TracerProvider(resource=Resource.create({"service.name": "citewise"}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    _tracer = provider.get_tracer("citewise")
    return provider


def record_answer(answer: Answer) -> None:
    """Metrics for one answer, and (when tracing) an `answer` span with one child span per
    stage, laid end to end from the stage timings."""
    ANSWERS.labels(answer.intent, answer.confidence).inc()
    stages = {k: v for k, v in answer.timings_ms.items() if k != "total"}
    for stage, ms in stages.items():
        STAGES.labels(stage).observe(ms / 1000.0)
    if _tracer is None:
        return
    end = time.time_ns()
    total = int(answer.timings_ms.get("total", sum(stages.values())) * 1e6)
    start = end - total
    parent = _tracer.start_span("answer", start_time=start, attributes={
        "citewise.intent": answer.intent, "citewise.confidence": answer.confidence,
        "citewise.request_id": REQUEST_ID.get()})  # fmt: skip
    from opentelemetry import trace

    ctx = trace.set_span_in_context(parent)
    at = start
    for stage, ms in stages.items():
        span = _tracer.start_span(f"answer.{stage}", context=ctx, start_time=at)
        at += int(ms * 1e6)
        span.end(end_time=min(at, end))
    parent.end(end_time=end)
