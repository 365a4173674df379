"""Cross-references between document profiles: explicit citations and shared rare entities."""

from __future__ import annotations

from dataclasses import replace

import pytest

from citewise.graph.crossrefs import (
    document_names,
    explicit_links,
    implicit_links,
    links_for,
    profile,
    rarity,
)
from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentLink, DocumentProfile, entity_key


def prof(doc_id: int, title: str, source: str, *texts: str) -> DocumentProfile:
    graph = extract([ChunkText(doc_id * 100 + i, t) for i, t in enumerate(texts)])
    return profile(doc_id, title, source, graph)


def test_document_is_named_by_title_file_name_section_number_and_title_code() -> None:
    names = document_names("20.4. Resource Consumption", "docs/runtime-config-resource.html")
    assert entity_key("Section 20.4") in names
    assert entity_key("runtime-config-resource.html") in names
    assert entity_key("runtime config resource") in names
    assert entity_key("Chapter 20") not in names  # a section, not the chapter
    assert entity_key("Chapter 20") in document_names("20. Server Configuration", "c.html")
    assert entity_key("FC-001-234") in document_names("FC-001-234 Pump manual", "p.pdf")
    assert "json" in document_names("json — JSON encoder and decoder", "library/json.html")


def test_document_naming_another_by_code_is_linked_explicitly() -> None:
    manual = prof(1, "FC-001-234 Pump Manual", "pump-manual.pdf", "The pump runs on oil.")
    notes = prof(2, "Service notes", "notes.txt", "Replace seals as FC-001-234 says.")
    [link] = explicit_links(notes, [manual])
    assert link.documents == (2, 1) and link.kind == "explicit"
    assert link.evidence == (entity_key("FC-001-234"),)
    assert 0.5 <= link.strength <= 1.0


def test_a_bare_section_or_chapter_number_is_never_a_citation_of_another_document() -> None:
    chapter = prof(1, "7. Declaring relationships between packages", "ch-relationships.html")
    citing = prof(2, "Binary packages", "ch-binary.html", "Dependencies are in Section 7.2.")
    assert explicit_links(citing, [chapter]) == []
    # the maintainers' guide's own "chapter 5" does not cite the reference's Chapter 5
    reference = prof(3, "Chapter 5. Network setup", "debian-reference/ch05.html")
    guide = prof(4, "Debian New Maintainers' Guide", "maint-guide.pdf", "See Chapter 5 for rules.")
    assert links_for(guide, [reference]) == []


def test_a_chapter_number_as_an_alias_is_no_citation_either() -> None:
    reference = prof(3, "Chapter 6. Maintainer scripts", "ch-maintainerscripts.html")
    graph = extract([ChunkText(401, "The Sensor Bus Interface is described later.")])
    with_alias = replace(
        graph,
        entities=tuple(replace(e, aliases=("Chapter 6",)) for e in graph.entities),
    )
    guide = profile(4, "Filesystem Hierarchy Standard", "fhs.pdf", with_alias)
    assert links_for(guide, [reference]) == []


def test_a_title_in_a_reference_list_cites_that_document() -> None:
    gfs = prof(1, "The Google File System", "gfs.pdf", "Chunkservers store chunks.")
    refs = (
        "[1] GHEMAWAT, S., GOBIOFF, H., AND LEUNG, S.-T. The Google file system. In Proc. of "
        "the 19th ACM SOSP (Dec. 2003). [2] DEAN, J. Another paper title here. In OSDI. "
        "[3] GRAY, J. Notes on database operating systems. In Operating Systems (1978)."
    )
    chunks = [ChunkText(201, refs, "Bigtable > References")]
    bigtable = profile(2, "Bigtable", "bigtable.pdf", extract(chunks))
    [link] = explicit_links(bigtable, [gfs])
    assert link.documents == (2, 1) and link.evidence == ("google file system",)


