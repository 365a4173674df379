"""The parser contract as pytest mixins, for a parser a plugin adds (docs/plugins.md).

`ParserContractTests`: what every parser does with bytes — its declaration is well formed,
a sample gives text with its sections (and pages, when the format has them), the same bytes
give the same document, empty, corrupt and encrypted input raise the matching
`DocumentError`, and a large input parses in bounded memory. `InstalledParserTests`: the
installed entry point routes the plugin's extensions to it (run after `pip install -e .`).

    class TestOrg(ParserContractTests, InstalledParserTests):
        @pytest.fixture
        def parser(self) -> ParserPlugin:
            return PARSER

        @pytest.fixture
        def format_name(self) -> str:
            return "org"

        @pytest.fixture
        def sample(self) -> Sample:
            return Sample(data, "notes.org", phrases=("…",), sections=("…",))

Optional fixtures to override: `encrypted` (an encrypted file; None when the format has no
encryption), `bomb` (a small file that expands hugely; None when the format does not
compress), `large` (a large valid file; by default the sample repeated, right for text
formats) and `peak_ratio` (the memory bound, in bytes held per byte of input).
"""

from __future__ import annotations

import random
import re
import tracemalloc
from dataclasses import dataclass
from pathlib import PurePath
from typing import get_args

import pytest

from citewise.errors import DocumentError, EmptyDocumentError, EncryptedDocumentError
from citewise.ingest.parsers import PARSERS, choose_parser, parse_bytes
from citewise.ingest.parsers.plugins import ParserPlugin
from citewise.types import BlockKind, ParsedDocument

LARGE_BYTES = 2**20
PEAK_SLACK = 32 * 2**20  # the interpreter's and the parser's fixed costs
_WS = re.compile(r"\s+")


@dataclass(frozen=True)
class Sample:
    """A well-formed file of the format and what its parse must hold: each phrase in the
    text (whitespace runs count as one space), each section in some block's heading path."""

    data: bytes
    name: str
    phrases: tuple[str, ...]
    sections: tuple[str, ...] = ()
    title: str | None = None


def _text(doc: ParsedDocument) -> str:
    return _WS.sub(" ", " ".join(b.text for b in doc.blocks))


