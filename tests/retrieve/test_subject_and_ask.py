"""Inside the documents a question's subject chose, the ask ranks the passages: every name
those documents define reads as their own term, and keyword search matches the ask without
the subject's words (the names and the documents' terms for them), which most passages there
carry while their rarity in the collection would carry a preamble or a signature block."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.inside_named import resolved, without_subject
from citewise.retrieve.named_documents import DescribedDocuments, named_documents
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions, SubjectWords
from citewise.store.base import Store
from citewise.types import DocumentFields, DocumentInfo, SearchFilter
from recording_keywords import RecordingKeywords
from support import write_corpus


def _agreement(source: str, title: str, *aliases: tuple[str, str]) -> DocumentInfo:
    """An agreement whose file name or title carries `title`, its parties on its cover."""
    cover = tuple(w.lower() for name, _ in aliases for w in name.split()[:2])
    fields = DocumentFields(names=(title,), cover_names=cover, aliases=aliases)
    return DocumentInfo(0, "default", source, source, "pdf", "", (), "h", 0.0, 1, "ready",
                        None, 1, 0.0, fields=fields)  # fmt: skip


AGREEMENTS = DescribedDocuments.of(
    [
        _agreement(
            "ex10-89.pdf",
            "liebherr",
            ("Liebherr Construction Equipment Co.", "Liebherr"),
            ("Western Traction Company", "Distributor"),
        ),
        _agreement(
            "cms-littlestown.txt",
            "littlestown",
            ("Theriac of Littlestown, LLC", "Owner"),
            ("Devoto Construction, Inc.", "Devoto"),
        ),
        *(
            _agreement(f"other-{n}.pdf", f"party{n}", (f"Party{n} Tools", "Company"))
            for n in range(8)
        ),
    ]
)


def test_every_name_the_chosen_documents_define_reads_as_their_term() -> None:
    question = "Which state's law governs Western Traction's agreement with Liebherr?"
    named = named_documents(question, AGREEMENTS, by_names=True)
    assert named.unambiguous == ("ex10-89.pdf",)
    # the file name chose the agreement; "Western Traction" did not, but the agreement
    # defines it: its clauses say "Distributor"
    assert named.names == ("liebherr",)
    assert resolved(question, named) == (
        "Which state's law governs Distributor agreement with Liebherr?"
    )
    # only the names that chose the documents (as the answerer reads the question)
    assert resolved(question, named, every_name=False) == question


def test_a_name_of_several_words_joined_by_of_becomes_one_term() -> None:
    question = "What management fee does Devoto charge Theriac of Littlestown?"
    named = named_documents(question, AGREEMENTS, by_names=True)
    assert named.unambiguous == ("cms-littlestown.txt",)
    assert resolved(question, named) == "What management fee does Devoto charge Owner?"


def test_inside_the_ask_goes_without_the_subject_but_keeps_the_words_it_uses_as_words() -> None:
    question = "Which state's law governs Western Traction's agreement with Liebherr?"
    named = named_documents(question, AGREEMENTS, by_names=True)
    assert without_subject(question, named) == "Which state's law governs agreement with ?"
    # "Company" is a party's term in the agreements; "another company" is no party
    question = "Can Party3 Tools assign the agreement to another company?"
    named = named_documents(question, AGREEMENTS, by_names=True)
    assert named.unambiguous == ("other-3.pdf",) and ("party3", "Company") in named.terms
    assert without_subject(question, named) == "Can assign the agreement to another company?"
    only_names = named_documents("What about Western Traction?", AGREEMENTS, by_names=True)
    assert only_names.unambiguous == ("ex10-89.pdf",)
    # no content word left: the ask stays as it is
    assert without_subject("What about Western Traction?", only_names) == (
        "What about Western Traction?"
    )


AGREEMENT_FILES = {
    "acme-distribution.md": (
        "# Distribution Agreement\n\nThis Distribution Agreement is made as of March 1, 2020 by"
        ' and between Acme Tools Corporation, a Nevada corporation ("Supplier"), and Western'
        ' Traction Company, Inc. ("Distributor").\n\n## 1. Promotion\n\nDistributor shall'
        " display the Products at the most suitable trade exhibitions in the Territory.\n\n"
        "## 2. Payment\n\nDistributor shall pay each invoice within thirty days.\n"
    ),
    "beta-supply.md": (
        "# Supply Agreement\n\nThis Supply Agreement is made as of June 1, 2021 by and between"
        ' Beta Foods LLC ("Buyer") and Gamma Farms Inc. ("Seller").\n\n## 1. Delivery\n\n'
        "Seller shall deliver the goods to the exhibitions Buyer names.\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("agreements")
    with Assistant(data_dir=root / "data", embedder=HashingEmbedder(dim=64)) as a:
        a.ingest([write_corpus(root / "docs", dict(AGREEMENT_FILES))])
        yield inside(a).store


RESOLVED = "At which shows must Distributor display Supplier products?"
ASK_ALONE = "At which shows must display products?"


@pytest.mark.parametrize(
    ("mode", "matched", "ask"),
    [("none", ASK_ALONE, ASK_ALONE), ("vector", ASK_ALONE, RESOLVED), ("kept", RESOLVED, RESOLVED)],
)
def test_the_retriever_searches_the_chosen_agreement_with_the_ask_alone(
    store: Store, mode: SubjectWords, matched: str, ask: str
) -> None:
    keywords = RecordingKeywords(store)
    options = RetrievalOptions(subject_words=mode)
    retriever = HybridRetriever(store, lambda: HashingEmbedder(dim=64), options, [keywords])
    question = "At which shows must Western Traction display Acme's products?"
    # the ask reranks the passages (`retrieve.passages`); keyword search matches its words
    assert retriever.ask(question, SearchFilter()) == ask
    hits = retriever.search(question, k=3, mode="keyword", flt=SearchFilter()).hits
    assert keywords.seen[0] == matched  # the rest of the collection follows, searched whole
    assert {h.source for h in hits} == {"acme-distribution.md"}
    assert hits[0].text.startswith("Distributor shall display the Products")
