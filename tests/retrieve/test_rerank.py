"""The rerank stage: backends, registry, feature rescoring and the adaptive passage selection."""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest

from citewise.embed.base import Vectors
from citewise.embed.hashing import HashingEmbedder
from citewise.errors import ConfigError
from citewise.llm.base import LLMConnectionError
from citewise.retrieve.rerank import (
    FUSED,
    CrossEncoderReranker,
    LLMReranker,
    NoRerank,
    Reranker,
    RescoreReranker,
    RescoreWeights,
    compute_features,
    create_reranker,
    parse_scores,
    reordered,
    select_passages,
)
from citewise.testing.fakes import FakeLLM
from citewise.types import Hit


def _hit(chunk_id: int, text: str, *, rank: int | None = None, score: float | None = None,
         section: str = "", title: str = "Doc") -> Hit:  # fmt: skip
    r = rank if rank is not None else chunk_id
    return Hit(
        rank=r,
        chunk_id=chunk_id,
        doc_id=1,
        source=f"doc{chunk_id}.html",
        title=title,
        page=None,
        page_end=None,
        section=section,
        score=score if score is not None else 1.0 / (60 + r),
        text=text,
        parent_id=chunk_id,
        retriever_ranks={"keyword": r},
    )


HITS = [
    _hit(1, "The weather module reports rain and sunshine for every city."),
    _hit(2, "Lists can be sorted in place with the sort method of a list."),
    _hit(3, "functools.lru_cache wraps a function with a memoizing callable cache."),
    _hit(4, "Dictionaries map hashable keys to arbitrary values."),
]


def _ids(hits: Sequence[Hit]) -> list[int]:
    return [h.chunk_id for h in hits]


# -- shared helpers and NoRerank ---------------------------------------------------------


def test_no_rerank_keeps_order_and_scores_and_cuts_to_k() -> None:
    out = NoRerank().rerank("anything", HITS, 2)
    assert _ids(out) == [1, 2]
    assert [h.rank for h in out] == [1, 2]
    assert [h.score for h in out] == [HITS[0].score, HITS[1].score]
    assert out[1].retriever_ranks == {"keyword": 2, FUSED: 2}


def test_reordered_sorts_by_score_renumbers_and_keeps_first_stage_ranks() -> None:
    hits = [_hit(7, "a", rank=1), _hit(8, "b", rank=2), _hit(9, "c", rank=3)]
    out = reordered(hits, [0.2, 0.9, 0.2], 10)
    assert _ids(out) == [8, 7, 9]  # the tie keeps the incoming order
    assert [h.rank for h in out] == [1, 2, 3]
    assert [h.score for h in out] == [0.9, 0.2, 0.2]
    assert out[0].retriever_ranks[FUSED] == 2
    assert hits[1].rank == 2  # the input hits are not modified


def test_reordered_rejects_mismatched_scores() -> None:
    with pytest.raises(ValueError, match="2 hits but 1 scores"):
        reordered(HITS[:2], [1.0], 2)


def test_every_backend_satisfies_the_protocol() -> None:
    backends: list[Reranker] = [
        NoRerank(),
        RescoreReranker(HashingEmbedder),
        LLMReranker(FakeLLM("{}")),
        CrossEncoderReranker("unused", model=object()),
    ]
    assert all(isinstance(b, Reranker) for b in backends)
    assert [b.last_fallback for b in backends] == [None] * 4
    assert all(0.0 <= b.select_threshold <= 1.0 for b in backends)


# -- registry ---------------------------------------------------------------------------


def test_registry_builds_each_backend_by_name() -> None:
    assert isinstance(create_reranker("none", embedder_factory=None), NoRerank)
    assert isinstance(create_reranker("rescore", embedder_factory=HashingEmbedder), RescoreReranker)
    assert isinstance(create_reranker(None, embedder_factory=HashingEmbedder), RescoreReranker)
    llm_reranker = create_reranker(" LLM ", embedder_factory=None, llm=FakeLLM("{}"))
    assert isinstance(llm_reranker, LLMReranker)


def test_registry_error_lists_the_valid_names() -> None:
    with pytest.raises(ConfigError) as err:
        create_reranker("colbert", embedder_factory=None)
    for name in ("none", "rescore", "cross-encoder:", "llm"):
        assert name in str(err.value)


