"""The generation path with a real small LLM over a question set: SmolLM2-135M-Instruct behind
llama.cpp's OpenAI-compatible server (started here on 127.0.0.1 and stopped by PID, unless
--base-url names a running one), driven through `Assistant` over an existing store.

Reports per answer and in total: the model's sentences kept, dropped by the grounding check
and sent back for a stricter retry; how often the answer fell back (to the extractive answer
or to the passages) and why; the time per answer; and whether any final answer states a value
(number, identifier, quoted literal) absent from the passage it cites.

    .venv/bin/python benchmarks/real_llm.py --data-dir DATA \
        --corpus /usr/share/doc/python3.11/html [--limit 10] [--budget 45] [--json out.json]

The store is the one `citewise eval` made for the corpus under --data-dir (not rebuilt here);
only single-turn questions are asked (lookup, multi, compare, unanswerable).
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the cited-passage check shared with the test

from citewise.assistant import Assistant  # noqa: E402
from citewise.assistant.inside import inside  # noqa: E402
from citewise.chat.memory import SQLiteMemory  # noqa: E402
from citewise.evaluation.harness import eval_data_dir  # noqa: E402
from citewise.llm import OpenAICompatLLM, RetryPolicy, Timeouts  # noqa: E402
from citewise.llm.llamacpp_server import LlamaCppServer, smollm2_gguf  # noqa: E402
from citewise.types import NOT_FOUND  # noqa: E402
from llm_clients.real_llm import answer_invents  # noqa: E402

TYPES = ("lookup", "multi", "compare", "unanswerable")


def args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "questions",
        type=Path,
        nargs="?",
        default=Path(__file__).resolve().parent / "check_sets" / "dev.jsonl",
    )
    p.add_argument("--data-dir", type=Path, required=True)
    p.add_argument("--corpus", type=Path, default=Path("/usr/share/doc/python3.11/html"))
    p.add_argument("--limit", type=int, default=0, help="first N questions (0: all)")
    p.add_argument("--per-type", type=int, default=0, help="first N of each type (0: all)")
    p.add_argument("--budget", type=float, default=45.0, help="llm_answer_budget, seconds")
    p.add_argument("--base-url", help="a running OpenAI-compatible server (…/v1)")
    p.add_argument("--model", default="smollm2")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json", type=Path, help="write every row and the totals here")
    return p.parse_args()


def normalised(text: str) -> str:
    return "".join(text.lower().split()).replace(",", "")


def run(a: argparse.Namespace, base_url: str) -> list[dict[str, Any]]:
    store = eval_data_dir(a.data_dir, a.corpus)
    if not (store / "citewise.db").is_file():
        sys.exit(f"no store at {store}: run `citewise eval` over {a.corpus} first")
    items = [json.loads(line) for line in a.questions.read_text().splitlines() if line.strip()]
    items = [q for q in items if q["type"] in TYPES]
    if a.per_type:
        items = [q for t in TYPES for q in [q for q in items if q["type"] == t][: a.per_type]]
    items = items[: a.limit or None]
    llm = OpenAICompatLLM(
        a.model, base_url, timeout=Timeouts(connect=2.0, read=120.0), retry=RetryPolicy(retries=1)
    )
    rows: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        Assistant(data_dir=store, llm_answer_budget=a.budget) as assistant,
    ):
        chat = Assistant(
            settings=assistant.settings,
            embedder=inside(assistant).embedder(),
            llm=llm,
            memory=SQLiteMemory(Path(tmp) / "m.db"),
        )
        for q in items:
            started = time.perf_counter()
            answer = chat.ask(q["question"])
            seconds = time.perf_counter() - started
            t = answer.timings_ms
            text = normalised(answer.answer)
            row = {
                "id": q["id"],
                "type": q["type"],
                "seconds": round(seconds, 2),
                "llm_called": "attempts" in t or answer.fallback is not None,
                "attempts": int(t.get("attempts", 0)),
                "kept": int(t.get("llm_sentences_kept", 0)),
                "dropped": int(t.get("llm_sentences_dropped", 0)),
                "retried": int(t.get("llm_sentences_retried", 0)),
                "fallback": answer.fallback.used if answer.fallback else "",
                "reason": answer.fallback.reason if answer.fallback else "",
                "not_found": answer.answer == NOT_FOUND,
                "must_contain": all(normalised(m) in text for m in q.get("must_contain", [])),
                "invented": answer_invents(answer, inside(assistant).store),
                "answer": answer.answer,
            }
            rows.append(row)
            print(
                f"{q['id']:6} {seconds:5.1f}s att={row['attempts']} kept={row['kept']} "
                f"dropped={row['dropped']} retried={row['retried']} "
                f"fallback={row['fallback'] or '-':10} mc={int(row['must_contain'])} "
                f"invented={row['invented']}",
                flush=True,
            )
        chat.close()
    llm.close()
    return rows


def totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    secs = sorted(r["seconds"] for r in rows)
    answerable = [r for r in rows if r["type"] != "unanswerable"]
    reasons = Counter(r["reason"].split(" (")[0].split(":")[0] for r in rows if r["fallback"])
    return {
        "questions": len(rows),
        "llm_called": sum(r["llm_called"] for r in rows),
        "seconds_mean": round(statistics.mean(secs), 2) if secs else 0.0,
        "seconds_median": round(statistics.median(secs), 2) if secs else 0.0,
        "seconds_max": secs[-1] if secs else 0.0,
        "attempts": sum(r["attempts"] for r in rows),
        "sentences_kept": sum(r["kept"] for r in rows),
        "sentences_dropped": sum(r["dropped"] for r in rows),
        "sentences_retried": sum(r["retried"] for r in rows),
        "fallback_extractive": sum(r["fallback"] == "extractive" for r in rows),
        "fallback_passages": sum(r["fallback"] == "passages" for r in rows),
        "fallback_reasons": dict(reasons),
        "not_found_answerable": sum(r["not_found"] for r in answerable),
        "not_found_unanswerable": sum(r["not_found"] for r in rows if r not in answerable),
        "must_contain_answerable": sum(r["must_contain"] for r in answerable),
        "answerable": len(answerable),
        "answers_with_invented_values": sum(bool(r["invented"]) for r in rows),
    }


def main() -> None:
    a = args()
    # a terminated run still stops the server it started (the `with` block's exit)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if a.base_url:
        rows = run(a, a.base_url)
    else:
        log = Path(tempfile.gettempdir()) / "citewise-real-llm-server.log"
        server = LlamaCppServer(smollm2_gguf(), alias=a.model, threads=a.threads, log_path=log)
        with server:
            print(f"llama.cpp server pid {server.pid} at {server.base_url}", flush=True)
            rows = run(a, server.base_url)
    summary = totals(rows)
    print(json.dumps(summary, indent=2))
    if a.json:
        a.json.write_text(json.dumps({"totals": summary, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
