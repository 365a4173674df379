"""The HTTP API's edges: documentation pages that work offline, clear 4xx for malformed
requests (never a 500), one status for an empty or blank message, unknown models and
sessions reported as such."""

from __future__ import annotations

import re

import httpx
import pytest

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url:\s*['"]([^'"]+)['"]""")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_api_docs_pages_load_only_vendored_assets(client: httpx.Client, page: str) -> None:
    r = client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "://" not in r.text, "the page would fetch from another origin (blank offline)"
    urls = [a or b for a, b in ASSET.findall(r.text)]
    assets = [u for u in urls if u.startswith("/ui/vendor/")]
    assert len(assets) >= 2 and "/openapi.json" in urls + re.findall(r"/openapi\.json", r.text)
    for url in assets:
        got = client.get(url)
        assert got.status_code == 200 and len(got.content) > 500, url


def test_swagger_oauth2_redirect_page_is_served(client: httpx.Client) -> None:
    r = client.get("/docs/oauth2-redirect")
    assert r.status_code == 200 and "oauth2" in r.text