def test_explicit_link_is_found_from_either_side() -> None:
    manual = prof(1, "Pump Manual", "pump-manual.pdf", "The pump runs on oil.")
    notes = prof(2, "Notes", "notes.txt", "See pump-manual.pdf for the seals.")
    assert [k.documents for k in explicit_links(manual, [notes])] == [(2, 1)]


def test_documents_sharing_two_rare_entities_are_linked_implicitly() -> None:
    a = prof(1, "A", "a.txt", "The Valve Controller reads the Sensor Bus Interface.")
    b = prof(2, "B", "b.txt", "The Sensor Bus Interface feeds the Valve Controller.")
    c = prof(3, "C", "c.txt", "The Cooling Loop is unrelated.")
    links = links_for(a, [b, c])
    assert [(k.documents, k.kind) for k in links] == [((1, 2), "implicit")]
    assert set(links[0].evidence) == {"valve controller", "sensor bus interface"}


def test_one_shared_entity_is_not_enough_for_an_implicit_link() -> None:
    a = prof(1, "A", "a.txt", "The Valve Controller is red.")
    b = prof(2, "B", "b.txt", "The Valve Controller is blue.")
    assert links_for(a, [b]) == []


def test_entities_most_documents_share_do_not_link_them() -> None:
    docs = [
        DocumentProfile(i, frozenset(), frozenset(), frozenset({"http", "pdf"})) for i in range(6)
    ]
    df = {"http": 6, "pdf": 6}
    assert implicit_links(docs[0], docs[1:], df, 6) == []


def test_rarer_shared_entities_make_a_stronger_link() -> None:
    doc = DocumentProfile(1, frozenset(), frozenset(), frozenset({"a", "b", "c", "d"}))
    rare = DocumentProfile(2, frozenset(), frozenset(), frozenset({"a", "b"}))
    common = DocumentProfile(3, frozenset(), frozenset(), frozenset({"c", "d"}))
    df = {"a": 2, "b": 2, "c": 4, "d": 4}
    by_pair = {k.documents: k.strength for k in implicit_links(doc, [rare, common], df, 10)}
    assert by_pair[(1, 2)] > by_pair[(1, 3)] > 0.0


def test_rarity_is_one_for_an_entity_of_one_document_and_falls_with_more() -> None:
    assert rarity(1, 10) == pytest.approx(1.0, abs=0.05)
    assert rarity(1, 10) > rarity(5, 10) > rarity(10, 10)


def test_link_strength_outside_zero_to_one_is_rejected() -> None:
    with pytest.raises(ValueError):
        DocumentLink((1, 2), "implicit", 1.5, ())


def sectioned(doc_id: int, title: str, source: str, *parts: tuple[str, str]) -> DocumentProfile:
    chunks = [ChunkText(doc_id * 100 + i, text, section) for i, (section, text) in enumerate(parts)]
    return profile(doc_id, title, source, extract(chunks))


def test_document_cited_by_one_of_its_section_titles_is_linked() -> None:
    relationships = sectioned(
        1, "7. Declaring relationships between packages", "ch-relationships.html",
        ("7. Declaring relationships > 7.5. Virtual packages - Provides", "A package may provide."),
    )  # fmt: skip
    binary = sectioned(
        2, "3. Binary packages", "ch-binary.html",
        ("3. Binary packages", "See Virtual packages - Provides for the field."),
    )  # fmt: skip
    [link] = explicit_links(binary, [relationships])
    assert link.documents == (2, 1) and "virtual packages provides" in link.evidence


def test_section_number_the_document_itself_has_is_not_a_citation_of_another() -> None:
    chapter_three = prof(1, "3. Binary packages", "ch-binary.html", "Binaries go in /usr/bin.")
    standard = sectioned(
        2, "Filesystem Hierarchy Standard", "fhs.pdf",
        ("", "Chapter 3. The Root Filesystem\nSee Section 3 for the root filesystem."),
    )  # fmt: skip
    assert explicit_links(standard, [chapter_three]) == []
