"""Byte sizes for people: binary units, named as such ("110 MiB", "4.9 KiB"), the way the
web UI words them; one decimal, dropped when it is zero."""

from __future__ import annotations

UNITS = (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10))


def human_size(size: int) -> str:
    for unit, scale in UNITS:
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"