def test_llm_reranker_without_an_llm_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="needs an LLM"):
        create_reranker("llm", embedder_factory=None)


def test_cross_encoder_with_missing_path_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        create_reranker(f"cross-encoder:{tmp_path / 'nope'}", embedder_factory=None)
    with pytest.raises(ConfigError, match="needs a model path"):
        create_reranker("cross-encoder:", embedder_factory=None)


def test_cross_encoder_without_sentence_transformers_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import now fails
    with pytest.raises(ConfigError, match="needs sentence-transformers"):
        create_reranker(f"cross-encoder:{tmp_path}", embedder_factory=None)


# -- cross-encoder ------------------------------------------------------------------------


class FakeCrossEncoder:
    def __init__(self, scores: Sequence[object]) -> None:
        self.scores = scores
        self.pairs: list[tuple[str, str]] = []

    def predict(self, pairs: Sequence[tuple[str, str]], **kwargs: object) -> np.ndarray:
        self.pairs = list(pairs)
        return np.asarray(self.scores, dtype=np.float32)


def test_cross_encoder_orders_by_model_score_and_maps_logits_to_probabilities() -> None:
    model = FakeCrossEncoder([-3.0, 0.0, 4.0, -1.0])
    out = CrossEncoderReranker("unused", model=model).rerank("cache", HITS, 3)
    assert _ids(out) == [3, 2, 4]
    assert model.pairs[2] == ("cache", HITS[2].text)
    assert out[0].score == pytest.approx(1 / (1 + np.exp(-4.0)))
    assert all(0.0 <= h.score <= 1.0 for h in out)


def test_cross_encoder_takes_the_last_label_of_two_column_output() -> None:
    model = FakeCrossEncoder([[0.9, 0.1], [0.2, 0.8]])
    out = CrossEncoderReranker("unused", model=model).rerank("q", HITS[:2], 2)
    assert _ids(out) == [2, 1]
    assert out[0].score == pytest.approx(0.8)


# -- LLM reranker -------------------------------------------------------------------------


def test_llm_reranker_orders_by_the_llms_scores_in_json_mode() -> None:
    llm = FakeLLM('{"scores": {"1": 2, "2": 0, "3": 9, "4": 5}}')
    reranker = LLMReranker(llm)
    out = reranker.rerank("what does lru_cache do?", HITS, 3)
    assert _ids(out) == [3, 4, 1]
    assert [h.score for h in out] == pytest.approx([0.9, 0.5, 0.2])
    assert reranker.last_fallback is None
    messages, json_mode = llm.calls[0]
    assert json_mode is True
    assert "[3] (Doc)\nfunctools.lru_cache wraps" in messages[-1].content
    assert "what does lru_cache do?" in messages[-1].content


def test_llm_reranker_keeps_order_and_says_so_on_garbage_json() -> None:
    reranker = LLMReranker(FakeLLM("I think passage three is best!"))
    out = reranker.rerank("q", HITS, 4)
    assert _ids(out) == [1, 2, 3, 4]
    assert [h.score for h in out] == [h.score for h in HITS]
    assert reranker.last_fallback is not None
    assert "no usable scores" in reranker.last_fallback


def test_llm_reranker_falls_back_to_incoming_order_on_llm_error() -> None:
    llm = FakeLLM(LLMConnectionError("cannot reach http://127.0.0.1:1"))
    reranker = LLMReranker(llm)
    out = reranker.rerank("q", HITS, 2)
    assert _ids(out) == [1, 2]
    assert reranker.last_fallback is not None
    assert "127.0.0.1:1" in reranker.last_fallback
    # a later successful call clears the fallback
    llm.replies = ['{"scores": [1, 8, 0, 0]}']
    assert _ids(reranker.rerank("q", HITS, 1)) == [2]
    assert reranker.last_fallback is None


def test_llm_reranker_records_partial_scores_and_puts_unscored_passages_last() -> None:
    reranker = LLMReranker(FakeLLM('{"scores": {"4": 6}}'))
    out = reranker.rerank("q", HITS, 4)
    assert _ids(out) == [4, 1, 2, 3]
    assert reranker.last_fallback == "llm rerank scored 1 of 4 passages"


