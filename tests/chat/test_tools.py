"""The calculator and date/time tools: detection, results, and refusing anything unsafe."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from citewise.chat.tools import TOOL_SPECS, ToolCall, calculate, detect_tool, run_tool
from citewise.errors import InputError

NOW = datetime(2026, 7, 14, 9, 30, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("question", "output"),
    [
        ("17% of 2,340", "17% of 2,340 = 397.8"),
        ("what is 17% of 2,340?", "17% of 2,340 = 397.8"),
        ("2,340 * 0.17", "2,340 * 0.17 = 397.8"),
        ("What is 12.5 percent of 1,000,000?", "12.5 percent of 1,000,000 = 125,000"),
        ("Calculate (1 + 2) * 3", "(1 + 2) * 3 = 9"),
        ("how much is 10 / 4", "10 / 4 = 2.5"),
        ("7 // 2 + 7 % 2", "7 // 2 + 7 % 2 = 4"),
        ("what's 2^10", "2^10 = 1,024"),
        ("2 ** -1", "2 ** -1 = 0.5"),
        ("-3 * -(4)", "-3 * -(4) = 12"),
        ("sqrt(16) + abs(-2)", "sqrt(16) + abs(-2) = 6"),
        ("round(2 / 3, 3)", "round(2 / 3, 3) = 0.667"),
        ("max(3, 7) - min(3, 7)", "max(3, 7) - min(3, 7) = 4"),
        ("log(1000, 10)", "log(1000, 10) = 3"),
        ("square root of 144", "square root of 144 = 12"),
        ("6 x 7", "6 x 7 = 42"),
        ("0.1 + 0.2", "0.1 + 0.2 = 0.3"),
    ],
)
def test_calculator_questions_are_detected_and_answered(question: str, output: str) -> None:
    call = detect_tool(question)
    assert call is not None and call.name == "calculator"
    result = run_tool(call)
    assert (result.name, result.output) == ("calculator", output)
    assert result.input == output.split(" = ")[0]


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os')",
        "__import__('os').system('true')",
        "().__class__",
        "(1).__class__.__bases__",
        "x + 1",
        "pi * 2",
        "open('/etc/passwd')",
        "'a' * 3",
        "[1, 2][0]",
        "lambda: 1",
        "True + 1",
        "1 if 1 else 2",
        "sqrt(x=4)",
        "1 < 2",
    ],
)
def test_calculator_refuses_names_attributes_and_anything_but_arithmetic(expression: str) -> None:
    with pytest.raises(InputError):
        calculate(expression)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("9**9**9", "exponents are limited"),
        ("10**101", "too large"),
        ("2.5**1000", "too large"),
        ("1e308 * 10", "too large"),
        ("(10**60) * (10**60)", "too large"),
        ("1/0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("sqrt(-1)", "cannot compute"),
        ("(-8) ** 0.5", "not a real number"),
        ("2 +", "cannot parse"),
        ("", "1-200 characters"),
        ("1+" * 150 + "1", "1-200 characters"),
    ],
)
def test_calculator_errors_are_clear_input_errors(expression: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        calculate(expression)


@pytest.mark.parametrize(
    ("question", "output"),
    [
        ("What day is it?", "Today is Tuesday (2026-07-14)."),
        ("what's today's date?", "Today is Tuesday, 14 July 2026 (2026-07-14)."),
        ("What is the date?", "Today is Tuesday, 14 July 2026 (2026-07-14)."),
        ("What time is it?", "It is 09:30 (UTC) on Tuesday, 14 July 2026 (2026-07-14)."),
        (
            "How many days until 2027-01-01?",
            "There are 171 days until Friday, 1 January 2027 (2027-01-01).",
        ),
        ("days until July 15, 2026", "There is 1 day until Wednesday, 15 July 2026 (2026-07-15)."),
        ("days since 1 January 2026", "Thursday, 1 January 2026 (2026-01-01) was 194 days ago."),
        (
            "What date is 30 days from now?",
            "30 days after today is Thursday, 13 August 2026 (2026-08-13).",
        ),
        (
            "what was the date 2 weeks ago",
            "2 weeks before today is Tuesday, 30 June 2026 (2026-06-30).",
        ),
        (
            "what day will it be in 1 week",
            "1 week after today is Tuesday, 21 July 2026 (2026-07-21).",
        ),
        (
            "10 days after March 3rd, 2026",
            "10 days after 2026-03-03 is Friday, 13 March 2026 (2026-03-13).",
        ),
    ],
)
def test_date_questions_are_detected_and_answered_with_the_given_clock(
    question: str, output: str
) -> None:
    call = detect_tool(question)
    assert call == ToolCall("datetime", question)
    assert run_tool(call, now=NOW).output == output


def test_the_date_tool_uses_the_real_clock_by_default() -> None:
    result = run_tool(ToolCall("datetime", "today's date"))
    assert datetime.now().date().isoformat() in result.output


@pytest.mark.parametrize(
    "question",
    [
        "What is RFC 2616?",
        "What is 5?",
        "2024-01-01",
        "What time does the office open?",
        "What is the date of the contract?",
        "The warranty is 30 days after purchase.",
        "Which weekday is the meeting held on?",
        "What is covered in chapters 3-4?",
        "How do I install the package?",
        "",
    ],
)
def test_document_questions_are_not_taken_by_a_tool(question: str) -> None:
    assert detect_tool(question) is None


def test_an_invalid_date_is_reported_not_guessed() -> None:
    call = detect_tool("how many days until 2027-02-30")
    assert call is not None and call.name == "datetime"
    with pytest.raises(InputError, match="2027-02-30"):
        run_tool(call, now=NOW)


def test_run_tool_rejects_a_question_that_is_not_for_the_tool() -> None:
    with pytest.raises(InputError, match="not a date or time question"):
        run_tool(ToolCall("datetime", "hello"), now=NOW)
    with pytest.raises(InputError, match="unknown tool"):
        run_tool(ToolCall("weather", "Paris"))  # type: ignore[arg-type]


def test_tool_specs_are_openai_function_schemas_for_both_tools() -> None:
    json.dumps(TOOL_SPECS)
    names = {spec["function"]["name"]: spec["function"] for spec in TOOL_SPECS}
    assert set(names) == {"calculator", "datetime"}
    for function in names.values():
        params = function["parameters"]
        assert params["type"] == "object" and params["required"] == list(params["properties"])
        assert function["description"]
