"""The facade (`Assistant`) and its method groups; `services.build` wires what is behind it."""

from citewise.assistant.documents import Health
from citewise.assistant.facade import Assistant, final_answer

__all__ = ["Assistant", "Health", "final_answer"]
