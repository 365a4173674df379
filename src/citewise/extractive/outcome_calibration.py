"""Outcome calibrations by embedder name: written by benchmarks/outcome_calibration.py fit
(a logistic regression over `OutcomeFeatures`, tuning halves of every check set)."""

CALIBRATIONS: dict[str, dict[str, object]] = {
    "all-MiniLM-L6-v2": {
        "answer": {
            "bias": -3.6206,
            "threshold": 0.42,
            "weights": {
                "best_cosine": 0.4354,
                "best_evidence": 1.1026,
                "best_in_first": 0.3423,
                "coverage_first": 1.5915,
                "coverage_top": 1.6861,
                "first_cosine": 0.2576,
                "type_match": -0.0709,
            },
        },
        "bias": -3.5673,
        "threshold": 0.4,
        "weights": {
            "best_cosine": 1.1082,
            "best_evidence": 1.1066,
            "best_in_first": -0.0127,
            "coverage_first": 1.3803,
            "coverage_top": 1.3124,
            "first_cosine": 0.9608,
            "type_match": -0.2048,
        },
    }
}
