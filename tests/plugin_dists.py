"""Fake installed distributions for plugin tests: a package and its `*.dist-info` (with
`entry_points.txt`) written into a folder that a test puts on sys.path."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def write_dist(
    root: Path,
    name: str,
    entry_points: Mapping[str, Mapping[str, str]],
    modules: Mapping[str, str] | None = None,
    version: str = "1.0",
) -> Path:
    """Writes `modules` (relative path → source) and the dist-info of `name` under `root`."""
    for rel, source in (modules or {}).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = []
    for group, entries in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return root
