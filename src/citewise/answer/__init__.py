"""The answer stage, generic over how the text is generated: from a request to a cited,
checked answer.

flow.py (the orchestrator: retrieve → rerank → gate → assemble → generate → verify → cite) ·
request.py (`AnswerRequest`: the question, its analysis and vector) · policy.py (what each
question kind gets) · context.py (budgeted, numbered passages) · generate.py (the LLM answer
with its retry and fallback) · prompts.py (every LLM prompt) · grounding.py (the whole
answer's check) · support.py (one sentence's verdict) · repair.py (re-citing, cutting a
clause nothing shown holds) · citations.py (parse, match, quote, renumber) · confidence.py ·
settle.py (the `Answer` of a checked text) · document_summary.py (a document's summary) ·
lexical.py (word and value overlap). The no-LLM answerer is `citewise.extractive`.
"""
