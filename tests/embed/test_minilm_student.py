"""The 3-layer student (`minilm-l3`, issue #42 item 4): resolves, loads, embeds unit vectors
near the teacher's, in a vector space of its own name. Slow: builds and loads the real graph."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citewise.embed import VALID_SPECS, create_embedder
from citewise.embed.minilm.export import model_path
from citewise.embed.minilm.runtime import NAME, MiniLMEmbedder
from citewise.embed.minilm.student import layer_count, student_name, student_weights
from citewise.embed.minilm.weights import bundled_model_dir, read_safetensors

pytestmark = pytest.mark.slow

TEXTS = [
    "The licensee may not sublicense the software without the licensor's written consent.",
    "Employees must report gifts worth more than fifty pounds to their manager.",
    "ok",
]


@pytest.fixture(scope="module")
def student(tmp_path_factory: pytest.TempPathFactory) -> MiniLMEmbedder:
    embedder = create_embedder("minilm-l3", cache_dir=tmp_path_factory.mktemp("models"))
    assert isinstance(embedder, MiniLMEmbedder)
    return embedder


def test_the_spec_is_listed_and_its_graph_is_named_apart() -> None:
    assert "minilm-l3" in VALID_SPECS
    teacher, pupil = model_path(Path("/c")), model_path(Path("/c"), student=True)
    assert teacher != pupil and pupil.name.startswith("minilm-l3-student-")


def test_the_student_has_three_layers_over_the_teachers_embeddings() -> None:
    teacher = read_safetensors(bundled_model_dir() / "model.safetensors")
    merged = student_weights(teacher)
    assert layer_count(teacher) == 6 and layer_count(merged) == 3
    name = "embeddings.word_embeddings.weight"
    assert merged[name] is teacher[name]
    assert not np.array_equal(
        merged["encoder.layer.0.output.dense.weight"],
        teacher["encoder.layer.0.output.dense.weight"],
    )


def test_the_student_embeds_unit_vectors_under_its_own_name(student: MiniLMEmbedder) -> None:
    vectors = student.embed_documents(TEXTS)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert student.name == student_name() != NAME
    assert np.allclose(student.embed_query(TEXTS[0]), vectors[0], atol=1e-5)


def test_the_student_stays_near_the_teacher(student: MiniLMEmbedder, minilm_onnx: Path) -> None:
    # trained: held-out mean 0.83 (student-l3.json); the layers dropped untrained give 0.44
    teacher = MiniLMEmbedder(onnx_path=minilm_onnx).embed_documents(TEXTS[:2])
    cosines = np.sum(student.embed_documents(TEXTS[:2]) * teacher, axis=1)
    assert float(cosines.min()) >= 0.7, cosines


def test_an_install_without_the_student_says_where_it_ships(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import citewise.embed.minilm.student as student_module
    from citewise.errors import EmbedderError

    monkeypatch.setattr(student_module, "STUDENT_DIR", tmp_path)
    with pytest.raises(EmbedderError, match="source checkout, not the wheel"):
        student_name()
