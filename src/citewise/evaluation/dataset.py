"""Question sets (JSONL) as typed values. Schema: benchmarks/check_sets/README.md."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from citewise.errors import InputError


@dataclass(frozen=True, slots=True)
class Gold:
    file: str
    quote: str
    section: str = ""
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    question: str
    must_contain: tuple[str, ...]
    gold: tuple[Gold, ...]
    kind: str = ""


@dataclass(frozen=True, slots=True)
class EvalItem:
    id: str
    type: str
    question: str
    answer: str
    must_contain: tuple[str, ...]
    gold: tuple[Gold, ...]
    turns: tuple[Turn, ...] = ()
    style: str = ""
    expect_intent: str = ""
    split: str = ""  # "tune" or "test"; empty: decided by `half`

    @property
    def half(self) -> str:
        """The item's half of its set: its `split`, else "test" when the SHA-1 of its id is
        odd and "tune" when even (stable across runs and machines)."""
        if self.split:
            return self.split
        return "test" if int(hashlib.sha1(self.id.encode()).hexdigest(), 16) % 2 else "tune"

    @property
    def retrievable(self) -> bool:
        return bool(self.gold)

    def retrieval_query(self) -> str:
        """The text a retrieval-only evaluation searches with. Conversations have no rewrite
        stage yet, so their earlier turns are prepended (the last turn alone rarely finds
        its document)."""
        if self.turns:
            return " ".join(t.question for t in self.turns)
        return self.question


def _gold(raw: list[dict[str, object]]) -> tuple[Gold, ...]:
    return tuple(
        Gold(
            file=str(g["file"]),
            quote=str(g.get("quote", "")),
            section=str(g.get("section", "")),
            page=int(str(g["page"])) if g.get("page") is not None else None,
        )
        for g in raw
    )


def load_items(path: Path) -> list[EvalItem]:
    if not path.is_file():
        raise InputError(f"question set not found: {path}")
    items: list[EvalItem] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            turns = tuple(
                Turn(
                    question=str(t["q"]),
                    must_contain=tuple(t.get("must_contain", [])),
                    gold=_gold(t.get("gold", [])),
                    kind=str(t.get("kind", "")),
                )
                for t in raw.get("turns", [])
            )
            items.append(
                EvalItem(
                    id=str(raw["id"]),
                    type=str(raw["type"]),
                    question=str(raw["question"]),
                    answer=str(raw.get("answer", "")),
                    must_contain=tuple(raw.get("must_contain", [])),
                    gold=_gold(raw.get("gold", [])),
                    turns=turns,
                    style=str(raw.get("style", "")),
                    expect_intent=str(raw.get("expect_intent", "")),
                    split=str(raw.get("split", "")),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}:{n}: not a valid question record ({exc})") from exc
    return items
