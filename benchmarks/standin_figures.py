"""The LLM answer path measured with the stand-in model (`check_sets.py --llm stand-in:MODE`).

For each mode a stand-in server is started on the set's gold, `CITEWISE_LLM` points the
answer flow at it, and every question is asked as `check_sets.py` asks it. From what the
stand-in saw (its records of each request) and what the user got, per item:

- gold in context: the first answer prompt held a gold quote of the asked question (multi
  questions: every gold quote), tested as search's quote@k tests a passage; quote@10: search's
  top 10 for the same question held it (the retrieval evaluation's query);
- prefill: the answer prompt's size in tokens (characters / 4);
- kept: of the answers where the model stated the fact (its reply holds must_contain), those
  where the user got it too;
- reached / caught: of the answers where the model invented a value or name, those where the
  invention reached the user / did not;
- cite accuracy: answers whose every citation points at a passage holding a gold quote (the
  cited chunk with its parent, or the passage of the answer prompt that holds the citation's
  quote: the model read the parent with the text before it);
- wrong fixed: of the answers the model cited wrongly, those where none of its sentences reached
  the user citing a passage without a gold quote (repaired, dropped or declined);
- wrong repaired: of the answers the model cited wrongly but stated rightly, those where the
  user got the fact from the model (no fallback) citing only gold-holding passages;
- honoured: of the questions the model declined, those the user got "not in the documents".
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citewise.answer.citations import parse_references
from citewise.assistant.inside import inside
from citewise.evaluation.answers import AnswerResult, contains_all, score_answer
from citewise.evaluation.dataset import EvalItem, Gold, load_items
from citewise.evaluation.harness import eval_data_dir
from citewise.evaluation.metrics import RetrievedPassage, first_rank, hit_at
from citewise.testing.standin_llm import Behaviour, Knowledge, Passage, StandinServer
from citewise.testing.standin_llm.gold import holds, normalised
from citewise.text.sentences import split_sentences, strip_citation_marks

if TYPE_CHECKING:
    from citewise.assistant import Assistant
    from citewise.store.base import Store
    from citewise.types import Answer, Citation

ANSWERABLE = ("lookup", "multi", "compare", "conversation")
PREFIX = "stand-in:"


def parse_llm(spec: str) -> list[str]:
    """ "stand-in:faithful,invented-value" → the modes; raises ValueError otherwise."""
    from citewise.testing.standin_llm import MODES

    if not spec.startswith(PREFIX):
        raise ValueError(f"--llm takes {PREFIX}MODE[,MODE…] (modes: {', '.join(MODES)})")
    modes = [m for m in spec.removeprefix(PREFIX).split(",") if m]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise ValueError(f"unknown stand-in modes {unknown}; modes: {', '.join(MODES)}")
    return modes


@dataclass(frozen=True, slots=True)
class Measured:
    """One question's LLM-path figures (None: does not apply)."""

    result: AnswerResult
    gold_in_context: bool | None
    quote10: bool | None
    prefill_tokens: float | None
    model_right: bool | None
    model_declined: bool | None
    invented: tuple[str, ...]
    reached: bool | None
    wrong_citation: bool
    cites_gold: bool | None  # every citation points at a gold-holding passage
    wrong_shown: bool | None  # a wrongly cited model sentence reached the user so cited
    fallback: str
    mismatched: bool  # the stand-in took an answer prompt for another question


