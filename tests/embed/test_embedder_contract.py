"""The Embedder contract (`citewise.testing.embedder_contract`), run against every backend.

hashing always; the bundled MiniLM is `slow`; Ollama and OpenAI run against the scripted
server on 127.0.0.1 (`integration`). The sentence-transformers backend is covered in
test_minilm.py, where the real model is at hand.
"""

from __future__ import annotations

import pytest

from citewise.embed import Embedder, create_embedder
from citewise.testing.embedder_contract import EmbedderContractTests, SymmetricEmbedderTests
from citewise.testing.fakes import CountingEmbedder
from embed.fake_server import FakeServer


class TestHashingEmbedder(EmbedderContractTests, SymmetricEmbedderTests):
    @pytest.fixture
    def embedder(self) -> Embedder:
        return create_embedder("hashing")


@pytest.mark.slow
class TestMiniLMEmbedder(EmbedderContractTests, SymmetricEmbedderTests):
    @pytest.fixture(scope="class")
    @classmethod
    def embedder(cls) -> Embedder:
        return create_embedder("minilm")


@pytest.mark.integration
class TestOllamaEmbedder(EmbedderContractTests, SymmetricEmbedderTests):
    @pytest.fixture
    def embedder(self, embed_server: FakeServer) -> Embedder:
        return create_embedder("ollama:test-model", base_url=embed_server.url, batch_size=4)


@pytest.mark.integration
class TestOpenAIEmbedder(EmbedderContractTests, SymmetricEmbedderTests):
    @pytest.fixture
    def embedder(self, embed_server: FakeServer) -> Embedder:
        return create_embedder("openai:test-model", base_url=embed_server.url, batch_size=4)


class TestCountingEmbedder(EmbedderContractTests, SymmetricEmbedderTests):
    @pytest.fixture
    def embedder(self) -> CountingEmbedder:
        return CountingEmbedder()

    def test_records_each_query_and_document_batch(self, embedder: CountingEmbedder) -> None:
        embedder.embed_query("where are the logs")
        embedder.embed_documents(["one", "two"])
        embedder.embed_documents(["three"])
        assert embedder.queries == ["where are the logs"]
        assert embedder.document_batches == [["one", "two"], ["three"]]
        assert embedder.documents == ["one", "two", "three"]
