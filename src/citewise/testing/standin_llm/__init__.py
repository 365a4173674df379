"""A stand-in for a capable model: an OpenAI-compatible server that answers citewise's
prompts from a check set's gold (its reference answers and gold quotes), so the LLM answer
path can be measured and tested without a model.

    python -m citewise.testing.standin_llm --set benchmarks/check_sets/licences.jsonl \
        --mode faithful --port 8099
    CITEWISE_LLM=openai:standin CITEWISE_LLM_BASE_URL=http://127.0.0.1:8099/v1 citewise ask …

Modes: faithful, invented-value, invented-name, wrong-citation, abstain (see `answers`).
"""

from citewise.testing.standin_llm.answers import DECLINE, MODES, Composed, Mode, compose
from citewise.testing.standin_llm.gold import Asked, Knowledge, Passage
from citewise.testing.standin_llm.model import Behaviour, StandinModel
from citewise.testing.standin_llm.prompts import Request, task_of
from citewise.testing.standin_llm.server import Faults, StandinServer, tokens

__all__ = [
    "DECLINE", "MODES", "Asked", "Behaviour", "Composed", "Faults", "Knowledge", "Mode",
    "Passage", "Request", "StandinModel", "StandinServer", "compose", "task_of", "tokens",
]  # fmt: skip
