"""What a document says about itself, from its title, file name and first page (pure)."""

from __future__ import annotations

from citewise.ingest.document_fields import describe, first_page_text
from citewise.types import Child

ANNUAL_COVER = (
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. 20549 FORM 10-K "
    "☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934 "
    "For the fiscal year ended December 31, 2018 ☐ TRANSITION REPORT PURSUANT TO SECTION 13 "
    "Commission file number 1-3285 3M COMPANY State of Incorporation: Delaware"
)
QUARTER_COVER = (
    "FORM 10-Q ☒ QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) For the quarterly period "
    "ended June 30, 2023 Amcor plc (Exact name of registrant as specified in its charter)"
)


def test_annual_report_cover_gives_name_year_and_kind() -> None:
    fields = describe("10-K - 02/07/2019 - 3M Company", "reports/annual-2018.pdf", ANNUAL_COVER)
    assert "3m" in fields.names and "delaware" in fields.cover_names
    assert fields.years == (2018,)
    assert "annual" in fields.kinds and "quarterly" not in fields.kinds
    assert "10-k" in fields.kinds


def test_quarterly_report_states_its_quarter() -> None:
    fields = describe("", "AMCOR_2023Q2_10Q.pdf", QUARTER_COVER)
    assert "amcor" in fields.names
    assert fields.years == (2023,)
    assert "quarterly" in fields.kinds and "annual" not in fields.kinds


def test_without_a_period_on_the_cover_the_file_name_year_counts() -> None:
    fields = describe("Staff handbook", "handbook-2021.docx", "Welcome to Example Ltd.")
    assert fields.years == (2021,)
    assert "handbook" in fields.names and "example" in fields.cover_names


def test_hyphenated_names_count_as_parts_and_joined() -> None:
    fields = describe("", "annual.pdf", "The Coca-Cola Company")
    assert {"coca-cola", "coca", "cola", "cocacola"} <= set(fields.cover_names)


def test_periods_and_months_are_not_names() -> None:
    fields = describe("Results", "q4_2023.pdf", "Fourth Quarter 2023 Results, January 30, 2024")
    assert not {"q4", "2023", "january"} & set(fields.names)
    assert fields.years == (2023,)


def test_versions_come_from_title_and_file_name() -> None:
    assert describe("Python 3.11 manual", "index.html", "").versions == ("3.11",)


def _child(ordinal: int, page: int | None, text: str) -> Child:
    return Child(ordinal, 0, text, text, "", page, page, "h")


def test_first_page_text_stops_at_the_second_page() -> None:
    chunks = [_child(0, 1, "Cover"), _child(1, 1, "name"), _child(2, 2, "Contents")]
    assert first_page_text(chunks) == "Cover\nname"


def test_first_page_text_of_an_unpaged_document_is_its_opening() -> None:
    chunks = [_child(i, None, "word " * 150) for i in range(5)]
    assert len(first_page_text(chunks).split()) == 450
