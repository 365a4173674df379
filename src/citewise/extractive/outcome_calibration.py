"""Outcome calibrations by embedder name: written by benchmarks/outcome_calibration.py fit
(a logistic regression over `OutcomeFeatures`, tuning halves of every check set)."""

CALIBRATIONS: dict[str, dict[str, object]] = {
    "all-MiniLM-L6-v2": {
        "answer": {
            "bias": -3.7663,
            "threshold": 0.38,
            "weights": {
                "best_cosine": 0.5363,
                "best_evidence": 1.1262,
                "best_in_first": 0.4767,
                "coverage_first": 1.6487,
                "coverage_top": 1.6916,
                "first_cosine": 0.0367,
                "type_match": -0.1337,
            },
        },
        "bias": -3.6567,
        "threshold": 0.38,
        "weights": {
            "best_cosine": 1.3971,
            "best_evidence": 1.1428,
            "best_in_first": 0.3449,
            "coverage_first": 1.3962,
            "coverage_top": 1.2208,
            "first_cosine": 0.7849,
            "type_match": 0.012,
        },
    }
}
