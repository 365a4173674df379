"""The question analysed once (`analyse` → `Analysis`), and the pure predicates over a
question's surface that every later stage shares (`terms`, `asks`, `subject`)."""

from citewise.question.analysis import Analysis, analyse

__all__ = ["Analysis", "analyse"]
