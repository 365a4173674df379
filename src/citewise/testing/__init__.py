"""Test kit shipped with citewise: stand-ins for the services it talks to."""
