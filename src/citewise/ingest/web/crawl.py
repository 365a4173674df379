"""A crawl: the start pages, a sitemap's pages, or (with `follow`) the links of each page
within its site, up to a page limit; robots.txt and `noindex`/`nofollow` respected. Each
page is kept as a file under `folder/<host>/<path>` (the original a citation opens), and
what could not be fetched is reported per address."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

import httpx
import lxml.etree
import lxml.html

from citewise.errors import DocumentError, InputError
from citewise.ingest.web.fetch import Fetcher, Page, WebLimits
from citewise.ingest.web.guard import check_url
from citewise.types import FileOutcome

_BY_TYPE = {
    "text/html": ".html", "application/xhtml+xml": ".html", "text/plain": ".txt",
    "text/markdown": ".md", "text/csv": ".csv", "application/pdf": ".pdf",
    "application/epub+zip": ".epub", "application/rtf": ".rtf", "text/rtf": ".rtf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
    "application/vnd.oasis.opendocument.text": ".odt",
    "application/vnd.oasis.opendocument.spreadsheet": ".ods",
}  # fmt: skip
_PAGE_SUFFIXES = frozenset({"", ".html", ".htm", ".xhtml", ".php", ".asp", ".aspx", ".jsp"})
_UNSAFE = re.compile(r"[^\w.-]+")


@dataclass(slots=True)
class Crawl:
    """What a crawl kept (files under `folder`) and the addresses it could not use."""

    folder: Path
    saved: list[Path] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)


def _site(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def local_path(url: httpx.URL, content_type: str) -> PurePosixPath | None:
    """Where a page is kept: host, then its path with unsafe characters replaced; a query
    adds a short hash. None when neither its name nor its type is a document we read."""
    from citewise.ingest.parsers import SUPPORTED_EXTENSIONS

    parts = [
        p for p in (_UNSAFE.sub("_", unquote(s)).lstrip(".") for s in url.path.split("/")) if p
    ]
    if url.path.endswith("/") or not parts:
        parts.append("index")
    name = PurePosixPath(parts[-1][:120])
    suffix = name.suffix.lower()
    if suffix not in SUPPORTED_EXTENSIONS:
        by_type = _BY_TYPE.get(content_type)
        if by_type is None:
            return None
        name = PurePosixPath(f"{name.name}{by_type}")
    if url.query:
        digest = hashlib.sha1(url.query).hexdigest()[:8]
        name = name.with_name(f"{name.stem}-{digest}{name.suffix}")
    host = _UNSAFE.sub("_", url.host) + (f"_{url.port}" if url.port else "")
    return PurePosixPath(host, *parts[:-1], name.name)


def _save(folder: Path, relative: PurePosixPath, body: bytes) -> Path:
    path = folder.joinpath(*relative.parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_bytes() == body:
        return path  # unchanged: its modification time stays
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    with os.fdopen(fd, "wb") as out:
        out.write(body)
    os.replace(tmp, path)
    return path


def _robots_meta(root: lxml.etree._Element) -> set[str]:
    words: set[str] = set()
    for meta in root.iter("meta"):
        if (meta.get("name") or "").lower() == "robots":
            words |= {w.strip().lower() for w in (meta.get("content") or "").split(",")}
    return words


def links(page: Page) -> tuple[list[str], set[str]]:
    """The page's followable links (absolute, no fragment) and its robots meta words."""
    try:
        root = lxml.html.fromstring(page.body, base_url=page.url)
    except (lxml.etree.ParserError, ValueError):
        return [], set()
    root.make_links_absolute(page.url, resolve_base_href=True, handle_failures="discard")
    found = [
        str(httpx.URL(a.get("href", "")).copy_with(fragment=None))
        for a in root.iter("a")
        if a.get("href") and "nofollow" not in (a.get("rel") or "").lower()
        and a.get("href", "").startswith(("http://", "https://"))
    ]  # fmt: skip
    return found, _robots_meta(root)


def sitemap_urls(page: Page) -> tuple[list[str], list[str]] | None:
    """(page addresses, nested sitemap addresses) of a sitemap; None when it is not one."""
    if b"<urlset" not in page.body[:4096] and b"<sitemapindex" not in page.body[:4096]:
        return None
    parser = lxml.etree.XMLParser(resolve_entities=False, no_network=True, recover=True)
    root = lxml.etree.fromstring(page.body, parser)
    if root is None:
        return None
    locs = [(el.text or "").strip() for el in root.iter("{*}loc")]
    nested = root.tag.endswith("sitemapindex")
    return ([], locs) if nested else (locs, [])


def crawl(
    urls: Sequence[str],
    folder: Path,
    limits: WebLimits | None = None,
    *,
    fetcher: Fetcher | None = None,
) -> Crawl:
    """Fetches `urls` (pages or sitemaps) and, with `limits.follow`, the pages they link to
    on the same site, until `limits.max_pages` pages are kept."""
    limits = limits or WebLimits()
    own = fetcher is None
    fetcher = fetcher or Fetcher(limits)
    result = Crawl(folder)
    queue: deque[tuple[str, tuple[str, str, int | None]]] = deque()
    for url in urls:
        try:
            queue.append((url, _site(check_url(url))))
        except InputError as exc:
            result.outcomes.append(FileOutcome(url, "failed", str(exc)))
    seen: set[str] = set()
    try:
        while queue and len(result.saved) < limits.max_pages:
            url, site = queue.popleft()
            if url in seen or _site(httpx.URL(url)) != site:
                continue
            seen.add(url)
            _visit(fetcher, url, site, queue, result, follow=limits.follow)
    finally:
        if own:
            fetcher.close()
    return result


def _followable(url: str) -> bool:
    """A link to a page or a document we read, not to a picture, script or archive."""
    from citewise.ingest.parsers import SUPPORTED_EXTENSIONS

    suffix = PurePosixPath(httpx.URL(url).path).suffix.lower()
    return suffix in _PAGE_SUFFIXES or suffix in SUPPORTED_EXTENSIONS


def _visit(
    fetcher: Fetcher,
    url: str,
    site: tuple[str, str, int | None],
    queue: deque[tuple[str, tuple[str, str, int | None]]],
    result: Crawl,
    *,
    follow: bool,
) -> None:
    try:
        if not fetcher.allowed(url):
            result.outcomes.append(FileOutcome(url, "skipped", "robots.txt disallows it"))
            return
        page = fetcher.get(url)
    except (DocumentError, InputError) as exc:
        result.outcomes.append(FileOutcome(url, "failed", str(exc)))
        return
    listed = sitemap_urls(page) if "xml" in page.content_type else None
    if listed is not None:
        pages, nested = listed
        queue.extend((u, site) for u in [*nested, *pages])
        return
    meta: set[str] = set()
    if page.content_type in ("text/html", "application/xhtml+xml"):
        found, meta = links(page)
        if follow and "nofollow" not in meta and "none" not in meta:
            queue.extend(
                (u, site)
                for u in found
                if PurePosixPath(httpx.URL(u).path).suffix.lower() in _PAGE_SUFFIXES
            )
    if "noindex" in meta or "none" in meta:
        result.outcomes.append(FileOutcome(url, "skipped", "the page asks not to be indexed"))
        return
    relative = local_path(httpx.URL(page.url), page.content_type)
    if relative is None:
        reason = f"{page.content_type or 'unknown content'} is not a document type citewise reads"
        result.outcomes.append(FileOutcome(url, "skipped", reason))
        return
    path = _save(result.folder, relative, page.body)
    if path not in result.saved:  # a redirect may land on a page already kept
        result.saved.append(path)