def run_standin_set(
    name: str,
    questions: Path,
    corpus: Path,
    base: Path,
    halves: Sequence[str],
    modes: Sequence[str],
) -> dict[str, Any]:
    from citewise.assistant import Assistant

    items = [i for i in load_items(questions) if i.half in halves]
    root = eval_data_dir(base, corpus)
    knowledge = Knowledge.load(questions)
    with _llm_env(None), Assistant(data_dir=root) as assistant:
        report = assistant.ingest([corpus])
        print(f"{name}: {report.count('ingested')} ingested, {report.count('unchanged')} "
              f"unchanged in {root}", file=_stderr())  # fmt: skip
        quote10 = {i.id: _quote10(assistant, i) for i in items if _gold(i)}
    out: dict[str, Any] = {}
    for mode in modes:
        started = time.perf_counter()
        with StandinServer(knowledge, Behaviour(mode)) as server, _llm_env(server.base_url):
            measured = _ask_all(root, items, server, quote10)
        print(f"{name} {mode}: {len(items)} questions in {time.perf_counter() - started:.0f} s",
              file=_stderr())  # fmt: skip
        by_id = {i.id: i for i in items}
        out[mode] = {
            half: _half([m for m in measured if by_id[m.result.id].half == half], by_id)
            for half in halves
        }
    return out


def _half(rows: Sequence[Measured], by_id: dict[str, EvalItem]) -> dict[str, Any]:
    from check_sets import table_rows  # the answer table every check-set run prints

    return {
        "groups": table_rows([m.result for m in rows], by_id),
        "llm": figures(rows),
        "items": [_item_row(m) for m in rows],
    }


def _ask_all(
    root: Path, items: Sequence[EvalItem], server: StandinServer, quote10: dict[str, bool]
) -> list[Measured]:
    from citewise.assistant import Assistant
    from citewise.chat.memory import SQLiteMemory

    out: list[Measured] = []
    with tempfile.TemporaryDirectory() as tmp:
        memory = SQLiteMemory(Path(tmp) / "memory.db")
        with Assistant(data_dir=root, memory=memory) as chat:
            for item in items:
                out.append(_ask(chat, inside(chat).store, item, server, quote10.get(item.id)))
    return out


def _ask(
    chat: Assistant, store: Store, item: EvalItem, server: StandinServer, q10: bool | None
) -> Measured:
    session = f"eval-{item.id}"
    inside(chat).memory.delete(session)
    for turn in item.turns[:-1]:
        chat.ask(turn.question, session_id=session)
    question, want, gold = _final(item)
    seen = len(server.model.records)
    started = time.perf_counter()
    answer = chat.ask(question, session_id=session)
    ms = (time.perf_counter() - started) * 1000
    records = server.model.records[seen:]
    inside(chat).memory.delete(session)
    result = score_answer(item.id, item.type, answer, want, gold, item.expect_intent, ms)
    return measure(item, result, answer, records, store, q10)


def measure(
    item: EvalItem,
    result: AnswerResult,
    answer: Answer,
    records: Sequence[dict[str, Any]],
    store: Store,
    q10: bool | None,
) -> Measured:
    _, want, gold = _final(item)
    asked = [r for r in records if r["task"] in ("answer", "retry")]
    first = asked[0] if asked else None
    shown = [Passage(p["n"], p["source"], "", p["text"]) for p in (first or {}).get("passages", [])]
    in_context = _holds_gold(shown, gold, every=item.type == "multi") if gold else None
    declined = bool(first["declined"]) if first else None
    right = None
    if first is not None and want and not declined:
        right = contains_all(first["reply"], want)
    invented = tuple(dict.fromkeys(s for r in asked for s in r.get("invented", [])))
    reached = any(_appears(s, answer.answer) for s in invented) if invented else None
    cites_gold = wrong_shown = None
    if gold and answer.citations:
        records = store.get_chunks([c.chunk_id for c in answer.citations], with_parents=True)
        by_chunk = {r.chunk_id: r for r in records}
        shown = asked[-1].get("passages", []) if asked else []
        prompt = [Passage(p["n"], p["source"], "", p["text"]) for p in shown]
        ok = {
            c.n: _holds_gold(_cited_passages(c, by_chunk, prompt), gold, every=False)
            for c in answer.citations
        }
        cites_gold = all(ok.values())
        said = [r["reply"] for r in asked if r.get("wrong_citation")]
        wrong_shown = any(_kept_citing_elsewhere(reply, answer.answer, ok) for reply in said)
    return Measured(
        result=result,
        gold_in_context=in_context if first else (False if gold else None),
        quote10=q10,
        prefill_tokens=first["prompt_chars"] / 4 if first else None,
        model_right=right,
        model_declined=declined,
        invented=invented,
        reached=reached,
        wrong_citation=any(r.get("wrong_citation") for r in asked),
        cites_gold=cites_gold,
        wrong_shown=wrong_shown,
        fallback=answer.fallback.used if answer.fallback else "",
        mismatched=any(str(r.get("matched") or "").split("#")[0] != item.id for r in asked),
    )


