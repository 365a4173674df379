from __future__ import annotations

from citewise.answer.lexical import (
    Evidence,
    counts,
    missing_spelled_numbers,
    missing_values,
    numbers,
    trigram_overlap,
    word_overlap,
)


def test_numbers_are_normalised_sizes_versions_and_exponents() -> None:
    assert numbers("Up to 4 MB, 4,300 digits, rel_tol=1e-09 in Python 3.11 [2].") == [
        "4mb",
        "4300",
        "1e-09",
        "3.11",
    ]


def test_list_markers_and_citation_numbers_are_not_values() -> None:
    assert numbers("1. Keep the logs [3].") == []


def test_value_in_other_notation_is_found() -> None:
    ev = Evidence.of(["The limit is 4300 digits and uploads up to 4MB; four retries."])
    assert missing_values("Uploads up to 4 MB and 4,300 digits, 4 retries.", ev) == []


def test_value_absent_from_evidence_is_reported() -> None:
    ev = Evidence.of(["The default protocol is 4."])
    assert missing_values("The default protocol is 5.", ev) == ["5"]
    assert missing_values("It raises FileNotFoundError.", Evidence.of(["raises OSError"])) == [
        "FileNotFoundError"
    ]


def test_version_prefix_does_not_match_a_longer_number() -> None:
    ev = Evidence.of(["Changed in version 3.110."])
    assert missing_values("Changed in 3.11.", ev) == ["3.11"]


def test_overlap_scores() -> None:
    ev = Evidence.of(["Dictionaries preserve insertion order of their keys."])
    assert word_overlap("Dictionaries preserve insertion order.", ev) == 1.0
    assert trigram_overlap("Dictionaries preserve insertion order.", ev) == 1.0
    assert word_overlap("Sets are unordered collections.", ev) == 0.0
    assert 0.0 < word_overlap("Dictionaries are unordered.", ev) < 1.0


def test_a_spelled_count_must_count_the_same_thing_in_the_evidence() -> None:
    ev = Evidence.of(["6. Conveying. Valid for at least three years, or 2 more."])
    assert missing_spelled_numbers("Valid for at least six years [1].", ev) == ["six"]
    assert missing_spelled_numbers("Valid for at least three years [1].", ev) == []
    assert missing_spelled_numbers("Two of them [1].", ev) == []  # "of" counts nothing
    assert counts("a 6-year term, three (3) days, 25MB, tenants") == {
        ("6", "year"),
        ("3", "day"),
        ("25", "mb"),
    }


def test_a_size_in_words_is_the_same_value_as_in_digits() -> None:
    ev = Evidence.of(["The default value is four megabytes. It defaults to 64 megabytes."])
    assert missing_values("The defaults are 4MB and 64 MB [1].", ev) == []
    assert missing_values("The default is 8MB [1].", ev) == ["8mb"]


def test_a_thousands_separator_before_a_unit_is_the_same_number() -> None:
    ev = Evidence.of(["FDS, 2012 256 1,033 1,470GB 59.4 s"])
    assert missing_values("1,470 GB in 59.4 s on 256 computers with 1,033 disks.", ev) == []
    assert missing_values("1,570 GB in 59.4 s.", ev) == ["1570gb"]


def test_a_plural_unit_is_the_value_of_its_singular() -> None:
    ev = Evidence.of(["There is a 240 hour limit on the hours you can carry over."])
    assert missing_values("Only 240 hours can carry over.", ev) == []
    assert numbers("240 hours, 3 days, 5 s") == ["240hour", "3day", "5s"]


def test_a_number_whose_unit_word_comes_later_in_its_sentence_is_held() -> None:
    ev = Evidence.of(["You can carry over a maximum of 240 annual leave hours. Days are 8."])
    assert missing_values("At most 240 hours carry over.", ev) == []
    assert missing_values("At most 250 hours carry over.", ev) == ["250hour"]
    assert missing_values("At most 8 hours a day.", ev) == ["8hour"]  # another sentence
    counted = Evidence.of(["You may work 12 weeks in a row; hours are logged."])
    assert missing_values("You may work 12 hours.", counted) == ["12hour"]  # 12 counts weeks


def test_an_iso_dates_month_and_day_are_numbers_without_their_zero() -> None:
    ev = Evidence.of(["minutes/tsc-2026-01-07.md"])
    assert missing_values("On 7 January 2026 they met.", ev) == []
    assert missing_values("On 8 January 2026 they met.", ev) == ["8"]
