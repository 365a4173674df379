"""A small check set, answer prompts built by citewise's own code, and an in-process LLM
adapter over the stand-in model (for driving citewise's callers without a socket)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

from citewise.answer.context import render_context
from citewise.answer.prompts import answer_prompt, system_prompt
from citewise.llm.base import Completion, Message
from citewise.testing.standin_llm import StandinModel
from citewise.types import Hit, Passage

LOOKUP_Q = "How many days does the copyright holder have to notify me after I stop violating?"
MULTI_Q = "Which warranty do the Apache licence and the BSD licence give?"
FIRST_TURN_Q = "Who is the license steward of the Mozilla Public License?"
FOLLOW_UP_Q = "Can anybody else publish new versions of it?"
TRAP_Q = "How many days does the Eclipse Public License give to cure a breach?"

RECORDS = [
    {
        "id": "t-l01", "type": "lookup", "question": LOOKUP_Q,
        "answer": "60 days: the licence is restored permanently unless the Free Software "
        "Foundation notifies you prior to 60 days after the cessation.",
        "must_contain": ["60 days"],
        "gold": [{"file": "gpl-3.pdf", "quote": "fails to notify you of the violation by some "
                  "reasonable means prior to 60 days after the cessation."}],
    },
    {
        "id": "t-m01", "type": "multi", "question": MULTI_Q,
        "answer": "Apache gives the Work without warranties or conditions of any kind. "
        "The BSD licence disclaims any express or implied warranties.",
        "must_contain": ["without warranties", "disclaim"],
        "gold": [
            {"file": "apache.txt", "quote": "WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND"},
            {"file": "bsd.txt", "quote": "ANY EXPRESS OR IMPLIED WARRANTIES ARE DISCLAIMED."},
        ],
    },
    {
        "id": "t-u01", "type": "unanswerable", "question": TRAP_Q,
        "answer": "not in the documents", "must_contain": [], "gold": [],
    },
    {
        "id": "t-v01", "type": "conversation", "question": FOLLOW_UP_Q,
        "answer": "No one other than the license steward may publish new versions.",
        "must_contain": ["license steward"], "gold": [],
        "turns": [
            {"q": FIRST_TURN_Q, "answer": "The Mozilla Foundation.",
             "must_contain": ["mozilla foundation"],
             "gold": [{"file": "mpl.html", "quote": "Mozilla Foundation is the license steward."}]},
            {"q": FOLLOW_UP_Q, "kind": "pronoun",
             "answer": "No one other than the license steward may publish new versions.",
             "must_contain": ["license steward"],
             "gold": [{"file": "mpl.html", "quote": "no one other than the license steward has "
                       "the right to modify or publish new versions of this License."}]},
        ],
    },
    {
        "id": "t-g01", "type": "greeting/garbage/off_topic", "question": "hey there",
        "answer": "", "must_contain": [], "gold": [], "expect_intent": "greeting",
    },
]  # fmt: skip

GPL = (
    "However, if you cease all violation of this License, then your license is reinstated "
    "permanently, if the copyright holder fails to notify you of the violation by some "
    "reasonable means prior to 60 days after the cessation. The Free Software Foundation "
    "publishes this License."
)
APACHE = (
    "Licensor provides the Work on an AS IS BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND."
)
BSD = "THIS SOFTWARE IS PROVIDED AS IS AND ANY EXPRESS OR IMPLIED WARRANTIES ARE DISCLAIMED."
UNRELATED = "The Artistic License lets you distribute the Standard Version of the Package freely."
MPL = (
    "Mozilla Foundation is the license steward. Except as provided in Section 10.3, no one "
    "other than the license steward has the right to modify or publish new versions of this "
    "License."
)


def write_set(path: Path) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n", encoding="utf-8")
    return path


def passages(*texts: tuple[str, str]) -> list[Passage]:
    """Numbered passages from (source, text) pairs, as the answer flow hands them over."""
    out = []
    for n, (source, text) in enumerate(texts, start=1):
        hit = Hit(n, 100 + n, n, source, source, None, None, "Terms", 1.0, text, 1000 + n)
        out.append(Passage(n, hit, text))
    return out


def answer_messages(question: str, shown: Sequence[Passage]) -> list[dict[str, object]]:
    return [
        {"role": "system", "content": system_prompt()},
        {"role": "user", "content": answer_prompt(question, render_context(shown))},
    ]


class InProcessLLM:
    """citewise's `LLM` protocol answered by a `StandinModel` directly."""

    name = "standin:in-process"

    def __init__(self, model: StandinModel) -> None:
        self.model = model

    def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Completion:
        wire = [{"role": m.role, "content": m.content} for m in messages]
        return Completion(text=self.model.reply(wire), model=self.name)

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> Iterator[str]:
        yield self.complete(messages).text

    def health(self) -> None:
        return None


LOOKUP_PASSAGES = passages(("artistic.txt", UNRELATED), ("gpl-3.pdf", GPL))
