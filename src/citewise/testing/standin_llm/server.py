"""The stand-in behind an OpenAI-compatible HTTP server on 127.0.0.1.

POST /v1/chat/completions answers as a JSON completion, or with `"stream": true` as
server-sent events over chunked transfer encoding: a role chunk, one chunk a token, a final
chunk with `finish_reason`, then `data: [DONE]`. GET /v1/models lists the model. Faults for
tests: `token_delay` seconds before each token, `cut_after` tokens after which a stream is
dropped (no finish, no [DONE]), `malformed_after` tokens after which a stream sends an event
that is not JSON (a plain completion: a body that is not JSON).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self

from citewise.testing.standin_llm.gold import Knowledge
from citewise.testing.standin_llm.model import Behaviour, StandinModel

_TOKEN = re.compile(r"\s*\S+")
_BROKEN_JSON = b'{"id": "chatcmpl-broken", "choices": [{"delta": {"content": "'


@dataclass(frozen=True, slots=True)
class Faults:
    token_delay: float = 0.0  # seconds before each token (a slow model)
    cut_after: int | None = None  # a stream is dropped after this many tokens
    malformed_after: int | None = None  # a stream turns to broken JSON after this many tokens


def tokens(text: str) -> list[str]:
    """The reply in streamable pieces: each word with the whitespace before it."""
    return _TOKEN.findall(text)


class StandinServer:
    """`with StandinServer(Knowledge.load(path), Behaviour("faithful")) as server:` serves on
    `server.base_url` (ending in /v1) until the block ends; `server.model.records` holds what
    each request saw and did, and every record is also appended to `log` (JSONL) if given."""

    def __init__(
        self,
        knowledge: Knowledge,
        behaviour: Behaviour | None = None,
        *,
        faults: Faults | None = None,
        model_name: str = "standin",
        port: int = 0,
        log: Path | None = None,
    ) -> None:
        self.model = StandinModel(knowledge, behaviour or Behaviour())
        self.faults = faults or Faults()
        self.model_name = model_name
        self.log = log
        self._httpd = _Server(("127.0.0.1", port), _handler(self))
        self._thread: threading.Thread | None = None
        self._logged = 0
        self._log_lock = threading.Lock()

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> Self:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serves in the calling thread until interrupted (the command line's way)."""
        self._httpd.serve_forever()

    def close_socket(self) -> None:
        self._httpd.server_close()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def answer(self, messages: list[dict[str, object]]) -> str:
        text = self.model.reply(messages)
        if self.log is not None:
            with self._log_lock, self.log.open("a", encoding="utf-8") as out:
                for record in self.model.records[self._logged :]:
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                self._logged = len(self.model.records)
        return text


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a client closing its kept-alive connection is no error
        super().handle_error(request, client_address)


def _handler(server: StandinServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: tests and benchmarks read the records instead

        def do_GET(self) -> None:
            if self.path.rstrip("/") in ("/v1/models", "/models"):
                entry = {"id": server.model_name, "object": "model", "created": 0}
                self._json(200, {"object": "list", "data": [{**entry, "owned_by": "citewise"}]})
            else:
                self._json(404, _error(f"no route {self.path}", "not_found"))

        def do_POST(self) -> None:
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._json(404, _error(f"no route {self.path}", "not_found"))
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                messages = body["messages"]
                if not isinstance(messages, list) or not messages:
                    raise ValueError("messages must be a non-empty list")
            except (ValueError, KeyError, TypeError) as exc:
                self._json(400, _error(f"bad request: {exc}", "invalid_request_error"))
                return
            text = server.answer(messages)
            pieces = tokens(text)
            limit = body.get("max_tokens")
            finish = "stop"
            if isinstance(limit, int) and 0 < limit < len(pieces):
                pieces, finish = pieces[:limit], "length"
            model = str(body.get("model") or server.model_name)
            if body.get("stream"):
                self._stream(model, pieces, finish)
            else:
                time.sleep(server.faults.token_delay * len(pieces))
                if server.faults.malformed_after is not None:
                    self._raw(200, _BROKEN_JSON)
                    return
                self._json(200, _completion(model, "".join(pieces), finish, messages, pieces))

        def _json(self, status: int, obj: dict[str, Any]) -> None:
            self._raw(status, json.dumps(obj).encode())

        def _raw(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, model: str, pieces: list[str], finish: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            cut, broken = server.faults.cut_after, server.faults.malformed_after
            try:
                for i, event in enumerate(_events(model, pieces, finish)):
                    if cut is not None and i > cut:  # event 0 carries only the role
                        self.close_connection = True
                        return  # dropped: no final chunk, no [DONE], no chunked terminator
                    if broken is not None and i > broken:
                        self._chunk(b"data: " + _BROKEN_JSON + b"\n\n")
                        self._chunk(b"data: [DONE]\n\n")
                        self.wfile.write(b"0\r\n\r\n")
                        return
                    if i > 0 and i <= len(pieces):
                        time.sleep(server.faults.token_delay)
                    self._chunk(event.encode())
                self._chunk(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client stopped reading (it closed early)

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

    return Handler


def _events(model: str, pieces: list[str], finish: str) -> Iterator[str]:
    ident, created = f"chatcmpl-{uuid.uuid4().hex[:24]}", int(time.time())

    def chunk(delta: dict[str, str], reason: str | None) -> str:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": reason}
        obj = {"id": ident, "object": "chat.completion.chunk", "created": created}
        return "data: " + json.dumps({**obj, "model": model, "choices": [choice]}) + "\n\n"

    yield chunk({"role": "assistant", "content": ""}, None)
    for piece in pieces:
        yield chunk({"content": piece}, None)
    yield chunk({}, finish)


def _completion(
    model: str, text: str, finish: str, messages: list[Any], pieces: list[str]
) -> dict[str, Any]:
    prompt = sum(len(tokens(str(m.get("content", "")))) for m in messages if isinstance(m, dict))
    message = {"role": "assistant", "content": text}
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": len(pieces),
            "total_tokens": prompt + len(pieces),
        },
    }


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}
