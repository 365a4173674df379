"""Outcome calibrations by embedder name: written by benchmarks/outcome_calibration.py fit
(a logistic regression over `OutcomeFeatures`, tuning halves of every check set)."""

CALIBRATIONS: dict[str, dict[str, object]] = {
    "all-MiniLM-L6-v2": {
        "bias": -3.5406,
        "threshold": 0.38,
        "weights": {
            "best_cosine": 1.0135,
            "best_evidence": 1.0131,
            "best_in_first": -0.0439,
            "coverage_first": 1.4877,
            "coverage_top": 1.3669,
            "first_cosine": 0.9004,
            "type_match": -0.1589,
        },
    }
}
