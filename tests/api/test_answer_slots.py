"""Answers run in bounded slots: past its queue a request gets 429 with Retry-After, and the
answers already admitted still complete."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from citewise.answer.slots import AnswerSlots
from citewise.errors import RateLimitedError
from citewise.types import Event, Status, Token
from http_server import running

TOKENS = 5


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_slots_refuse_past_threads_plus_queue_with_a_retry_after() -> None:
    clock = Clock()
    slots = AnswerSlots(threads=2, queue_depth=1, clock=clock)
    tickets = [slots.admit() for _ in range(3)]
    with pytest.raises(RateLimitedError) as refused:
        slots.admit()
    assert refused.value.http_status == 429
    assert refused.value.retry_after >= 1
    tickets[0].release()
    assert slots.admitted == 2
    slots.admit().release()


def test_retry_after_follows_how_long_answers_take() -> None:
    clock = Clock()
    slots = AnswerSlots(threads=1, queue_depth=0, clock=clock)
    for _ in range(30):  # answers of ten seconds each
        ticket = slots.admit()
        clock.now += 10
        ticket.release()
    held = slots.admit()
    with pytest.raises(RateLimitedError) as refused:
        slots.admit()
    assert 5 <= refused.value.retry_after <= 10
    held.release()


def test_releasing_twice_frees_one_place() -> None:
    slots = AnswerSlots(threads=1, queue_depth=1)
    ticket = slots.admit()
    held = slots.admit()
    ticket.release()
    ticket.release()
    assert slots.admitted == 1
    held.release()


def test_a_dropped_ticket_frees_its_place() -> None:
    slots = AnswerSlots(threads=1, queue_depth=0)
    slots.admit()  # never released: collected at once
    assert slots.admitted == 0
    slots.admit()


@pytest.mark.integration  # a real uvicorn on 127.0.0.1
def test_a_full_queue_answers_429_and_admitted_answers_complete(tmp_path: Path) -> None:
    from api.slow_assistant import SlowAssistant
    from citewise.api import create_app
    from citewise.config import load_settings

    gate = threading.Event()  # the running answer waits here until the queue is tested
    running_answers: list[str] = []

    def flow(question: str) -> Iterator[Event]:
        running_answers.append(question)
        yield Status("generate", "writing")
        assert gate.wait(30), "the test never opened the gate"
        for i in range(TOKENS):
            yield Token(f"{question}-{i} ")

    settings = load_settings(
        data_dir=tmp_path / "data", embedder="hashing", serve_workers=1, serve_queue_depth=1
    )
    assistant = SlowAssistant(settings, flow)
    app = create_app(settings, assistant=assistant)
    slots: AnswerSlots = app.state.answer_slots

    def streamed(url: str, question: str) -> tuple[int, list[str]]:
        with (
            httpx.Client(base_url=url, timeout=60) as client,
            client.stream("POST", "/chat/stream", json={"message": question}) as r,
        ):
            return r.status_code, [line for line in r.iter_lines() if line.startswith("data:")]

    def wait_for(condition: object) -> None:
        done = threading.Event()
        for _ in range(600):
            if callable(condition) and condition():
                return
            done.wait(0.05)
        raise AssertionError("the condition never held")

    with running(app) as url, ThreadPoolExecutor(2) as clients:
        first: Future[tuple[int, list[str]]] = clients.submit(streamed, url, "first")
        wait_for(lambda: running_answers == ["first"])
        second = clients.submit(streamed, url, "second")
        wait_for(lambda: slots.admitted == 2)
        with httpx.Client(base_url=url, timeout=30) as client:
            refused = client.post("/chat/stream", json={"message": "third"})
            refused_whole = client.post("/chat/", json={"message": "third"})
            refused_v1 = client.post(
                "/v1/chat/completions", json={"messages": [{"role": "user", "content": "x"}]}
            )
        assert running_answers == ["first"], "the queued answer started before a worker was free"
        gate.set()
        results = [first.result(60), second.result(60)]
        for response in (refused, refused_whole, refused_v1):
            assert response.status_code == 429
            assert int(response.headers["Retry-After"]) >= 1
        assert refused_v1.json()["error"]["code"] == 429
        for (status, lines), question in zip(results, ("first", "second"), strict=True):
            assert status == 200
            tokens = [line for line in lines if f"{question}-" in line]
            assert len(tokens) == TOKENS
        assert running_answers == ["first", "second"]
        wait_for(lambda: slots.admitted == 0)
        assert streamed(url, "fourth")[0] == 200
    assistant.close()
