"""The three outcomes' figures over scored answers (pure): how many answers, labelled closest
passages and `none`s a group got, the false `none`s (answerable questions whose first passage
holds the fact, answered `none`), how unanswerable questions were handled (`none` or a
labelled passage; a stated value in an `answer` is the failure), and how often the citations'
quotes hold the fact of an answer that states it."""

from __future__ import annotations

from collections.abc import Sequence

from citewise.evaluation.answers import AnswerResult

ANSWERABLE = ("lookup", "multi", "compare")
NOT_ANSWERING = ("none", "passage")  # a labelled passage says it does not state the answer


def outcome_figures(rows: Sequence[AnswerResult]) -> dict[str, float | None]:
    """answers / passages / none: counts by kind; fact@1: questions with must_contain strings
    whose first passage holds them; false_none: those of them answered `none` (answerable
    kinds only); handled: share of unanswerable questions answered `none` or with a labelled
    passage; stated: unanswerable ones answered (kind `answer`) with a concrete value;
    quote_ok: share of answers holding must_contain whose citation quotes hold it too."""
    fact_first = [r for r in rows if r.type in ANSWERABLE and r.first_passage]
    unanswerable = [r for r in rows if r.type == "unanswerable"]
    right = [r for r in rows if r.kind == "answer" and r.must_contain and r.quotes_hold is not None]
    return {
        "answers": float(sum(r.kind == "answer" for r in rows)),
        "passages": float(sum(r.kind == "passage" for r in rows)),
        "none": float(sum(r.kind == "none" for r in rows)),
        "fact@1": float(len(fact_first)) if fact_first else None,
        "false_none": float(sum(r.kind == "none" for r in fact_first)) if fact_first else None,
        "handled": _share([r.kind in NOT_ANSWERING for r in unanswerable]),
        "stated": (
            float(sum(r.kind == "answer" and r.states_value for r in unanswerable))
            if unanswerable
            else None
        ),
        "quote_ok": _share([bool(r.quotes_hold) for r in right]),
    }


def _share(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None
