"""A streamed draft's citation numbers: 1..N in the order first cited, the same in the
citation events and the final answer, however the model's deltas split a marker."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from answer_factories import passage
from citewise.answer.generate import generate_verified
from citewise.answer.numbering import DraftNumbers
from citewise.answer.settle import settle
from citewise.llm.base import Message
from citewise.testing.fakes import FakeLLM
from citewise.types import Retraction, Token

PASSAGES = [
    passage(1, "Uploads larger than 25 MB are rejected with status 413.", source="limits.txt"),
    passage(2, "Rotate the log files every night with logrotate.", source="logging.md"),
    passage(3, "The default request timeout is 30 seconds.", source="timeouts.txt"),
]
DRAFT = (
    "The default request timeout is 30 seconds [3]. Rotate the log files every night with "
    "logrotate [2, 3]."
)


class _Deltas(FakeLLM):
    """Streams its reply in `size`-character deltas, as a server does."""

    def __init__(self, reply: str, size: int) -> None:
        super().__init__(reply)
        self.size = size

    def stream(self, messages: Sequence[Message], **_: object) -> Iterator[str]:
        text = self.complete(messages).text
        for i in range(0, len(text), self.size):
            yield text[i : i + self.size]


@pytest.mark.parametrize("size", [1, 2, 5, 1000])
def test_markers_split_across_deltas_are_renumbered_whole(size: int) -> None:
    numbers = DraftNumbers({1, 2, 3})
    chunks = [DRAFT[i : i + size] for i in range(0, len(DRAFT), size)]
    shown = "".join(numbers.feed(c) for c in chunks) + numbers.flush()
    assert shown == DRAFT.replace("[3]", "[1]").replace("[2, 3]", "[2, 1]")
    assert numbers.order == [3, 2]


def test_a_marker_naming_no_passage_shown_is_dropped_and_a_link_is_left_alone() -> None:
    numbers = DraftNumbers({1, 2})
    text = "See [the guide](http://x) and the limit [7]. Then [2]."
    assert (
        numbers.feed(text) + numbers.flush() == "See [the guide](http://x) and the limit. Then [1]."
    )


@pytest.mark.parametrize("size", [1, 3, 1000])
def test_the_streamed_draft_and_the_settled_answer_carry_the_same_numbers(size: int) -> None:
    events: list[Token | Retraction] = []
    gen = generate_verified(_Deltas(DRAFT, size), "timeout and logs?", PASSAGES)
    while True:
        try:
            event = next(gen)
        except StopIteration as stop:
            draft = stop.value
            break
        if isinstance(event, Token | Retraction):
            events.append(event)
    streamed = "".join(e.text for e in events if isinstance(e, Token))
    settled = settle(draft.text, PASSAGES, [0.9, 0.9], [0.9], True, draft.cited_order)
    assert "[1]" in streamed and "[3]" not in streamed
    assert settled.text == streamed.strip()
    assert [(c.n, c.source) for c in settled.citations] == [(1, "timeouts.txt"), (2, "logging.md")]
