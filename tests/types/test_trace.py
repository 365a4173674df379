from __future__ import annotations

import time

from citewise.types.trace import Trace


def test_timings_are_derived_from_spans_summed_by_name_and_notes() -> None:
    trace = Trace()
    trace.add("retrieve", 2.0)
    trace.add("retrieve", 3.0, query="second part")
    with trace.span("gate", threshold=0.5) as span:
        span.attributes["score"] = 0.7
    trace.note("abstain")
    timings = trace.timings_ms()
    assert timings["retrieve"] == 5.0 and timings["abstain"] == 1.0
    gate = next(s for s in trace.spans if s.name == "gate")
    assert gate.attributes == {"threshold": 0.5, "score": 0.7}
    assert list(timings) == ["retrieve", "gate", "abstain"]  # spans, then notes


def test_a_span_is_recorded_even_when_its_block_fails() -> None:
    trace = Trace()
    try:
        with trace.span("generate"):
            raise RuntimeError("model down")
    except RuntimeError:
        pass
    assert [s.name for s in trace.spans] == ["generate"]


def test_a_span_added_since_a_start_counts_the_time_from_it() -> None:
    trace = Trace()
    trace.add_since("generate", time.perf_counter() - 0.05)
    assert trace.timings_ms()["generate"] >= 50.0
