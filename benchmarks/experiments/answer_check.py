"""Answer check on question sets outside the dev set: each line {"q": …, "must": [...]}, or
{"q": …, "must": [], "unanswerable": true}. A question passes when the answer contains every
`must` string (case-insensitive); an unanswerable one when nothing is cited. Every question
runs in its own session.

    python benchmarks/experiments/answer_check.py benchmarks/questions/python_lookups_a.jsonl \
        --data-dir ~/.citewise/eval/html-9314f817

The data dir is a store over the questions' corpus: for the Python sets the one `citewise eval
benchmarks/check_sets/dev.jsonl --corpus /usr/share/doc/python3.11/html` builds. These sets were
written to check rules tuned on the dev set against questions they were not tuned on; keep
them that way (do not tune on them question by question).
"""

from __future__ import annotations

import json

from question_runs import chat_over, question_set_args


def main() -> None:
    args = question_set_args(__doc__.splitlines()[0])
    rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    passed = answerable = abstained = unanswerable = 0
    with chat_over(args.data_dir) as chat:
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
    print(f"must_contain {passed}/{answerable}, abstained {abstained}/{unanswerable}")


if __name__ == "__main__":
    main()
