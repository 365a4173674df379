"""Runs a client coroutine on an event loop of its own thread: a browser test's sync
Playwright may leave a loop running on the main thread of the same pytest process."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio


def run_client(fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    with ThreadPoolExecutor(1, thread_name_prefix="mcp-client") as pool:
        return pool.submit(anyio.run, fn, *args).result()
