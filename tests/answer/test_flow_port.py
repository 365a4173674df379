"""The answer flow reaches the documents through one port (`retrieve.passages.PassageReader`),
never the store itself."""

from __future__ import annotations

import ast
from pathlib import Path

import citewise.answer.flow as flow
import citewise.answer.summary_flow as summary_flow
from citewise.retrieve.passages import PassageReader, StorePassages


def _imports(module: object) -> set[str]:
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_answer_flow_imports_no_store_module() -> None:
    for module in (flow, summary_flow):
        assert not {m for m in _imports(module) if m.startswith("citewise.store")}


def test_the_store_backed_reader_serves_every_read_of_the_port() -> None:
    wanted = {
        name for name in dir(PassageReader) if not name.startswith("_") and name not in ("graph",)
    }
    assert wanted <= set(dir(StorePassages))
    assert "graph" in dir(StorePassages)
