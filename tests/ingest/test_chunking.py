from citewise.ingest.chunking import ChunkingOptions, chunk_document, section_label
from citewise.types import Block, ParsedDocument


def words(text: str) -> int:
    return len(text.split())


def _doc(*blocks: Block, title: str = "Guide") -> ParsedDocument:
    return ParsedDocument(title=title, blocks=tuple(blocks), format="markdown")


def _sentences(n: int, topic: str) -> str:
    return " ".join(f"Sentence {i} about {topic} has several words in it." for i in range(n))


def test_children_never_cross_a_section_boundary() -> None:
    doc = _doc(
        Block(_sentences(30, "install"), ("Guide", "Install")),
        Block(_sentences(30, "usage"), ("Guide", "Usage")),
    )
    chunks = chunk_document(doc, words, ChunkingOptions(child_tokens=60))
    for child in chunks.children:
        assert ("install" in child.text) != ("usage" in child.text)
        assert child.section in ("Guide > Install", "Guide > Usage")


def test_every_embedded_text_fits_the_window() -> None:
    doc = _doc(Block(_sentences(200, "limits"), ("Guide",)))
    opts = ChunkingOptions(child_tokens=500, window_tokens=80)
    chunks = chunk_document(doc, words, opts)
    assert len(chunks.children) > 5
    assert all(words(c.embed_text) <= 80 for c in chunks.children)


def test_consecutive_children_overlap() -> None:
    doc = _doc(Block(_sentences(40, "overlap"), ("Guide",)))
    chunks = chunk_document(doc, words, ChunkingOptions(child_tokens=60, overlap=0.2))
    first, second = chunks.children[0].text, chunks.children[1].text
    last_sentence_of_first = first.split(". ")[-1]
    assert last_sentence_of_first.rstrip(".") in second


def test_tiny_tail_is_merged_into_previous_child() -> None:
    text = _sentences(9, "tail") + " Short end."
    doc = _doc(Block(text, ("Guide",)))
    chunks = chunk_document(doc, words, ChunkingOptions(child_tokens=95, min_child_tokens=20))
    assert chunks.children[-1].text.endswith("Short end.")
    assert words(chunks.children[-1].text) >= 20


def test_split_table_repeats_header_on_every_piece() -> None:
    rows = "\n".join(f"Name: item{i}; Size: {i} MB" for i in range(60))
    doc = _doc(Block(rows, ("Guide", "Sizes"), kind="table", header="Name | Size"))
    chunks = chunk_document(doc, words, ChunkingOptions(child_tokens=60))
    assert len(chunks.children) > 2
    assert all(c.text.startswith("Name | Size") for c in chunks.children)


def test_pages_and_parents_are_tracked() -> None:
    doc = _doc(
        Block(_sentences(20, "one"), ("Guide",), page=1),
        Block(_sentences(20, "two"), ("Guide",), page=2),
    )
    chunks = chunk_document(doc, words, ChunkingOptions(parent_chars=1500, child_tokens=80))
    assert chunks.children[0].page_start == 1
    assert chunks.children[-1].page_end == 2
    assert len(chunks.parents) >= 2
    assert all(len(p.text) <= 1600 for p in chunks.parents)
    parent_ids = {c.parent_ordinal for c in chunks.children}
    assert parent_ids == set(range(len(chunks.parents)))


def test_embed_text_carries_title_and_heading_path() -> None:
    doc = _doc(Block("Rotate logs daily.", ("Install", "Linux")), title="Guide")
    child = chunk_document(doc, words).children[0]
    assert child.embed_text.startswith("Guide: Install > Linux")
    assert child.text == "Rotate logs daily."


def test_section_label_joins_path() -> None:
    assert section_label(("A", "", "B")) == "A > B"


def test_empty_blocks_give_no_chunks() -> None:
    assert chunk_document(_doc(Block("   ", ("x",))), words).children == ()


def _pieces(text: str) -> int:
    """A word-piece-like counter: long identifiers cost many tokens, as with MiniLM."""
    return sum(1 + len(w) // 4 for w in text.split())


def test_lists_of_long_identifiers_still_fit_the_window() -> None:
    names = " ".join(f"distutils.command.bdist_{i}_{'x' * (i % 7)}" for i in range(400))
    doc = _doc(Block("short intro words " * 5 + names, ("Index", "D")))
    chunks = chunk_document(doc, _pieces, ChunkingOptions(child_tokens=200, window_tokens=254))
    assert all(_pieces(c.embed_text) <= 254 for c in chunks.children)
    assert "bdist_399" in chunks.children[-1].text


def test_a_single_enormous_word_is_cut_to_fit() -> None:
    doc = _doc(Block("a" * 5000, ("Blob",)))
    chunks = chunk_document(doc, _pieces, ChunkingOptions(child_tokens=200, window_tokens=254))
    assert chunks.children and all(_pieces(c.embed_text) <= 254 for c in chunks.children)
