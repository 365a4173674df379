"""The facade is closed: outside the composition root (`citewise/assistant/`, `services.py`) no
module of citewise reaches through an `Assistant` to its parts (store, memory, embedder,
retrievers, the wired `Components`) nor imports the test-only door `assistant.inside`; the
API, MCP, CLI, workers and evaluation call its methods (docs/facade.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import citewise
from citewise.assistant import Assistant

ROOT = Path(citewise.__file__).parent
COMPOSITION_ROOT = (ROOT / "assistant", ROOT / "services.py")
# what is behind the facade: tests and benchmarks may look (`assistant.inside`), the
# product's doors may not
INSIDE = frozenset({
    "store", "memory", "parts", "retriever", "embedder", "open_store", "ingester", "candidates",
    "conversation", "_parts", "_store", "_memory",
})  # fmt: skip
TEST_DOOR = "citewise.assistant.inside"


def _names_of_assistants(tree: ast.AST) -> set[str]:
    """Names bound to an assistant: annotated `Assistant`/`AssistantDep`, assigned from
    `Assistant(...)` or opened by `with Assistant(...)/open_assistant(...) as name`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            if "Assistant" in ast.unparse(node.annotation):
                names.add(node.arg)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "Assistant" in ast.unparse(node.annotation):
                names.add(node.target.id)
        elif isinstance(node, ast.Assign) and "Assistant(" in ast.unparse(node.value):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.withitem)
            and isinstance(node.optional_vars, ast.Name)
            and "ssistant(" in ast.unparse(node.context_expr)
        ):
            names.add(node.optional_vars.id)
    return names


def reach_throughs(source: str) -> list[str]:
    """`line: expression` for each access to an assistant's insides in `source`."""
    tree = ast.parse(source)
    assistants = _names_of_assistants(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr not in INSIDE:
            continue
        base = node.value
        named = isinstance(base, ast.Name) and base.id in assistants
        if named or ast.unparse(base).lower().endswith("assistant"):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def door_imports(source: str) -> list[int]:
    """The lines of `source` that import `assistant.inside`."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if (isinstance(node, ast.Import) and any(a.name == TEST_DOOR for a in node.names))
        or (isinstance(node, ast.ImportFrom) and _imports_the_door(node))
    ]


def _imports_the_door(node: ast.ImportFrom) -> bool:
    names = {a.name for a in node.names}
    return node.module == TEST_DOOR or (node.module == "citewise.assistant" and "inside" in names)


def test_the_checker_finds_each_way_in() -> None:
    source = """
def a(assistant: Assistant): assistant.store.stats()
def b(request): request.app.state.assistant.memory.delete("k")
def c(x: AssistantDep): x.parts.conversation.get()
def d():
    with open_assistant(None, None) as helper:
        helper.retriever(candidates=True)
def e(served): served.store.collections()  # not known to be an assistant
"""
    assert sorted(int(f.split(":")[0]) for f in reach_throughs(source)) == [2, 3, 4, 7]


def test_the_checker_finds_the_test_door_imported() -> None:
    source = f"import {TEST_DOOR}\nfrom citewise.assistant import inside\nimport os\n"
    assert door_imports(source) == [1, 2]


def test_no_module_outside_the_composition_root_reaches_into_the_assistant() -> None:
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted(ROOT.rglob("*.py"))
        if not any(path == r or r in path.parents for r in COMPOSITION_ROOT)
        and (found := reach_throughs(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_no_module_outside_the_composition_root_opens_the_test_door() -> None:
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted(ROOT.rglob("*.py"))
        if not any(path == r or r in path.parents for r in COMPOSITION_ROOT)
        and (found := door_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_parts_are_not_public() -> None:
    """What used to be public for workers, evaluation and tests is behind the test door."""
    public = {name for name in dir(Assistant) if not name.startswith("_")}
    assert public & INSIDE == set()


def test_the_facade_names_what_the_doors_use() -> None:
    """Each group the doors need is a method of `Assistant` (the API, MCP and CLI call these)."""
    for method in (
        "ingest", "reindex", "backup", "documents", "document", "find_document", "delete",
        "collections", "require_collection", "source_taken", "source_root", "passages",
        "document_passages", "missing_vectors", "stats", "health", "search", "ask", "stream",
        "sessions", "has_session", "history", "turns", "session_summary", "delete_session",
        "forget_session", "replay", "graph_entity", "graph_related", "graph_ego",
        "graph_snapshot", "build_graph", "job_queue", "answer_slots", "ingest_from_queue",
        "with_memory", "warm_up",
    ):  # fmt: skip
        assert callable(getattr(Assistant, method)), method
