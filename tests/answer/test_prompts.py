from __future__ import annotations

import re
from pathlib import Path

import citewise.api
from citewise.answer import prompts
from citewise.answer.prompts import UNVERIFIED
from citewise.types import NOT_FOUND


def test_system_prompt_is_static_and_demands_citations_and_refusal() -> None:
    s = prompts.system_prompt()
    assert s == prompts.system_prompt()
    assert "[2]" in s
    assert NOT_FOUND in s


def test_answer_prompt_puts_passages_before_the_question() -> None:
    p = prompts.answer_prompt("What is the default level?", "[1] a.md\nWARNING.")
    assert p.index("[1] a.md") < p.index("What is the default level?")


def test_retry_prompt_names_the_unsupported_sentences_first() -> None:
    p = prompts.retry_prompt("Q?", "[1] a.md\nText.", ["It is 5 [1].", "Also 6 [1]."])
    assert p.startswith(prompts.RETRY_INSTRUCTIONS)
    assert "- It is 5 [1].\n- Also 6 [1]." in p
    assert p.endswith("Question: Q?")


def test_summary_prompts_start_with_their_static_instructions() -> None:
    assert prompts.map_prompt("[3] a.md\nText").startswith(prompts.MAP_INSTRUCTIONS)
    r = prompts.reduce_prompt("Guide", ["One [1].", " ", "Two [2]."])
    assert r.startswith(prompts.REDUCE_INSTRUCTIONS)
    assert "One [1].\n\nTwo [2]." in r


def test_judge_reply_is_parsed_from_json_even_inside_a_code_fence() -> None:
    assert prompts.parse_judgement('{"supported": true}') is True
    assert prompts.parse_judgement('```json\n{"supported": false}\n```') is False
    assert prompts.parse_judgement('Sure! {"reason": "x", "supported": true} done') is True


def test_unparseable_judge_reply_is_undecided() -> None:
    assert prompts.parse_judgement("yes") is None
    assert prompts.parse_judgement('{"supported": "yes"}') is None
    assert prompts.parse_judgement("{not json}") is None


def test_the_web_ui_recognises_the_could_not_verify_reply() -> None:
    script = (Path(citewise.api.__file__).parent / "web" / "answer.js").read_text("utf-8")
    found = re.search(r"const UNVERIFIED = '([^']+)'", script)
    assert found is not None and UNVERIFIED.startswith(found.group(1))
