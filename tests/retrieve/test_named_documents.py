"""The documents a question names among many alike (pure)."""

from __future__ import annotations

from dataclasses import replace

from citewise.retrieve.inside_named import (
    carried_documents,
    first_then_rest,
    inside_query,
    narrowed,
    pages_spread,
    resolved,
)
from citewise.retrieve.named_documents import (
    DescribedDocuments,
    DocumentPrior,
    NamedDocuments,
    named_documents,
)
from citewise.rules.financial_reports import FinancialStatementsRule
from citewise.rules.retrieval import Asks, RetrievalRules, raised
from citewise.types import DocumentFields, DocumentInfo, Hit, SearchFilter


def _doc(source: str, names: tuple[str, ...], years: tuple[int, ...], *kinds: str) -> DocumentInfo:
    fields = DocumentFields(names=(*names, "delaware"), years=years, kinds=kinds)
    return DocumentInfo(0, "default", source, source, "pdf", "", (), "h", 0.0, 1, "ready",
                        None, 1, 0.0, fields=fields)  # fmt: skip


REPORTS = DescribedDocuments.of(
    [
        _doc("3M_2018_10K.pdf", ("3m",), (2018,), "annual"),
        _doc("3M_2022_10K.pdf", ("3m",), (2022,), "annual"),
        _doc("3M_2023Q2_10Q.pdf", ("3m",), (2023,), "quarterly"),
        _doc("AMCOR_2023_10K.pdf", ("amcor",), (2023,), "annual"),
        _doc("AMCOR_2023Q2_10Q.pdf", ("amcor",), (2023,), "quarterly"),
        _doc("BESTBUY_2019_10K.pdf", ("best", "buy"), (2019,), "annual"),
        *(_doc(f"OTHER_{n}.pdf", (f"other{n}",), (2019,), "annual") for n in range(24)),
    ]
)


def test_organisation_and_year_single_out_one_report() -> None:
    named = named_documents("What is the FY2018 capital expenditure for 3M?", REPORTS)
    assert named.unambiguous == ("3M_2018_10K.pdf",)


def test_the_kind_of_period_tells_annual_from_quarterly_reports() -> None:
    quarter = named_documents("What was Amcor's gross margin in Q2 of FY2023?", REPORTS)
    assert quarter.unambiguous == ("AMCOR_2023Q2_10Q.pdf",)
    annual = named_documents("What was Amcor's revenue in FY2023?", REPORTS)
    assert annual.unambiguous == ("AMCOR_2023_10K.pdf",)


def test_of_several_years_the_latest_report_is_searched_first() -> None:
    named = named_documents("How did 3M's capex change from FY2018 to FY2022?", REPORTS)
    assert named.unambiguous == ("3M_2022_10K.pdf",)


def test_file_name_words_outweigh_capitalised_words_on_covers() -> None:
    described = DescribedDocuments.of(
        [
            _doc("AMCOR_2023_10K.pdf", ("amcor",), (2023,), "annual"),
            _doc("OTHER_2023_EARNINGS.pdf", ("other",), (2023,), "annual"),
            *(_doc(f"X{n}.pdf", (f"x{n}",), (2019,)) for n in range(10)),
        ]
    )
    cover = DocumentFields(("other",), ("real", "sales", "fx"), (2023,), ("annual",))
    described = DescribedDocuments.of(
        [replace(d, fields=cover) if d.source.startswith("OTHER") else d for d in
         [DocumentInfo(0, "default", s, s, "pdf", "", (), "h", 0.0, 1, "ready", None, 1, 0.0,
                       fields=f) for s, f in described.fields]]
    )  # fmt: skip
    named = named_documents("What was the Real change in Sales for AMCOR in FY2023?", described)
    assert named.unambiguous == ("AMCOR_2023_10K.pdf",)


def test_a_name_without_a_year_boosts_and_does_not_filter() -> None:
    named = named_documents("Does 3M pay a dividend?", REPORTS)
    assert named.unambiguous == ()
    assert {m.source for m in named.matches} == {
        "3M_2018_10K.pdf", "3M_2022_10K.pdf", "3M_2023Q2_10Q.pdf",
    }  # fmt: skip


def test_a_year_no_report_of_the_organisation_covers_does_not_filter() -> None:
    named = named_documents("What was 3M's revenue in FY2020?", REPORTS)
    assert named.unambiguous == ()
    assert named.matches  # its reports are still boosted


def test_words_every_document_carries_tell_nothing() -> None:
    assert named_documents("Is Delaware the state of incorporation in 2018?", REPORTS).matches == ()


def test_names_no_document_carries_match_nothing() -> None:
    assert named_documents("What is Oracle's revenue in FY2018?", REPORTS) == NamedDocuments()


def test_undescribed_documents_are_left_out() -> None:
    old = [DocumentInfo(0, "default", "x.pdf", "x", "pdf", "", (), "h", 0.0, 1, "ready",
                        None, 1, 0.0)] * 3  # fmt: skip
    assert DescribedDocuments.of(old) == DescribedDocuments()


