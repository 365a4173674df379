"""A pack's retrieval rule applies inside the documents it recognises by their opening
passages, under a profile that does not switch it on everywhere; each document is read once
per stored version."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.embed.hashing import HashingEmbedder
from citewise.retrieve.recognised import Recognition
from citewise.retrieve.retriever import HybridRetriever, RetrievalOptions
from citewise.rules import retrieval_rules, rule_pack
from citewise.rules.financial_reports import FinancialStatementsRule
from citewise.store.base import Store
from citewise.types import DocumentInfo, SearchFilter
from recording_keywords import RecordingKeywords
from support import write_corpus

COVER = "SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nAnnual report pursuant to Section 13"
AGREEMENT = "This Agreement is entered into by Acme Inc. and Beta LLC."


@dataclass
class _Store:
    """The two reads recognition makes: a document's visible version, its first passages."""

    openings: dict[str, tuple[int, str]]
    reads: list[int] = field(default_factory=list)

    def find_document(self, collection: str, source: str) -> DocumentInfo | None:
        if source not in self.openings:
            return None
        doc_id = self.openings[source][0]
        return DocumentInfo(doc_id, collection, source, source, "pdf", "", (), "h", 0.0, 1,
                            "ready", None, 1, 0.0)  # fmt: skip

    def document_texts(self, doc_id: int, limit: int | None = None) -> list[tuple[int, str, str]]:
        self.reads.append(doc_id)
        text = next(t for i, t in self.openings.values() if i == doc_id)
        return [(doc_id * 10, text, "")]


def _recognition(store: _Store) -> Recognition:
    return Recognition(store)  # type: ignore[arg-type]  # the two reads Store declares


def test_a_filing_is_recognised_once_per_version_and_an_agreement_not() -> None:
    store = _Store({"3M_2018_10K.pdf": (1, COVER), "acme.pdf": (2, AGREEMENT)})
    seen = _recognition(store)
    rule = FinancialStatementsRule()
    report = SearchFilter(sources=("3M_2018_10K.pdf",))
    assert seen.recognises(rule, report)
    assert seen.recognises(rule, report)
    assert store.reads == [1]
    assert not seen.recognises(rule, SearchFilter(sources=("acme.pdf",)))
    # every singled-out document must be one, and some must be singled out
    assert not seen.recognises(rule, SearchFilter(sources=("3M_2018_10K.pdf", "acme.pdf")))
    assert not seen.recognises(rule, SearchFilter())
    store.openings["3M_2018_10K.pdf"] = (3, AGREEMENT)  # replaced by another version
    assert not seen.recognises(rule, report)


def test_the_general_profile_applies_the_statements_only_where_recognised() -> None:
    general = retrieval_rules(rule_pack("general"))
    assert not general.everywhere and general.recognised
    question = "What was the capital expenditure in FY2018?"
    assert not general.asked(question, lambda rule: False)
    assert (
        general.asked(question, lambda rule: True)
        .search_words()
        .startswith("consolidated statements of cash flows")
    )
    # a question asking the rule nothing reads no document
    asked: list[str] = []
    general.asked("Who signed it?", lambda rule: bool(asked.append(rule.switch)))
    assert asked == []
    profile = retrieval_rules(rule_pack("financial_reports"))
    assert profile.everywhere and not profile.recognised
    assert profile.asked(question)


def test_a_joined_profile_recognises_what_none_of_its_packs_switches_on_everywhere() -> None:
    assert rule_pack("api_reference+cli_options").where_recognised == ("financial_statements",)
    both = rule_pack("general+financial_reports")
    assert both.switches == ("financial_statements",) and both.where_recognised == ()
    assert rule_pack("financial_reports").where_recognised == ()


def _report(company: str, cover: str) -> str:
    return (
        f"# {company} Corporation\n\n{cover}\n\nFor the fiscal year ended December 31, 2018.\n\n"
        "## Liquidity\n\nCapital spending was discussed with the board in 2018.\n\n"
        "## Consolidated Statements of Cash Flows\n\n"
        "Purchases of property, plant and equipment: 1,577.\n"
    )


FILINGS = {
    "acme_2018_10k.md": _report("Acme", "SECURITIES AND EXCHANGE COMMISSION. FORM 10-K."),
    "beta_2018_10k.md": _report("Beta", "SECURITIES AND EXCHANGE COMMISSION. FORM 10-K."),
    "gamma_2018_notes.md": _report("Gamma", "Notes of the planning meeting."),
}


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("filings")
    with Assistant(data_dir=root / "data", embedder=HashingEmbedder(dim=64)) as a:
        a.ingest([write_corpus(root / "docs", FILINGS)])
        yield inside(a).store


@pytest.mark.parametrize(
    ("company", "source", "statements"),
    [("Acme", "acme_2018_10k.md", True), ("Gamma", "gamma_2018_notes.md", False)],
)
def test_the_general_profile_searches_the_statements_inside_a_recognised_filing(
    filings: Store, company: str, source: str, statements: bool
) -> None:
    keywords = RecordingKeywords(filings)
    rules = retrieval_rules(rule_pack("general"))
    retriever = HybridRetriever(
        filings, lambda: HashingEmbedder(dim=64), RetrievalOptions(), [keywords], rules=rules
    )
    question = f"What was {company}'s capital expenditure in FY2018?"
    hits = retriever.search(question, k=3, mode="keyword", flt=SearchFilter()).hits
    assert {h.source for h in hits} == {source}
    added = "consolidated statements of cash flows" in keywords.seen[0]
    assert added == statements
