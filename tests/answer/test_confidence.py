from __future__ import annotations

from citewise.answer.confidence import confidence


def test_abstaining_has_no_confidence() -> None:
    assert confidence([], [], grounded=False) == "none"
    assert confidence([0.9], [], grounded=True) == "none"


def test_clear_support_from_two_strong_passages_is_high() -> None:
    assert confidence([0.9, 0.8], [0.6, 0.55], grounded=True) == "high"


def test_one_very_strong_passage_is_enough_for_high() -> None:
    assert confidence([1.0], [0.75], grounded=True) == "high"


def test_weakly_supported_sentence_caps_at_medium() -> None:
    assert confidence([0.9, 0.5], [0.8, 0.7], grounded=True) == "medium"


def test_weak_passages_are_low() -> None:
    assert confidence([0.9], [0.2], grounded=True) == "low"


def test_ungrounded_answer_is_low_however_relevant() -> None:
    assert confidence([0.9, 0.9], [0.9, 0.9], grounded=False) == "low"
