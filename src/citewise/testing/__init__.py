"""A test kit for backends: contract suites to subclass, and shared stand-ins."""
