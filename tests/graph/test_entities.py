"""Entities worth a card: lower-case technical names a document treats as things, and the junk
that is not (generated strings, sentence-initial common words, emphasis, placeholders, a
reference list's authors)."""

from __future__ import annotations

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText, DocumentGraph
from citewise.graph.rules.tokens import looks_random


def graph_of(*texts: str, section: str = "") -> DocumentGraph:
    return extract([ChunkText(i + 1, text, section) for i, text in enumerate(texts)])


def kinds(graph: DocumentGraph) -> dict[str, str]:
    return {e.name: e.kind for e in graph.entities}


def test_paths_options_and_manual_pages_are_technical_entities() -> None:
    g = graph_of(
        "Passwords are kept in /etc/shadow, readable by root only.",
        "Run it with --purge to remove the configuration as well.",
        "See lintian(1) for the checks it runs.",
    )
    found = kinds(g)
    assert found["/etc/shadow"] == "path"
    assert found["--purge"] == "option"
    assert found["lintian"] == "command"


def test_a_lower_case_word_the_document_marks_or_opens_sentences_with_is_a_name() -> None:
    g = graph_of(
        "The dpkg program unpacks the archive. dpkg-source builds source packages.",
        "dpkg-source also unpacks them, and dpkg keeps a database.",
    )
    found = kinds(g)
    assert found["dpkg"] == "command" and found["dpkg-source"] == "software"


def test_everyday_and_common_technical_nouns_are_not_names() -> None:
    g = graph_of(
        "The package is unpacked into a subdirectory. subdirectories hold files.",
        "A symlink points elsewhere. symlinks are cheap; low-latency links help.",
        "Each directory has a filename and whitespace is trimmed.",
    )
    assert kinds(g) == {}


def test_everyday_word_marked_as_a_program_needs_a_plain_mark() -> None:
    # "the main program" says nothing; a manual page or a prompt does
    g = graph_of("The main program starts. Then the main program stops.")
    assert "main" not in kinds(g)
    g = graph_of("Patches are applied with quilt(1).", "$ quilt push -a")
    assert kinds(g)["quilt"] == "command"


def test_generated_strings_are_not_names() -> None:
    assert looks_random("vXGZLVbS") and looks_random("agUDsm1DehJMS")
    assert not any(looks_random(w) for w in ("PostgreSQL", "ZooKeeper", "HyperLogLog", "iPhone"))
    g = graph_of("The token vXGZLVbS was sent. Later vXGZLVbS expired.")
    assert kinds(g) == {}


def test_sentence_initial_adverbs_and_participles_are_not_names() -> None:
    g = graph_of(
        "Additionally, the server restarts. Accepted requests queue up.",
        "The reviewer wrote Additionally and Accepted in the margin.",
    )
    assert kinds(g) == {}


def test_shouted_disclaimer_words_are_not_acronyms() -> None:
    g = graph_of(
        "THE PROGRAM IS PROVIDED WITHOUT WARRANTY OF ANY KIND, EITHER EXPRESSED OR IMPLIED.",
        "It is sent over TCP. The NOTICE file lists authors.",
    )
    assert kinds(g) == {"TCP": "acronym"}


def test_placeholder_paths_and_files_are_not_entities() -> None:
    g = graph_of("Logs go to /var/log/foo and /usr/share/doc/PACKAGE/copyright as libfoo.so.")
    assert kinds(g) == {}


def test_a_reference_list_gives_cited_titles_not_names() -> None:
    refs = (
        "[1] DEAN, J., AND GHEMAWAT, S. MapReduce: Simplified data processing on large "
        "clusters. In Proc. of the 6th OSDI (Dec. 2004). [2] BURROWS, M. The Chubby lock "
        "service for loosely-coupled distributed systems. In Proc. of OSDI (2006). [3] GRAY, "
        "J. Notes on database operating systems. In Operating Systems (1978)."
    )
    g = graph_of(refs, section="Bigtable > References")
    assert g.entities == ()
    titles = {r.text for r in g.citations}
    assert "MapReduce: Simplified data processing on large clusters" in titles
    assert "The Chubby lock service for loosely-coupled distributed systems" in titles


def test_clause_titles_are_not_names() -> None:
    g = graph_of("7.", "Disclaimer of Warranty.", "Unless required by law, no warranty applies.")
    assert kinds(g) == {}
