"""Users, API keys, groups, collection grants and rate limits."""
