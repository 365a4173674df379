"""A test kit for backends: contract suites to subclass (store, memory, auth, embedder,
job queue) and shared stand-ins."""
