"""The extractive answerer: the no-LLM generator. The question is analysed once
(`analysis`), candidate sentences are scored by what they say and by whether their form fits
what the question asks for (`scoring`), and the answer is composed from the best of them
(`compose`). Genre rules live in rule packs (`rules`), selected by a profile."""
