"""A scripted embeddings server speaking the Ollama and OpenAI wire formats on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from citewise.embed.hashing import HashingEmbedder

SERVER_DIM = 16


@dataclass
class Script:
    """What the server answers: `status` (with `body` text) for the next `failures`
    requests, then real embeddings (of `SERVER_DIM` dims, from the hashing embedder)."""

    status: int = 200
    body: str = ""
    failures: int = 0
    drop_one: bool = False  # answer with one embedding fewer than asked
    requests: list[dict[str, Any]] = field(default_factory=list)


class FakeServer:
    def __init__(self) -> None:
        self.script = Script()
        self._hashing = HashingEmbedder(dim=SERVER_DIM)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def vectors(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self._hashing.embed_documents(texts)]

    def answer(self, path: str, payload: dict[str, Any]) -> tuple[int, str]:
        script = self.script
        if script.failures > 0:
            script.failures -= 1
            return script.status, script.body
        texts = list(payload["input"])
        vecs = self.vectors(texts)[: len(texts) - 1 if script.drop_one else None]
        if path == "/api/embed":
            return 200, json.dumps({"model": payload["model"], "embeddings": vecs})
        if path == "/v1/embeddings":
            data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)]
            data.reverse()  # servers may answer out of order; `index` says where each goes
            return 200, json.dumps({"object": "list", "data": data, "model": payload["model"]})
        return 404, json.dumps({"error": f"no route {path}"})

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                payload = json.loads(self.rfile.read(length) or b"{}")
                server.script.requests.append(
                    {"path": self.path, "headers": dict(self.headers), "json": payload}
                )
                status, body = server.answer(self.path, payload)
                raw = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
