"""The parser contract kit holds for citewise's own door (`parse_bytes` for Markdown and
HTML) and fails a parser that breaks its rules."""

from __future__ import annotations

import pytest

from citewise.errors import CorruptDocumentError
from citewise.ingest.parsers import parse_bytes
from citewise.ingest.parsers.plugins import ParserPlugin
from citewise.testing.parser_contract import ParserContractTests, Sample
from citewise.types import Block, ParsedDocument

MARKDOWN = b"""# Operations handbook

## Backups

The database is backed up every night at 02:00 UTC and kept for 14 days.

## Tokens

- API tokens are valid for 30 days.
- An expired token is rejected with status 401.
"""


def _parse(data: bytes, name: str, **options: str) -> ParsedDocument:
    return parse_bytes(data, name)


class TestMarkdownThroughParseBytes(ParserContractTests):
    @pytest.fixture
    def parser(self) -> ParserPlugin:
        return ParserPlugin(_parse, (".md", ".markdown"), ("text/markdown",))

    @pytest.fixture
    def format_name(self) -> str:
        return "markdown"

    @pytest.fixture
    def sample(self) -> Sample:
        return Sample(
            MARKDOWN,
            "handbook.md",
            phrases=("backed up every night at 02:00 UTC", "valid for 30 days"),
            sections=("Backups", "Tokens"),
            title="Operations handbook",
        )

    @pytest.fixture
    def large(self, sample: Sample) -> bytes:
        return sample.data * 1500  # ~300 KB: the Markdown parser is slow under tracemalloc


def _careless(data: bytes, name: str, **options: str) -> ParsedDocument:
    """Decodes without checking: garbage becomes a ValueError, not a DocumentError."""
    text = data.decode("utf-8")
    if not text:
        raise CorruptDocumentError("nothing")  # the wrong error for an empty file
    return ParsedDocument("t", (Block(text),), "careless")


@pytest.fixture
def careless() -> ParserPlugin:
    return ParserPlugin(_careless, (".txt",))


def test_the_contract_fails_a_careless_parser(careless: ParserPlugin) -> None:
    kit = ParserContractTests()
    sample = Sample(b"some text", "a.txt", phrases=("some text",))
    kit.test_sample_gives_its_text_and_sections(careless, "careless", sample)
    with pytest.raises(CorruptDocumentError):  # not the EmptyDocumentError the kit wants
        kit.test_empty_input_is_an_empty_document(careless, sample)
    with pytest.raises(UnicodeDecodeError):
        kit.test_binary_garbage_is_a_document_error(careless, sample)
    with pytest.raises(AssertionError, match="format"):
        kit.test_sample_gives_its_text_and_sections(careless, "org", sample)


def test_the_contract_fails_a_malformed_declaration() -> None:
    bad = ParserPlugin(_careless, ("org", ".Org"), ("text plain",))
    assert bad.problems() == [
        "bad extension 'org'",
        "bad extension '.Org'",
        "bad MIME type 'text plain'",
    ]
    with pytest.raises(AssertionError):
        ParserContractTests().test_declares_its_extensions_and_mime_types(
            bad, Sample(b"x", "a.org", phrases=())
        )
