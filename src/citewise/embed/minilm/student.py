"""The shallower student of the bundled model (`minilm-l3`, issue #42 item 4): 3 layers.

`scripts/distill_student.py` keeps 3 of all-MiniLM-L6-v2's 6 layers and distils them on the
check sets' own text to the teacher's normalised vectors; it writes only those layers (fp16,
~5 MB, shipped in `student/`), since the word and position embeddings stay the teacher's
(frozen while training). The graph is built from the teacher's embeddings plus these layers,
then quantised by the same recipe as the default. Its vectors are close to, but not, the
teacher's (`student-l3.json`: held-out cosine), so it is a vector space of its own: its name
carries the weights' hash, and a store built with another embedder refuses it as today.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from citewise.embed.minilm.weights import FloatArray, read_safetensors
from citewise.errors import EmbedderError

STUDENT_DIR = Path(__file__).resolve().parent / "student"
WEIGHTS = "student-l3.safetensors"
REPORT = "student-l3.json"
_LAYER = re.compile(r"^encoder\.layer\.(\d+)\.")


def _file(name: str) -> Path:
    path = STUDENT_DIR / name
    if not path.is_file():
        raise EmbedderError(
            f"the 3-layer student's file {name} is missing from {STUDENT_DIR}: it ships with"
            " a source checkout, not the wheel (the user install stays small); install citewise"
            " from a checkout, or rebuild it with scripts/distill_student.py"
        )
    return path


def student_tag() -> str:
    """The first 8 hex digits of the shipped weights' sha256 (written by the training script)."""
    report = json.loads(_file(REPORT).read_text("utf-8"))
    return str(report["sha256"])[:8]


def student_name() -> str:
    """The vector space's name, stored with every vector the student makes."""
    return f"all-MiniLM-L6-v2-student-l3-{student_tag()}"


def layer_count(weights: dict[str, FloatArray]) -> int:
    """How many encoder layers `weights` hold (numbered from 0)."""
    found = {int(m.group(1)) for name in weights if (m := _LAYER.match(name))}
    if found != set(range(len(found))):
        raise EmbedderError(f"encoder layers are not numbered 0..n-1: {sorted(found)}")
    return len(found)


def student_weights(teacher: dict[str, FloatArray]) -> dict[str, FloatArray]:
    """The teacher's weights with its encoder layers replaced by the student's."""
    layers = read_safetensors(_file(WEIGHTS))
    if not layers or any(not _LAYER.match(name) for name in layers):
        raise EmbedderError(f"{WEIGHTS} should hold encoder layers only")
    kept = {name: value for name, value in teacher.items() if not _LAYER.match(name)}
    return kept | layers
