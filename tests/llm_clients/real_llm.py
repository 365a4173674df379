"""Shared by the real-LLM test and `benchmarks/real_llm.py`: the texts an answer's citations
point at, to check that a final answer states no value its cited passage lacks."""

from __future__ import annotations

from citewise.answer.grounding import invented_values
from citewise.store.base import Store
from citewise.types import Answer


def cited_texts(answer: Answer, store: Store) -> dict[int, str]:
    """Each citation's number → its passage as the answerer saw it (title, section, the
    chunk and its parent)."""
    records = {
        r.chunk_id: r
        for r in store.get_chunks([c.chunk_id for c in answer.citations], with_parents=True)
    }
    out: dict[int, str] = {}
    for c in answer.citations:
        r = records.get(c.chunk_id)
        body = f"{r.title}\n{r.section}\n{r.parent_text}\n{r.text}" if r else ""
        out[c.n] = f"{body}\n{c.quote}"
    return out


def answer_invents(answer: Answer, store: Store) -> list[str]:
    """Values the answer states that its cited passages do not contain ([] for none)."""
    if not answer.citations:
        return []
    return invented_values(answer.answer, cited_texts(answer, store))
