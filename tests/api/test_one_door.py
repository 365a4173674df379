"""The CLI and the HTTP API take the same door (`Assistant.stream`): the same question gives
the same answer, citations and trace spans (the answer's stage timings) through either."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from citewise.api import create_app
from citewise.api.observability import record_answer
from citewise.assistant import Assistant
from citewise.cli import app as cli
from citewise.config import load_settings
from citewise.types import Answer
from http_server import running
from support import write_corpus

pytestmark = pytest.mark.integration  # a real uvicorn on 127.0.0.1

QUESTIONS = ("What is the default request timeout?", "Summarize the logging guide")


def _cli_answer(data_dir: Path, question: str) -> dict[str, object]:
    env = {"CITEWISE_DATA_DIR": str(data_dir), "CITEWISE_EMBEDDER": "hashing"}
    result = CliRunner().invoke(cli, ["ask", question, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_cli_and_the_api_record_the_same_spans_for_a_question(
    tmp_path: Path, question: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(data_dir=tmp_path / "data", embedder="hashing")
    with Assistant(settings=settings) as a:
        a.ingest([write_corpus(tmp_path / "docs")])
    by_cli = _cli_answer(tmp_path / "data", question)

    recorded: list[Answer] = []

    def record(answer: Answer) -> None:
        recorded.append(answer)
        record_answer(answer)

    monkeypatch.setattr("citewise.api.app.record_answer", record)
    with running(create_app(settings)) as url:
        r = httpx.post(f"{url}/chat/", json={"message": question}, timeout=60)
    assert r.status_code == 200, r.text
    by_api = r.json()

    assert by_api["answer"] == by_cli["answer"]
    assert by_api["citations"] == by_cli["citations"]
    assert by_api["intent"] == by_cli["intent"]
    assert by_api["answer_kind"] == by_cli["answer_kind"]  # the API carries the outcome too
    spans = set(by_cli["timings_ms"])  # type: ignore[arg-type]
    assert "total" in spans and len(spans) > 2  # the stages, not only the total
    assert set(by_api["timings_ms"]) == spans
    assert [set(a.timings_ms) for a in recorded] == [spans]  # the API's metrics hook saw it
