"""The web UI with an LLM (the stand-in for a capable model, over the OpenAI wire format)
behind a real `citewise serve`: the model's own answer carries no fallback notice; when the
model's stream is cut or turns to malformed JSON, the answer shown is the extractive one and
the verdict says so, with the reason; when every sentence the model wrote is dropped, the
reader is told there is no verified answer, with no fallback notice and no citation."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.actions import ask, login
from browser.conftest import Server, serve
from browser.documents import HATCH_FACT, heron_pdf
from citewise.testing.standin_llm import Behaviour, Faults, Knowledge, StandinServer

pytestmark = [pytest.mark.browser, pytest.mark.integration]
QUESTION = "How many days do grey heron eggs take to hatch?"
MODEL_ANSWER = "Grey heron eggs hatch after twenty-five days of incubation."


@pytest.fixture(scope="module")
def standin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StandinServer]:
    """The stand-in, answering QUESTION from a one-question check set over herons.pdf."""
    record = {
        "id": "ui-l01", "type": "lookup", "question": QUESTION, "answer": MODEL_ANSWER,
        "must_contain": ["twenty-five days"],
        "gold": [{"file": "herons.pdf", "quote": HATCH_FACT}],
    }  # fmt: skip
    path = tmp_path_factory.mktemp("standin") / "set.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with StandinServer(Knowledge.load(path), Behaviour("faithful")) as server:
        yield server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, standin: StandinServer) -> Iterator[Server]:
    """`citewise serve` answering with the stand-in (this module's server, so the page
    fixture holds the page to its origin); alice has uploaded herons.pdf."""
    root = tmp_path_factory.mktemp("browser-llm")
    env = {"CITEWISE_LLM": "openai:standin", "CITEWISE_LLM_BASE_URL": standin.base_url,
           "CITEWISE_LLM_TIMEOUT": "10"}  # fmt: skip
    with serve(root / "data", ("alice",), **env) as server:
        upload_and_wait(server, heron_pdf(root / "herons.pdf"))
        yield server


def upload_and_wait(server: Server, path: Path) -> None:
    headers = {"Authorization": f"Bearer {server.token('alice')}"}
    with path.open("rb") as fh:
        httpx.post(f"{server.url}/documents", headers=headers,
                   files={"files": (path.name, fh)}).raise_for_status()  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        listed = httpx.get(f"{server.url}/documents", headers=headers).json()["documents"]
        if listed and all(d["status"] == "ready" for d in listed):
            return
        time.sleep(0.3)
    raise AssertionError(f"the document did not become ready: {listed}")


def verdict_of(answer: Any) -> str:
    return str(answer.locator("p.verdict").inner_text())


def test_the_models_own_answer_shows_no_fallback_notice(
    page: Any, server: Server, standin: StandinServer
) -> None:
    standin.faults = Faults()
    login(page, server, "alice")
    answer = ask(page, QUESTION)
    assert MODEL_ANSWER.rstrip(".") in answer.locator(".answer-text").inner_text()
    assert "could not be used" not in verdict_of(answer)
    assert answer.locator(".fallback-notice").count() == 0


@pytest.mark.parametrize(("fault", "says"), [
    (Faults(cut_after=3), "dropped"),
    (Faults(malformed_after=3), "malformed"),
])  # fmt: skip
def test_a_broken_model_stream_shows_the_extractive_answer_with_the_fallback_notice(
    page: Any, server: Server, standin: StandinServer, fault: Faults, says: str
) -> None:
    standin.faults = fault
    try:
        login(page, server, "alice")
        answer = ask(page, QUESTION)
    finally:
        standin.faults = Faults()
    assert "twenty-five days" in answer.locator(".answer-text").inner_text()
    notice = answer.locator(".fallback-notice")
    assert notice.count() == 1
    text = notice.inner_text()
    assert "could not be used" in text and "extractive answer" in text
    assert says in text, text


def test_an_answer_whose_every_sentence_is_dropped_says_so_without_a_fallback(
    page: Any, server: Server, standin: StandinServer
) -> None:
    standin.model.behaviour = Behaviour("invented-value")  # "twenty-five" becomes another number
    try:
        login(page, server, "alice")
        page.get_by_label("Your question").fill(QUESTION)
        page.get_by_role("button", name="Ask").click()
        answer = page.locator("li.turn").last.locator("article.answer")
        answer.locator("p.verdict").wait_for(timeout=60_000)
    finally:
        standin.model.behaviour = Behaviour("faithful")
    text = answer.locator(".answer-text").inner_text()
    assert text.startswith("I could not verify an answer in the documents"), text
    invented = [i for r in standin.model.records for i in r.get("invented", [])]
    assert invented and all(i not in text for i in invented)
    assert "No verified answer" in verdict_of(answer)
    assert answer.locator(".fallback-notice").count() == 0
    assert answer.locator("button.cite").count() == 0
