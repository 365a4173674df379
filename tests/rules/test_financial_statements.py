"""The financial statements a question needs, and the passages titled by them (pure)."""

from __future__ import annotations

from citewise.rules.financial_reports import is_financial_report
from citewise.rules.financial_statements import (
    BALANCE,
    CASH_FLOW,
    INCOME,
    StatementAsk,
    asked_statements,
)
from citewise.rules.retrieval import Asks


def test_a_named_statement_is_asked_for() -> None:
    ask = asked_statements("Basing your judgments off of the balance sheet, what is the total?")
    assert ask.statements == (BALANCE,)
    assert asked_statements("What does the statement of financial position say?").statements == (
        BALANCE,
    )
    assert asked_statements("Using the cash flow statement, how much?").statements == (CASH_FLOW,)
    assert asked_statements("Per the statement of income, what?").statements == (INCOME,)


def test_a_measure_brings_its_statement_and_row_labels() -> None:
    ask = asked_statements("What is the capital expenditure amount?")
    assert ask.statements == (CASH_FLOW,)
    assert ask.rows == ("purchases of property plant and equipment capital expenditures",)
    assert asked_statements("What is the quick ratio?").statements == (BALANCE,)
    assert asked_statements("What is the COGS?").statements == (INCOME,)


def test_the_named_statement_comes_before_those_its_measures_imply() -> None:
    ask = asked_statements("From the income statement and balance sheet, inventory turnover?")
    assert ask.statements == (BALANCE, INCOME)
    ask = asked_statements("Using the cash flow statement, what was the free cash flow?")
    assert ask.statements[0] == CASH_FLOW


def test_a_question_naming_no_statement_or_measure_asks_for_none() -> None:
    ask = asked_statements("Who is the new chief executive officer?")
    assert not ask
    assert Asks((ask,)).with_words("Who is the new CEO?") == "Who is the new CEO?"


def test_the_search_words_are_the_titles_then_the_row_labels() -> None:
    ask = asked_statements("What is the capex?")
    assert Asks((ask,)).with_words("What is the capex?") == (
        "What is the capex? consolidated statements of cash flows"
        " purchases of property plant and equipment capital expenditures"
    )


def test_a_passage_titled_by_an_asked_statement_is_recognised() -> None:
    ask = StatementAsk((CASH_FLOW,))
    assert ask.titled("3M Company Consolidated Statement of Cash Flows Years ended December 31")
    assert ask.titled("PART II > STATEMENTS OF CONSOLIDATED CASH FLOWS")
    assert not ask.titled("Cash flows from operating activities were higher in 2018.")
    income = StatementAsk((INCOME,))
    assert income.titled("Consolidated Statements of Operations (in millions)")
    assert income.titled("CONSOLIDATED STATEMENTS OF EARNINGS")
    assert not income.titled("Consolidated Statements of Comprehensive Income")
    assert StatementAsk((BALANCE,)).titled("NIKE, INC. CONSOLIDATED BALANCE SHEETS | MAY 31,")


def test_a_list_of_the_statements_is_not_one_of_them() -> None:
    ask = StatementAsk((INCOME,))
    assert not ask.titled(
        "Consolidated Statements of Operations 53 Consolidated Balance Sheets 55"
        " Consolidated Statements of Cash Flows 56"
    )


def test_parent_company_and_consolidating_schedules_are_not_the_statements() -> None:
    ask = StatementAsk((BALANCE,))
    assert not ask.titled("PARENT COMPANY – CONDENSED BALANCE SHEETS | As of December 31")
    assert not ask.titled("The Kraft Heinz Company Condensed Consolidating Balance Sheets")
    assert ask.titled("Ulta Beauty, Inc. Condensed Consolidated Balance Sheets (In thousands)")


def test_a_filing_cover_or_a_results_release_is_recognised_as_a_report() -> None:
    assert is_financial_report(
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. 20549 FORM 10-K"
    )
    assert is_financial_report("Quarterly report pursuant to Section 13 or 15(d) of the Act")
    assert is_financial_report(
        "2022 Fourth-Quarter reported sales decline of 4.4%; earnings per share (EPS) of $1.33;"
        " Net Earnings $3,520; the Company announced results for the full year"
    )


def test_an_agreement_or_a_paper_is_not_a_report() -> None:
    assert not is_financial_report(
        "This Distribution Agreement is entered into by Acme Inc. and Beta LLC. Distributor"
        " shall pay the fees within thirty days of each invoice; net revenues of the Products"
    )
    assert not is_financial_report(
        "Abstract. We study cash flow prediction with recurrent networks in the first quarter"
    )
