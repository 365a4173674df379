"""Requests per user and per API key, with the `limits` library (memory or redis://)."""

from __future__ import annotations

import math
import time

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from citewise.errors import ConfigError, RateLimitedError


class RateLimits:
    """`spec` is one or more limits ("120/minute;2000/hour"); empty turns limits off."""

    def __init__(self, spec: str, storage_uri: str = "memory://") -> None:
        try:
            self._items = parse_many(spec) if spec.strip() else []
        except ValueError as exc:
            raise ConfigError(f"cannot read the rate limit {spec!r}: {exc}") from exc
        self._limiter = MovingWindowRateLimiter(storage_from_string(storage_uri))

    def hit(self, identity: str) -> None:
        """Counts one request for `identity`; raises RateLimitedError when over a limit."""
        for item in self._items:
            if not self._limiter.hit(item, identity):
                reset = self._limiter.get_window_stats(item, identity).reset_time
                retry_after = max(1, math.ceil(reset - time.time()))
                raise RateLimitedError(
                    f"rate limit {item} exceeded: retry in {retry_after} s", retry_after
                )
