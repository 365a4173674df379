"""The contract of the optional `HybridSearch` capability (`store.base`): one call ranks
keywords and vectors and fuses both lists, and gives exactly what the two plain searches
fused by `retrieve.fusion.reciprocal_rank_fusion` give: the same lists, the same fused order
(ties included), the same scores. A backend that implements it runs this suite beside
`StoreContractTests` (`testing.store_contract`)."""

from __future__ import annotations

import pytest

from citewise.retrieve.fusion import reciprocal_rank_fusion
from citewise.store.base import HybridQuery, HybridSearch, Store
from citewise.testing.store_documents import embed_all, new_document, unit_vector
from citewise.types import SearchFilter

__all__ = ["HybridSearchContractTests"]

WORDS = ("log", "rotate", "file", "handler", "socket", "level", "backup", "restore", "cache")


def _fill(store: Store) -> None:
    for i in range(24):
        words = [WORDS[(i * 7 + j * 3) % len(WORDS)] for j in range(3 + i % 4)]
        collection = "default" if i % 4 else "other"
        category = "even" if i % 2 == 0 else ""
        store.add_document(new_document(f"d{i}.txt", " ".join(words) + ".",
                                        collection=collection, category=category))  # fmt: skip
    store.add_document(new_document("twin.txt", "log rotate file."))  # ties with d0's text
    embed_all(store)


class HybridSearchContractTests:
    """`hybrid_search` against the plain searches fused in Python; the `store` fixture is
    the backend's (empty, closed after the test)."""

    @pytest.mark.parametrize(
        ("terms", "flt", "depths", "weights"),
        [
            (["log", "rotate"], SearchFilter(), (10, 10), (1.0, 1.0)),
            (["backup", "restore"], SearchFilter(), (5, 20), (2.0, 0.5)),
            (["cache"], SearchFilter(category="even"), (10, 10), (1.0, 1.0)),
            (["socket", "level"], SearchFilter(collection="other"), (10, 10), (1.0, 1.0)),
            (["the"], SearchFilter(), (10, 10), (1.0, 1.0)),  # no keyword hit
        ],
    )
    def test_hybrid_search_equals_the_fusion_of_both_searches(
        self,
        store: Store,
        terms: list[str],
        flt: SearchFilter,
        depths: tuple[int, int],
        weights: tuple[float, float],
    ) -> None:
        assert isinstance(store, HybridSearch)
        _fill(store)
        query = HybridQuery(terms=terms, vector=unit_vector(3), keyword_k=depths[0],
                            vector_k=depths[1], keyword_weight=weights[0],
                            vector_weight=weights[1])  # fmt: skip
        got = store.hybrid_search(query, flt)
        keyword = store.keyword_search(terms, flt, depths[0])
        vector = store.vector_search(query.vector, flt, depths[1])
        fused = reciprocal_rank_fusion(
            {"keyword": keyword, "vector": vector}, k=query.rrf_k,
            weights={"keyword": weights[0], "vector": weights[1]},
        )  # fmt: skip
        assert got.keyword == keyword and got.vector == vector
        rows = [(f.chunk_id, f.score, f.keyword_rank, f.vector_rank) for f in got.fused]
        assert rows == [
            (f.chunk_id, f.score, f.ranks.get("keyword"), f.ranks.get("vector")) for f in fused
        ]
        assert got.fused, "every case ranks something (vectors at least)"
