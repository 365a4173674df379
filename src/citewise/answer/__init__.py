"""The answer stage: from ranked hits to a cited, checked answer (pure, testable units).

context.py (budgeted, numbered passages) · extractive.py (the no-LLM answerer) ·
citations.py (parse, match, quote, renumber) · grounding.py (per-sentence support) ·
confidence.py · prompts.py (every LLM prompt) · summary.py (extractive summaries) ·
question.py, sentences.py, lexical.py (the text helpers they share).
"""
