"""Answer check on question sets outside the dev set: each line {"q": …, "must": [...]}, or
{"q": …, "must": [], "unanswerable": true}. A question passes when the answer contains every
`must` string (case-insensitive); an unanswerable one when nothing is cited. Every question
runs in its own session.

    python benchmarks/answer_check.py benchmarks/questions/python_lookups_a.jsonl \
        --data-dir ~/.citewise/eval/html-9314f817

The data dir is a store over the questions' corpus: for the Python sets the one `citewise eval
../shared/eval/dev.jsonl --corpus /usr/share/doc/python3.11/html` builds. These sets were
written to check rules tuned on the dev set against questions they were not tuned on; keep
them that way (do not tune on them question by question).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from citewise.app import Assistant
from citewise.chat.assistant import ChatAssistant
from citewise.chat.memory import SQLiteMemory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--quiet", action="store_true", help="print the totals only")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    passed = answerable = abstained = unanswerable = 0
    with tempfile.TemporaryDirectory() as tmp, Assistant(data_dir=args.data_dir) as assistant:
        chat = ChatAssistant(assistant, memory=SQLiteMemory(Path(tmp) / "memory.db"))
        try:
            for i, row in enumerate(rows):
                answer = chat.ask(row["q"], session_id=f"check-{i}")
                if row.get("unanswerable"):
                    unanswerable += 1
                    ok = not answer.citations
                    abstained += ok
                else:
                    answerable += 1
                    ok = all(m.lower() in answer.answer.lower() for m in row["must"])
                    passed += ok
                if not args.quiet:
                    print("OK  " if ok else "MISS", row["q"])
                    print("    ", answer.answer[:300].replace("\n", " "))
        finally:
            chat.close()
    print(f"must_contain {passed}/{answerable}, abstained {abstained}/{unanswerable}")


if __name__ == "__main__":
    main()