def figures(rows: Sequence[Measured]) -> dict[str, float | None]:
    answerable = [m for m in rows if m.result.type in ANSWERABLE and m.gold_in_context is not None]
    right = [m for m in rows if m.model_right]
    invented = [m for m in rows if m.invented]
    wrong = [m for m in rows if m.wrong_citation]
    declined = [m for m in rows if m.model_declined]
    unanswerable = [m for m in rows if m.result.type == "unanswerable"]
    cited = [m for m in rows if m.cites_gold is not None]
    return {
        "n": float(len(answerable)),
        "gold_ctx": _share(m.gold_in_context for m in answerable),
        "quote@10": _share(m.quote10 for m in answerable if m.quote10 is not None),
        "prefill": _mean([m.prefill_tokens for m in answerable if m.prefill_tokens is not None]),
        "right": float(len(right)),
        "kept": _share(_user_right(m) for m in right),
        "invented": float(len(invented)),
        "reached": _share(bool(m.reached) for m in invented),
        "cite_acc": _share(bool(m.cites_gold) for m in cited),
        "wrong": float(len(wrong)),
        "wrong_fixed": _share(not m.wrong_shown for m in wrong),
        "wrong_repaired": _share(
            _user_right(m) and bool(m.cites_gold) and not m.fallback for m in wrong if m.model_right
        ),
        "declined": float(len(declined)),
        "honoured": _share(m.result.abstained for m in declined),
        "unans_declined": _share(m.result.abstained for m in unanswerable),
        "fallbacks": float(sum(1 for m in rows if m.fallback)),
        "mismatched": float(sum(1 for m in rows if m.mismatched)),
    }


COLUMNS = (
    "n", "gold_ctx", "quote@10", "prefill", "right", "kept", "invented", "reached", "cite_acc",
    "wrong", "wrong_fixed", "wrong_repaired", "declined", "honoured", "unans_declined",
    "fallbacks", "mismatched",
)  # fmt: skip
COUNTS = {"n", "prefill", "right", "invented", "wrong", "declined", "fallbacks", "mismatched"}


def render(payload: dict[str, Any], half: str, *, markdown: bool = True) -> str:
    """One row a set and mode."""
    head = "| set | mode | " + " | ".join(COLUMNS) + " |"
    lines = [head, "| --- | --- |" + " --- |" * len(COLUMNS)]
    for name, by_mode in payload.items():
        for mode, halves in by_mode.items():
            if half not in halves:
                continue
            row = dict(halves[half]["llm"])
            if mode != "faithful":
                row["kept"] = None  # the model's right answers are the faithful mode's
            cells = " | ".join(_cell(c, row.get(c)) for c in COLUMNS)
            lines.append(f"| {name} | {mode} | {cells} |")
    return "\n".join(lines) + "\n"