def test_llm_reranker_shows_at_most_max_passages() -> None:
    llm = FakeLLM('{"scores": {"1": 1, "2": 7}}')
    out = LLMReranker(llm, max_passages=2).rerank("q", HITS, 4)
    assert _ids(out) == [2, 1, 3, 4]
    assert "[3]" not in llm.calls[0].messages[-1].content


def test_fallback_is_recorded_per_thread() -> None:
    reranker = LLMReranker(FakeLLM("garbage"))
    worker = threading.Thread(target=reranker.rerank, args=("q", HITS, 2))
    worker.start()
    worker.join()
    assert reranker.last_fallback is None  # this thread has not called it


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('```json\n{"scores": {"1": 7, "2": "3"}}\n```', {1: 7.0, 2: 3.0}),
        ('Sure: [{"id": 2, "score": 4}, {"passage": "1", "score": 12}] done', {2: 4.0, 1: 10.0}),
        ("[5, 0, -2]", {1: 5.0, 2: 0.0, 3: 0.0}),
        ('{"1": 3, "9": 8, "x": 1, "2": null, "3": true}', {1: 3.0}),
        ('{"scores": {"1.5": 3, "2": "high"}}', {}),
        ("not json at all", {}),
        ("", {}),
    ],
)
def test_parse_scores_is_robust(reply: str, expected: dict[int, float]) -> None:
    assert parse_scores(reply, 3) == expected


# -- rescore ------------------------------------------------------------------------------


def test_features_weight_rare_query_words_over_common_ones() -> None:
    hits = [
        _hit(1, "sorting lists is easy", rank=1),
        _hit(2, "stable sorting of lists", rank=2),
        _hit(3, "lists of things", rank=3),
    ]
    feats = compute_features("is sorting of lists stable", hits)
    # "lists" is in every candidate and weighs little; "stable" only in hit 2
    idf = {t: math.log(1 + (3 - df + 0.5) / (df + 0.5)) for t, df in
           [("sorting", 2), ("lists", 3), ("stable", 1)]}  # fmt: skip
    total = sum(idf.values())
    assert feats[1].terms == pytest.approx(1.0)
    assert feats[0].terms == pytest.approx((idf["sorting"] + idf["lists"]) / total)
    assert feats[2].terms == pytest.approx(idf["lists"] / total)
    assert feats[2].terms < 0.1  # unweighted, "lists" alone would be a third of the query
    assert [f.fused for f in feats] == pytest.approx([1.0, 61 / 62, 61 / 63])
    assert all(f.identifiers == 0.0 and f.dense == 0.0 for f in feats)


def test_features_credit_identifiers_and_section_titles() -> None:
    hits = [
        _hit(1, "Call split to break a string.", section="Text > str methods"),
        _hit(2, "str.split(sep) returns a list of the words.", section="Sequence types"),
        _hit(3, "Nothing relevant here.", section="Split strings"),
    ]
    feats = compute_features("What does str.split return?", hits)
    assert [f.identifiers for f in feats] == [0.5, 1.0, 0.0]
    assert feats[2].section > 0.0
    assert feats[1].section == 0.0


@pytest.mark.parametrize(
    ("query", "passages", "expected"),
    [
        (  # Texinfo heads the entry for asn1_der_coding "asn1 der coding"
            "What does asn1_der_coding return?",
            [
                ("Returns: 0 if decoded.", "DER > asn1 der decoding"),
                ("Returns: 0.", "DER > asn1 der coding"),
            ],
            [0.0, 1.0],
        ),
        ("What is __slots__?", [("Slots.", "A > slots")], [0.0]),  # no space left: no match
        (  # an acronym in other case counts half
            "How is a MIME type subclassed?",
            [("A MIME type.", "Intro"), ("A mime-type subclass.", "Sub"), ("Mimetypes.", "Guess")],
            [1.0, 0.5, 0.0],
        ),
    ],
)
def test_identifier_credit_for_headings_and_acronyms(
    query: str, passages: list[tuple[str, str]], expected: list[float]
) -> None:
    hits = [_hit(i + 1, text, section=section) for i, (text, section) in enumerate(passages)]
    assert [f.identifiers for f in compute_features(query, hits)] == expected


