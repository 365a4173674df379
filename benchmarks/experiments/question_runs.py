"""What the answer-flow scripts (answer_check.py, citation_bound.py) share: their command line
(a question file, a store, --quiet) and a chat over that store whose session memory lives in a
temporary directory, so running a question set never writes to the store."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citewise.assistant import Assistant
from citewise.assistant.inside import inside
from citewise.chat.memory import SQLiteMemory


def question_set_args(description: str) -> argparse.Namespace:
    """`questions` (a JSONL file), `--data-dir` (a store over their corpus) and `--quiet`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("questions", type=Path)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--quiet", action="store_true", help="print the totals only")
    return parser.parse_args()


@contextmanager
def chat_over(data_dir: Path) -> Iterator[Assistant]:
    """The full answer flow over the store in `data_dir`, with throwaway session memory."""
    with tempfile.TemporaryDirectory() as tmp, Assistant(data_dir=data_dir) as assistant:
        chat = Assistant(
            settings=assistant.settings,
            embedder=inside(assistant).embedder(),
            memory=SQLiteMemory(Path(tmp) / "memory.db"),
        )
        try:
            yield chat
        finally:
            chat.close()
