"""The answer flow reaches the documents through one port (`retrieve.passages.PassageReader`),
never the store itself."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import cast

import citewise.answer.document_summary as document_summary
import citewise.answer.flow as flow
import citewise.chat.conversation as conversation
import citewise.chat.intents.probe as probe
from answer_factories import document_answerer
from citewise.question.question import Prior, Subject
from citewise.retrieve.named_documents import DocumentMatch, NamedDocuments
from citewise.retrieve.passages import PassageReader, StorePassages
from citewise.types import SearchFilter


def _imports(module: object) -> set[str]:
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_the_answer_flow_and_the_conversation_import_no_store_module() -> None:
    # the intent router's off-topic probe too: it reads through the answer flow's port
    for module in (flow, document_summary, conversation, probe):
        assert not {m for m in _imports(module) if m.startswith("citewise.store")}


def test_the_store_backed_reader_serves_every_read_of_the_port() -> None:
    wanted = {
        name for name in dir(PassageReader) if not name.startswith("_") and name not in ("graph",)
    }
    assert wanted <= set(dir(StorePassages))
    assert "graph" in dir(StorePassages)


class _Named:
    """A reader that only knows which documents a question names."""

    vectors = None

    def named(self, question: str, flt: SearchFilter) -> NamedDocuments:
        match = DocumentMatch("acme-distribution.pdf", 1.0, False, False)
        return NamedDocuments((match,), ("acme-distribution.pdf",) if "Acme" in question else ())


def test_a_follow_up_inherits_the_cited_documents_else_those_its_last_question_named() -> None:
    # only `named` is read: the rest of the port is never reached
    answerer = document_answerer(cast(PassageReader, _Named()))
    cited = Prior(Subject(), ("lease.md",), "What is the rent under the Acme lease?")
    assert answerer._carried(cited, SearchFilter()) == ("lease.md",)
    uncited = Prior(Subject(("acme",)), (), "What must Acme show at exhibitions?")
    assert answerer._carried(uncited, SearchFilter()) == ("acme-distribution.pdf",)
    assert answerer._carried(None, SearchFilter()) == ()