def test_rescore_promotes_the_passage_that_matches_the_query() -> None:
    reranker = RescoreReranker(HashingEmbedder)
    out = reranker.rerank("How does functools.lru_cache memoize a function?", HITS, 2)
    assert _ids(out) == [3, 1]
    assert out[0].rank == 1 and out[0].retriever_ranks[FUSED] == 3
    assert out[0].score > out[1].score >= 0.0


def test_rescore_weights_change_the_order() -> None:
    hits = [
        _hit(1, "sunshine and rain", rank=1),
        _hit(2, "sort a list in place", rank=2),
    ]
    only_fused = RescoreReranker(None, weights=RescoreWeights(1, 0, 0, 0, 0))
    only_terms = RescoreReranker(None, weights=RescoreWeights(0, 0, 1, 0, 0))
    assert _ids(only_fused.rerank("sort list", hits, 2)) == [1, 2]
    assert _ids(only_terms.rerank("sort list", hits, 2)) == [2, 1]


def test_rescore_uses_stored_vectors_without_embedding_passages() -> None:
    emb = HashingEmbedder()
    stored = {h.chunk_id: emb.embed_documents([h.text])[0] for h in HITS}
    asked: list[list[int]] = []

    def lookup(ids: Sequence[int]) -> Mapping[int, Vectors]:
        asked.append(list(ids))
        return {i: stored[i] for i in ids}

    class NoPassageEmbedding(HashingEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> Vectors:
            raise AssertionError("passages must not be embedded when vectors are stored")

        def embed_query(self, text: str) -> Vectors:
            return emb.embed_query(text)

    dense_only = RescoreWeights(fused=0, dense=1, terms=0, identifiers=0, section=0)
    reranker = RescoreReranker(NoPassageEmbedding, weights=dense_only, vector_lookup=lookup)
    out = reranker.rerank("dictionaries map hashable keys", HITS, 1, vectors={1: stored[1]})
    assert _ids(out) == [4]
    assert asked == [[2, 3, 4]]  # only the ids not passed in
    assert reranker.last_fallback is None
    expected = float(stored[4] @ emb.embed_query("dictionaries map hashable keys"))
    assert out[0].score == pytest.approx(expected, abs=1e-6)


def test_rescore_embeds_passages_when_no_vectors_are_stored_and_says_so() -> None:
    dense_only = RescoreWeights(fused=0, dense=1, terms=0, identifiers=0, section=0)
    reranker = RescoreReranker(HashingEmbedder, weights=dense_only)
    out = reranker.rerank("dictionaries map hashable keys", HITS, 1)
    assert _ids(out) == [4]
    assert reranker.last_fallback == "embedded 4 passage(s): no stored vectors"


def test_rescore_embeds_only_the_passages_without_a_stored_vector() -> None:
    emb = HashingEmbedder()
    embedded: list[str] = []

    class Recording(HashingEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> Vectors:
            embedded.extend(texts)
            return emb.embed_documents(texts)

        def embed_query(self, text: str) -> Vectors:
            return emb.embed_query(text)

    stored = {h.chunk_id: emb.embed_documents([h.text])[0] for h in HITS[:3]}
    reranker = RescoreReranker(Recording, vector_lookup=lambda ids: {i: stored[i] for i in ids
                                                                     if i in stored})  # fmt: skip
    reranker.rerank("dictionaries", HITS, 4)
    assert embedded == ["Doc\n" + HITS[3].text]  # heading line + text, as ingest embeds it
    assert reranker.last_fallback == "embedded 1 passage(s): no stored vectors"


def test_rescore_does_not_touch_the_embedder_when_given_every_vector() -> None:
    emb = HashingEmbedder()

    def no_embedder() -> HashingEmbedder:
        raise AssertionError("the embedder must not be created")

    vectors = {h.chunk_id: emb.embed_documents([h.text])[0] for h in HITS}
    reranker = RescoreReranker(no_embedder)
    out = reranker.rerank("q", HITS, 2, query_vector=emb.embed_query("hashable keys"),
                          vectors=vectors)  # fmt: skip
    assert _ids(out)[0] == 4


def test_rescore_turns_dense_off_when_embedding_passages_is_not_allowed() -> None:
    reranker = RescoreReranker(HashingEmbedder, vector_lookup=lambda ids: {}, embed_missing=False)
    feats = reranker.features("dictionaries", HITS)
    assert all(f.dense == 0.0 for f in feats)
    assert reranker.last_fallback is not None
    assert "dense feature off" in reranker.last_fallback


def test_rescore_uses_a_given_query_vector() -> None:
    emb = HashingEmbedder()
    qvec = emb.embed_query("weather rain sunshine")
    dense_only = RescoreWeights(fused=0, dense=1, terms=0, identifiers=0, section=0)
    reranker = RescoreReranker(HashingEmbedder, weights=dense_only)
    out = reranker.rerank("dictionaries", HITS, 1, query_vector=qvec)  # the vector wins
    assert _ids(out) == [1]


def test_rescore_of_no_hits_is_empty() -> None:
    assert RescoreReranker(HashingEmbedder).rerank("q", [], 5) == []


# -- select_passages ----------------------------------------------------------------------


def _scored(*scores: float) -> list[Hit]:
    return [_hit(i, f"t{i}", rank=i, score=s) for i, s in enumerate(scores, start=1)]


def test_select_passages_drops_passages_far_below_the_top() -> None:
    hits = _scored(0.9, 0.8, 0.3, 0.2)
    assert _ids(select_passages(hits, 6, threshold=0.5)) == [1, 2]
    assert _ids(select_passages(hits, 6, threshold=0.2)) == [1, 2, 3, 4]


def test_select_passages_keeps_at_most_the_cap() -> None:
    hits = _scored(*([1.0] * 10))
    assert len(select_passages(hits, 3, threshold=0.5)) == 3
    assert len(select_passages(hits, 6, threshold=0.5)) == 6


def test_select_passages_keeps_min_keep_whatever_the_scores() -> None:
    hits = _scored(1.0, 0.1, 0.05)
    assert _ids(select_passages(hits, 3, threshold=0.9, min_keep=2)) == [1, 2]
    assert _ids(select_passages(_scored(0.0, 0.0), 3, threshold=0.5)) == [1]
    assert select_passages([], 3, threshold=0.5) == []


def test_select_passages_rejects_a_threshold_outside_zero_to_one() -> None:
    with pytest.raises(ValueError, match="threshold"):
        select_passages(_scored(1.0), 3, threshold=1.5)


@pytest.mark.slow
def test_cross_encoder_loads_a_real_local_model_and_scores_with_it(tmp_path: Path) -> None:
    """A tiny random BERT saved as a cross-encoder: exercises the real loading and predict."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    st = pytest.importorskip("sentence_transformers")
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "cache", "sort", "list", "rain", "a"]
    (tmp_path / "vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    transformers.BertTokenizerFast(vocab_file=str(tmp_path / "vocab.txt")).save_pretrained(tmp_path)
    config = transformers.BertConfig(
        vocab_size=len(words), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64, num_labels=1, initializer_range=0.5,
    )  # fmt: skip
    torch.manual_seed(0)
    transformers.BertForSequenceClassification(config).save_pretrained(tmp_path)

    reranker = create_reranker(f"cross-encoder:{tmp_path}", embedder_factory=None)
    hits = [_hit(1, "rain rain"), _hit(2, "sort a list"), _hit(3, "cache")]
    out = reranker.rerank("sort list cache", hits, 3)

    model = st.CrossEncoder(str(tmp_path), device="cpu", local_files_only=True)
    direct = model.predict([("sort list cache", h.text) for h in hits], show_progress_bar=False)
    expected = sorted(range(3), key=lambda i: (-float(direct[i]), i))
    assert _ids(out) == [hits[i].chunk_id for i in expected]
    assert _ids(out) != [1, 2, 3]  # the seeded model disagrees with the incoming order
    assert [h.score for h in out] == pytest.approx([float(direct[i]) for i in expected], rel=1e-4)
    assert reranker.last_fallback is None


def test_a_rerank_result_carries_the_fallback_of_its_own_call() -> None:
    from citewise.retrieve.rerank.base import rerank_result

    class Failing(NoRerank):
        def rerank(
            self, query: str, hits: Sequence[Hit], k: int, *, query_vector: object = None
        ) -> list[Hit]:
            self._record("scores unusable")
            return list(hits[:k])

    assert rerank_result(NoRerank(), "q", [], 3).fallback is None
    assert rerank_result(Failing(), "q", [], 3).fallback == "scores unusable"