def test_narrowed_filter_keeps_the_collection_and_names_the_sources() -> None:
    named = NamedDocuments(unambiguous=("a.pdf",))
    assert narrowed(SearchFilter(collection="c"), named) == SearchFilter("c", ("a.pdf",))
    assert narrowed(SearchFilter(), NamedDocuments()) is None


def _hit(chunk_id: int, source: str, score: float) -> Hit:
    return Hit(chunk_id, chunk_id, 0, source, source, None, None, "", score, "", 0)


def test_first_then_rest_skips_repeats_and_stops_at_k() -> None:
    first = [_hit(1, "a", 1.0), _hit(2, "a", 0.9)]
    rest = [_hit(2, "a", 0.9), _hit(3, "b", 0.8), _hit(4, "b", 0.7)]
    assert [h.chunk_id for h in first_then_rest(first, rest, 3)] == [1, 2, 3]


def test_boost_raises_named_documents_hits() -> None:
    named = named_documents("Does 3M pay a dividend?", REPORTS)
    hits = [_hit(1, "AMCOR_2023_10K.pdf", 1.0), _hit(2, "3M_2022_10K.pdf", 0.8)]
    prior = DocumentPrior(store=None, boost=0.5)  # type: ignore[arg-type]
    assert [h.source for h in prior.rescored(hits, named)] == [
        "3M_2022_10K.pdf", "AMCOR_2023_10K.pdf",
    ]  # fmt: skip


def test_a_name_many_documents_carry_tells_nothing() -> None:
    common = DescribedDocuments.of(
        [_doc(f"guide-{n}.html", ("python", f"topic{n}"), ()) for n in range(20)]
        + [_doc("other.html", ("other",), ())]
    )
    assert named_documents("How does Python sort lists?", common).matches == ()
    assert [m.source for m in named_documents("What is Topic3?", common).matches] == [
        "guide-3.html"
    ]


def test_a_comparison_naming_one_side_boosts_neither() -> None:
    assert named_documents("How does Amcor compare with its rivals on margins?", REPORTS) == (
        NamedDocuments()
    )
    compared_years = named_documents(
        "How did 3M's capex change between FY2018 and FY2022?", REPORTS
    )
    assert compared_years.unambiguous == ("3M_2022_10K.pdf",)


def test_a_document_stored_later_is_named_once_the_list_is_read_again() -> None:
    class Listing:
        def __init__(self) -> None:
            self.docs = [
                _doc(f"OTHER_{n}.pdf", (f"other{n}",), (2019,), "annual") for n in range(9)
            ]

        def list_documents(self, collection: str) -> list[DocumentInfo]:
            return list(self.docs)

    now = [0.0]
    store = Listing()
    prior = DocumentPrior(store, fresh_seconds=30.0, clock=lambda: now[0])  # type: ignore[arg-type]
    flt = SearchFilter(collection="default")
    question = "What was Amcor's revenue in FY2023?"
    assert not prior.named(question, flt).unambiguous
    store.docs.append(_doc("AMCOR_2023_10K.pdf", ("amcor",), (2023,), "annual"))
    now[0] = 29.0
    assert not prior.named(question, flt).unambiguous
    now[0] = 31.0
    assert prior.named(question, flt).unambiguous == ("AMCOR_2023_10K.pdf",)


def _statements(query: str) -> Asks:  # the financial statements switched on everywhere
    return RetrievalRules((FinancialStatementsRule(),)).asked(query)


def test_inside_the_named_report_the_query_drops_names_and_adds_statement_words() -> None:
    question = "What is the FY2018 capital expenditure for 3M?"
    named = named_documents(question, REPORTS)
    plain, none = inside_query(question, named)
    assert (plain, bool(none)) == ("What is the capital expenditure for ?", False)
    text, ask = inside_query(question, named, asked=_statements)
    assert text == (
        "What is the capital expenditure for ? consolidated statements of cash flows"
        " purchases of property plant and equipment capital expenditures"
    )
    assert ask.raises("Consolidated Statements of Cash Flows")
    assert not ask.raises("Consolidated Balance Sheets")


def _titled(chunk_id: int, section: str, text: str, score: float) -> Hit:
    return replace(_hit(chunk_id, "3M_2018_10K.pdf", score), section=section, text=text)


def test_passages_of_an_asked_statement_rise_above_others() -> None:
    _, ask = inside_query("What was the capex in FY2018?", NamedDocuments(), asked=_statements)
    hits = [
        _titled(1, "Item 7 > Liquidity", "Capital expenditures rose in 2018.", 1.0),
        _titled(2, "Item 8 > Consolidated Statement of Cash Flows", "Purchases of PP&E", 0.8),
        _titled(3, "Item 8", "Consolidated Statements of Cash Flows | 2018 | 2017", 0.6),
    ]
    assert [h.chunk_id for h in raised(hits, ask, 0.5)] == [2, 1, 3]
    assert [h.chunk_id for h in raised(hits, ask, 1.0)] == [2, 3, 1]
    assert [h.chunk_id for h in raised(hits, ask, 0.0)] == [1, 2, 3]


