"""The SSRF guard: every connection's address is resolved and checked at connect time (so a
name that resolves to a public address for the check and a private one for the connection
cannot slip through), and the socket is opened to the very address that was checked."""

from __future__ import annotations

import ipaddress
import socket
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

from citewise.errors import InputError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class RefusedAddressError(httpcore.ConnectError):
    """A connection to an address the guard does not allow (raised inside httpcore, so
    the client reports it as a connect error; `why` says which rule refused it)."""

    def __init__(self, host: str, address: str, why: str) -> None:
        super().__init__(f"{host} resolves to {address}, {why}")
        self.host, self.address, self.why = host, address, why


def refusal(address: IPAddress) -> str:
    """Why connecting to `address` is refused by default, '' when it is a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return refusal(address.ipv4_mapped)
    if address.is_unspecified:
        return "a reserved address"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address (cloud metadata services live there)"
    if address.is_private:
        return "a private network address"
    if address.is_multicast or address.is_reserved:
        return "a reserved address"
    return ""


def resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise httpcore.ConnectError(f"cannot resolve {host}: {exc.strerror}") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's socket backend, connecting only to addresses the guard allows."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        last: Exception | None = None
        for address in resolve(host, port):
            why = "" if self.allow_private else refusal(ipaddress.ip_address(address))
            if why:
                raise RefusedAddressError(host, address, why)
            try:
                return super().connect_tcp(address, port, timeout, local_address, socket_options)
            except httpcore.ConnectError as exc:
                last = exc
        raise last or httpcore.ConnectError(f"no address for {host}")


class GuardedTransport(httpx.HTTPTransport):
    """An httpx transport over the guarded backend; no proxies from the environment (a
    proxy would connect on our behalf, past the guard)."""

    def __init__(self, *, allow_private: bool) -> None:
        super().__init__(trust_env=False)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl.create_default_context(),
            network_backend=GuardedBackend(allow_private),
        )


def check_url(url: str) -> httpx.URL:
    """`url` parsed, if it is an http(s) address with a host; InputError otherwise."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise InputError(f"not a web address: {url!r}") from exc
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise InputError(f"not an http(s) address: {url!r}")
    return parsed
