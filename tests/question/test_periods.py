"""The periods and names a question mentions (pure)."""

from __future__ import annotations

from citewise.question.periods import Periods, name_words, periods


def test_fiscal_years_in_their_usual_spellings() -> None:
    assert periods("What is the FY2018 capital expenditure for 3M?").years == (2018,)
    assert periods("Revenue in fiscal 2023 versus FY22?").years == (2023, 2022)
    assert periods("How did sales change in 2019?").years == (2019,)


def test_amounts_and_long_numbers_are_not_years() -> None:
    assert periods("Was it $2019 or 12019 units or 1,2019?").years == ()


def test_quarter_and_annual_are_told_apart() -> None:
    assert periods("Did margins fall in Q2 of FY2023?") == Periods((2023,), True, True)
    assert periods("What was the second quarter revenue in 2022?").quarterly
    assert not periods("What was revenue in FY2021?").quarterly
    assert periods("What was revenue in FY2021?").annual


def test_name_words_keep_organisations_and_drop_periods_and_sentence_openers() -> None:
    assert name_words("What is the FY2018 capital expenditure amount for 3M?") == ("3m",)
    assert name_words("What are major acquisitions that AMCOR has done in FY2023?") == ("amcor",)
    assert name_words("Was there any change in Best Buy's stores by Q2 of FY2024?") == (
        "best",
        "buy",
        "bestbuy",
    )


def test_a_quarter_written_with_its_year_names_both() -> None:
    assert periods("Which region fell most in Q22023?") == Periods((2023,), True, False)


def test_months_are_not_names() -> None:
    assert name_words("Which segment of JnJ is discontinued from August 30, 2023?") == ("jnj",)
