"""Conversation: intents, query routing and rewriting, memory, summaries, tools, the assistant."""
