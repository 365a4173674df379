"""Outcome calibrations by embedder name: written by benchmarks/outcome_calibration.py fit
(a logistic regression over `OutcomeFeatures`, tuning halves of every check set)."""

CALIBRATIONS: dict[str, dict[str, object]] = {
    "all-MiniLM-L6-v2": {
        "answer": {
            "bias": -4.4606,
            "threshold": 0.32,
            "weights": {
                "ask_in_best": 1.7276,
                "best_cosine": 0.6202,
                "best_evidence": 1.0014,
                "best_in_first": 0.5347,
                "coverage_first": 0.9689,
                "coverage_top": 0.8319,
                "first_cosine": 0.4324,
                "framing_best": 0.0,
                "type_match": 0.2492,
            },
        },
        "bias": -3.8845,
        "threshold": 0.24,
        "weights": {
            "ask_in_best": 0.7797,
            "best_cosine": 1.5168,
            "best_evidence": 1.0712,
            "best_in_first": 0.3792,
            "coverage_first": 1.3184,
            "coverage_top": 0.8315,
            "first_cosine": 0.5922,
            "framing_best": 0.0,
            "type_match": 0.2818,
        },
    }
}