def _mangled(data: bytes) -> list[bytes]:
    """Cut and damaged copies of a valid file: a parser may read them or reject them."""
    rng = random.Random(41)
    flipped = bytearray(data)
    for i in rng.sample(range(len(data)), min(len(data), 16)):
        flipped[i] ^= 0xFF
    cuts = [data[: len(data) * k // 4] for k in (1, 2, 3)]
    return [*cuts, bytes(flipped), b"\x00\xff" * 64 + data, data + b"\x00" * 64]


def _assert_well_formed(doc: ParsedDocument, format_name: str) -> None:
    assert isinstance(doc, ParsedDocument), f"a parser returns a ParsedDocument, not {doc!r}"
    assert doc.format == format_name, f"format {doc.format!r}, not the entry point's name"
    assert doc.title.strip() == doc.title and doc.title, f"title {doc.title!r}"
    assert doc.blocks, "a parsed document has at least one block (else NoTextError)"
    for block in doc.blocks:
        assert block.text.strip(), f"an empty block: {block!r}"
        assert block.kind in get_args(BlockKind), f"kind {block.kind!r}"
        assert isinstance(block.heading_path, tuple), "heading_path is a tuple"
        assert all(isinstance(h, str) and h.strip() for h in block.heading_path), block
    pages = [b.page for b in doc.blocks if b.page is not None]
    if doc.page_count is None:
        assert not pages, "blocks carry pages but the document has no page_count"
    else:
        assert all(1 <= p <= doc.page_count for p in pages), f"pages {pages} of {doc.page_count}"


class ParserContractTests:
    """What every parser promises; needs `parser`, `format_name` and `sample` fixtures."""

    @pytest.fixture
    def encrypted(self) -> bytes | None:
        return None

    @pytest.fixture
    def bomb(self) -> bytes | None:
        return None

    @pytest.fixture
    def large(self, sample: Sample) -> bytes:
        return sample.data * (LARGE_BYTES // len(sample.data) + 1)

    @pytest.fixture
    def peak_ratio(self) -> float:
        return 16.0

    def test_declares_its_extensions_and_mime_types(
        self, parser: ParserPlugin, sample: Sample
    ) -> None:
        assert isinstance(parser, ParserPlugin), f"{parser!r} is not a ParserPlugin"
        assert parser.problems() == [], "; ".join(parser.problems())
        ext = PurePath(sample.name).suffix.lower()
        assert ext in parser.extensions, f"the sample's {ext} is not among {parser.extensions}"

    def test_sample_gives_its_text_and_sections(
        self, parser: ParserPlugin, format_name: str, sample: Sample
    ) -> None:
        doc = parser(sample.data, sample.name)
        _assert_well_formed(doc, format_name)
        text = _text(doc)
        for phrase in sample.phrases:
            assert _WS.sub(" ", phrase) in text, f"{phrase!r} is missing from the text"
        headings = {h for b in doc.blocks for h in b.heading_path}
        for section in sample.sections:
            assert section in headings, f"no block under the heading {section!r}"
        if sample.title is not None:
            assert doc.title == sample.title

    def test_same_bytes_give_the_same_document(self, parser: ParserPlugin, sample: Sample) -> None:
        first = parser(sample.data, sample.name)
        assert first == parser(sample.data, sample.name), "two parses of one file differ"
        renamed = "other" + PurePath(sample.name).suffix
        assert parser(sample.data, renamed).blocks == first.blocks, "the name changed the text"

    def test_empty_input_is_an_empty_document(self, parser: ParserPlugin, sample: Sample) -> None:
        with pytest.raises(EmptyDocumentError):
            parser(b"", sample.name)
        with pytest.raises(DocumentError):
            parser(b" \n\t\r\n ", sample.name)

    def test_binary_garbage_is_a_document_error(self, parser: ParserPlugin, sample: Sample) -> None:
        garbage = random.Random(7).randbytes(4096)
        with pytest.raises(DocumentError) as raised:
            parser(garbage, sample.name)
        assert raised.value.message.strip(), f"{type(raised.value).__name__} without a message"

    def test_damaged_input_parses_or_raises_a_document_error(
        self, parser: ParserPlugin, format_name: str, sample: Sample
    ) -> None:
        for data in _mangled(sample.data):
            try:
                doc = parser(data, sample.name)
            except DocumentError as exc:
                assert exc.message.strip(), f"{type(exc).__name__} without a message"
            else:
                _assert_well_formed(doc, format_name)

    def test_encrypted_input_is_an_encrypted_document(
        self, parser: ParserPlugin, sample: Sample, encrypted: bytes | None
    ) -> None:
        if encrypted is None:
            pytest.skip("the format has no encryption")
        with pytest.raises(EncryptedDocumentError):
            parser(encrypted, sample.name)

    def test_a_bomb_is_refused_in_bounded_memory(
        self, parser: ParserPlugin, sample: Sample, bomb: bytes | None
    ) -> None:
        if bomb is None:
            pytest.skip("the format does not compress")
        tracemalloc.start()
        try:
            with pytest.raises(DocumentError):
                parser(bomb, sample.name)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < PEAK_SLACK + 64 * len(bomb), f"peak {peak:,} bytes for a bomb"

    def test_a_large_input_parses_in_bounded_memory(
        self,
        parser: ParserPlugin,
        format_name: str,
        sample: Sample,
        large: bytes,
        peak_ratio: float,
    ) -> None:
        tracemalloc.start()
        try:
            doc = parser(large, sample.name)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        _assert_well_formed(doc, format_name)
        assert doc.text_length > len(sample.data), "the large input was not read through"
        limit = PEAK_SLACK + peak_ratio * len(large)
        assert peak < limit, f"peak {peak:,} bytes for {len(large):,} bytes of input"


class InstalledParserTests:
    """The installed entry point reaches the parser: citewise routes the plugin's own
    extensions to it (extensions citewise parses itself stay with the built-in parser)."""

    def test_entry_point_registers_the_parser(self, parser: ParserPlugin, format_name: str) -> None:
        assert format_name in PARSERS, (
            f"no {format_name!r} in the citewise.parsers entry points: install the plugin "
            f"(pip install -e .) and declare the entry point in its pyproject.toml"
        )
        installed = PARSERS.get(format_name)
        assert isinstance(installed, ParserPlugin), f"{format_name!r} is {installed!r}"
        assert installed.extensions == parser.extensions, "another object is installed"

    def test_its_files_go_to_it(self, format_name: str, sample: Sample) -> None:
        chosen = choose_parser(sample.data, sample.name)
        assert chosen == format_name, f"{sample.name} goes to the {chosen!r} parser"
        assert parse_bytes(sample.data, sample.name).format == format_name
