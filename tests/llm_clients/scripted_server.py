"""A real HTTP/1.1 server on 127.0.0.1 whose answers each test scripts, for testing LLM clients
against the actual wire formats (JSON, NDJSON and SSE streaming, slow answers, dropped
connections).

    server.script(json_reply({"ok": True}), Reply(status=500), sse_reply([...]))

Each request takes the next scripted `Reply`, whatever its path; a request with nothing
scripted gets a 418 and is listed in `unexpected` (the fixture fails the test on it). Every
request is recorded (`requests`) with its method, path, headers and JSON body.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """`body` is sent with a Content-Length; `chunks`, if given, are streamed instead with
    chunked transfer encoding, `chunk_delay` seconds before each (`pauses[i]` more before chunk
    i). `delay` waits before the
    status line. `drop_after` closes the socket abruptly after that many bytes of `body`, or
    after that many `chunks` (before the terminating chunk)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    chunks: list[bytes] | None = None
    delay: float = 0.0
    chunk_delay: float = 0.0
    pauses: dict[int, float] = field(default_factory=dict)
    drop_after: int | None = None


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


def json_reply(obj: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    return Reply(
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
        body=json.dumps(obj).encode(),
    )


def text_reply(text: str, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    return Reply(
        status=status,
        headers={"Content-Type": "text/plain", **(headers or {})},
        body=text.encode(),
    )


def ndjson_reply(lines: Iterable[Any], **options: Any) -> Reply:
    """One chunk per line; a `str` item is sent verbatim (for malformed lines)."""
    chunks = [(x if isinstance(x, str) else json.dumps(x) + "\n").encode() for x in lines]
    headers = {"Content-Type": "application/x-ndjson"}
    return Reply(headers=headers, chunks=chunks, **options)


def sse_reply(events: Iterable[Any], *, done: bool = True, **options: Any) -> Reply:
    """One chunk per event: an object becomes `data: {json}`, a `str` is sent verbatim (for
    comments, keep-alives and malformed data); `done` appends `data: [DONE]`."""
    chunks = [(x if isinstance(x, str) else f"data: {json.dumps(x)}\n\n").encode() for x in events]
    if done:
        chunks.append(b"data: [DONE]\n\n")
    headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
    return Reply(headers=headers, chunks=chunks, **options)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the client went away (timeout, drop): expected in these tests


class ScriptedServer:
    def __init__(self, port: int = 0) -> None:
        """`port` 0 takes a free one; a given port lets a test bring a "crashed" server back
        where its clients expect it."""
        self.requests: list[Request] = []
        self.unexpected: list[Request] = []
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = _Server(("127.0.0.1", port), self._handler())
        self.port = int(self._httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def script(self, *replies: Reply) -> ScriptedServer:
        with self._lock:
            self._replies.extend(replies)
        return self

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        return len(self._replies)

    def close(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._replies:
                return self._replies.popleft()
            self.unexpected.append(request)
        return json_reply({"error": f"nothing scripted for {request.method} {request.path}"}, 418)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = 10  # idle keep-alive connections end on their own
            disable_nagle_algorithm = True  # no 40 ms delayed-ACK stalls between writes

            def do_GET(self) -> None:
                self._serve()

            def do_POST(self) -> None:
                self._serve()

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server._next(Request(self.command, self.path, headers, body))
                if reply.delay and server._stop.wait(reply.delay):
                    return
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.chunks is None:
                    self._send_body(reply)
                else:
                    self._send_chunks(reply, reply.chunks)

            def _send_body(self, reply: Reply) -> None:
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                if reply.drop_after is None:
                    self.wfile.write(reply.body)
                    return
                self.wfile.write(reply.body[: reply.drop_after])
                self._drop()

            def _send_chunks(self, reply: Reply, chunks: list[bytes]) -> None:
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.wfile.flush()
                for i, chunk in enumerate(chunks):
                    if reply.drop_after is not None and i >= reply.drop_after:
                        break
                    pause = reply.chunk_delay + reply.pauses.get(i, 0.0)
                    if pause and server._stop.wait(pause):
                        return
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                if reply.drop_after is not None:
                    self._drop()
                    return
                self.wfile.write(b"0\r\n\r\n")

            def _drop(self) -> None:
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)

        return Handler
