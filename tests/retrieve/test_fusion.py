from citewise.retrieve.fusion import reciprocal_rank_fusion
from citewise.retrieve.query import query_terms
from citewise.store.terms import fts5_match
from citewise.types import Candidate


def _ranked(*ids: int) -> list[Candidate]:
    return [Candidate(chunk_id=i, rank=r, score=0.0) for r, i in enumerate(ids, start=1)]


def test_rrf_rewards_agreement_between_retrievers() -> None:
    fused = reciprocal_rank_fusion({"keyword": _ranked(1, 2, 3), "vector": _ranked(3, 4, 1)})
    assert [f.chunk_id for f in fused][:2] == [1, 3]
    assert fused[0].ranks == {"keyword": 1, "vector": 3}


def test_rrf_score_is_sum_of_reciprocal_ranks() -> None:
    fused = reciprocal_rank_fusion({"a": _ranked(7), "b": _ranked(8, 7)}, k=60)
    by_id = {f.chunk_id: f.score for f in fused}
    assert by_id[7] == 1 / 61 + 1 / 62
    assert by_id[8] == 1 / 61


def test_rrf_weights_shift_the_order() -> None:
    rankings = {"keyword": _ranked(1), "vector": _ranked(2)}
    assert reciprocal_rank_fusion(rankings, weights={"vector": 2.0})[0].chunk_id == 2
    assert reciprocal_rank_fusion(rankings, weights={"keyword": 2.0})[0].chunk_id == 1


def test_rrf_of_nothing_is_empty() -> None:
    assert reciprocal_rank_fusion({"keyword": [], "vector": []}) == []


def test_query_terms_drop_stopwords_and_keep_identifiers_parts() -> None:
    assert query_terms("How do I rotate the log files?") == ["rotate", "log", "files"]
    assert query_terms("what is functools.lru_cache maxsize") == [
        "functools",
        "lru",
        "cache",
        "maxsize",
    ]


def test_fts5_match_quotes_terms_so_fts_syntax_cannot_leak() -> None:
    assert fts5_match(query_terms('NEAR("a" OR bb) AND cc*')) == '"near" OR "bb" OR "cc"'
    assert fts5_match(query_terms("rotate logs")) == '"rotate" OR "logs"'
    assert fts5_match(query_terms("the of and")) == ""
    assert fts5_match(['say "hi"', "Café"]) == '"say" OR "hi" OR "cafe"'


def test_diversify_lets_other_documents_in_before_a_documents_fourth_passage() -> None:
    from citewise.retrieve.ordering import diversify
    from citewise.types import Hit

    def hit(chunk: int, doc: int) -> Hit:
        return Hit(chunk, chunk, doc, f"{doc}.md", "", None, None, "", 1.0 / chunk, "t", chunk)

    hits = [hit(1, 1), hit(2, 1), hit(3, 1), hit(4, 1), hit(5, 2), hit(6, 1), hit(7, 3)]
    out = diversify(hits, 3)
    assert [h.chunk_id for h in out] == [1, 2, 3, 5, 7, 4, 6]
    assert [h.rank for h in out] == list(range(1, 8))
    assert diversify(hits, 0) == hits


def test_the_entry_for_what_the_query_names_is_not_held_back_by_its_page() -> None:
    from citewise.retrieve.ordering import diversify, entry_for
    from citewise.types import Hit

    def hit(chunk: int, doc: int, heading: str) -> Hit:
        section = f"subprocess > Popen Objects > {heading}"
        return Hit(chunk, chunk, doc, f"{doc}.html", "", None, None, section, 1 / chunk, "t", 1)

    hits = [
        hit(1, 1, "Popen.kill()"),
        hit(2, 1, "Popen.returncode"),
        hit(3, 1, "Popen.send_signal(signal)"),
        hit(4, 1, "Popen.terminate()"),
        hit(5, 1, "Popen.terminate()"),  # a second chunk of the entry waits like the others
        hit(6, 2, "os.kill(pid, sig)"),
    ]
    named = entry_for("Which signal does Popen.terminate() send?")
    assert [h.chunk_id for h in diversify(hits, 3, named)] == [1, 2, 3, 4, 6, 5]
    assert [h.chunk_id for h in diversify(hits, 3)] == [1, 2, 3, 6, 4, 5]
    assert entry_for("What does subprocess.Popen.terminate do?")(hits[3])
    assert not entry_for("What does subprocess.Popen.terminate do?")(hits[0])
    bare = hit(8, 4, "terminate()")  # asyncio's Process.terminate(): another entry
    assert not entry_for("What does Popen.terminate() do?")(bare)
    assert not entry_for("How do I stop a child process?")(hits[3])
    option = hit(7, 3, "-m <module-name>")
    assert entry_for("What does -m do?")(option) and not entry_for("What does -M do?")(option)


def test_release_notes_move_down_unless_the_query_is_about_changes() -> None:
    from citewise.question.asks import asks_about_history
    from citewise.retrieve.ordering import demote
    from citewise.text.release_notes import is_release_notes
    from citewise.types import Hit

    def hit(chunk: int, title: str, score: float) -> Hit:
        return Hit(chunk, chunk, chunk, f"{chunk}.html", title, None, None, title, score, "t", 1)

    hits = [hit(1, "What’s New In Python 3.8", 1.0), hit(2, "Built-in Types", 0.8)]
    assert [h.chunk_id for h in demote(hits, is_release_notes, 0.7)] == [2, 1]
    assert not asks_about_history("Do dictionaries keep insertion order?")
    assert asks_about_history("What changed in dictionaries in 3.7?")