def _on_page(chunk_id: int, source: str, page: int | None) -> Hit:
    return replace(_hit(chunk_id, source, 1.0 - chunk_id / 10), page=page)


def test_passages_beyond_one_a_page_wait_behind_other_pages() -> None:
    hits = [
        _on_page(1, "a.pdf", 5), _on_page(2, "a.pdf", 5), _on_page(3, "a.pdf", 7),
        _on_page(4, "b.pdf", 5), _on_page(5, "a.pdf", 5), _on_page(6, "a.pdf", None),
        _on_page(7, "a.pdf", None),
    ]  # fmt: skip
    assert [h.chunk_id for h in pages_spread(hits, 1)] == [1, 3, 4, 6, 7, 2, 5]
    assert [h.chunk_id for h in pages_spread(hits, 2)] == [1, 2, 3, 4, 6, 7, 5]
    assert [h.chunk_id for h in pages_spread(hits, 0)] == [1, 2, 3, 4, 5, 6, 7]


def _agreement(source: str, names: tuple[str, ...], *aliases: tuple[str, str]) -> DocumentInfo:
    fields = DocumentFields(cover_names=names, aliases=aliases)
    return DocumentInfo(0, "default", source, source, "pdf", "", (), "h", 0.0, 1, "ready",
                        None, 1, 0.0, fields=fields)  # fmt: skip


AGREEMENTS = DescribedDocuments.of(
    [
        _agreement(
            "ex10-89.pdf",
            ("liebherr", "western", "traction"),
            ("Liebherr Construction Equipment Co.", "Liebherr"),
            ("Western Traction Company", "Distributor"),
        ),
        _agreement(
            "ex10-04.html",
            ("point", "therapeutics", "richard", "small"),
            ("Point Therapeutics, Inc.", "Company"),
            ("Richard N. Small", "Consultant"),
        ),
        *(_agreement(f"other-{n}.pdf", (f"party{n}", "delaware")) for n in range(8)),
    ]
)


def test_with_by_names_the_parties_alone_single_out_their_agreement_and_lend_their_roles() -> None:
    question = "How long is the warranty on machines that Western Traction sells?"
    named = named_documents(question, AGREEMENTS, by_names=True)
    assert named.unambiguous == ("ex10-89.pdf",)
    assert named.terms == (("western", "Distributor"), ("traction", "Distributor"))
    inside, _ = inside_query(question, named)
    # the ask ranks inside the agreement in its own term for the names that chose it
    assert inside == "How long is the warranty on machines that Distributor sells?"
    assert named_documents(question, AGREEMENTS).unambiguous == ()  # off: names only boost


def test_carried_documents_are_searched_first_each_once() -> None:
    carried = carried_documents(["ex10-04.html", "ex10-04.html", "a", "b", "c"])
    assert [m.source for m in carried.matches] == ["ex10-04.html", "a", "b"]
    assert carried.unambiguous == ("ex10-04.html", "a", "b") and carried.names == ()
    assert narrowed(SearchFilter(), carried) == SearchFilter(sources=carried.unambiguous)


def test_the_names_that_chose_an_agreement_read_as_its_own_terms() -> None:
    question = "How long is the warranty on machines that Western Traction sells?"
    named = named_documents(question, AGREEMENTS, by_names=True)
    assert resolved(question, named) == (
        "How long is the warranty on machines that Distributor sells?"
    )
    boosted_only = named_documents(question, AGREEMENTS)
    assert resolved(question, boosted_only) == question


def test_a_name_maps_to_a_term_only_when_the_question_spells_most_of_it() -> None:
    fields = DocumentFields(
        aliases=(
            ("Western Traction Company", "Distributor"),
            ("Amazon Web Services", "AWS"),
            ("Flat Datacenter Storage", "FDS"),
        )
    )
    assert set(fields.terms_for({"western", "traction"})) == {
        ("western", "Distributor"),
        ("traction", "Distributor"),
    }
    assert fields.terms_for({"amazon"}) == ()  # one word of three names no one
    assert fields.terms_for({"fds"}) == ()  # an abbreviation is not expanded


def test_a_name_only_a_title_carries_boosts_and_does_not_filter() -> None:
    papers = DescribedDocuments.of(
        [
            _agreement("dynamo.pdf", ("amazon", "dynamo")),
            *(_agreement(f"paper-{n}.pdf", (f"system{n}",)) for n in range(8)),
        ]
    )
    named = named_documents("How does Amazon express its guarantees?", papers, by_names=True)
    assert named.unambiguous == () and named.boost("dynamo.pdf") > 0