def _cell(column: str, value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if column in COUNTS else f"{value:.2f}"


def _item_row(m: Measured) -> dict[str, object]:
    r = m.result
    return {
        "id": r.id, "type": r.type, "must": r.must_contain, "abstained": r.abstained,
        "gold_ctx": m.gold_in_context, "quote@10": m.quote10, "prefill": m.prefill_tokens,
        "model_right": m.model_right, "model_declined": m.model_declined,
        "invented": list(m.invented), "reached": m.reached, "wrong_citation": m.wrong_citation,
        "cites_gold": m.cites_gold, "wrong_shown": m.wrong_shown, "fallback": m.fallback,
        "mismatched": m.mismatched,
        "answer": r.answer,
    }  # fmt: skip


def _user_right(m: Measured) -> bool:
    return m.result.must_contain == 1.0 and not m.result.abstained


def _final(item: EvalItem) -> tuple[str, tuple[str, ...], tuple[Gold, ...]]:
    if item.turns:
        last = item.turns[-1]
        return last.question, last.must_contain, last.gold
    return item.question, item.must_contain, item.gold


def _gold(item: EvalItem) -> tuple[Gold, ...]:
    return _final(item)[2]


def _quote10(assistant: Any, item: EvalItem) -> bool:
    """Search's top 10 for the retrieval evaluation's query holds the gold quote (multi
    questions: every gold quote)."""
    found = assistant.search(item.retrieval_query(), k=10, mode="hybrid")
    passages = [RetrievedPassage(h.source, h.text) for h in found.hits]
    gold = _gold(item)
    if item.type == "multi":
        ranks = [first_rank(passages, [g], quote=True) for g in gold]
        return all(hit_at(r, 10) for r in ranks)
    return bool(hit_at(first_rank(passages, gold, quote=True), 10))


def _holds_gold(passages: Sequence[Passage], gold: Sequence[Gold], *, every: bool) -> bool:
    found = [any(holds(p, g) for p in passages) for g in gold]
    return all(found) if every else any(found)


def _kept_citing_elsewhere(reply: str, shown: str, gold_cited: dict[int, bool]) -> bool:
    """A sentence of the model's reply reached the user citing a passage without gold (its
    citation markers as citewise parses them: `heap[0]` is code, not a citation). The
    sentence may reach the user shortened (a clause cut): its words in order within one of
    the reply's sentences count as that sentence."""
    said = [normalised(strip_citation_marks(s)).split() for s in split_sentences(reply)]
    for sentence in split_sentences(shown):
        words = normalised(strip_citation_marks(sentence)).split()
        if not any(words == whole or _shortened(words, whole) for whole in said):
            continue
        marks = [r.n for r in parse_references(sentence) if r.n is not None]
        if any(not gold_cited.get(n, False) for n in marks):
            return True
    return False


def _shortened(part: list[str], whole: list[str]) -> bool:
    """`part` is `whole` with words left out (at least three words kept, in order)."""
    if len(part) < 3:
        return False
    rest = iter(whole)
    return all(w in rest for w in part)


def _cited_passages(
    citation: Citation, by_chunk: dict[int, Any], prompt: Sequence[Passage]
) -> list[Passage]:
    """The passage a citation points at: its chunk with its parent, and the passage of the
    answer prompt that holds its quote (what the model read: the parent with the text before
    it, which the chunk alone may lack)."""
    out = [_passage(by_chunk[citation.chunk_id])] if citation.chunk_id in by_chunk else []
    quote = normalised(citation.quote.rstrip(" …"))
    shown = [p for p in prompt if p.source == citation.source and quote in normalised(p.text)]
    return out + shown if quote else out


def _passage(record: Any) -> Passage:
    text = f"{record.parent_text}\n{record.text}" if record.parent_text else record.text
    return Passage(0, record.source, "", text)


def _appears(value: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w.]){re.escape(value)}(?![\w])", text, re.I))


def _share(values: Iterator[bool] | Sequence[bool] | Any) -> float | None:
    vals = [bool(v) for v in values]
    return sum(vals) / len(vals) if vals else None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@contextmanager
def _llm_env(base_url: str | None) -> Iterator[None]:
    """CITEWISE_LLM pointing at the stand-in (None: no LLM), restored afterwards."""
    keys = ("CITEWISE_LLM", "CITEWISE_LLM_BASE_URL")
    saved = {k: os.environ.get(k) for k in keys}
    if base_url is None:
        os.environ["CITEWISE_LLM"] = "none"
        os.environ.pop("CITEWISE_LLM_BASE_URL", None)
    else:
        os.environ["CITEWISE_LLM"] = "openai:standin"
        os.environ["CITEWISE_LLM_BASE_URL"] = base_url
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _stderr() -> Any:
    import sys

    return sys.stderr
