"""Tools the assistant answers without the documents: a safe calculator and the date/time.

`detect_tool(question)` recognises questions a tool answers; `run_tool(call, now=None)` runs
one. The calculator parses with `ast` and evaluates only numbers, arithmetic operators and a
few functions: no names, attributes, subscripts or calls of anything else, ever. `TOOL_SPECS`
describes both tools in the OpenAI function-calling format, for LLMs that call tools.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final, Literal

from citewise.errors import InputError

ToolName = Literal["calculator", "datetime"]
MAX_EXPRESSION_CHARS = 200
MAX_EXPONENT = 1000
MAX_MAGNITUDE = 10**100


@dataclass(frozen=True, slots=True)
class ToolCall:
    name: ToolName
    argument: str


@dataclass(frozen=True, slots=True)
class ToolResult:
    name: ToolName
    input: str
    output: str


def _spec(name: str, description: str, param: str, example: str) -> dict[str, Any]:
    """One tool in the OpenAI function-calling format."""
    prop = {param: {"type": "string", "description": f"e.g. {example}"}}
    parameters = {"type": "object", "properties": prop, "required": [param]}
    function = {"name": name, "description": description, "parameters": parameters}
    return {"type": "function", "function": function}


TOOL_SPECS: Final[tuple[dict[str, Any], ...]] = (
    _spec(
        "calculator",
        "Evaluate arithmetic: + - * / // % ** ( ), sqrt, round, abs, min, max, log; "
        "'17% of 2,340' and thousands separators are understood.",
        "expression",
        "2,340 * 0.17",
    ),
    _spec(
        "datetime",
        "Today's date, the current time or weekday, days until or since a date, or the date "
        "N days/weeks from now, ago, after or before a date.",
        "query",
        "days until 2027-01-01",
    ),
)

# -- calculator --

_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
_FUNCS = [getattr(operator, n) for n in ["add", "sub", "mul", "truediv", "floordiv", "mod"]]
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = dict(zip(_OPS, _FUNCS, strict=True))
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    f.__name__: f for f in (math.sqrt, round, abs, min, max, math.log)
}
_PREFIX = re.compile(
    r"^(?:please\s+)?(?:what(?:'s|\s+is|\s+are)|how\s+much\s+is|calculate|compute|evaluate|"
    r"solve)\s+",
    re.I,
)
_PERCENT_OF = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:%|percent)\s+of\s+", re.I)
_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?")
_CALC_CHARS = re.compile(r"^[\d\s.+\-*/%()^,]*$")
_FUNC_NAMES = re.compile(rf"\b(?:{'|'.join(_FUNCTIONS)})\b")


def _strip_question(text: str) -> str:
    text = " ".join(text.strip().split())
    text = _PREFIX.sub("", text).rstrip("?!. =")
    return re.sub(r"^the\s+", "", text, flags=re.I)


def _to_python(expr: str) -> str:
    """'17% of 2,340' → '(17/100)*(2340)'; thousands separators, ×, ÷, ^ and 'square root of'."""
    text = re.sub(r"square\s+root\s+of\s+([\d.,]+)", r"sqrt(\1)", expr, flags=re.I)
    text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text)
    text = _PERCENT_OF.sub(lambda m: f"({m.group(1)}/100)*", text)
    text = re.sub(r"(?<=[\d)])\s*[x×]\s*(?=[\d(])", "*", text)
    return text.replace("÷", "/").replace("^", "**")


def _check(value: Any) -> Any:
    if isinstance(value, complex):
        raise InputError("the result is not a real number")
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError("the result is too large to compute")
    if abs(value) > MAX_MAGNITUDE:
        raise InputError("the result is too large (more than 100 digits)")
    return value


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(right) > MAX_EXPONENT:
                raise InputError(f"exponents are limited to ±{MAX_EXPONENT}")
            big = isinstance(left, int) and isinstance(right, int) and right > 0
            if big and (left.bit_length() - 1) * right > 1000:  # refuse before computing
                raise InputError("the result is too large (more than 100 digits)")
            return _check(left**right)
        if type(node.op) in _BINARY:
            return _check(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        func = _FUNCTIONS.get(node.func.id)
        if func is not None and node.args:
            return _check(func(*(_eval(arg) for arg in node.args)))
        raise InputError(f"unknown function {node.func.id!r}; allowed: {', '.join(_FUNCTIONS)}")
    if isinstance(node, ast.Name):
        raise InputError(f"unknown name {node.id!r}: only numbers and {sorted(_FUNCTIONS)}")
    raise InputError(f"not allowed in a calculation: {type(node).__name__}")


def _format(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.10g}"


def calculate(expression: str) -> str:
    """Evaluates `expression` safely and returns the formatted number, e.g. '397.8'."""
    text = _strip_question(expression)
    if not text or len(text) > MAX_EXPRESSION_CHARS:
        raise InputError(f"give a calculation of 1-{MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(_to_python(text), mode="eval")
        return _format(_eval(tree))
    except SyntaxError as exc:
        raise InputError(f"cannot parse {text!r} as a calculation") from exc
    except ZeroDivisionError as exc:
        raise InputError(f"division by zero in {text!r}") from exc
    except (OverflowError, MemoryError, RecursionError) as exc:
        raise InputError(f"the result of {text!r} is too large to compute") from exc
    except (ValueError, TypeError) as exc:  # sqrt(-1), log(0), round(1.5, 2.5)
        raise InputError(f"cannot compute {text!r}: {exc}") from exc


def _looks_like_calculation(text: str) -> bool:
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) or not re.search(r"\d", text):
        return False
    python = _to_python(text)
    if not _CALC_CHARS.match(_FUNC_NAMES.sub("", python)):
        return False
    return bool(re.search(r"[+\-*/%^(]", python.replace("**", "^")))


# -- date and time --

_MONTHS = "january february march april may june july august september october november december"
_MONTH_NUM = {name: i + 1 for i, name in enumerate(_MONTHS.split())}
_DATE = (
    r"(\d{4}-\d{2}-\d{2}|(?:[a-z]+\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})"
    r"|(?:\d{1,2}(?:st|nd|rd|th)?\s+[a-z]+,?\s+\d{4}))"
)
_N_UNITS = r"(\d+)\s+(days?|weeks?)"
_OFFSET_FROM = re.compile(rf"\b{_N_UNITS}\s+(after|before|from)\s+{_DATE}", re.I)
_OFFSET_NOW = re.compile(rf"\b{_N_UNITS}\s+(from\s+now|from\s+today|ago)\b", re.I)
_IN_N = re.compile(rf"\bin\s+{_N_UNITS}\b", re.I)
_ASKS_DATE = re.compile(r"\b(date|what\s+day|which\s+day)\b", re.I)
_UNTIL = re.compile(rf"\bdays?\s+(until|till|to|before|since)\s+{_DATE}", re.I)
_TIME = re.compile(
    r"\b(what\s+time\s+is\s+it|current\s+time|time\s+(is\s+it\s+)?now|what'?s\s+the\s+time)\b",
    re.I,
)
_WEEKDAY = re.compile(
    r"\b(what\s+(week)?day\s+is\s+(it|today)|day\s+of\s+the\s+week\s+(is\s+it|today))\b", re.I
)
_TODAY = re.compile(
    r"(today'?s\s+date|\bdate\s+today|\bcurrent\s+date|\bwhat\s+date\s+is\s+(it|today)"
    r"|^\s*what(\s+is|'s)\s+the\s+date\s*\??\s*$|^\s*(today|date|now)\s*\??\s*$)",
    re.I,
)


def _parse_date(text: str) -> date:
    parts = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.lower().replace(",", " ")).split()
    try:
        if len(parts) == 1:
            return date.fromisoformat(parts[0])
        day_first = parts[0].isdigit()
        month = _MONTH_NUM[parts[1] if day_first else parts[0]]
        return date(int(parts[2]), month, int(parts[0] if day_first else parts[1]))
    except (KeyError, IndexError, ValueError) as exc:
        raise InputError(f"not a valid date: {text!r} (use YYYY-MM-DD or 'March 3, 2027')") from exc


def _long(d: date) -> str:
    return f"{d:%A}, {d.day} {d:%B %Y} ({d.isoformat()})"


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}{'s' if abs(n) != 1 else ''}"


def _offset(query: str, today: date) -> str | None:
    """'30 days from now', '2 weeks ago', '10 days after 2026-03-01', 'date in 3 weeks'."""
    m = _OFFSET_FROM.search(query) or _OFFSET_NOW.search(query)
    if m is None and _ASKS_DATE.search(query):
        m = _IN_N.search(query)
    if m is None:
        return None
    n, unit = int(m.group(1)), m.group(2).lower().rstrip("s")
    how = m.group(3).lower() if m.re is not _IN_N else "from now"
    base = _parse_date(m.group(4)) if m.re is _OFFSET_FROM else today
    sign = -1 if how in ("ago", "before") else 1
    days = n * (7 if unit == "week" else 1)
    if days > 365_000:
        raise InputError("date offsets are limited to 1,000 years")
    try:
        result = base + timedelta(days=sign * days)
    except OverflowError as exc:
        raise InputError("that date is out of range") from exc
    anchor = "today" if m.re is not _OFFSET_FROM else base.isoformat()
    return f"{_plural(n, unit)} {'before' if sign < 0 else 'after'} {anchor} is {_long(result)}."


def _datetime_answer(query: str, now: datetime) -> str | None:
    """The answer to a date/time query, or None if the query is not one."""
    today = now.date()
    offset = _offset(query, today)
    if offset is not None:
        return offset
    if m := _UNTIL.search(query):
        target = _parse_date(m.group(2))
        delta = (target - today).days
        if delta < 0:
            return f"{_long(target)} was {_plural(abs(delta), 'day')} ago."
        if delta == 0:
            return f"{_long(target)} is today."
        verb = "is" if delta == 1 else "are"
        return f"There {verb} {_plural(delta, 'day')} until {_long(target)}."
    if _TIME.search(query):
        return f"It is {now:%H:%M} ({now.tzname() or 'local time'}) on {_long(today)}."
    if _WEEKDAY.search(query):
        return f"Today is {today:%A} ({today.isoformat()})."
    if _TODAY.search(query):
        return f"Today is {_long(today)}."
    return None


# -- detection and dispatch --


def detect_tool(question: str) -> ToolCall | None:
    """The tool that answers `question`, or None if it is a question for the documents."""
    text = " ".join(question.split())
    if not text or len(text) > 300:
        return None
    try:
        if _datetime_answer(text, datetime(2000, 1, 1)) is not None:
            return ToolCall("datetime", text)
    except InputError:
        return ToolCall("datetime", text)  # recognised, but the date is wrong: say so
    stripped = _strip_question(text)
    if _looks_like_calculation(stripped):
        return ToolCall("calculator", stripped)
    return None


def run_tool(call: ToolCall, now: datetime | None = None) -> ToolResult:
    """Runs a tool. `now` (default: the local time) makes date answers reproducible."""
    if call.name == "calculator":
        expression = _strip_question(call.argument)
        return ToolResult("calculator", expression, f"{expression} = {calculate(expression)}")
    if call.name == "datetime":
        answer = _datetime_answer(call.argument, now or datetime.now().astimezone())
        if answer is None:
            raise InputError(f"not a date or time question: {call.argument!r}")
        return ToolResult("datetime", call.argument, answer)
    raise InputError(f"unknown tool {call.name!r}; valid: calculator, datetime")
