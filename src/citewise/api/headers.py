"""Security headers on every response: the second wall behind escaping document text.

The Content-Security-Policy lets a page run only this origin's scripts (plus the web UI's
one inline import map, by its hash), styles and workers, and show the PDF viewer's `blob:`
images; no plug-ins, no framing, no form posts elsewhere. A response that sets its own
policy keeps it (the API docs pages, a kept original's `sandbox`). A pure ASGI middleware:
streamed answers pass through untouched."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL)


def inline_script_hashes(html: str) -> list[str]:
    """The CSP source of each inline script of `html` (`'sha256-…'`), in order."""
    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in _INLINE_SCRIPT.findall(html)
    ]


def content_security_policy(index_html: Path) -> str:
    """The policy for every page of this origin; the UI's page is `index_html`."""
    scripts = " ".join(["'self'", *inline_script_hashes(index_html.read_text(encoding="utf-8"))])
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self' data: blob:",  # the favicon is a data: URL; pdf.js paints blob:s
            "font-src 'self' data:",
            "worker-src 'self'",  # pdf.js's worker, from /ui/vendor
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


def security_headers(csp: str) -> dict[str, str]:
    return {
        "Content-Security-Policy": csp,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
        "Referrer-Policy": "no-referrer",
    }


class SecurityHeaders:
    """Adds `headers` to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp, headers: dict[str, str]) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
