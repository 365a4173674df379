"""A small web site on 127.0.0.1 (a free port) in a thread of the test process: each path
answers its (content type, body); kind "redirect" answers 302 to the body; "{base}" in a body
becomes the site's address. Stopped and joined when the block ends."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Page = tuple[str, bytes]


@contextmanager
def serving(pages: Mapping[str, Page]) -> Iterator[str]:
    base = ""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            kind, body = pages.get(self.path, ("", b""))
            if kind == "redirect":
                self.send_response(302)
                self.send_header("Location", body.decode())
                self.end_headers()
                return
            if not kind:
                self.send_error(404)
                return
            body = body.replace(b"{base}", base.encode())
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
