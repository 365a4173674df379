"""Web pages into a collection from the API and the web UI: a page, a sitemap's pages or a
same-site crawl, fetched and ingested within the request by the same code as
`citewise ingest https://…` (robots.txt, size and time limits, the SSRF guard). Whether
private addresses may be fetched is the server's setting (`CITEWISE_WEB_ALLOW_PRIVATE`),
never the caller's; the page limit is at most the server's."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from citewise.api.deps import AssistantDep, writable
from citewise.api.security import Writer
from citewise.errors import InputError
from citewise.ingest.web.pages import is_web_address, web_limits

router = APIRouter(tags=["documents"])


class WebIngest(BaseModel):
    url: str = Field(max_length=2000, description="an http(s) address: a page or a sitemap")
    crawl: bool = Field(False, description="follow the page's links within the same site")
    max_pages: int | None = Field(None, ge=1, description="at most the server's page limit")


@router.post("/documents/web")
def ingest_web(
    body: WebIngest, principal: Writer, assistant: AssistantDep, collection: str | None = None
) -> dict[str, object]:
    """Fetches the address (and, with `crawl`, the pages it links to on its site) and ingests
    them; answers the ingest report: each page's outcome, refusals with their reason."""
    target = writable(principal, collection)
    url = body.url.strip()
    if not is_web_address(url):
        raise InputError(f"not a web address: {url!r} (it must start with http:// or https://)")
    limit = assistant.settings.web_max_pages
    pages = min(body.max_pages or limit, limit)
    web = web_limits(assistant.settings, max_pages=pages, follow=body.crawl)
    return assistant.ingest([url], collection=target, web=web).to_json()
