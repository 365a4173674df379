from __future__ import annotations

from answer_factories import passage
from citewise.answer.citations import build_citations, parse_references
from citewise.extractive.clauses import as_span
from fake_embedder import answerer

# a long sentence whose last clause answers, and a shorter sentence that answers less well
LONG = passage(
    1,
    "The pool size of each connection opener is set by the handler, and each request must "
    "name its protocol version; shutil.rmtree() removes an entire directory tree.",
    source="library/shutil.html",
    section="shutil",
)
SHORT = passage(
    2,
    "Delete the files of a directory tree with glob patterns.",
    source="library/glob.html",
    section="glob",
)
QUESTION = "How do I delete an entire directory tree?"
RMTREE = "shutil.rmtree() removes an entire directory tree"


def test_without_clauses_the_long_sentence_loses_to_a_shorter_weaker_one() -> None:
    a, emb = answerer(max_sentences=1)
    assert "glob patterns" in a.answer(QUESTION, [LONG, SHORT]).text
    assert emb.batches[0] == 2  # by default no clause is embedded


def test_a_sentence_scored_by_its_best_clause_wins() -> None:
    a, emb = answerer(max_sentences=1, clause_share=1.0)
    r = a.answer(QUESTION, [LONG, SHORT])
    assert RMTREE in r.text and "pool size" in r.text  # the whole sentence, by default
    assert emb.batches[0] > 2  # its clauses were embedded with the sentences


def test_as_a_prior_the_clause_picks_the_sentence_without_raising_the_evidence() -> None:
    prior, _ = answerer(max_sentences=1, clause_share=1.0, clause_prior=True)
    as_evidence, _ = answerer(max_sentences=1, clause_share=1.0)
    r = prior.answer(QUESTION, [LONG, SHORT])
    assert RMTREE in r.text
    assert r.best_score < as_evidence.answer(QUESTION, [LONG, SHORT]).best_score


def test_the_answer_may_show_the_clause_alone_with_its_citation() -> None:
    a, _ = answerer(max_sentences=1, clause_share=1.0, clause_answer=True)
    r = a.answer(QUESTION, [LONG, SHORT])
    assert r.text == f"{RMTREE} [1]."
    assert {ref.n for ref in parse_references(r.text)} == {1}
    (citation,) = build_citations(r.text, [LONG, SHORT])
    assert citation.quote == LONG.context  # the citation quotes the whole sentence


def test_a_clause_shown_alone_drops_its_joining_word_and_closes_with_a_full_stop() -> None:
    assert as_span("and unused days may be carried over to next year;") == (
        "Unused days may be carried over to next year."
    )
    assert as_span("which leaves time for lunch afterwards.") is None
    assert as_span("but not twice") is None  # too short to stand alone
    assert as_span("os.remove() deletes a single file,") == "os.remove() deletes a single file."
