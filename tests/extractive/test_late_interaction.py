"""Late interaction (MaxSim) between a question's tokens and candidate sentences."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from answer_factories import passage
from citewise.embed.hashing import HashingEmbedder
from citewise.embed.minilm.tokens import TokenStates
from citewise.extractive.candidates import CandidateSentence
from citewise.extractive.late_interaction import LateInteraction, maxsim, question_tokens


def test_maxsim_averages_each_question_tokens_best_match() -> None:
    asked = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    sentence = np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32)
    assert maxsim(asked, sentence) == pytest.approx((1.0 + 0.8) / 2)
    assert maxsim(asked, np.empty((0, 2), dtype=np.float32)) == 0.0


def test_question_tokens_keep_content_words_only() -> None:
    question = "What is the default size?"
    vectors = np.eye(6, dtype=np.float32)
    offsets = ((0, 4), (5, 7), (8, 11), (12, 19), (20, 24), (24, 25))
    read = TokenStates(vectors, ("what", "is", "the", "default", "size", "?"), offsets)
    kept = question_tokens(read, question)
    assert np.array_equal(kept, vectors[[3, 4]])


def _candidates(texts: list[str]) -> tuple[list[CandidateSentence], dict[int, list[str]]]:
    p = passage(1, " ".join(texts), section="Server Configuration > Memory")
    return [CandidateSentence(p, i, t, 1.0, frozenset()) for i, t in enumerate(texts)], {1: texts}


def test_an_embedder_without_token_states_gives_no_scores() -> None:
    cands, split = _candidates(["The default is 128 megabytes.", "Buffers are shared."])
    assert LateInteraction().scores(HashingEmbedder(), "What is the default?", cands, split) == {}


@pytest.mark.slow
def test_the_sentence_stating_the_asked_thing_matches_the_question_tokens_best(
    tmp_path: Path,
) -> None:
    from citewise.embed.minilm.export import ensure_onnx_model
    from citewise.embed.minilm.runtime import MiniLMEmbedder

    embedder = MiniLMEmbedder(onnx_path=ensure_onnx_model())
    texts = [
        "Sets the amount of memory the database server uses for shared memory buffers.",
        "The default is typically 128 megabytes.",
        "Larger settings usually require a corresponding increase in checkpoint settings.",
        "The weather in the mountains changes quickly in spring.",
    ]
    cands, split = _candidates(texts)
    scores = LateInteraction().scores(
        embedder, "How much memory is used for shared buffers?", cands, split
    )
    assert set(scores) == {0, 1, 2, 3}
    assert scores[0] == max(scores.values())
    assert scores[3] == min(scores.values())
