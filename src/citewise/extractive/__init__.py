"""The extractive answerer: the no-LLM generator (`answerer.ExtractiveAnswerer`).

The question comes analysed (`citewise.question`); candidate sentences are gathered
(`candidates`) and scored by what they say and by whether their form fits what the question
asks for (`scoring`, `sentence_fit`); terse sentences may be read in their context (`terse`);
a question asked in parts gets a sentence per part (`parts`); the answer is composed from the
best of them with their lead-ins and markers (`compose`, `units`). `options` holds the
tunable weights, `summary` the no-LLM document summary. Genre rules live in rule packs
(`rules`), selected by a profile.
"""
