"""Reading citewise's prompts as a model would: which task a request is, the question it asks
and the numbered passages it shows.

A task is recognised by what the caller parses from the reply (the JSON keys it asks for) or
by the labelled parts of the user message, not by exact wording, so rewording a prompt does
not blind the stand-in; the tests build every prompt with citewise's own functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from citewise.testing.standin_llm.gold import Passage

Task = Literal[
    "answer", "retry", "judge", "intent", "query", "rerank", "rewrite", "history", "map",
    "reduce", "unknown",
]  # fmt: skip

_HEADER = re.compile(r"(?m)(?:\A|(?<=\n\n))\[(\d+)\] ?([^\n]*)\n")
_STYLE_LINE = re.compile(r"\([^()\n]+\)")  # "(Answer in one or two short sentences …)"
_SOURCE_END = re.compile(r" › | \(p\. \d")


@dataclass(frozen=True, slots=True)
class Request:
    """One chat request as the stand-in reads it."""

    task: Task
    system: str
    user: str

    @classmethod
    def of(cls, messages: Sequence[dict[str, object]]) -> Request:
        system = "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
        users = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
        user = users[-1] if users else ""
        return cls(task_of(system, user), system, user)

    def question(self) -> tuple[str, str]:
        """The asked question and its style ("simple", "deep" or ""), for answer and retry."""
        asked = self.user.rsplit("\n\nQuestion:", 1)[-1].strip()
        head, _, wish = asked.rpartition("\n")
        if not head or not _STYLE_LINE.fullmatch(wish.strip()):
            return asked, ""
        wish = wish.lower()
        style = "simple" if ("simpl" in wish or "beginner" in wish) else "deep"
        return head.strip(), style

    def passages(self) -> list[Passage]:
        """The numbered passages: of the answer prompt (between "Passages:" and "Question:"),
        of the rerank prompt (after "Passages:") or of a map prompt."""
        body = self.user
        if self.task in ("answer", "retry"):
            body = body.rsplit("\n\nQuestion:", 1)[0]
        if "Passages:\n\n" in body:
            body = body.split("Passages:\n\n", 1)[1]
        return numbered_passages(body, with_source=self.task != "rerank")

    def labelled(self, label: str) -> str:
        """The text after the last `label:` line start ("Message", "Last message", "Claim")."""
        parts = re.split(rf"(?m)^{re.escape(label)}:[ \t]*", self.user)
        return parts[-1].strip() if len(parts) > 1 else ""

    def evidence(self) -> str:
        m = re.search(r"(?s)Evidence:\n(.*)\n\nClaim:", self.user)
        return m.group(1) if m else ""

    def history_questions(self) -> list[str]:
        """The user's earlier questions quoted in a rewrite or summary prompt."""
        return [q.strip() for q in re.findall(r"(?m)^User: (.*)$", self.user)]


def task_of(system: str, user: str) -> Task:
    both = f"{system}\n{user}"
    if '"supported"' in both and "Claim:" in user:
        return "judge"
    if '"intent"' in system:
        return "intent"
    if '"kind"' in system and '"parts"' in system:
        return "query"
    if '"scores"' in both:
        return "rerank"
    if re.search(r"(?m)^Last message:", user):
        return "rewrite"
    if "Transcript:" in user:
        return "history"
    if "\n\nQuestion:" in user and _HEADER.search(user):
        return "retry" if "previous answer" in user.lower() else "answer"
    if re.search(r"(?m)^Document: ", user):
        return "reduce"
    if _HEADER.search(user):
        return "map"
    return "unknown"


def numbered_passages(body: str, *, with_source: bool = True) -> list[Passage]:
    """`[1] header` blocks numbered 1, 2, 3 … in order; a bracketed number inside a passage's
    text that breaks the sequence stays part of that text."""
    starts: list[tuple[int, re.Match[str]]] = []
    for m in _HEADER.finditer(body):
        if int(m.group(1)) == len(starts) + 1:
            starts.append((int(m.group(1)), m))
    out: list[Passage] = []
    for i, (n, m) in enumerate(starts):
        end = starts[i + 1][1].start() if i + 1 < len(starts) else len(body)
        header = m.group(2).strip()
        source = _SOURCE_END.split(header, maxsplit=1)[0].strip() if with_source else ""
        out.append(Passage(n, source, header, body[m.end() : end].strip()))
    return out
