"""The scripted in-process LLM for unit tests, from the shipped test kit."""

from citewise.testing.fakes import Call, FakeLLM

__all__ = ["Call", "FakeLLM"]
