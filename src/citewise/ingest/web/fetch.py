"""Fetching one page within limits: http(s) only, redirects followed by hand (each hop goes
through the guard again), the body read as a stream and cut at `max_bytes`, a total time
limit per page; robots.txt read once per site with protego."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import httpx
from protego import Protego

from citewise.errors import DocumentError, InputError, TooLargeError
from citewise.ingest.web.guard import GuardedTransport, RefusedAddressError, check_url
from citewise.text.sizes import human_size

USER_AGENT = "citewise/0.1 (document ingest)"
MAX_REDIRECTS = 5


@dataclass(frozen=True, slots=True)
class WebLimits:
    max_pages: int = 50
    max_page_bytes: int = 10 * 2**20
    timeout_s: float = 20.0  # one page, connect to last byte
    allow_private: bool = False  # private, loopback and link-local addresses
    follow: bool = False  # crawl: follow each page's links within its site


@dataclass(frozen=True, slots=True)
class Page:
    url: str  # where the body came from, after redirects
    content_type: str
    body: bytes


class FetchError(DocumentError):
    """A page that could not be fetched (status, network, limits); the crawl goes on."""


def _refused(exc: BaseException) -> RefusedAddressError | None:
    while exc is not None:
        if isinstance(exc, RefusedAddressError):
            return exc
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return None


@dataclass(slots=True)
class Fetcher:
    """One client for a crawl: connections reused, robots.txt cached per site."""

    limits: WebLimits = field(default_factory=WebLimits)
    client: httpx.Client = field(init=False)
    _robots: dict[str, Protego | None] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.client = httpx.Client(
            transport=GuardedTransport(allow_private=self.limits.allow_private),
            timeout=httpx.Timeout(self.limits.timeout_s),
            headers={"User-Agent": USER_AGENT},
            follow_redirects=False,
        )

    def close(self) -> None:
        self.client.close()

    def get(self, url: str) -> Page:
        """The page at `url`. Raises InputError for an address the guard refuses,
        TooLargeError over the size limit, FetchError for anything else."""
        deadline = time.monotonic() + self.limits.timeout_s
        target = check_url(url)
        for _ in range(MAX_REDIRECTS + 1):
            try:
                with self.client.stream("GET", target) as response:
                    if response.is_redirect and "location" in response.headers:
                        target = check_url(str(target.join(response.headers["location"])))
                        continue
                    if response.status_code != 200:
                        raise FetchError(f"{target} answered HTTP {response.status_code}")
                    body = self._body(response, deadline)
                    kind = response.headers.get("content-type", "").split(";")[0].strip()
                    return Page(str(response.url), kind.lower(), body)
            except httpx.HTTPError as exc:
                refused = _refused(exc)
                if refused is not None:
                    raise InputError(
                        f"refused {target}: {refused.host} is {refused.why}"
                        f" ({refused.address}); allow it with --allow-private"
                    ) from exc
                raise FetchError(f"cannot fetch {target}: {exc}") from exc
        raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects")

    def _body(self, response: httpx.Response, deadline: float) -> bytes:
        limit = self.limits.max_page_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise TooLargeError(
                f"{response.url} is {human_size(int(declared))}, over {human_size(limit)}"
            )
        parts: list[bytes] = []
        size = 0
        for piece in response.iter_bytes():
            size += len(piece)
            if size > limit:
                raise TooLargeError(f"{response.url} is over {human_size(limit)}")
            if time.monotonic() > deadline:
                raise FetchError(f"{response.url} took over {self.limits.timeout_s:g} s")
            parts.append(piece)
        return b"".join(parts)

    def allowed(self, url: str) -> bool:
        """Whether the site's robots.txt lets us fetch `url` (no robots.txt: yes)."""
        parsed = httpx.URL(url)
        site = f"{parsed.scheme}://{parsed.netloc.decode()}"
        if site not in self._robots:
            try:
                page = self.get(f"{site}/robots.txt")
                text = page.body.decode("utf-8", errors="replace")
                self._robots[site] = (
                    Protego.parse(text)
                    if "text" in page.content_type or not page.content_type
                    else None
                )
            except (FetchError, TooLargeError):
                self._robots[site] = None  # no robots.txt: everything is allowed
        rules = self._robots[site]
        return rules is None or bool(rules.can_fetch(url, USER_AGENT))
