from __future__ import annotations

from citewise.extractive.ask_coverage import ask_terms


def test_the_ask_leaves_out_names_hyphenated_ones_too() -> None:
    terms = ask_terms("What annual sales volume did Blaw-Knox set for Western Traction?")
    assert list(terms.values()) == ["annual", "sales", "volume", "set"]
