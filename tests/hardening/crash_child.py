"""The ingest child the crash tests kill, for either store: `child_script(store, hook)` is a
script that ingests with --prune and freezes at the n-th occurrence of its phase — inside a
parse, or inside an open write transaction just before its COMMIT — then tells the parent
(which kills it with SIGKILL). `hook` wraps the store's transactions so `reached(step)` runs
before each COMMIT; `local.step` names the store call running, `local.deleted` whether the
transaction deleted a document (a replacement's swap)."""

from __future__ import annotations

import textwrap

_PRELUDE = """
import sys, threading, time
from contextlib import contextmanager
from pathlib import Path
import citewise.ingest.parsers as parsers
import citewise.ingest.pipeline as pipeline
from citewise.app import Assistant
from citewise.store.{module} import {store}

corpus, data, marker, phase, nth = sys.argv[1:6]
nth = int(nth)
pipeline.EMBED_BATCH = 4  # several batches per run
seen = {{"n": 0}}
local = threading.local()

def reached(name):
    if name != phase:
        return
    seen["n"] += 1
    if seen["n"] == nth:
        Path(marker).write_text(name)
        time.sleep(60)  # frozen here until killed

def before_commit():
    step = getattr(local, "step", None)
    if step == "finalize" and getattr(local, "deleted", False):
        reached("swap")
    elif step in ("insert", "embed", "prune"):
        reached(step)

parse_file = parsers.parse_file
def slow_parse(*args, **kwargs):
    reached("parse")
    return parse_file(*args, **kwargs)
parsers.parse_file = slow_parse
"""

_TAGGING = """
def tagged(method, step):
    def run(*args, **kwargs):
        local.step = step
        try:
            return method(*args, **kwargs)
        finally:
            local.step = None
    return run

{store}.add_document = tagged({store}.add_document, "insert")
{store}.put_vectors = tagged({store}.put_vectors, "embed")
{store}.finalize = tagged({store}.finalize, "finalize")
pipeline._prune = tagged(pipeline._prune, "prune")

with Assistant(data_dir=data, embedder="hashing") as a:
    a.ingest([corpus], prune=True)
"""


def child_script(module: str, store: str, hook: str) -> str:
    """The child for `citewise.store.<module>.<store>`, its transactions wrapped by `hook`."""
    parts = (_PRELUDE.format(module=module, store=store), textwrap.dedent(hook), _TAGGING)
    return "\n".join(part.format(store=store) if part is _TAGGING else part for part in parts)
