import json
from pathlib import Path

import pytest

from citewise.errors import InputError
from citewise.evaluation.dataset import Gold, load_items
from citewise.evaluation.metrics import (
    RetrievedPassage,
    all_files_rank,
    contains_quote,
    files_covered,
    first_rank,
    reciprocal_rank,
)
from citewise.evaluation.runner import ItemResult, aggregate, evaluate_item

QUOTE = "If no encoding declaration is found, the default encoding is UTF-8."


def test_quote_containment_ignores_whitespace_and_case() -> None:
    text = "Intro.  If no encoding\n declaration is found, the DEFAULT encoding is UTF-8. More."
    assert contains_quote(text, QUOTE)


def test_quote_split_across_chunks_counts_when_most_is_present() -> None:
    assert contains_quote("... If no encoding declaration is found, the default", QUOTE)
    assert not contains_quote("the default encoding is UTF-8.", QUOTE)
    assert not contains_quote("anything", "")


def test_first_rank_by_file_and_by_quote() -> None:
    gold = [Gold("ref/lex.html", QUOTE)]
    passages = [
        RetrievedPassage("other.html", QUOTE),
        RetrievedPassage("ref/lex.html", "unrelated"),
        RetrievedPassage("ref/lex.html", QUOTE),
    ]
    assert first_rank(passages, gold, quote=False) == 2
    assert first_rank(passages, gold, quote=True) == 3
    assert first_rank(passages[:1], gold, quote=False) == 0
    assert reciprocal_rank(2) == 0.5 and reciprocal_rank(0) == 0.0


def test_multi_needs_every_gold_file() -> None:
    gold = [Gold("a.html", "x"), Gold("b.html", "y")]
    passages = [RetrievedPassage(s, "") for s in ("a.html", "c.html", "b.html")]
    assert all_files_rank(passages, gold) == 3
    assert files_covered(passages, gold, 2) == 0.5
    assert all_files_rank(passages[:2], gold) == 0


def test_aggregate_groups_by_type_and_style_with_overall() -> None:
    rows = [
        ItemResult("1", "lookup", "paraphrase", 1, 1, 1.0, 5.0),
        ItemResult("2", "lookup", "identifier", 7, 0, 1.0, 7.0),
        ItemResult("3", "conversation", "", 0, 0, 0.0, 9.0),
    ]
    by_group = {a.group: a for a in aggregate(rows)}
    assert by_group["all"].n == 2
    assert by_group["all"].file_hit[5] == 0.5
    assert by_group["all"].file_hit[10] == 1.0
    assert by_group["lookup:identifier"].quote_hit[10] == 0.0
    assert by_group["conversation"].n == 1


def test_load_items_reads_turns_and_reports_bad_lines(tmp_path: Path) -> None:
    good = {
        "id": "dv-1",
        "type": "conversation",
        "question": "and its default?",
        "gold": [{"file": "f.html", "quote": "q"}],
        "turns": [{"q": "What is lru_cache?", "gold": []}, {"q": "and its default?"}],
    }
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(good) + "\n")
    (item,) = load_items(path)
    assert item.retrieval_query() == "What is lru_cache? and its default?"
    passages = [RetrievedPassage("f.html", "q")]
    assert evaluate_item(item, passages, 1.0).quote_rank == 1
    path.write_text('{"id": 1}\n')
    with pytest.raises(InputError, match=r"set\.jsonl:1"):
        load_items(path)


def test_items_fall_in_a_stable_half_unless_their_split_says_otherwise(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    rows = [{"id": f"q{i}", "type": "lookup", "question": "?", "gold": []} for i in range(40)]
    rows[0]["split"] = "tune"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    items = load_items(path)
    halves = [item.half for item in items]
    assert halves == [item.half for item in load_items(path)]
    assert items[0].half == "tune"
    assert {"tune", "test"} == set(halves[1:])
